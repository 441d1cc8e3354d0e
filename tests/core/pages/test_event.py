"""An event's page values on both stores: the standings with Swiss tie-breaks, each round's
games linked to their game page (over) or live page (being played), the bye, a hidden player
anonymous, names cleaned, the event found by its public id only, and the migration's public id
for events stored before it; the home page's list of events made where play is public."""

from __future__ import annotations

import dataclasses

from core.pages import HIDDEN, Pages
from core.pages.event import FINISHED_LISTED, EventEntry, event_page
from core.pages.names import ANONYMOUS
from core.pages.paths import event_path, game_path, live_path, player_path
from core.store import SettingRow, events, kv, settings
from core.store.events import Advance
from core.store.models.events import EventStatus
from tests.backends import Backend
from tests.core.pages.events import swiss_event
from tests.core.store.helpers import NOW


async def test_the_page_shows_standings_rounds_and_links(backend: Backend) -> None:
    async with backend.open() as store:
        stored = await swiss_event(store)
        page = await event_page(store, stored.event.public_id)
        assert page is not None
        assert page.title == "Tic-tac-toe: swiss tournament"
        assert page.status == "Running: round 2 of 3" and page.state == "running"
        assert page.clock == "1 min per move" and page.span == "3 rounds"
        assert (
            page.tiebreaks == (("BH", "Buchholz"), ("SB", "Sonneborn-Berger")) and not page.listed
        )
        table = [(s.rank, s.name, s.points, s.tiebreak, s.second) for s in page.standings]
        # ann and cat tie on points and tie-breaks (a bye has no opponent): the id decides.
        assert table == [
            (1, "Ann", "1", "0", "0"),
            (2, "Cat", "1", "0", "0"),
            (3, '<script>alert("x")</script>Eve', "0", "1", "0"),
        ]
        assert page.standings[0].path == player_path("test:ann")
        first, second = page.rounds
        assert [(g.x, g.o, g.result, g.path) for g in first.games] == [
            ("Ann", '<script>alert("x")</script>Eve', "1-0", game_path(stored.finished))
        ]
        assert first.byes == ("Cat",)
        assert [(g.result, g.path) for g in second.games] == [("playing", live_path(stored.live))]


async def test_a_hidden_player_is_anonymous_everywhere(backend: Backend) -> None:
    async with backend.open() as store:
        stored = await swiss_event(store)
        await store.run(kv.kv_set(HIDDEN, "test:cat", "1"))
        page = await event_page(store, stored.event.public_id)
        assert page is not None
        assert page.standings[1].name == ANONYMOUS and page.standings[1].path is None
        assert page.rounds[0].byes == (ANONYMOUS,)
        assert page.rounds[1].games[0].x == ANONYMOUS


async def test_an_event_is_found_by_its_public_id_only(backend: Backend) -> None:
    async with backend.open() as store:
        stored = await swiss_event(store, server_id="s1")
        assert len(stored.event.public_id) == 32 and stored.event.public_id != stored.event.id
        assert await event_page(store, stored.event.id) is None
        assert await event_page(store, "0" * 32) is None
        page = await event_page(store, stored.event.public_id)
        assert page is not None and not page.listed  # its chat did not make play public
        public = SettingRow("test", "chat:c1", "public_ladder", "on", 0.0, "admin")
        await store.run(settings.setting_put(public))
        page = await event_page(store, stored.event.public_id)
        assert page is not None and page.listed
        again = await store.run(events.get_event("ev1"))
        assert again is not None and again.public_id == stored.event.public_id


async def test_the_home_page_lists_only_events_made_where_play_is_public(
    backend: Backend,
) -> None:
    async with backend.open() as store:
        stored = await swiss_event(store)
        private = dataclasses.replace(stored.event, id="ev2", chat_id="c2", public_id="e" * 32)
        await store.run(events.create_event(private))
        pages = Pages(store, clock=lambda: NOW)
        assert (await pages.home()).events == ()
        public = SettingRow("test", "chat:c1", "public_ladder", "on", 0.0, "admin")
        await store.run(settings.setting_put(public))
        listed = (await pages.home()).events
        assert listed == (
            EventEntry(
                "Tic-tac-toe: swiss tournament",
                "Running: round 2 of 3",
                event_path(stored.event.public_id),
            ),
        )
        # a finished event stays listed for a day after its start
        ended = dataclasses.replace(stored.event, status=EventStatus.FINISHED)
        await store.run(
            events.advance("ev1", stored.event.version, Advance(EventStatus.FINISHED, 2, True), NOW)
        )
        assert [e.status for e in (await pages.home()).events] == ["Finished"]
        later = Pages(store, clock=lambda: ended.starts_at + FINISHED_LISTED + 1)
        assert (await later.home()).events == ()

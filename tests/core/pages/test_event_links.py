"""``/tournament`` and the final standings link the event's page where ``PUBLIC_URL`` is set
and the chat's ``web_links`` is on; on both stores, through the service as adapters call it."""

from __future__ import annotations

import pytest

from core.ports import PlatformStyle
from core.store import events
from tests.backends import AnyStore
from tests.core.pages.test_weblinks import ADMIN, AT, BOB, linked, urls
from tests.core.test_sessions import Clock, store
from tests.core.test_sessions_seek import Chats
from tests.core.test_sessions_tournament import X_WINS, play

__all__ = ["store"]  # the fixture, on both stores


async def test_tournament_links_the_events_page(store: AnyStore) -> None:
    svc = linked(store, Clock())
    await svc.handle_text(ADMIN, "/tournament swiss tictactoe 2 60s +10m casual")
    [made] = await store.run(events.chat_events("discord", "c1"))
    shown = await svc.handle_text(ADMIN, "/tournament")
    assert [r.text.key for r in shown if r.text] == ["event.table"]
    assert urls(shown) == [AT.event(made.public_id)]
    assert AT.event(made.public_id).endswith(f"/event/{made.public_id}")
    assert len(made.public_id) == 32 and made.public_id != made.id  # never the short id
    await svc.handle_text(ADMIN, "/settings web_links off")
    assert urls(await svc.handle_text(ADMIN, "/tournament")) == []


async def test_no_link_without_public_url(store: AnyStore) -> None:
    svc = linked(store, Clock(), public_url=None)
    await svc.handle_text(ADMIN, "/tournament swiss tictactoe 2 60s +10m casual")
    assert urls(await svc.handle_text(ADMIN, "/tournament")) == []


@pytest.mark.parametrize("web_links", ["on", "off"])
async def test_the_final_standings_link_the_events_page(store: AnyStore, web_links: str) -> None:
    clock = Clock()
    svc = linked(store, clock)
    chats = Chats()
    svc.register_platform(PlatformStyle("discord", publish=chats.publish))
    await svc.handle_text(ADMIN, f"/settings web_links {web_links}")
    await svc.handle_text(ADMIN, "/tournament swiss tictactoe 1 60s +10m casual")
    [made] = await store.run(events.chat_events("discord", "c1"))
    for who in (ADMIN, BOB):
        await svc.handle_text(who, f"/tournament join {made.id}")
    clock.advance(601)
    assert await svc.director.step(made.id)
    [game] = await store.run(events.games(made.id))
    await play(svc, {a.user_id: a for a in (ADMIN, BOB)}, game, X_WINS)
    assert not await svc.director.step(made.id)
    await svc.open_games_idle()
    [final] = [r for r in chats.shown["discord", "c1"] if r.text and r.text.key == "event.final"]
    assert urls([final]) == ([AT.event(made.public_id)] if web_links == "on" else [])

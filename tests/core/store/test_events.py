"""Tournaments in the store, on both stores: an event made and read back; joins (a double join,
a join after a Swiss start refused, an arena's late join and a player coming back); a step
applied once of two directors; a pairing's game written once; a result reaching the event in
the game's own finishing transaction, an arena's score by the streak rules; leaving before the
start and mid-game; a game gone without a result; joins racing the start."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest

from core.games import TICTACTOE
from core.store import AlreadyPlaying, Seat, Session, events, outbox, sessions
from core.store.events import Advance, Joined, Left
from core.store.models import Kind, OutboxItem
from core.store.models.events import Event, EventGame, EventPlayer, EventStatus, Format
from core.store.port import Store
from tests.backends import Backend
from tests.core.store.helpers import NOW, make_session, played


def make_event(fmt: Format = Format.ARENA, **changes: object) -> Event:
    event = Event(
        id="ev1",
        format=fmt,
        rules=TICTACTOE,
        length=3600.0 if fmt is Format.ARENA else 3,
        clock=60.0,
        rated=False,
        open=True,
        starts_at=NOW + 600,
        platform="test",
        chat_id="c1",
        server_id=None,
        created_by="admin",
        name="Evening arena",
        created_at=NOW,
    )
    return dataclasses.replace(event, **changes)  # type: ignore[arg-type]


def entrant(name: str, event_id: str = "ev1", chat: str = "c1") -> EventPlayer:
    return EventPlayer(event_id, f"test:{name}", "test", name, chat, None, name.title(), 1500.0)


def game_for(pairing: EventGame, chat: str = "c1") -> Session:
    """The session of a pairing between two accounts of platform ``test``."""
    x, o = pairing.x.split(":")[1], pairing.o.split(":")[1]
    session = make_session(alice=x, bob=o, chat=chat)
    return dataclasses.replace(
        session, id=pairing.session_id, seats=(Seat.person(x, x.title()), Seat.person(o, o.title()))
    )


async def started(
    store: Store, fmt: Format = Format.ARENA, names: tuple[str, ...] = ("ann", "bob")
) -> Event:
    run = store.run
    await run(events.create_event(make_event(fmt)))
    for name in names:
        assert await run(events.join(entrant(name))) is Joined.JOINED
    event = await run(events.get_event("ev1"))
    assert event is not None
    step = Advance(EventStatus.RUNNING, 1, True)
    assert await run(events.advance(event.id, event.version, step, NOW)) == ()
    after = await run(events.get_event("ev1"))
    assert after is not None
    return after


async def test_an_event_is_stored_and_read_back(backend: Backend) -> None:
    async with backend.open() as store:
        event = make_event(Format.SWISS)
        await store.run(events.create_event(event))
        assert await store.run(events.get_event("ev1")) == event
        assert await store.run(events.live_events()) == [event]
        assert await store.run(events.chat_events("test", "c1")) == [event]
        assert await store.run(events.chat_events("test", "c2")) == []


async def test_joins_double_joins_and_a_swiss_start(backend: Backend) -> None:
    async with backend.open() as store:
        await store.run(events.create_event(make_event(Format.SWISS)))
        assert await store.run(events.join(entrant("ann"))) is Joined.JOINED
        assert await store.run(events.join(entrant("ann", chat="c9"))) is Joined.ALREADY
        assert await store.run(events.join(entrant("bob"))) is Joined.JOINED
        assert [p.player for p in await store.run(events.players("ev1"))] == [
            "test:ann",
            "test:bob",
        ]
        event = await store.run(events.get_event("ev1"))
        assert event is not None and event.version == 4  # each join (a double one too) bumped it
        running = Advance(EventStatus.RUNNING, 1, True)
        assert await store.run(events.advance("ev1", event.version, running, NOW)) == ()
        # The same step again, from a reading before it: refused.
        assert await store.run(events.advance("ev1", event.version, running, NOW)) is None
        assert await store.run(events.join(entrant("cid"))) is Joined.CLOSED
        assert await store.run(events.player_events("test", "ann")) != []


async def test_an_arena_takes_late_joins_and_players_back(backend: Backend) -> None:
    async with backend.open() as store:
        await started(store)
        assert await store.run(events.join(entrant("cid"))) is Joined.JOINED
        late = {p.player: p for p in await store.run(events.players("ev1"))}["test:cid"]
        assert late.joined == 2
        assert await store.run(events.leave("ev1", "test:cid", NOW)) == events.Leaving(
            Left.WITHDRAWN
        )
        assert await store.run(events.join(entrant("cid"))) is Joined.BACK
        assert await store.run(events.leave("ev1", "test:zed", NOW)) == events.Leaving(Left.NOT_IN)


async def test_leaving_before_the_start_takes_the_player_off(backend: Backend) -> None:
    async with backend.open() as store:
        await store.run(events.create_event(make_event()))
        await store.run(events.join(entrant("ann")))
        assert (await store.run(events.leave("ev1", "test:ann", NOW))).left is Left.LEFT
        assert await store.run(events.players("ev1")) == []


async def test_a_result_reaches_the_event_with_the_game(backend: Backend) -> None:
    async with backend.open() as store:
        event = await started(store, names=("ann", "bob"))
        pairing = EventGame("ev1", 1, "g1", "test:ann", "test:bob")
        notice = OutboxItem(Kind.EVENT, "test", "c1", "g1", 1, detail={"event": "ev1"})
        step = Advance(EventStatus.RUNNING, 2, True, games=[pairing])
        assert await store.run(events.advance("ev1", event.version, step, NOW)) == ()
        session = game_for((await store.run(events.games("ev1")))[0])
        left = await store.run(events.start_game(session, [notice], NOW))
        assert left is not None and len(left) == 1 and left[0].id is not None
        # Started once: a second pass finds it written.
        assert await store.run(events.start_game(session, [notice], NOW)) is None
        assert await store.run(sessions.get("g1")) is not None
        won = played(session, 0, 3, 1, 4, 2)  # ann completes the top row
        assert await store.run(sessions.update(won, expected_version=1))
        (game,) = await store.run(events.games("ev1"))
        assert (game.x_score, game.o_score, game.plies) == (1.0, 0.0, 5)
        scores = {p.player: p.score for p in await store.run(events.players("ev1"))}
        assert scores == {"test:ann": 2.0, "test:bob": 0.0}  # an arena win is 2
        assert await store.run(events.game_of("g1")) == game
        # The same end written again (a retry) counts once.
        assert not await store.run(sessions.update(won, expected_version=1))
        assert {p.player: p.score for p in await store.run(events.players("ev1"))} == scores


async def test_an_arena_score_follows_the_streak(backend: Backend) -> None:
    async with backend.open() as store:
        event = await started(store, names=("ann", "bob"))
        version = event.version
        for n in range(3):
            pairing = EventGame("ev1", 1, f"g{n}", "test:ann", "test:bob")
            step = Advance(EventStatus.RUNNING, 1, True, games=[pairing])
            assert await store.run(events.advance("ev1", version, step, NOW)) == ()
            version += 1
            session = dataclasses.replace(game_for(pairing), updated_at=NOW + n)
            assert await store.run(events.start_game(session, [], NOW)) == ()
            assert await store.run(
                sessions.update(played(session, 0, 3, 1, 4, 2), expected_version=1)
            )
        scores = {p.player: p.score for p in await store.run(events.players("ev1"))}
        assert scores == {"test:ann": 2 + 2 + 4, "test:bob": 0.0}


async def test_a_berserk_win_scores_one_more_and_the_game_keeps_its_seats(
    backend: Backend,
) -> None:
    """The berserk seats reach the pairing with the result, in the finishing transaction; an
    event allowing berserk reads back so."""
    async with backend.open() as store:
        allowing = make_event(id="ev2", berserk=True)
        await store.run(events.create_event(allowing))
        assert (await store.run(events.get_event("ev2"))) == allowing
        event = await started(store, names=("ann", "bob"))
        pairing = EventGame("ev1", 1, "g1", "test:ann", "test:bob")
        step = Advance(EventStatus.RUNNING, 1, True, games=[pairing])
        assert await store.run(events.advance("ev1", event.version, step, NOW)) == ()
        session = dataclasses.replace(game_for(pairing), berserk=3)  # both went berserk
        assert await store.run(events.start_game(session, [], NOW)) == ()
        assert (await store.run(sessions.get("g1"))) == session
        assert await store.run(sessions.update(played(session, 0, 3, 1, 4, 2), expected_version=1))
        (game,) = await store.run(events.games("ev1"))
        assert game.berserk == 3
        scores = {p.player: p.score for p in await store.run(events.players("ev1"))}
        assert scores == {"test:ann": 3.0, "test:bob": 0.0}  # a win 2, berserk +1; a loss 0


async def test_a_pairing_whose_player_plays_elsewhere_waits(backend: Backend) -> None:
    async with backend.open() as store:
        event = await started(store)
        await store.run(sessions.create(make_session(alice="ann", bob="zoe")))
        pairing = EventGame("ev1", 1, "g1", "test:ann", "test:bob")
        step = Advance(EventStatus.RUNNING, 1, True, games=[pairing])
        await store.run(events.advance("ev1", event.version, step, NOW))
        with pytest.raises(AlreadyPlaying):
            await store.run(events.start_game(game_for(pairing), [], NOW))
        assert not (await store.run(events.games("ev1")))[0].started


async def test_leaving_mid_game_names_the_game_and_forfeits_a_pairing_not_started(
    backend: Backend,
) -> None:
    async with backend.open() as store:
        event = await started(store, Format.SWISS, ("ann", "bob", "cid", "dan"))
        pairings = [
            EventGame("ev1", 1, "g1", "test:ann", "test:bob"),
            EventGame("ev1", 1, "g2", "test:cid", "test:dan"),
        ]
        step = Advance(EventStatus.RUNNING, 1, True, games=pairings)
        await store.run(events.advance("ev1", event.version, step, NOW))
        await store.run(events.start_game(game_for(pairings[0]), [], NOW))
        assert await store.run(events.leave("ev1", "test:ann", NOW)) == events.Leaving(
            Left.WITHDRAWN, "g1"
        )
        assert await store.run(events.leave("ev1", "test:dan", NOW)) == events.Leaving(
            Left.WITHDRAWN
        )
        by_id = {g.session_id: g for g in await store.run(events.games("ev1"))}
        assert (by_id["g2"].x_score, by_id["g2"].o_score) == (1.0, 0.0)
        scores = {p.player: (p.score, p.withdrawn) for p in await store.run(events.players("ev1"))}
        assert scores["test:cid"] == (1.0, False) and scores["test:dan"] == (0.0, True)


async def test_a_game_gone_without_a_result_scores_nothing(backend: Backend) -> None:
    async with backend.open() as store:
        event = await started(store)
        pairing = EventGame("ev1", 1, "g1", "test:ann", "test:bob")
        await store.run(
            events.advance(
                "ev1", event.version, Advance(EventStatus.RUNNING, 1, True, games=[pairing]), NOW
            )
        )
        await store.run(events.start_game(game_for(pairing), [], NOW))
        assert await store.run(events.forfeit_gone("ev1", NOW)) == 0
        assert await store.run(sessions.delete("g1", expected_version=1))
        assert await store.run(events.forfeit_gone("ev1", NOW)) == 1
        (game,) = await store.run(events.games("ev1"))
        assert (game.x_score, game.o_score) == (0.0, 0.0)


async def test_joins_at_the_start_instant_are_in_or_refused(backend: Backend) -> None:
    """A burst of joins from two stores while a director starts the event: every join that
    was answered JOINED is among the players the start saw."""
    async with backend.open() as one, backend.open() as two:
        await one.run(events.create_event(make_event(Format.SWISS)))
        for name in ("p0", "p1"):
            await one.run(events.join(entrant(name)))

        async def start() -> set[str]:
            while True:
                event = await two.run(events.get_event("ev1"))
                assert event is not None
                field = {p.player for p in await two.run(events.players("ev1"))}
                step = Advance(EventStatus.RUNNING, 1, True)
                if await two.run(events.advance("ev1", event.version, step, NOW)) is not None:
                    return field

        joins = [(one if n % 2 else two).run(events.join(entrant(f"j{n}"))) for n in range(20)]
        *answers, field = await asyncio.gather(*joins, start())
        joined = {f"test:j{n}" for n, answer in enumerate(answers) if answer is Joined.JOINED}
        assert isinstance(field, set)
        refused = {f"test:j{n}" for n, answer in enumerate(answers) if answer is Joined.CLOSED}
        assert joined | refused == {f"test:j{n}" for n in range(20)}
        assert joined <= field
        assert {p.player for p in await one.run(events.players("ev1"))} == field


async def test_the_event_notice_is_an_outbox_kind(backend: Backend) -> None:
    async with backend.open() as store:
        await store.run(events.create_event(make_event()))
        notice = OutboxItem(Kind.EVENT, "test", "c1", None, 0, detail={"event": "ev1"})
        event = await store.run(events.get_event("ev1"))
        assert event is not None
        left = await store.run(
            events.advance(
                "ev1", event.version, Advance(EventStatus.CANCELLED, 0, True, notices=[notice]), NOW
            )
        )
        assert left is not None and len(left) == 1
        (due,) = await store.run(outbox.outbox_due("test", NOW))
        assert due.kind is Kind.EVENT and due.detail == {"event": "ev1"}
        assert await store.run(events.live_events()) == []

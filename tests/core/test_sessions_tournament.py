"""Tournaments through the service, on both stores, with a fake clock: a Swiss event of four
players from two chats of two platforms played to its end (pairings shown in each player's
own chat, results, standings in every chat that took part); an arena of 100 players (no
player in two games at once, nobody paired with himself or a block, every score by the streak
rules); an event with fewer than two players cancelled; two directors stepping one event at
once; a director killed between a pairing and its games; and the answers to bad input."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

import pytest

from core.commands import Tournament, TournamentAction, format_command, parse
from core.games import TICTACTOE
from core.replies import Actor, Reply
from core.sessions import GameService, ServiceSettings
from core.sessions.play.model import Event, berserked, new_session, played, transition
from core.store import Seat, Session, Status, events, leases, seeks, sessions
from core.store.models.events import EventGame, EventStatus
from core.tournaments.arena import ArenaGame, Outcome, sheet
from tests.backends import AnyStore, Backend
from tests.core.test_sessions import NOW, Clock, error_key, keys, service, store
from tests.core.test_sessions_seek import open_service

__all__ = ["store"]  # the fixture

ADMIN = Actor("disc", "chan-1", "ann", "Ann", direct=True, is_admin=True)
BEN = Actor("disc", "chan-1", "ben", "Ben", direct=True)
CID = Actor("mx", "!room:hs", "cid", "Cid", direct=True)
DOT = Actor("mx", "!room:hs", "dot", "Dot", direct=True)
EVE = Actor("mx", "!other:hs", "eve", "Eve", direct=True)

X_WINS = (1, 4, 2, 5, 3)
O_WINS = (1, 4, 2, 5, 9, 6)
DRAW = (1, 5, 9, 3, 7, 4, 6, 8, 2)


def event_id(replies: Sequence[Reply]) -> str:
    [reply] = replies
    assert reply.text is not None and reply.text.key == "event.created", replies
    join = str(reply.text.params["join"])
    return join.rsplit(" ", 1)[1]


async def play(
    svc: GameService, players: dict[str, Actor], game: EventGame, moves: Sequence[int]
) -> None:
    """Play ``moves`` (1-based cells) in the pairing's game, each by its player from his chat."""
    session = await svc.store.run(sessions.get(game.session_id))
    assert session is not None
    seats = [players[seat.user_id or ""] for seat in session.seats]
    for n, cell in enumerate(moves):
        replies = await svc.handle_text(seats[n % 2], str(cell))
        assert error_key(replies) is None, replies


def accounts(*actors: Actor) -> dict[str, Actor]:
    return {a.user_id: a for a in actors}


@dataclass(frozen=True, slots=True)
class OneGame:
    """An event's one game: its pairing, its session as it stands, and its two players."""

    pairing: EventGame
    session: Session
    x: Actor
    o: Actor


async def one_game(svc: GameService, ident: str, *players: Actor) -> OneGame:
    """The one game of event ``ident``, its players found among ``players``."""
    [pairing] = await svc.store.run(events.games(ident))
    session = await svc.store.run(sessions.get(pairing.session_id))
    assert session is not None
    everyone = accounts(*players)
    x, o = (everyone[seat.user_id or ""] for seat in session.seats)
    return OneGame(pairing, session, x, o)


async def test_a_swiss_event_of_two_chats_is_played_to_its_end(store: AnyStore) -> None:
    clock = Clock()
    svc, chats = open_service(store, clock)
    made = await svc.handle_text(ADMIN, "/tournament swiss tictactoe 2 60s +10m casual")
    ident = event_id(made)
    for who in (ADMIN, BEN, CID, DOT):
        assert keys(await svc.handle_text(who, f"/tournament join {ident}")) == ["event.joined"]
    assert error_key(await svc.handle_text(BEN, "/tournament join")) == "event.twice"
    assert keys(await svc.handle_text(ADMIN, "/tournament")) == ["event.table"]
    clock.advance(601)
    assert await svc.director.step(ident)
    await svc.open_games_idle()
    assert (
        error_key(await svc.handle_text(EVE, f"/tournament join {ident}")) == "event.no_late_join"
    )
    everyone = accounts(ADMIN, BEN, CID, DOT)
    for number in (1, 2):
        games = [g for g in await store.run(events.games(ident)) if g.round == number]
        assert len(games) == 2 and all(g.started for g in games)
        assert {p for g in games for p in (g.x, g.o)} == {
            f"{a.platform}:{a.user_id}" for a in everyone.values()
        }
        # Each player was shown his game in his own chat, under the pairing line.
        for game in games:
            session = await store.run(sessions.get(game.session_id))
            assert session is not None
            for seat in (1, 2):
                shown = chats.shown[session.chat_of(seat)]
                assert any(r.text is not None and r.text.key == "event.game" for r in shown)
                assert any(
                    r.board is not None and r.board.session_id == game.session_id for r in shown
                )
        for game in games:
            await play(svc, everyone, game, X_WINS)
        assert await svc.director.step(ident) is (number == 1)
        await svc.open_games_idle()
    event = await store.run(events.get_event(ident))
    assert event is not None and event.status is EventStatus.FINISHED and event.round == 2
    scores = sorted(p.score for p in await store.run(events.players(ident)))
    assert sum(scores) == 4 and scores[-1] == 2  # four games, one player won both
    for chat in (("disc", "chan-1"), ("mx", "!room:hs")):
        assert any(r.text is not None and r.text.key == "event.final" for r in chats.shown[chat])
    [table] = await svc.handle_text(CID, f"/tournament {ident}")
    assert table.text is not None and table.text.key == "event.table"
    said = table.text.render("en").split("\n")
    assert said[0].startswith(f"Tournament {ident}: Swiss, tic-tac-toe, 2 rounds, 1 minute")
    assert said[1] == "Over. Final standings:"
    assert said[2].startswith("1. ") and said[2].split(":")[1].strip().startswith("2 (")
    assert {line.split(". ")[1].split(":")[0] for line in said[2:]} == {"Ann", "Ben", "Cid", "Dot"}


async def test_an_event_with_fewer_than_two_players_is_cancelled(store: AnyStore) -> None:
    clock = Clock()
    svc, chats = open_service(store, clock)
    ident = event_id(await svc.handle_text(ADMIN, "/tournament arena connect4 30m"))
    await svc.handle_text(CID, f"/tournament join {ident}")
    clock.advance(300)  # the reminder, in every chat that takes part
    assert await svc.director.step(ident)
    clock.advance(301)
    assert not await svc.director.step(ident)
    await svc.open_games_idle()
    for chat in (("disc", "chan-1"), ("mx", "!room:hs")):
        said = [r.text.key for r in chats.shown[chat] if r.text is not None]
        assert said == ["event.reminder", "event.cancelled"]
    event = await store.run(events.get_event(ident))
    assert event is not None and event.status is EventStatus.CANCELLED


async def test_bad_input_gets_a_clear_answer(store: AnyStore) -> None:
    svc, _ = open_service(store, Clock())
    assert error_key(await svc.handle_text(BEN, "/tournament arena")) == "event.admins_only"
    assert error_key(await svc.handle_text(ADMIN, "/tournament arena 5m")) == "parse.event_duration"
    assert error_key(await svc.handle_text(ADMIN, "/tournament swiss 40")) == "parse.event_rounds"
    assert error_key(await svc.handle_text(ADMIN, "/tournament swiss 3 1s")) == "parse.clock_range"
    assert error_key(await svc.handle_text(ADMIN, "/tournament swiss +9d")) == "parse.event_start"
    assert error_key(await svc.handle_text(ADMIN, "/tournament")) == "event.none"
    assert error_key(await svc.handle_text(ADMIN, "/tournament join nope")) == "event.unknown"
    ident = event_id(await svc.handle_text(ADMIN, "/tournament swiss"))
    assert error_key(await svc.handle_text(ADMIN, "/tournament arena")) == "event.one_here"
    assert error_key(await svc.handle_text(BEN, "/tournament leave")) == "event.not_in"
    await svc.handle_text(BEN, "/tournament join")
    assert keys(await svc.handle_text(BEN, f"/tournament leave {ident}")) == ["event.left"]


async def test_leaving_mid_game_resigns_it(store: AnyStore) -> None:
    clock = Clock()
    svc, _ = open_service(store, clock)
    ident = event_id(await svc.handle_text(ADMIN, "/tournament swiss tictactoe 3"))
    for who in (ADMIN, CID):
        await svc.handle_text(who, "/tournament join " + ident)
    clock.advance(601)
    await svc.director.step(ident)
    game = await one_game(svc, ident, ADMIN, CID)
    replies = await svc.handle_text(CID, "/tournament leave")
    assert keys(replies) == ["event.left", "game.resigned"]
    session = await store.run(sessions.get(game.session.id))
    assert session is not None and session.winner is not None
    scores = {p.player: p.score for p in await store.run(events.players(ident))}
    assert scores == {"disc:ann": 1.0, "mx:cid": 0.0}
    # Round 2 has one player: his bye, then round 3's, then the end.
    steps = 0
    while await svc.director.step(ident):
        steps += 1
        assert steps < 5
    scores = {p.player: p.score for p in await store.run(events.players(ident))}
    assert scores == {"disc:ann": 3.0, "mx:cid": 0.0}


async def test_two_directors_stepping_at_once_pair_once(backend: Backend) -> None:
    async with backend.open() as one, backend.open() as two:
        clock = Clock()
        first, second = service(one, clock), service(two, clock, seed=8)
        ident = event_id(await first.handle_text(ADMIN, "/tournament arena tictactoe 30m"))
        people = [Actor("test", f"c{n % 3}", f"p{n}", f"P{n}", direct=True) for n in range(12)]
        for who in people:
            await first.handle_text(who, f"/tournament join {ident}")
        clock.advance(601)
        for _ in range(4):
            await asyncio.gather(first.director.step(ident), second.director.step(ident))
        games = await one.run(events.games(ident))
        live = [p for g in games if not g.done for p in (g.x, g.o)]
        assert len(live) == len(set(live)) == 12
        assert all(g.started for g in games)


class DiesAfterPairing:
    """A store whose process dies right after a pairing's commit: its games are never
    written by it."""

    def __init__(self, store: AnyStore) -> None:
        self._store = store

    def __getattr__(self, name: str) -> object:
        return getattr(self._store, name)

    async def run(self, op: object) -> object:
        if getattr(op, "__name__", "") == "start_game":
            op.close()  # type: ignore[attr-defined]
            raise asyncio.CancelledError  # killed
        return await self._store.run(op)  # type: ignore[arg-type]


async def test_a_director_killed_between_pairing_and_games_loses_nothing(
    store: AnyStore,
) -> None:
    clock = Clock()
    svc, _ = open_service(store, clock)
    ident = event_id(await svc.handle_text(ADMIN, "/tournament swiss tictactoe 3"))
    for who in (ADMIN, BEN, CID, DOT):
        await svc.handle_text(who, f"/tournament join {ident}")
    clock.advance(601)
    dying = service(DiesAfterPairing(store), clock)  # type: ignore[arg-type]
    with pytest.raises(asyncio.CancelledError):
        await dying.director.step(ident)
    paired = await store.run(events.games(ident))
    assert len(paired) == 2 and not any(g.started for g in paired)
    # The next director (another process, or this one restarted) writes the games, once, and
    # shows them in their chats.
    after, chats = open_service(store, clock)
    assert await after.director.step(ident)
    assert await after.director.step(ident)
    await after.open_games_idle()
    games = await store.run(events.games(ident))
    assert [g.session_id for g in games] == [g.session_id for g in paired]
    assert all(g.started for g in games)
    for game in games:
        session = await store.run(sessions.get(game.session_id))
        assert session is not None
        for seat in (1, 2):
            shown = chats.shown[session.chat_of(seat)]
            boards = [r for r in shown if r.board and r.board.session_id == game.session_id]
            assert len(boards) == 1 and boards[0].new_message


async def test_one_process_directs_an_event_under_its_lease(backend: Backend) -> None:
    async with backend.open() as one, backend.open() as two:
        settings = ServiceSettings(ai_workers=0, lease_ttl=0.6)
        first = GameService(one, settings=settings, clock=lambda: NOW + 3600)
        second = GameService(two, settings=settings, clock=lambda: NOW + 3600)
        maker = service(one, Clock())
        ident = event_id(await maker.handle_text(ADMIN, "/tournament arena tictactoe 2h"))
        people = [Actor("test", f"c{n % 3}", f"p{n}", f"P{n}", direct=True) for n in range(12)]
        for who in people:
            await maker.handle_text(who, f"/tournament join {ident}")
        await first.start()
        await second.start()
        try:
            games: list[EventGame] = []
            deadline = time.monotonic() + 20
            while len(games) < 6:
                assert time.monotonic() < deadline, "no wave in time"
                await asyncio.sleep(0.05)
                games = await one.run(events.games(ident))
            holder = await one.run(leases.lease_holder(f"event:{ident}"))
            assert holder is not None
            live = [p for g in games if not g.done for p in (g.x, g.o)]
            assert len(games) == 6 and len(live) == len(set(live)) == 12
        finally:
            await first.close()
            await second.close()
        assert await one.run(leases.lease_holder(f"event:{ident}")) is None  # released


async def test_an_arena_of_100_players(store: AnyStore) -> None:
    """Driven through the service with a fake clock, each game played move by move."""
    clock = Clock()
    svc, _ = open_service(store, clock)
    rng = random.Random(34)
    ident = event_id(await svc.handle_text(ADMIN, "/tournament arena tictactoe 10m 60s +1m"))
    people = [Actor("disc", f"chan-{n % 7}", f"u{n}", f"U{n}", direct=True) for n in range(100)]
    everyone = accounts(*people)
    ids = [f"disc:{p.user_id}" for p in people]
    blocks = {(ids[n], ids[n + 1]) for n in range(0, 100, 10)}
    for a, b in blocks:
        assert await store.run(seeks.block(a, b, clock()))
    for who in people:
        assert keys(await svc.handle_text(who, f"/tournament join {ident}")) == ["event.joined"]
    clock.advance(61)
    waves = 0
    while await svc.director.step(ident):
        games = await store.run(events.games(ident))
        live = [g for g in games if not g.done]
        playing = [p for g in live for p in (g.x, g.o)]
        assert len(playing) == len(set(playing)), "a player in two games at once"
        for g in games:
            assert g.x != g.o and (g.x, g.o) not in blocks and (g.o, g.x) not in blocks
        # Half the games end each minute, each with a drawn result.
        for game in live[: max(1, len(live) // 2)]:
            await play(svc, everyone, game, rng.choice((X_WINS, O_WINS, DRAW)))
        clock.advance(60)
        waves += 1
        assert waves < 100
    games = await store.run(events.games(ident))
    assert len(games) > 150 and all(g.done for g in games)
    for player in await store.run(events.players(ident)):
        mine = sorted(
            (g for g in games if player.player in (g.x, g.o)),
            key=lambda g: (g.finished_at or 0.0, g.seq),
        )
        results = []
        for g in mine:
            points = g.x_score if g.x == player.player else g.o_score
            outcome = (
                Outcome.WIN if points == 1 else Outcome.DRAW if points == 0.5 else Outcome.LOSS
            )
            results.append(ArenaGame(outcome, g.plies))
        assert player.score == sheet(results).total, player
    event = await store.run(events.get_event(ident))
    assert event is not None and event.status is EventStatus.FINISHED


async def test_a_game_quit_before_a_move_is_unplayed_and_may_be_paired_again(
    store: AnyStore,
) -> None:
    """/final before any move deletes a game: its pairing ends with nothing for either side,
    which keeps neither the standings' tie-breaks nor the two players apart."""
    clock = Clock()
    svc, _ = open_service(store, clock)
    ident = event_id(await svc.handle_text(ADMIN, "/tournament swiss tictactoe 2"))
    for who in (ADMIN, CID):
        await svc.handle_text(who, f"/tournament join {ident}")
    clock.advance(601)
    assert await svc.director.step(ident)
    [first] = await store.run(events.games(ident))
    assert keys(await svc.handle_text(CID, "/final")) == ["game.ended"]
    assert await svc.director.step(ident)
    games = await store.run(events.games(ident))
    assert [(g.round, g.x_score, g.o_score) for g in games[:1]] == [(1, 0.0, 0.0)]
    [again] = games[1:]
    assert again.round == 2 and {again.x, again.o} == {first.x, first.o}
    assert {p.score for p in await store.run(events.players(ident))} == {0.0}


async def _berserk_arena(store: AnyStore, clock: Clock, how: str) -> tuple[GameService, str]:
    """An arena of Ann (Discord) and Cid (Matrix) made with ``how``, started: one game."""
    svc, _ = open_service(store, clock)
    ident = event_id(await svc.handle_text(ADMIN, f"/tournament arena tictactoe 30m 60s {how}"))
    for who in (ADMIN, CID):
        assert keys(await svc.handle_text(who, f"/tournament join {ident}")) == ["event.joined"]
    clock.advance(601)
    assert await svc.director.step(ident)  # the start
    assert await svc.director.step(ident)  # the first wave
    return svc, ident


async def test_a_berserk_player_has_half_the_clock_and_a_win_scores_one_more(
    store: AnyStore,
) -> None:
    clock = Clock()
    svc, ident = await _berserk_arena(store, clock, "berserk")
    first = await one_game(svc, ident, ADMIN, CID)
    game, x, o = first.pairing, first.x, first.o
    session: Session | None = first.session
    assert session is not None
    assert session.deadline is not None and session.clock == 60
    started = session.updated_at
    clock.advance(5)
    replies = await svc.handle_text(x, "/tournament berserk")
    assert keys(replies) == ["event.berserk"] and replies[0].board is not None
    session = await store.run(sessions.get(game.session_id))
    # X's turn began at the start: his deadline comes 30 s nearer, not 30 s from now.
    assert session is not None and session.berserk == 1 and session.deadline == started + 30
    assert error_key(await svc.handle_text(x, "/tournament berserk")) == "event.berserk_twice"
    assert error_key(await svc.handle_text(BEN, "/tournament berserk")) == "event.berserk_no_game"
    await svc.handle_text(x, "1")
    session = await store.run(sessions.get(game.session_id))
    assert session is not None and session.deadline == clock() + 60  # O is not berserk
    await svc.handle_text(o, "4")
    assert error_key(await svc.handle_text(o, "/tournament berserk")) == "event.berserk_late"
    session = await store.run(sessions.get(game.session_id))
    assert session is not None and session.deadline == clock() + 30  # X's moves: half
    for who, cell in ((x, 2), (o, 5), (x, 3)):
        assert error_key(await svc.handle_text(who, str(cell))) is None
    [done] = await store.run(events.games(ident))
    assert done.berserk == 1 and done.x_score == 1
    scores = {p.player: p.score for p in await store.run(events.players(ident))}
    assert scores[game.x] == 3 and scores[game.o] == 0  # a win 2, berserk +1
    [table] = await svc.handle_text(ADMIN, f"/tournament {ident}")
    assert table.text is not None and table.text.key == "event.table"
    assert table.text.params["event"].params["mode"].key == "event.mode_berserk"  # type: ignore[union-attr]


async def test_berserk_where_the_event_does_not_allow_it_is_refused(store: AnyStore) -> None:
    clock = Clock()
    svc, ident = await _berserk_arena(store, clock, "")
    game = await one_game(svc, ident, ADMIN, CID)
    for who in (ADMIN, CID):
        assert error_key(await svc.handle_text(who, "/tournament berserk")) == "event.berserk_off"
    session = await store.run(sessions.get(game.session.id))
    assert session is not None and session.berserk == 0
    assert (
        error_key(await svc.handle_text(ADMIN, "/tournament swiss tictactoe berserk"))
        == "parse.bad_option"
    )


def test_berserk_halves_the_running_turn_or_the_next_ones() -> None:
    """Pure: the seat to move who goes berserk loses half his clock from the turn he is in; the
    other seat's berserk leaves the running turn alone and halves his own next ones."""
    x, o = Seat.person("ann", "Ann"), Seat.person("cid", "Cid")
    offered = new_session(
        platform="t", chat_id="c", seats=(x, o), rules=TICTACTOE, status=Status.CHALLENGE,
        now=NOW, ttl=3600, challenger="ann", challenged="cid", clock=120.0,
    )  # fmt: skip
    game = transition(offered, Event.ACCEPT, now=NOW, ttl=3600)
    moved = played(game, game.position().play(0), now=NOW + 10, ttl=3600)
    assert moved.deadline == NOW + 130
    # X goes berserk while O thinks: O's turn is untouched.
    calm = berserked(moved, 1, now=NOW + 20, ttl=3600)
    assert (calm.deadline, calm.remind_at, calm.berserk) == (NOW + 130, NOW + 130 - 24, 1)
    # O goes berserk in his turn, 20 s in: 60 s from the turn's start, not from now.
    hurried = berserked(calm, 2, now=NOW + 30, ttl=3600)
    assert (hurried.deadline, hurried.remind_at, hurried.berserk) == (NOW + 70, NOW + 58, 3)
    assert hurried.version == moved.version + 2
    back = played(hurried, hurried.position().play(4), now=NOW + 40, ttl=3600)
    assert back.deadline == NOW + 100 and back.clock_of(1) == back.clock_of(2) == 60


@pytest.mark.parametrize(
    ("text", "berserk"),
    [("/tournament arena connect4 1h berserk", True), ("/tournament arena connect4 1h", False)],
)
def test_the_berserk_option_is_read_and_written_back(text: str, berserk: bool) -> None:
    command = parse(text)
    assert isinstance(command, Tournament) and command.berserk is berserk
    assert parse(format_command(command)) == command
    assert parse("/tournament berserk") == Tournament(TournamentAction.BERSERK)

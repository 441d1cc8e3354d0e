"""The move clock of games between people, on both stores with an injected clock (no sleeping):
the start option and its bad values, the chat's bounds, a clock running out (the sweep, a late
move, a restart), the result in stats, the reminder once, a move racing the timeout, and the
expiry that never takes a timed game away first."""

from __future__ import annotations

import asyncio
import multiprocessing
import multiprocessing.synchronize
import random
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.admin.durations import parse_duration, show_duration
from core.commands import (
    CommandError,
    GameKind,
    Start,
    format_command,
    parse,
    start_from_options,
)
from core.games import Outcome, Termination
from core.i18n import LOCALES, render
from core.ports import PlatformStyle
from core.replies import ActionKind, Actor, Reply
from core.sessions import GameService, ServiceSettings
from core.store import Session, SqliteStore, Status, sessions, stats
from tests.backends import AnyStore, Backend
from tests.core.test_sessions import ALICE, BOB, NOW, Clock, actor, error_key, keys, session_of

ADMIN = Actor("test", "room", "root", "Root", is_admin=True)


@pytest.fixture
async def store(backend: Backend) -> AsyncIterator[AnyStore]:
    async with backend.open() as opened:
        yield opened


class Shown:
    """The platform's ``publish``: what was shown later, and where."""

    def __init__(self) -> None:
        self.replies: list[tuple[str, Reply]] = []

    async def __call__(self, where: Actor, replies: Sequence[Reply]) -> None:
        self.replies += [(where.chat_id, reply) for reply in replies]


def make(
    store: AnyStore, clock: Clock, shown: Shown | None = None, **defaults: object
) -> GameService:
    svc = GameService(
        store,
        settings=ServiceSettings(ai_workers=0, ai_budget=0.05, chat_defaults=defaults),
        clock=clock,
        rng=random.Random(5),
    )
    svc.register_platform(PlatformStyle("test", publish=shown))
    return svc


async def game(svc: GameService, start: str = "/tres @bob first", who: Actor = ALICE) -> str:
    """``who`` challenges Bob (or whoever ``start`` names), who accepts; the session id."""
    challenge = await svc.handle_text(who, start)
    assert keys(challenge) == ["game.challenge"], challenge
    challenged = actor(start.split("@")[1].split()[0], who.chat_id)
    return session_of(await svc.handle_text(challenged, "/accept"))


async def get(store: AnyStore, session_id: str) -> Session:
    session = await store.run(sessions.get(session_id))
    assert session is not None
    return session


# --- the start option ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "seconds"),
    [("/tres @bob 2m", 120), ("/quatre @bob 60s", 60), ("/tres @bob 1d", 86400)],
)
def test_a_game_starts_with_its_own_clock(text: str, seconds: float) -> None:
    command = parse(text)
    assert isinstance(command, Start) and command.clock == seconds
    assert parse("/ratlla 7x7 5 @bob 15min").clock == 900  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("text", "key", "shown"),
    [
        ("/tres @bob 0s", "parse.clock_range", "0s"),
        ("/tres @bob 99y", "parse.bad_clock", "99y"),
        ("/tres @bob 5 minutes please", "parse.bad_clock", "5"),
        ("/quatre @bob 8d", "parse.clock_range", "8d"),
        ("/tres @bob 1m 2m", "parse.twice.clock", "2m"),
    ],
)
def test_a_bad_clock_is_answered_with_the_bounds(text: str, key: str, shown: str) -> None:
    with pytest.raises(CommandError) as caught:
        parse(text)
    assert caught.value.key == key
    for locale in LOCALES:
        said = render(key, locale, **caught.value.params)
        assert f"'{shown}'" in said
        if key != "parse.twice.clock":
            assert "10s" in said and "7d" in said, said


@pytest.mark.parametrize("text", ["/tres @bob 2m", "/quatre @bob 90s", "/ratlla 9x9 5 @bob 1d"])
def test_a_clock_is_written_back_as_typed(text: str) -> None:
    command = parse(text)
    assert parse(format_command(command)) == command
    assert format_command(command).endswith(text.rsplit(" ", 1)[1])


@given(st.integers(1, 9_999_999))  # seven digits: far beyond every bound
def test_a_duration_reads_back_as_it_is_shown(seconds: int) -> None:
    shown = show_duration(seconds)
    assert parse_duration(shown) == seconds
    assert len(shown) <= 9 and shown[-1] in "smhd"


@pytest.mark.parametrize("text", ["5", "5 m", "1.5h", "m5", "5mins", "\u0665m", "", "99999999s"])
def test_other_shapes_are_not_durations(text: str) -> None:
    assert parse_duration(text) is None


def test_a_slash_commands_clock_is_read_as_a_clock() -> None:
    start = start_from_options(GameKind.QUATRE, clock=" 90s ")
    assert start.clock == 90
    with pytest.raises(CommandError) as caught:
        start_from_options(GameKind.TRES, clock="hard")
    assert caught.value.key == "parse.bad_clock"


async def test_a_clock_outside_the_chats_bounds_is_refused_naming_them(
    store: AnyStore,
) -> None:
    svc = make(store, Clock())
    await svc.handle_text(ADMIN, "/settings max_clock 1h")
    replies = await svc.handle_text(ALICE, "/tres @bob 2h")
    assert error_key(replies) == "limits.clock_range"
    for locale in LOCALES:
        said = render("limits.clock_range", locale, **dict(replies[0].text.params))  # type: ignore[union-attr]
        assert "2h" in said and "10s" in said and "1h" in said, said
    assert await store.run(stats.count_sessions()) == 0  # nothing was started
    assert error_key(await svc.handle_text(ALICE, "/tres @bob 1h")) is None


async def test_the_chats_clock_is_the_default_held_to_its_cap(store: AnyStore) -> None:
    clock = Clock()
    svc = make(store, clock)
    tres = await get(store, await game(svc))
    assert tres.clock == 300 and tres.deadline == NOW + 300
    connect4 = await get(store, await game(svc, "/quatre @dan", actor("carol")))
    assert connect4.clock == 300
    free = await get(store, await game(svc, "/ratlla 9x9 5 @frank", actor("erin")))
    assert free.clock == 900
    await svc.handle_text(ADMIN, "/settings clock 2h")
    await svc.handle_text(ADMIN, "/settings max_clock 30m")
    capped = await get(store, await game(svc, "/tres @hal", actor("gus")))
    assert capped.clock == 1800
    await svc.handle_text(ADMIN, "/settings clock off")
    untimed = await get(store, await game(svc, "/tres @joe", actor("ivy")))
    assert untimed.clock is None and untimed.deadline is None


async def test_the_challenge_names_the_clock(store: AnyStore) -> None:
    svc = make(store, Clock())
    (challenge,) = await svc.handle_text(ALICE, "/tres @bob 1d")
    assert challenge.text is not None
    assert "challenges @bob to tic-tac-toe (1 day a move)." in challenge.text.render("en")
    assert "(1 день на ход)" in challenge.text.render("ru")


async def test_games_against_the_bot_have_no_clock(store: AnyStore) -> None:
    svc = make(store, Clock())
    against = await get(store, session_of(await svc.handle_text(ALICE, "/tres easy")))
    assert against.clock is None and against.deadline is None
    assert error_key(await svc.handle_text(BOB, "/tres easy 2m")) == "limits.clock_people_only"


# --- time runs out --------------------------------------------------------------------------


async def test_the_sweep_ends_a_game_whose_clock_ran_out(store: AnyStore) -> None:
    clock, shown = Clock(), Shown()
    svc = make(store, clock, shown)
    session_id = await game(svc, "/tres @bob 1m first")
    await svc.handle_move(ALICE, session_id, 4)  # Bob's clock starts now
    clock.advance(59)
    assert await svc.sweep_clocks() == 0
    clock.advance(1)
    assert await svc.sweep_clocks() == 1
    assert await svc.sweep_clocks() == 0  # once
    ended = await get(store, session_id)
    assert ended.status is Status.FINISHED and ended.deadline is None
    assert ended.outcome == Outcome(Termination.TIMEOUT, 1)  # Bob was to move: Alice wins
    await svc.clocks_idle()
    (where, reply), *rest = [item for item in shown.replies if item[1].board is not None]
    assert not rest and where == "room"
    assert reply.board is not None and reply.board.finished and not reply.board.playable
    assert reply.board.status.key == "game.timeout"
    assert reply.board.status.params == {"player": "Bob", "winner": "Alice"}
    assert ActionKind.REMATCH in reply.actions
    (result,) = [reply for _, reply in shown.replies if reply.board is None and not reply.mention]
    assert result.new_message and result.text == reply.board.status
    # In the stats of both, and the loser's board says so at the next click.
    stats_alice = await store.run(stats.player_stats("test", "alice"))
    stats_bob = await store.run(stats.player_stats("test", "bob"))
    assert stats_alice is not None and (stats_alice.wins, stats_alice.losses) == (1, 0)
    assert stats_bob is not None and (stats_bob.wins, stats_bob.losses) == (0, 1)
    assert error_key(await svc.handle_move(BOB, session_id, 0)) == "error.game_over"
    (review,) = await svc.handle_text(BOB, "/review")
    assert review.text is not None
    assert review.text.render("en").endswith("\nBob ran out of time. Alice wins.")
    # The rematch keeps the clock.
    rematch = await svc.handle_action(BOB, session_id, ActionKind.REMATCH)
    assert (await get(store, session_of(rematch))).clock == 60


async def test_a_move_after_the_deadline_ends_the_game_on_time(store: AnyStore) -> None:
    clock = Clock()
    svc = make(store, clock)
    session_id = await game(svc, "/tres @bob 30s first")
    clock.advance(31)
    replies = await svc.handle_move(ALICE, session_id, 4)  # too late: nothing swept yet
    (reply,) = replies
    assert reply.board is not None and reply.board.status.key == "game.timeout"
    ended = await get(store, session_id)
    assert ended.moves == () and ended.outcome == Outcome(Termination.TIMEOUT, 2)
    assert await svc.sweep_clocks() == 0


async def test_expiry_never_takes_a_correspondence_game_before_its_clock(store: AnyStore) -> None:
    clock = Clock()
    svc = make(store, clock, game_ttl=3600)
    session_id = await game(svc, "/tres @bob 1d first")
    await svc.handle_move(ALICE, session_id, 0)
    clock.advance(86_399)
    assert await svc.sweep() == 0
    assert error_key(await svc.handle_move(BOB, session_id, 4)) is None  # Bob moves in time
    clock.advance(86_400)
    assert await svc.sweep() == 0
    assert await svc.sweep_clocks() == 1
    assert (await get(store, session_id)).outcome == Outcome(Termination.TIMEOUT, 2)


async def test_a_restart_after_the_deadline_ends_the_game_at_start_up(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    clock = Clock()
    async with SqliteStore.open(path) as store:
        session_id = await game(make(store, clock), "/quatre @bob 2m first")
    # The bot was down for two days: longer than the game's lifetime too. The clocks are
    # swept first, so the game ends on time rather than disappearing.
    clock.advance(2 * 86400)
    async with SqliteStore.open(path) as store:
        svc = GameService(
            store, settings=ServiceSettings(ai_workers=0, ai_warm_up=False), clock=clock
        )
        await svc.start()
        try:
            for _ in range(1000):  # waits on the condition, not on a time
                if (await get(store, session_id)).status is Status.FINISHED:
                    break
                await asyncio.sleep(0.01)
        finally:
            await svc.close()
        assert (await get(store, session_id)).outcome == Outcome(Termination.TIMEOUT, 2)


# --- the reminder ------------------------------------------------------------------------------


async def test_one_reminder_per_move_when_a_fifth_is_left(store: AnyStore) -> None:
    clock, shown = Clock(), Shown()
    svc = make(store, clock, shown)
    session_id = await game(svc, "/tres @bob 5m first")
    clock.advance(239)
    await svc.sweep_clocks()
    clock.advance(1)  # 60 s of 300 left
    await svc.sweep_clocks()
    await svc.sweep_clocks()
    await svc.clocks_idle()
    (reminder,) = [reply for _, reply in shown.replies]
    assert reminder.mention == "alice" and not reminder.private
    assert reminder.text is not None and reminder.text.key == "game.clock_reminder"
    assert reminder.text.render("en") == "Alice, it is your move. Time left: 60 seconds."
    # Alice moves: Bob's clock gets its own reminder, once.
    await svc.handle_move(ALICE, session_id, 4)
    clock.advance(250)
    await svc.sweep_clocks()
    await svc.sweep_clocks()
    await svc.clocks_idle()
    assert [reply.mention for _, reply in shown.replies] == ["alice", "bob"]


async def test_what_the_sweep_says_follows_the_servers_settings(store: AnyStore) -> None:
    clock, shown = Clock(), Shown()
    svc = make(store, clock, shown)
    ann, ben = (Actor("test", "chan", name, name.title(), server_id="guild") for name in "ab")
    admin = Actor("test", "chan", "root", "Root", server_id="guild", is_admin=True)
    await svc.handle_text(admin, "/settings language ca")  # the whole server
    await svc.handle_text(ann, "/tres @b 2m")
    await svc.handle_text(ben, "/accept")
    for seconds in (96, 24):  # the reminder, then the end
        clock.advance(seconds)
        await svc.sweep_clocks()
        # Shown before the clock jumps on (the reminder is claimed in the store first).
        await svc.clocks_idle()
    said = [(reply.locale, reply.text and reply.text.key) for _, reply in shown.replies]
    assert said == [("ca", "game.clock_reminder"), ("ca", None), ("ca", "game.timeout")]


async def test_short_clocks_remind_nobody(store: AnyStore) -> None:
    clock, shown = Clock(), Shown()
    svc = make(store, clock, shown)
    session_id = await game(svc, "/tres @bob 59s first")
    assert (await get(store, session_id)).remind_at is None
    clock.advance(58)
    await svc.sweep_clocks()
    await svc.clocks_idle()
    assert shown.replies == []


async def test_a_platform_that_cannot_publish_loses_only_the_message(store: AnyStore) -> None:
    clock = Clock()

    async def refused(where: Actor, replies: Sequence[Reply]) -> None:
        raise PermissionError("403 Missing Access")  # a Discord group DM the bot is not in

    svc = make(store, clock)
    svc.register_platform(PlatformStyle("test", publish=refused))
    session_id = await game(svc, "/tres @bob 10s first")
    clock.advance(10)
    assert await svc.sweep_clocks() == 1
    await svc.clocks_idle()
    assert (await get(store, session_id)).outcome == Outcome(Termination.TIMEOUT, 2)


# --- races ---------------------------------------------------------------------------------------

GAMES = 12


async def test_a_move_racing_the_timeout_gives_exactly_one_outcome(backend: Backend) -> None:
    """Twelve games whose clock runs out at the same instant; in each, the player to move
    presses in the last moment, seen by a process whose clock says 1 ms before the deadline,
    while another process, whose clock says 1 ms after, sweeps. Each game ends in exactly one
    of the two ways, counted once."""
    async with backend.open() as one, backend.open() as two:
        mover_clock = Clock()
        mover = make(one, mover_clock)
        players = [(actor(f"a{n}", f"r{n}"), actor(f"b{n}", f"r{n}")) for n in range(GAMES)]
        ids = [await game(mover, f"/tres @b{n} 1m first", a) for n, (a, _) in enumerate(players)]
        mover_clock.now = NOW + 60 - 0.001
        sweeper = make(two, Clock(NOW + 60 + 0.001))
        pick = random.Random(GAMES)

        async def press(player: Actor, session_id: str, turns: int) -> list[Reply]:
            # Each press comes a different number of event-loop turns into the sweep, so that
            # the sweep meets games before, during and after their move's write.
            for _ in range(turns):
                await asyncio.sleep(0)
            return await mover.handle_move(player, session_id, 4)

        _, answers = await asyncio.gather(
            sweeper.sweep_clocks(),
            asyncio.gather(
                *(
                    press(a, session_id, pick.randrange(200))
                    for (a, _), session_id in zip(players, ids, strict=True)
                )
            ),
        )
        timeouts = 0
        for session_id, replies in zip(ids, answers, strict=True):
            ended = await get(one, session_id)
            if ended.status is Status.FINISHED:
                timeouts += 1
                assert ended.outcome == Outcome(Termination.TIMEOUT, 2) and ended.moves == ()
                # The move did not count: it came after the end, or lost the compare-and-set.
                assert error_key(replies) in ("error.game_over", "error.board_changed")
            else:
                assert ended.moves == (4,) and error_key(replies) is None
                assert ended.deadline == mover_clock.now + 60  # the move counted: Bob's clock
        rows = await backend.sql("SELECT sum(wins), sum(losses) FROM stats")
        assert rows == [(timeouts, timeouts)] or (timeouts == 0 and rows == [(None, None)])


async def test_two_sweepers_end_a_timed_out_game_once(backend: Backend) -> None:
    async with backend.open() as one, backend.open() as two:
        clock = Clock()
        first = make(one, clock)
        ids = [
            await game(first, f"/tres @b{n} 10s first", actor(f"a{n}", f"r{n}"))
            for n in range(GAMES)
        ]
        clock.advance(10)
        ended = await asyncio.gather(first.sweep_clocks(), make(two, clock).sweep_clocks())
        assert sum(ended) == GAMES
        for session_id in ids:
            assert (await get(one, session_id)).outcome == Outcome(Termination.TIMEOUT, 2)
        assert await backend.sql("SELECT sum(losses) FROM stats") == [(GAMES,)]


PROCESSES = 3


def _sweep_in_a_process(
    kind: str, where: str, now: float, start: multiprocessing.synchronize.Barrier
) -> None:
    """One process: a service of its own sweeps due clocks once every process is ready."""
    from core.store.postgres import PostgresStore

    async def sweep() -> None:
        opening = SqliteStore.open(where) if kind == "sqlite" else PostgresStore.open(where)
        async with opening as store:
            svc = make(store, Clock(now))
            start.wait(60)
            await svc.sweep_clocks()

    asyncio.run(sweep())


async def test_processes_sweeping_together_end_a_timed_out_game_once(backend: Backend) -> None:
    async with backend.open() as store:
        clock = Clock()
        svc = make(store, clock)
        for n in range(GAMES):
            await game(svc, f"/tres @b{n} 10s first", actor(f"a{n}", f"r{n}"))
    context = multiprocessing.get_context("spawn")  # no thread or loop copied by fork
    start = context.Barrier(PROCESSES)
    sweepers = [
        context.Process(
            target=_sweep_in_a_process, args=(backend.kind, backend.where, NOW + 10, start)
        )
        for _ in range(PROCESSES)
    ]
    for sweeper in sweepers:
        sweeper.start()
    for sweeper in sweepers:
        sweeper.join(120)
        assert sweeper.exitcode == 0
    assert await backend.sql("SELECT count(*) FROM sessions WHERE termination = 'timeout'") == [
        (GAMES,)
    ]
    assert await backend.sql("SELECT sum(wins), sum(losses) FROM stats") == [(GAMES, GAMES)]

"""How games end and what survives races: resignation, bots' games people watch, the atomic
rematch, the bot's move that loses a race, and a busy AI. On both stores (a real SQLite file, a
real PostgreSQL server); the AI runner is replaced by a hand-written fake where a test must
hold the bot mid-thought."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import TypeVar, cast

import pytest

from core.ai import Level, choose_move
from core.ai.review import GameReview, MoveReview, review_game
from core.games import Position, Rules
from core.ports import PlatformStyle
from core.replies import ActionKind, Actor, Reply
from core.sessions import GameService, ServiceSettings
from core.store import Session, Status, sessions
from core.store import stats as store_stats
from core.store.sql import Op, name_of
from tests.backends import AnyStore, Backend
from tests.core.runners import StubRunner
from tests.core.store.helpers import ROOT, read_only

NOW = 1_700_000_000.0
ALICE = Actor("test", "room", "alice", "Alice")
BOB = Actor("test", "room", "bob", "Bob")

T = TypeVar("T")


def clock() -> float:
    return NOW


class HeldRunner(StubRunner):
    """An AI runner that answers EASY-like moves, but only once :attr:`release` is set, and can
    claim to be saturated."""

    def __init__(self) -> None:
        self.release = asyncio.Event()
        self.release.set()
        self.thinking = asyncio.Event()
        self.saturated = False
        self.calls: list[bool] = []  # interactive flag of each call

    async def review(
        self,
        rules: Rules,
        moves: Sequence[int],
        *,
        seconds: float,
        known: Sequence[MoveReview] = (),
        background: bool = False,
        every_best: bool = False,
    ) -> GameReview | None:
        return review_game(rules, moves, known=known)

    async def choose(
        self, position: Position, level: Level, *, budget: float, interactive: bool = True
    ) -> int:
        self.calls.append(interactive)
        self.thinking.set()
        await self.release.wait()
        return choose_move(position, Level.EASY, rng=random.Random(len(self.calls)))


@pytest.fixture
async def store(backend: Backend) -> AsyncIterator[AnyStore]:
    async with backend.open() as opened:
        yield opened


def make(store: AnyStore, runner: HeldRunner | None = None, **settings: float) -> GameService:
    return GameService(
        store,
        settings=ServiceSettings(ai_workers=0, ai_budget=0.05, **settings),  # type: ignore[arg-type]
        clock=clock,
        rng=random.Random(3),
        runner=runner,
    )


def session_of(replies: Sequence[Reply]) -> str:
    session_id = next(r.session_id for r in replies if r.session_id)
    assert session_id is not None
    return session_id


def text_keys(replies: Sequence[Reply]) -> list[str]:
    return [r.text.key for r in replies if r.text is not None]


async def stored(store: AnyStore, session_id: str) -> Session:
    session = await store.run(sessions.get(session_id))
    assert session is not None
    return session


# --- /final ---------------------------------------------------------------------------------


async def test_final_after_a_move_is_a_resignation_that_counts(store: AnyStore) -> None:
    svc = make(store)
    session_id = session_of(await svc.handle_text(ALICE, "/tres @bob"))
    await svc.handle_text(BOB, "/accept")
    first = (await stored(store, session_id)).seats[0].user_id
    mover, quitter = (ALICE, BOB) if first == "alice" else (BOB, ALICE)
    await svc.handle_text(mover, "5")
    replies = await svc.handle_text(quitter, "/final")
    assert text_keys(replies) == ["game.resigned"]
    assert replies[0].actions == (ActionKind.REMATCH, ActionKind.REVIEW)
    assert replies[0].board is not None and replies[0].board.finished
    ended = await stored(store, session_id)
    assert ended.status is Status.FINISHED and ended.winner is not None
    assert ended.seats[ended.winner - 1].user_id == mover.user_id
    quitter_stats = await store.run(store_stats.player_stats("test", quitter.user_id))
    mover_stats = await store.run(store_stats.player_stats("test", mover.user_id))
    assert quitter_stats is not None and (quitter_stats.wins, quitter_stats.losses) == (0, 1)
    assert mover_stats is not None and (mover_stats.wins, mover_stats.losses) == (1, 0)
    # The resigned game gives a rematch, like any finished game.
    assert text_keys(await svc.handle_text(quitter, "/rematch")) == ["game.challenge"]


async def test_final_against_the_bot_counts_as_a_loss(store: AnyStore) -> None:
    svc = make(store)
    await svc.handle_text(ALICE, "/tres easy")
    await svc.handle_text(ALICE, "5")
    assert text_keys(await svc.handle_text(ALICE, "/final")) == ["game.resigned"]
    stats = await store.run(store_stats.player_stats("test", "alice"))
    assert stats is not None and (stats.wins, stats.losses, stats.draws) == (0, 1, 0)


async def test_final_before_any_move_or_on_a_challenge_records_nothing(
    store: AnyStore,
) -> None:
    svc = make(store)
    session_id = session_of(await svc.handle_text(ALICE, "/tres easy"))
    assert text_keys(await svc.handle_text(ALICE, "/final")) == ["game.ended"]
    assert await store.run(sessions.get(session_id)) is None
    session_id = session_of(await svc.handle_text(ALICE, "/tres @bob"))
    assert text_keys(await svc.handle_text(ALICE, "/final")) == ["game.withdrawn"]
    assert await store.run(sessions.get(session_id)) is None
    assert await store.run(store_stats.player_stats("test", "alice")) is None


# --- bots' games ----------------------------------------------------------------------------


class Screen:
    """A platform that can show replies later: what was published, in order."""

    def __init__(self) -> None:
        self.shown: list[Reply] = []
        self.changed = asyncio.Event()

    async def publish(self, actor: Actor, replies: Sequence[Reply]) -> None:
        self.shown.extend(replies)
        self.changed.set()


async def shown_up_to(screen: Screen, version: int) -> None:
    """Until the board at ``version`` is published: the store has the game's end before the
    board that shows it goes out, so reading the store alone races the last publish."""

    def shown() -> bool:
        last = screen.shown[-1].board if screen.shown else None
        return last is not None and last.version >= version

    async def wait() -> None:
        while not shown():
            screen.changed.clear()
            if not shown():
                await screen.changed.wait()

    await asyncio.wait_for(wait(), 10)


async def finished(store: AnyStore, session_id: str) -> Session:
    for _ in range(400):
        session = await stored(store, session_id)
        if session.status is Status.FINISHED:
            return session
        await asyncio.sleep(0.01)
    raise AssertionError("the bots' game did not finish")


async def test_a_watched_game_is_played_at_a_pace_on_one_board(store: AnyStore) -> None:
    svc = make(store, watch_move_interval=0.02, bot_vs_bot_budget=0.02)
    screen = Screen()
    svc.register_platform(PlatformStyle("test", publish=screen.publish))
    started = asyncio.get_running_loop().time()
    replies = await svc.handle_text(ALICE, "/tres bot easy")
    assert len(replies) == 1 and replies[0].new_message and replies[0].board is not None
    session_id = session_of(replies)
    # It is the watcher's game in this chat: one at a time.
    assert text_keys(await svc.handle_text(ALICE, "/tres easy")) == ["error.already_playing"]
    ended = await finished(store, session_id)
    elapsed = asyncio.get_running_loop().time() - started
    await shown_up_to(screen, ended.version)
    assert len(screen.shown) == len(ended.moves)  # one board update per move
    assert all(r.board is not None and not r.new_message for r in screen.shown)
    assert {r.session_id for r in screen.shown} == {session_id}
    assert elapsed >= 0.02 * (len(ended.moves) - 1)  # no faster than the pace allows
    assert screen.shown[-1].actions == (ActionKind.REMATCH, ActionKind.REVIEW)
    await svc.close()


async def test_final_stops_a_watched_game(store: AnyStore) -> None:
    svc = make(store, watch_move_interval=0.05)
    screen = Screen()
    svc.register_platform(PlatformStyle("test", publish=screen.publish))
    session_id = session_of(await svc.handle_text(ALICE, "/ratlla 9x9 5 bot easy"))
    await screen.changed.wait()
    replies = await svc.handle_text(ALICE, "/final")
    assert text_keys(replies) == ["game.watch_stopped"]
    stopped = await stored(store, session_id)
    assert stopped.status is Status.FINISHED and stopped.winner is None
    shown = len(screen.shown)
    await asyncio.sleep(0.2)
    assert len(screen.shown) == shown  # nothing more is played or published
    assert (await stored(store, session_id)).moves == stopped.moves
    # Its watcher is free again.
    assert text_keys(await svc.handle_text(ALICE, "/tres easy")) == ["game.started"]
    await svc.close()


async def test_a_watched_game_stops_at_its_time_cap(store: AnyStore) -> None:
    svc = make(store, watch_move_interval=0.05, watch_max_seconds=0.12)
    screen = Screen()
    svc.register_platform(PlatformStyle("test", publish=screen.publish))
    session_id = session_of(await svc.handle_text(ALICE, "/ratlla 9x9 5 bot easy"))
    ended = await finished(store, session_id)
    assert ended.winner is None and 0 < len(ended.moves) < 10
    await shown_up_to(screen, ended.version)
    assert screen.shown[-1].board is not None and screen.shown[-1].board.finished
    await svc.close()


async def test_without_publish_a_watched_game_is_played_in_the_request(
    store: AnyStore,
) -> None:
    svc = make(store, watch_max_seconds=5.0)
    replies = await svc.handle_text(ALICE, "/tres bot easy")
    session = await stored(store, session_of(replies))
    assert session.status is Status.FINISHED
    assert len(replies) == 1 + len(session.moves)


async def test_bots_games_ask_the_ai_as_background_work(store: AnyStore) -> None:
    # The runner queues non-interactive searches behind people's
    # (tests/core/workers/test_runner.py).
    runner = HeldRunner()
    svc = make(store, runner=runner, watch_move_interval=0.0)
    screen = Screen()
    svc.register_platform(PlatformStyle("test", publish=screen.publish))
    session_id = session_of(await svc.handle_text(ALICE, "/tres bot hard"))
    await finished(store, session_id)
    assert runner.calls and not any(runner.calls)
    await svc.handle_text(BOB, "/tres hard second")
    assert runner.calls[-1] is True
    await svc.close()


# --- races ----------------------------------------------------------------------------------


async def test_a_rematch_that_cannot_start_keeps_the_finished_game(
    store: AnyStore, backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    svc = make(store)
    session_id = session_of(await svc.handle_text(ALICE, "/tres easy"))
    await svc.handle_text(ALICE, "5")
    await svc.handle_text(ALICE, "/final")
    racing = await backend.open()  # a second store on the same database
    run = racing.run

    async def racing_run(op: Op[T]) -> T:
        """Between the service's check and its swap, the player starts another game."""
        if name_of(op) == "swap":
            await make(store).handle_text(ALICE, "/tres easy")
        return cast(T, await run(op))

    monkeypatch.setattr(racing, "run", racing_run)
    try:
        replies = await make(racing).handle_action(ALICE, session_id, ActionKind.REMATCH)
    finally:
        await racing.close()
    assert text_keys(replies) == ["error.already_playing"]
    assert (await stored(store, session_id)).status is Status.FINISHED


async def test_a_bot_move_that_loses_a_race_shows_the_board_that_won(
    store: AnyStore,
) -> None:
    runner = HeldRunner()
    svc = make(store, runner=runner)
    session_id = session_of(await svc.handle_text(ALICE, "/tres hard"))
    runner.release.clear()
    runner.thinking.clear()
    move = asyncio.create_task(svc.handle_text(ALICE, "5"))
    await runner.thinking.wait()
    assert text_keys(await svc.handle_text(ALICE, "/final")) == ["game.resigned"]
    runner.release.set()
    replies = await move
    board = replies[0].board
    current = await stored(store, session_id)
    assert board is not None and board.version == current.version and board.finished
    assert current.status is Status.FINISHED and len(current.moves) == 1


async def test_a_move_that_is_not_a_whole_number_is_refused_clearly(
    store: AnyStore,
) -> None:
    svc = make(store)
    session_id = session_of(await svc.handle_text(ALICE, "/tres easy"))
    replies = await svc.handle_move(ALICE, session_id, True)
    assert text_keys(replies) == ["error.off_board_cell"] and replies[0].error
    assert (await stored(store, session_id)).moves == ()


async def test_a_busy_ai_refuses_new_hard_games_but_never_a_running_one(
    store: AnyStore,
) -> None:
    runner = HeldRunner()
    svc = make(store, runner=runner)
    await svc.handle_text(ALICE, "/tres hard")
    runner.saturated = True
    replies = await svc.handle_text(BOB, "/tres hard")
    assert text_keys(replies) == ["error.ai_busy"]
    assert await store.run(sessions.live_game("test", "room", "bob")) is None
    assert text_keys(await svc.handle_text(BOB, "/tres medium")) == ["game.started"]
    replies = await svc.handle_text(ALICE, "5")  # the running HARD game still gets its move
    assert replies[0].board is not None and sum(c.mark != 0 for c in replies[0].board.cells) == 2


# --- review ---------------------------------------------------------------------------------


async def test_review_marks_the_blunder_of_a_finished_game(store: AnyStore) -> None:
    svc = make(store)
    session_id = session_of(await svc.handle_text(ALICE, "/tres @bob"))
    await svc.handle_text(BOB, "/accept")
    first, second = (
        (ALICE, BOB)
        if (await stored(store, session_id)).seats[0].user_id == "alice"
        else (BOB, ALICE)
    )
    assert text_keys(await svc.handle_text(first, "/review")) == ["error.review_running"]
    # X centre, O edge (the blunder: X now wins by force), X corner, O blocks, X forks, ...
    for player, cell in ((first, "5"), (second, "2"), (first, "1"), (second, "9")):
        await svc.handle_text(player, cell)
    for player, cell in ((first, "7"), (second, "3"), (first, "4")):
        await svc.handle_text(player, cell)
    assert (await stored(store, session_id)).status is Status.FINISHED
    # Anyone in the chat may ask: a bystander gets the chat's last finished game.
    carol = Actor("test", "room", "carol", "Carol")
    replies = await svc.handle_text(carol, "/review")
    text = replies[0].text
    assert text is not None and text.key == "review.text"
    english = text.render("en").splitlines()
    assert english[0].startswith("Review of tic-tac-toe")
    assert english[1] == "1. X b2: draw → draw"
    assert (
        english[2].startswith("2. O b1: draw → loss in")
        and "✗ a draw turned into a loss" in english[2]
    )
    assert "best: a1, c1, a3, c3" in english[2]
    assert english[-1] == "1 mistake in this game."
    assert "В этой партии: 1 ошибка." in text.render("ru")  # noqa: RUF001
    # The Review button on the finished board does the same for anyone.
    pressed = await svc.handle_action(carol, session_id, ActionKind.REVIEW)
    assert pressed[0].text == text


async def test_review_says_plainly_when_a_game_cannot_be_solved(store: AnyStore) -> None:
    svc = make(store)
    await svc.handle_text(ALICE, "/ratlla 9x9 5 easy")
    await svc.handle_text(ALICE, "e5")
    await svc.handle_text(ALICE, "/final")
    replies = await svc.handle_text(ALICE, "/review")
    assert text_keys(replies) == ["review.unavailable"]
    # A bystander gets the chat's last finished game; a chat without one says so.
    assert text_keys(await svc.handle_text(BOB, "/review")) == ["review.unavailable"]
    elsewhere = Actor("test", "other room", "bob", "Bob")
    assert text_keys(await svc.handle_text(elsewhere, "/review")) == ["error.no_review"]


# --- a disk that turns read-only while the bot runs --------------------------------------------


@pytest.mark.skipif(not ROOT, reason="needs chattr +i on an open file (root)")
async def test_a_disk_that_turns_read_only_gets_a_clear_answer_and_loses_nothing(
    tmp_path: Path,
) -> None:
    from core.store import SqliteStore, StoreUnavailable

    async with SqliteStore.open(tmp_path / "db.sqlite3") as store:
        svc = make(store)
        session_id = session_of(await svc.handle_text(ALICE, "/tres @bob"))
        await svc.handle_text(BOB, "/accept")
        first = (await stored(store, session_id)).seats[0].user_id
        mover = ALICE if first == "alice" else BOB
        before = await stored(store, session_id)
        # The disk refuses the journal's next write, as a failing or remounted disk would.
        with read_only(Path(f"{store.path}-wal")):
            replies = await svc.handle_text(mover, "5")
            assert text_keys(replies) == ["error.store_unavailable"]
            assert replies[0].private  # said to the player, not an internal error
            with pytest.raises(StoreUnavailable):
                await store.check()  # what /healthz asks: it answers 503 meanwhile
            assert await stored(store, session_id) == before
        await store.check()
        # The disk is back: the same move goes through, once.
        assert "error.store_unavailable" not in text_keys(await svc.handle_text(mover, "5"))
        assert (await stored(store, session_id)).moves == (4,)

"""Connect Four reviews kept while the game goes on (core.sessions.reviews.review.KeptReviews):
the kept
review is the fresh one, /review answers from it (in any process sharing the store), a busy
runner only costs a search of the moves not kept, nothing is kept for other games, and the kept
rows go with the session. On both stores."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Sequence
from typing import Any

import pytest

from core.ai import Level, choose_move
from core.ai.review import GameReview, MoveReview, review_game
from core.games import CONNECT_FOUR, Position, Rules
from core.replies import ActionKind, Actor, Reply
from core.sessions import GameService, ServiceSettings
from core.sessions.reviews.review import KEEP_NAMESPACE, KEEP_PLIES, decode, review_text
from core.store import Session, Status, StoreUnavailable, kv, sessions
from core.store.sql import Op
from tests.backends import AnyStore, Backend
from tests.core.runners import StubRunner

NOW = 1_700_000_000.0
ALICE = Actor("test", "room", "alice", "Alice")
BOB = Actor("test", "room", "bob", "Bob")


class ReviewRunner(StubRunner):
    """Reviews in the event loop's thread, recording each call; can refuse the background ones
    the way a busy :class:`~core.workers.runner.PoolRunner` does."""

    def __init__(self) -> None:
        self.calls: list[tuple[int, int, bool]] = []  # (moves, known, background)
        self.busy = False
        self.saturated = False

    async def choose(
        self, position: Position, level: Level, *, budget: float, interactive: bool = True
    ) -> int:
        return choose_move(position, Level.EASY, rng=random.Random(len(position.moves)))

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
        if background and self.busy:
            return None
        self.calls.append((len(moves), len(known), background))
        return review_game(rules, moves, known=known)


@pytest.fixture
async def store(backend: Backend) -> AsyncIterator[AnyStore]:
    async with backend.open() as opened:
        yield opened


def make(store: AnyStore, runner: ReviewRunner) -> GameService:
    return GameService(
        store,
        settings=ServiceSettings(ai_workers=0, ai_budget=0.05),
        clock=lambda: NOW,
        rng=random.Random(3),
        runner=runner,
    )


def long_game() -> tuple[int, ...]:
    """A whole Connect Four game past every kept ply: random moves that take a win at hand."""
    rng = random.Random(11)
    while True:
        p = Position.start(CONNECT_FOUR)
        while not p.is_over:
            wins = [m for m in p.legal_moves() if p.play(m).winner is not None]
            p = p.play(rng.choice(wins or p.legal_moves()))
        if len(p.moves) > max(KEEP_PLIES) + 2:
            return p.moves


def session_of(replies: Sequence[Reply]) -> str:
    session_id = next(r.session_id for r in replies if r.session_id)
    assert session_id is not None
    return session_id


async def stored(store: AnyStore, session_id: str) -> Session:
    session = await store.run(sessions.get(session_id))
    assert session is not None
    return session


async def start(svc: GameService, store: AnyStore) -> tuple[str, tuple[Actor, Actor]]:
    """Alice challenges Bob to Connect Four: the session and its players in turn order."""
    session_id = session_of(await svc.handle_text(ALICE, "/quatre @bob"))
    await svc.handle_text(BOB, "/accept")
    first = (await stored(store, session_id)).seats[0].user_id
    return session_id, ((ALICE, BOB) if first == "alice" else (BOB, ALICE))


async def moves_typed(
    svc: GameService,
    players: tuple[Actor, Actor],
    moves: Sequence[int],
    ply: int = 0,
    *,
    patient: bool = True,
) -> None:
    """``moves`` typed in turn from ``ply`` on. Patient players take their time: what is being
    kept is stored before the next move."""
    for n, move in enumerate(moves, start=ply):
        await svc.handle_text(players[n % 2], str(move + 1))
        if patient:
            await svc.kept_reviews_idle()


async def play(svc: GameService, store: AnyStore, moves: Sequence[int]) -> Session:
    """Alice and Bob play the whole game ``moves``; the finished session."""
    session_id, players = await start(svc, store)
    await moves_typed(svc, players, moves)
    session = await stored(store, session_id)
    assert session.status is Status.FINISHED and session.moves == tuple(moves)
    return session


async def kept(store: AnyStore, session: Session) -> tuple[MoveReview, ...]:
    value = await store.run(kv.kv_get(KEEP_NAMESPACE, session.id))
    return () if value is None else decode(value, session.moves)


async def test_the_kept_review_is_the_fresh_one_and_answers_in_any_process(
    store: AnyStore,
) -> None:
    runner = ReviewRunner()
    svc = make(store, runner)
    moves = long_game()
    session = await play(svc, store, moves)
    await svc.kept_reviews_idle()
    fresh = review_game(CONNECT_FOUR, moves)
    assert fresh is not None
    assert await kept(store, session) == fresh.moves
    # Kept in steps while the game went on, each step searching only the new moves.
    assert runner.calls and all(background for _, _, background in runner.calls)
    assert [n for n, _, _ in runner.calls] == [*sorted(KEEP_PLIES), len(moves)]
    assert [k for _, k, _ in runner.calls] == [0, *sorted(KEEP_PLIES)]
    # Another process on the same store answers from the kept review without a search.
    other_runner = ReviewRunner()
    other = make(store, other_runner)
    replies = await other.handle_action(BOB, session.id, ActionKind.REVIEW)
    assert replies[0].text == review_text(session, fresh)
    assert other_runner.calls == []


async def test_quick_moves_are_caught_up_with_and_the_end_is_kept(store: AnyStore) -> None:
    runner = ReviewRunner()
    svc = make(store, runner)
    moves = long_game()
    session_id, players = await start(svc, store)
    await moves_typed(svc, players, moves, patient=False)
    await svc.kept_reviews_idle()
    session = await stored(store, session_id)
    fresh = review_game(CONNECT_FOUR, moves)
    assert fresh is not None and await kept(store, session) == fresh.moves
    # steps follow one another, each from what the one before kept
    assert all(k < n for n, k, _ in runner.calls)
    assert [k for _, k, _ in runner.calls[1:]] == [n for n, _, _ in runner.calls[:-1]]


async def test_a_busy_runner_leaves_only_the_moves_not_kept_to_search(store: AnyStore) -> None:
    runner = ReviewRunner()
    svc = make(store, runner)
    moves = long_game()
    last_kept = max(KEEP_PLIES)
    session_id, players = await start(svc, store)
    await moves_typed(svc, players, moves[:last_kept])
    # The runner turns busy after the last kept ply: the end of the game is not kept.
    runner.busy = True
    await moves_typed(svc, players, moves[last_kept:], last_kept)
    session = await stored(store, session_id)
    assert session.status is Status.FINISHED
    assert len(await kept(store, session)) == last_kept
    runner.calls.clear()
    fresh = review_game(CONNECT_FOUR, moves)
    assert fresh is not None
    replies = await svc.handle_text(ALICE, "/review")
    assert replies[0].text == review_text(session, fresh)
    # Only the moves past the kept ones were searched, for the person waiting, and the whole
    # review is kept for the next request.
    assert runner.calls == [(len(moves), last_kept, False)]
    await svc.kept_reviews_idle()
    assert await kept(store, session) == fresh.moves
    runner.calls.clear()
    assert (await svc.handle_text(BOB, "/review"))[0].text == replies[0].text
    assert runner.calls == []


async def test_a_game_resigned_early_is_kept_whole(store: AnyStore) -> None:
    runner = ReviewRunner()
    svc = make(store, runner)
    moves = long_game()[: min(KEEP_PLIES) - 2]
    session_id, players = await start(svc, store)
    await moves_typed(svc, players, moves)
    await svc.handle_text(ALICE, "/final")
    await svc.kept_reviews_idle()
    session = await stored(store, session_id)
    assert session.status is Status.FINISHED
    fresh = review_game(CONNECT_FOUR, moves)
    assert fresh is not None and await kept(store, session) == fresh.moves
    assert runner.calls == [(len(moves), 0, True)]


async def test_nothing_is_kept_for_other_games(store: AnyStore) -> None:
    runner = ReviewRunner()
    svc = make(store, runner)
    # Tic-tac-toe is reviewed in a moment; a 9x9 board cannot be reviewed at all.
    session_id = session_of(await svc.handle_text(ALICE, "/tres @bob"))
    await svc.handle_text(BOB, "/accept")
    first = (await stored(store, session_id)).seats[0].user_id
    players = (ALICE, BOB) if first == "alice" else (BOB, ALICE)
    for ply, cell in enumerate(("5", "2", "1", "9", "7", "3", "4")):
        await svc.handle_text(players[ply % 2], cell)
    big = session_of(await svc.handle_text(ALICE, "/ratlla 9x9 5 easy"))
    for cell in ("e5", "d4", "c3", "f6", "g7", "b2", "h8", "a1"):
        await svc.handle_text(ALICE, cell)
    await svc.handle_text(ALICE, "/final")
    await svc.kept_reviews_idle()
    assert runner.calls == []
    for finished in (session_id, big):
        assert (await stored(store, finished)).status is Status.FINISHED
        assert await store.run(kv.kv_get(KEEP_NAMESPACE, finished)) is None
    await svc.handle_action(BOB, session_id, ActionKind.REVIEW)
    assert await store.run(kv.kv_get(KEEP_NAMESPACE, session_id)) is None


async def test_the_kept_review_goes_with_the_session(store: AnyStore) -> None:
    runner = ReviewRunner()
    svc = make(store, runner)
    session = await play(svc, store, long_game())
    await svc.kept_reviews_idle()
    assert await store.run(kv.kv_get(KEEP_NAMESPACE, session.id)) is not None
    assert await store.run(sessions.delete(session.id, expected_version=session.version))
    assert await store.run(kv.kv_get(KEEP_NAMESPACE, session.id)) is None


async def test_a_store_that_cannot_keep_costs_nobody_their_review(
    store: AnyStore, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    original = kv.kv_set

    def full_disk(namespace: str, *args: Any, **kwargs: Any) -> Op[None]:
        if namespace == KEEP_NAMESPACE:
            raise StoreUnavailable("chatbots.sqlite3", "database or disk is full")
        yield from original(namespace, *args, **kwargs)

    monkeypatch.setattr(kv, "kv_set", full_disk)
    runner = ReviewRunner()
    svc = make(store, runner)
    moves = long_game()
    session = await play(svc, store, moves)
    assert await store.run(kv.kv_get(KEEP_NAMESPACE, session.id)) is None
    assert "not kept" in caplog.text
    runner.calls.clear()
    fresh = review_game(CONNECT_FOUR, moves)
    assert fresh is not None
    replies = await svc.handle_text(ALICE, "/review")
    assert replies[0].text == review_text(session, fresh)
    assert runner.calls == [(len(moves), 0, False)]
    await svc.kept_reviews_idle()

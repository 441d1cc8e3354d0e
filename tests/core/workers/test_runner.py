"""The AI runner with a real process pool: people before bots' games, a budget that
shrinks with the queue, a bounded queue, and an answer even when a worker dies."""

from __future__ import annotations

import asyncio
import os
import random
import signal
from collections.abc import AsyncIterator

import pytest

from core.ai import Level, engine, solver
from core.ai.review import review_game
from core.games import CONNECT_FOUR, TICTACTOE, Position, Rules
from core.workers.runner import MIN_BUDGET, PoolRunner


@pytest.fixture
async def runner() -> AsyncIterator[PoolRunner]:
    # Fresh workers, whatever an earlier test left in the process's fork server: these tests
    # time searches of cold workers (tests/core/workers/test_server.py covers the server).
    pool = PoolRunner(
        workers=1,
        warm_up=False,
        grace=2.0,
        rng=random.Random(1),
        queue_limit=3,
        fork_server=False,
    )
    await pool.start()
    try:
        yield pool
    finally:
        await pool.close()


# Beyond the opening book's board a search takes its whole budget, which these tests' timing
# needs (a warm worker solves the empty standard board in milliseconds).
SLOW = Position.start(Rules(7, 8, 4, gravity=True))


async def test_people_go_before_bots_games(runner: PoolRunner) -> None:
    board = SLOW
    finished: list[str] = []

    async def ask(name: str, interactive: bool, budget: float) -> None:
        move = await runner.choose(board, Level.HARD, budget=budget, interactive=interactive)
        assert move in board.legal_moves()
        finished.append(name)

    # The first search occupies the only worker; the others wait in the runner's queue.
    busy = asyncio.create_task(ask("first", True, 0.3))
    await asyncio.sleep(0.05)
    bots = [asyncio.create_task(ask(f"bots{n}", False, 0.05)) for n in range(2)]
    await asyncio.sleep(0)
    person = asyncio.create_task(ask("person", True, 0.05))
    await asyncio.gather(busy, *bots, person)
    assert finished[:2] == ["first", "person"]


async def test_a_review_nobody_waits_for_never_delays_a_search(runner: PoolRunner) -> None:
    moves = (3, 3, 3, 3, 2, 4, 2, 2, 4, 4, 1)
    fresh = review_game(CONNECT_FOUR, moves)
    assert fresh is not None
    # The worker is cold (the fixture's): its first review loads the solver and the book, which
    # a loaded machine can stretch past the few seconds a review is given below. A review a
    # person waits for, with all the time it needs, warms it first.
    assert await runner.review(CONNECT_FOUR, moves, seconds=600.0) == fresh

    # a board where HARD thinks for its whole budget (no book, no quick proof)
    wide = Position.from_moves(Rules(9, 9, 5, gravity=False), [40, 41])

    def search(budget: float) -> asyncio.Task[int]:
        return asyncio.create_task(runner.choose(wide, Level.HARD, budget=budget))

    # While a search waits, a background review is not even queued.
    asks = [search(0.2), search(0.05)]
    await asyncio.sleep(0.05)
    assert runner.load().queued == 1
    assert await runner.review(CONNECT_FOUR, moves, seconds=5.0, background=True) is None
    await asyncio.gather(*asks)
    # With the worker busy but nothing waiting it is queued, one at a time, and a person's move
    # asked later still goes first.
    busy = search(0.3)
    await asyncio.sleep(0.05)
    kept = asyncio.create_task(runner.review(CONNECT_FOUR, moves, seconds=5.0, background=True))
    await asyncio.sleep(0)
    assert await runner.review(CONNECT_FOUR, moves, seconds=5.0, background=True) is None
    order: list[str] = []
    kept.add_done_callback(lambda _: order.append("review"))
    person = search(0.05)
    person.add_done_callback(lambda _: order.append("person"))
    await asyncio.gather(busy, person)
    assert await kept == fresh and order == ["person", "review"]
    # Idle again, a background review runs, from a kept beginning too.
    again = await runner.review(
        CONNECT_FOUR, moves, seconds=5.0, known=fresh.moves[:5], background=True
    )
    assert again == fresh


async def test_the_budget_shrinks_with_the_queue_and_the_queue_is_bounded(
    runner: PoolRunner,
) -> None:
    board = SLOW
    idle = runner.load()
    assert (idle.workers, idle.queued, idle.budget) == (1, 0, 1.0)
    asks = [asyncio.create_task(runner.choose(board, Level.HARD, budget=0.2)) for _ in range(4)]
    await asyncio.sleep(0.05)
    busy = runner.load()
    assert busy.running == 1 and busy.queued == 3
    assert MIN_BUDGET <= busy.budget <= 1.0 / 16  # three waiting behind one worker
    assert runner.saturated
    moves = await asyncio.gather(*asks)
    assert all(move in board.legal_moves() for move in moves)
    drained: bool = runner.saturated  # read again now that the queue is empty
    assert not drained and runner.load().queued == 0


async def test_a_dead_worker_costs_one_medium_move_and_the_pool_comes_back(
    runner: PoolRunner,
) -> None:
    board = Position.from_moves(TICTACTOE, [0])
    ask = asyncio.create_task(runner.choose(Position.start(CONNECT_FOUR), Level.HARD, budget=1.0))
    await asyncio.sleep(0.3)
    pool = runner._pool
    assert pool is not None
    for pid in list(pool._processes):  # the only way to reach the worker from outside
        os.kill(pid, signal.SIGKILL)
    assert await ask in range(7)  # answered (by MEDIUM) rather than lost
    # HARD in the replaced pool: never loses tic-tac-toe, so it takes the centre.
    assert await runner.choose(board, Level.HARD, budget=0.2) == 4


async def test_without_workers_hard_runs_in_a_thread() -> None:
    runner = PoolRunner(workers=0)
    # a review asked in the background is not run in a thread (it would hold the GIL)
    assert await runner.review(CONNECT_FOUR, (3, 3), seconds=5.0, background=True) is None
    assert await runner.review(CONNECT_FOUR, (3, 3), seconds=5.0) is not None
    await runner.start()
    board = Position.from_moves(TICTACTOE, [0])
    assert await runner.choose(board, Level.HARD, budget=0.2) == 4
    assert not runner.saturated and runner.load().workers == 0
    await runner.close()


def table_entries() -> int:
    """In a worker: the size of its compiled solver table (allocated by its warm-up)."""
    return len(engine.shared_table(True).keys)


async def test_the_workers_tables_are_sized_by_the_budget() -> None:
    runner = PoolRunner(workers=1, warm_up=True, budget=0.2)
    await runner.start()
    try:
        assert runner._pool is not None
        loop = asyncio.get_running_loop()
        entries = await loop.run_in_executor(runner._pool, table_entries)
    finally:
        await runner.close()
    assert entries == engine.TABLE_SIZES_BY_BUDGET[0][1]  # about 12 MB instead of 100


def test_the_table_follows_the_budget_and_still_solves() -> None:
    board = Position.from_moves(CONNECT_FOUR, [3, 3, 3, 3, 2, 4, 2, 4, 4, 1, 5, 0, 6, 6])
    exact = solver.solve(board, plain=True)  # the plain kernel has a table of its own
    try:
        for budget, expected in ((0.1, 1_048_573), (1.0, 4_194_301), (30.0, 8_388_593)):
            assert engine.size_table(budget) == expected
            # The same exact score whatever the size: the table only saves work.
            assert solver.solve(board) == exact
            assert len(engine.shared_table(True).keys) == expected
    finally:
        engine.size_table(30.0)

"""Runs the bot's thinking off the event loop: a process pool for HARD, with deadlines, priority
for a person who is waiting, a budget that shrinks under load, and a bounded queue.

The service receives an :class:`AiRunner` and only ever calls :meth:`AiRunner.choose`; tests hand
it a fake. :class:`PoolRunner` is the real one:

- HARD searches go to a process pool, its workers forked from a fork server that has compiled
  the solver once (:mod:`core.workers.server`; ``spawn`` where there is none). They wait in
  our own queue, not the pool's, and a search is handed to the pool only when a worker is
  free. That is what makes the queue ordered (a person's move before a watched bots' game) and
  lets the budget be fixed at the moment a search starts: with ``q`` searches still waiting
  behind ``w`` workers, it gets ``budget / (1 + q / w) ** 2`` (at least :data:`MIN_BUDGET`).
  Summed over a burst that is about 1.6 budgets per worker however long the queue, so the last
  caller of a burst waits a few budgets plus :data:`MIN_BUDGET` per queued search and worker,
  rather than ``q / w`` budgets.
- The queue is bounded. :attr:`PoolRunner.saturated` tells the service to refuse a *new* HARD
  game ("busy, try MEDIUM"); a move of a game already running is always queued.
- A worker that hangs past its deadline, or a pool that breaks, costs one MEDIUM move: the
  player still gets an answer, and a broken pool is replaced.
- EASY is answered inline (a random choice); MEDIUM, and HARD without a pool, in a thread.
- Puzzles: a player's answer is checked by the solver (the longest defence, or the
  refutation) like a person's move, first in the queue; without workers, in a thread.
- Reviews: a person's ``/review`` goes first like a person's move; a review kept ahead of the
  request (nobody waits) goes last, one at a time, and only to the pool when nothing waits.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import itertools
import logging
import multiprocessing
import random
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from core.ai.levels import Level
from core.ai.players import choose_move
from core.games import Position, Rules
from core.workers import server
from core.workers.orphans import Parent
from core.workers.tasks import (
    args_of,
    puzzle_answer,
    review_in_worker,
    think,
    worker_init,
    worker_ready,
)

if TYPE_CHECKING:
    from core.ai.review import GameReview, MoveReview
    from core.puzzles.answer import Answer, Attempt

__all__ = ["AiRunner", "PoolRunner", "RunnerLoad"]

log = logging.getLogger(__name__)

T = TypeVar("T")

MIN_BUDGET = 0.02
"""Seconds a HARD search gets however long the queue (the opening book and the threat search
still answer well in that time; the benchmark ``ai_load`` measures what is lost)."""
PUZZLE_SECONDS = 5.0
"""How long a puzzle answer's check may take in a worker before it is checked in a thread
instead (it takes milliseconds; the solver's refutation has a budget of its own)."""
QUEUE_PER_WORKER = 32
"""HARD searches that may wait per worker before new HARD games are refused."""


@dataclass(frozen=True, slots=True)
class RunnerLoad:
    """How busy the runner is (logs, health and metrics)."""

    workers: int
    running: int
    queued: int
    budget: float  # what a HARD search starting now would get


class AiRunner(Protocol):
    """Chooses the bot's moves without blocking the event loop."""

    async def start(self) -> None:
        """Start workers (and warm them up) before the first player waits for one."""
        ...

    async def close(self) -> None:
        """Stop the workers; searches still queued are answered by MEDIUM."""
        ...

    @property
    def saturated(self) -> bool:
        """True when no new HARD game should start (the queue is full)."""
        ...

    def load(self, budget: float = 1.0) -> RunnerLoad:
        """The queue as it stands; ``budget``: the configured seconds of a HARD search."""
        ...

    async def choose(
        self, position: Position, level: Level, *, budget: float, interactive: bool = True
    ) -> int:
        """A legal move for the side to move in ``position``.

        Args:
            budget: seconds HARD may think when nothing else waits.
            interactive: a person waits for this move (ahead of bots' games in the queue).
        """
        ...

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
        """``core.ai.review.review_game`` of a game, within ``seconds``; None when it cannot be
        solved exactly in that time.

        Args:
            known: the review of the game's first moves, found earlier (not searched again).
            every_best: the optimal moves of every position, not only of the mistakes (the
                web page's "only move").
            background: nobody waits (a review kept ahead of the request): after every other
                search, one at a time, in a worker process only, and None at once when searches
                are waiting or there are no workers.
        """
        ...

    async def answer_puzzle(self, attempt: Attempt, move: int) -> Answer:
        """``core.puzzles.answer.answer``: the player's ``move`` in ``attempt`` checked by the
        solver, and the bot's reply (a person waits).

        Raises:
            IllegalMove: the move is not legal there (checked before anything is queued).
        """
        ...


@dataclass(order=True)
class _Job:
    priority: int  # 0: a person waits; 1: a watched bots' game; 2: nobody waits (a kept review)
    order: int  # first come, first served within a priority
    # Runs the job in the pool given the seconds it may take (a search's budget shrinks with
    # the queue; a review's does not), with its own fallback.
    run: Callable[[float], Awaitable[Any]] = field(compare=False)
    budget: float = field(compare=False)
    shrinks: bool = field(compare=False)
    fallback: Callable[[], Awaitable[Any]] = field(compare=False)
    answer: asyncio.Future[Any] = field(compare=False)


class PoolRunner:
    """The real :class:`AiRunner`: see the module docstring.

    Args:
        workers: processes for HARD; 0 runs HARD in a thread (tests, tiny machines).
        warm_up: compile the solver in every worker at start.
        grace: seconds a search may run over its budget before MEDIUM answers instead.
        rng: where the searches' seeds come from.
        queue_limit: searches that may wait before :attr:`saturated` (default: 32 a worker).
        budget: the seconds a HARD search usually gets: the workers' solver tables are sized
            for it.
        fork_server: start the workers from the fork server (where there is one) rather than
            afresh; a fresh worker compiles the solver itself (tests that time cold workers).
    """

    def __init__(
        self,
        *,
        workers: int,
        warm_up: bool = True,
        grace: float = 5.0,
        rng: random.Random | None = None,
        queue_limit: int | None = None,
        budget: float = 1.0,
        fork_server: bool = True,
    ) -> None:
        self._workers = workers
        self._fork_server = fork_server
        self._budget = budget
        self._warm_up = warm_up
        self._grace = grace
        self._rng = rng or random.Random()
        self._queue_limit = queue_limit or QUEUE_PER_WORKER * max(1, workers)
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._queue: asyncio.PriorityQueue[_Job] = asyncio.PriorityQueue()
        self._order = itertools.count()
        self._dispatchers: list[asyncio.Task[None]] = []
        self._running = 0
        self._background = False  # a review kept ahead of the request is in flight

    # --- lifetime ------------------------------------------------------------------------------

    async def start(self) -> None:
        """Start and warm up the pool. Its start methods need the program's top level behind
        ``if __name__ == "__main__":`` (``python -m`` entry points have it)."""
        if not self._workers or self._pool is not None:
            return
        from core.ai import book

        book.load()  # mapped here too (the review checks it), and a missing book said once
        self._pool = self._new_pool()
        loop = asyncio.get_running_loop()
        await asyncio.gather(
            *(loop.run_in_executor(self._pool, worker_ready, 0.2) for _ in range(self._workers))
        )
        self._dispatchers = [
            asyncio.create_task(self._dispatch(), name=f"ai-dispatch-{n}")
            for n in range(self._workers)
        ]

    def _new_pool(self) -> concurrent.futures.ProcessPoolExecutor:
        return concurrent.futures.ProcessPoolExecutor(
            max_workers=self._workers,
            mp_context=self._context(),
            initializer=worker_init,
            # Built here, in the process that owns the pool: how it is pickled records which
            # thread starts the workers, which decides how they watch for its death.
            initargs=(self._warm_up, Parent.this_process(), self._budget),
        )

    def _context(self) -> multiprocessing.context.BaseContext:
        # Never "fork": forking a process that runs the store's thread (and the event loop) can
        # copy a held lock into the child. The fork server is a process of its own, with one
        # thread, that has imported and compiled the solver: forks of it share those pages.
        if self._fork_server and server.available():
            try:
                return server.context(warm=self._warm_up)
            except OSError as error:  # no Unix socket or pipe for the server (a sandbox)
                log.warning(
                    "AI fork server unavailable (%s: %s): workers start afresh",
                    type(error).__name__,
                    error,
                    extra={"action": "ai"},
                )
        # A fresh interpreter per worker: slower to start, and each holds its own copy of all.
        return multiprocessing.get_context("spawn")

    async def close(self) -> None:
        for task in self._dispatchers:
            task.cancel()
        for task in self._dispatchers:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._dispatchers = []
        while not self._queue.empty():
            job = self._queue.get_nowait()
            if not job.answer.done():
                job.answer.set_result(await job.fallback())
        if self._pool is not None:
            pool, self._pool = self._pool, None
            await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)

    # --- load ----------------------------------------------------------------------------------

    @property
    def saturated(self) -> bool:
        return self._pool is not None and self._queue.qsize() >= self._queue_limit

    def load(self, budget: float = 1.0) -> RunnerLoad:
        return RunnerLoad(
            workers=self._workers if self._pool is not None else 0,
            running=self._running,
            queued=self._queue.qsize(),
            budget=self._shrunk(budget),
        )

    def _shrunk(self, budget: float) -> float:
        workers = max(1, self._workers)
        share = (1 + self._queue.qsize() / workers) ** -2
        return max(min(budget, MIN_BUDGET), budget * share)

    # --- choosing ------------------------------------------------------------------------------

    async def choose(
        self, position: Position, level: Level, *, budget: float, interactive: bool = True
    ) -> int:
        seed = self._rng.getrandbits(64)
        if level is Level.EASY:
            # A random choice: cheaper inline than any hop to a thread.
            return choose_move(position, level, rng=random.Random(seed))
        if level is not Level.HARD or self._pool is None:
            # MEDIUM (and HARD without a pool): a thread keeps the event loop free.
            return await asyncio.to_thread(think, *args_of(position), level.value, budget, seed)

        async def search(seconds: float) -> int:
            args = (*args_of(position), Level.HARD.value, seconds, seed)
            return await self._in_pool(think, args, seconds + self._grace, fallback)

        async def fallback() -> int:
            return await self._fallback(position, seed)

        return await self._queued(search, budget, True, fallback, 0 if interactive else 1)

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
        shape = (rules.rows, rules.cols, rules.k, rules.gravity)
        args = (shape, tuple(moves), seconds, tuple(known), every_best)
        if not background:
            return await self._review(args, 0)  # a person asked and waits: never shortened
        # Work nobody waits for must never delay a move: it holds at most one worker, and is
        # not even queued while anything else waits (the caller computes it later if needed).
        # Without workers it is not run at all: a thread in the solver's compiled code would
        # hold the interpreter lock, and with it every chat's commands.
        if self._pool is None or self._background or not self._queue.empty():
            return None
        self._background = True
        try:
            return await self._review(args, 2)
        finally:
            self._background = False

    async def answer_puzzle(self, attempt: Attempt, move: int) -> Answer:
        attempt.position.play(move)  # an illegal move is refused here, not in a worker
        if self._pool is None:
            return await asyncio.to_thread(puzzle_answer, attempt, move)

        async def inline() -> Answer:
            # A worker hung or died: the answer is still checked, in a thread.
            return await asyncio.to_thread(puzzle_answer, attempt, move)

        async def run(limit: float) -> Answer:
            return await self._in_pool(puzzle_answer, (attempt, move), limit + self._grace, inline)

        return await self._queued(run, PUZZLE_SECONDS, False, inline, 0)

    async def batch(self, fn: Callable[..., T], *args: Any, seconds: float) -> T | None:
        """``fn(*args)``, work nobody waits for (an operator's command, such as generating
        puzzles), in a worker after every search, within ``seconds`` (and the grace); None
        when it did not finish. Without workers, in a thread."""
        if self._pool is None:
            return await asyncio.to_thread(fn, *args)

        async def nothing() -> None:
            return None

        async def run(limit: float) -> T | None:
            return await self._in_pool(fn, args, limit + self._grace, nothing)

        return await self._queued(run, seconds, False, nothing, 2)

    async def _review(self, args: tuple[Any, ...], priority: int) -> GameReview | None:
        if self._pool is None:
            return await asyncio.to_thread(review_in_worker, *args)

        async def nothing() -> None:
            return None

        async def run(limit: float) -> GameReview | None:
            return await self._in_pool(review_in_worker, args, limit + self._grace, nothing)

        return await self._queued(run, args[2], False, nothing, priority)

    async def _queued(
        self,
        run: Callable[[float], Awaitable[T]],
        budget: float,
        shrinks: bool,
        fallback: Callable[[], Awaitable[T]],
        priority: int,
    ) -> T:
        answer: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        job = _Job(priority, next(self._order), run, budget, shrinks, fallback, answer)
        self._queue.put_nowait(job)
        return await answer

    async def _dispatch(self) -> None:
        """One per worker: hands the most urgent waiting search to the pool when it is free."""
        while True:
            job = await self._queue.get()
            if job.answer.done():  # its caller gave up (cancelled)
                continue
            budget = self._shrunk(job.budget) if job.shrinks else job.budget
            if budget < job.budget:
                log.info(
                    "ai busy: queued=%d budget=%.2f",
                    self._queue.qsize(),
                    budget,
                    extra={"action": "ai_load", "queued": self._queue.qsize()},
                )
            self._running += 1
            try:
                result = await job.run(budget)
            finally:
                self._running -= 1
            if not job.answer.done():
                job.answer.set_result(result)

    async def _in_pool(
        self,
        fn: Callable[..., T],
        args: tuple[Any, ...],
        seconds: float,
        fallback: Callable[[], Awaitable[T]],
    ) -> T:
        """``fn(*args)`` in a worker within ``seconds``, else ``fallback()``."""
        pool = self._pool
        if pool is None:
            return await fallback()
        loop = asyncio.get_running_loop()
        try:
            async with asyncio.timeout(seconds):
                return await loop.run_in_executor(pool, fn, *args)
        except (TimeoutError, BrokenProcessPool) as error:
            # A worker hung or died: the player still gets an answer (MEDIUM's move), and a
            # broken pool is replaced so the next search runs in the pool again.
            log.error(
                "%s failed in the pool (%s); falling back",
                fn.__name__,
                type(error).__name__,
                extra={"action": "ai"},
            )
            if isinstance(error, BrokenProcessPool) and self._pool is pool:
                self._pool = self._new_pool()
                pool.shutdown(wait=False, cancel_futures=True)
            return await fallback()

    @staticmethod
    async def _fallback(position: Position, seed: int) -> int:
        args = (*args_of(position), Level.MEDIUM.value, MIN_BUDGET, seed)
        return await asyncio.to_thread(think, *args)

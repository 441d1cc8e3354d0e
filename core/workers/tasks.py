"""What the AI worker processes run: their start-up and the tasks the pool hands them.

Module level, because the pool pickles these functions by name. Each task takes picklable
arguments (the rules as a tuple, the moves) and calls the pure AI of :mod:`core.ai`.
"""

from __future__ import annotations

import contextlib
import logging
import os
import random
import signal
import time
from typing import TYPE_CHECKING

from core.ai.levels import Level
from core.ai.players import choose_move
from core.games import Position, Rules
from core.workers import server
from core.workers.orphans import Parent, die_with_parent

if TYPE_CHECKING:
    from core.ai.review import GameReview, MoveReview
    from core.puzzles.answer import Answer, Attempt

__all__ = [
    "RulesArgs",
    "args_of",
    "generate_puzzles",
    "puzzle_answer",
    "puzzles_from_games",
    "review_in_worker",
    "think",
    "worker_init",
    "worker_ready",
]

RulesArgs = tuple[int, int, int, bool]
"""A :class:`Rules` as picklable values: rows, columns, k, gravity."""

WORKER_NICENESS = 10


def worker_init(warm: bool, parent: Parent, budget: float) -> None:
    """A worker's start (the pool's initializer).

    Args:
        warm: warm the solver up here (cheap when the fork server has done it already).
        parent: the bot, made where the pool is.
        budget: the seconds a search usually gets: the solver table is sized for it.
    """
    # After a kill -9 of the bot nothing shuts the pool down: each worker watches for it.
    die_with_parent(parent, server=server.forked_from())
    # Every worker holds a solver table: no bigger than its searches can fill.
    from core.ai import engine

    engine.size_table(budget)
    # Whether the opening book is there was said once by the parent (PoolRunner.start); a
    # worker's own warning would reach stderr unformatted, once per worker.
    logging.getLogger("core.ai.book").setLevel(logging.ERROR)
    # Ctrl-C reaches the whole process group; the parent shuts the pool down in order, so the
    # workers must not die mid-task with a traceback each.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # Searches are batch work: when cores are scarce, the event loop's process (every other
    # chat's commands) should get the CPU first.
    with contextlib.suppress(AttributeError, OSError):
        os.nice(WORKER_NICENESS)
    if warm:
        from core.ai import warm_up

        warm_up()


def worker_ready(pause: float) -> int:
    """A start-up task: this worker's pid, after ``pause`` seconds."""
    # Holding each start-up task a moment spreads them over all workers, so all are started
    # (and warmed up) during start() rather than on a player's move.
    time.sleep(pause)
    return os.getpid()


def think(rules: RulesArgs, moves: tuple[int, ...], level: str, budget: float, seed: int) -> int:
    """``choose_move`` from picklable arguments (in a worker process or a thread)."""
    rows, cols, k, gravity = rules
    position = Position.from_moves(Rules(rows, cols, k, gravity=gravity), moves)
    return choose_move(position, Level(level), budget=budget, rng=random.Random(seed))


def review_in_worker(
    rules: RulesArgs,
    moves: tuple[int, ...],
    seconds: float,
    known: tuple[MoveReview, ...] = (),
    every_best: bool = False,
) -> GameReview | None:
    """``review_game`` from picklable arguments (in a worker process or a thread)."""
    from core.ai.review import review_game

    rows, cols, k, gravity = rules
    deadline = time.perf_counter() + seconds
    shape = Rules(rows, cols, k, gravity=gravity)
    return review_game(shape, moves, deadline=deadline, known=known, every_best=every_best)


def puzzle_answer(attempt: Attempt, move: int) -> Answer:
    """``core.puzzles.answer.answer`` (in a worker process or a thread)."""
    from core.puzzles.answer import answer

    return answer(attempt, move)


def generate_puzzles(seed: int, count: int, vcf: bool, seconds: float) -> list[str]:
    """Up to ``count`` new puzzles (none of the shipped sets) from games seeded with ``seed``
    (VCF on 15x15 when ``vcf``, else Connect Four), within ``seconds``: their lines
    (``core.puzzles.puzzle.to_line``)."""
    from core.puzzles import shipped
    from core.puzzles.generate import generate, generate_vcf
    from core.puzzles.puzzle import to_line

    deadline = time.perf_counter() + seconds
    made: list[str] = []
    for puzzle in generate_vcf(seed) if vcf else generate(seed):
        if shipped.by_id(puzzle.id) is None:
            made.append(to_line(puzzle))
        if len(made) >= count or time.perf_counter() >= deadline:
            break
    return made


def puzzles_from_games(games: tuple[tuple[int, ...], ...]) -> list[str]:
    """The puzzles found in played Connect Four games (``core.puzzles.generate.from_games``):
    their lines."""
    from core.puzzles.generate import from_games
    from core.puzzles.puzzle import to_line

    return [to_line(puzzle) for puzzle in from_games(list(games))]


def args_of(position: Position) -> tuple[RulesArgs, tuple[int, ...]]:
    """``position`` as the picklable arguments of :func:`think`."""
    rules = position.rules
    return (rules.rows, rules.cols, rules.k, rules.gravity), position.moves

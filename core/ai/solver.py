"""Exact solver and anytime search for k-in-a-row games, Connect Four first.

The algorithm is Pascal Pons' Connect Four solver (bitboards, negamax with alpha-beta and
null-window narrowing of the score, a transposition table of lower and upper bounds, moves
ordered by the winning spots they create and then by centrality, moves that lose at once never
tried), generalised to any board, any ``k``, with or without gravity. It lives once, in
:mod:`core.ai._solver_kernel`; boards that fit 64-bit words run a numba-compiled copy when numba
is installed and ``CHATBOTS_JIT`` is not ``0``, everything else runs the same code as plain
Python. On standard Connect Four the search stops at 12 stones and reads the exact value there
from the opening book (:mod:`core.ai.book`) when it is installed, so that every position with
at most 12 stones is solved exactly, the empty board included.

Importing this module is cheap: numba is imported on :func:`warm_up` or on first use. The
search state (transposition table, buffers) and the lock that serialises calls are those of
:mod:`core.ai.engine`.
"""

from __future__ import annotations

import math
import time

from core.ai import _solver_jit, analysis, book, book_move
from core.ai.engine import (
    FIRST_EXACT_SHARE,
    HEURISTIC_SHARE,
    Engine,
    SearchResult,
    SearchTimeout,
    deepen,
    engine_for,
    lock,
)
from core.games.position import Position
from core.games.rules import Rules

__all__ = ["SearchResult", "SearchTimeout", "accelerated", "best_move", "solve", "warm_up"]


def _check_not_over(p: Position) -> None:
    if p.is_over:
        raise ValueError(f"the game is over: {p!r}")


def solve(p: Position, *, deadline: float | None = None, plain: bool = False) -> int:
    """The exact score of ``p`` for the side to move (docs/design.md convention).

    Works for any :class:`Rules`; big boards may take very long without a deadline.

    Args:
        p: a position whose game is not over.
        deadline: a :func:`time.perf_counter` value after which to give up.
        plain: run the plain-Python kernel even where the compiled one would be used (tests
            and benchmarks compare the two).

    Raises:
        ValueError: the game is over.
        SearchTimeout: the deadline passed first.
    """
    _check_not_over(p)
    limit = math.inf if deadline is None else deadline
    with lock:
        engine = engine_for(p.rules, plain=plain)
        known = engine.book_score(p)
        if known is not None:
            return known
        engine.start(engine.table.next_generation())
        score = engine.solve_root(p, False, limit)
        if engine.aborted():
            raise SearchTimeout(f"no exact score before the deadline for {p!r}")
        return score


def best_move(p: Position, deadline: float, *, plain: bool = False) -> SearchResult:
    """The best move found before ``deadline`` (a :func:`time.perf_counter` value).

    Exact when the solver finishes in time (the move keeps the exact score); otherwise the move
    that the exact search proved to reach its best bound so far, or failing that the choice of a
    depth-limited search deepened until time ran out. An immediate win is always taken, and a
    move that lets the opponent win at once is never played when another move does not. Returns
    within a few milliseconds of the deadline, even a past one.

    Raises:
        ValueError: the game is over.
    """
    _check_not_over(p)
    with lock:
        engine = engine_for(p.rules, plain=plain)
        engine.start(engine.table.next_generation())
        remaining_plies = p.rules.cells - len(p.moves)
        safe = engine.safe_moves(p)
        if safe and not safe & (safe - 1) and not engine.wins_now(p):
            # one move does not lose at once (and none wins): it is optimal, whatever the score
            return SearchResult(engine.move_of_bit(safe), None, True, 0, 0)
        known = engine.book_score(p) if safe else None
        if known is not None:
            return book_move.book_root(engine, p, known, safe, deadline)
        # one stone beyond the book, the book's parents of the position give a floor
        floor = engine.parent_bound(p)
        started = time.perf_counter()
        budget = max(0.0, deadline - started)
        score = engine.solve_root(p, True, started + FIRST_EXACT_SHARE * budget, floor)
        if not engine.aborted():
            return _exact(engine, score, remaining_plies)
        heuristic_deadline = started + (FIRST_EXACT_SHARE + HEURISTIC_SHARE) * budget
        depth, heuristic_move = deepen(engine, p, heuristic_deadline)
        engine.resume()
        if heuristic_move is not None:
            # a search cut short has then proven the heuristic's choice when it reaches the
            # bound, rather than whichever move comes first in the static order
            engine.prefer(heuristic_move)
        score = engine.solve_root(p, True, deadline, floor)
        if not engine.aborted():
            return _exact(engine, score, remaining_plies)
        if engine.proven or heuristic_move is None:
            move = engine.move_of_bit(engine.best_bit)
        else:
            move = engine.move_of_bit(heuristic_move)
        return SearchResult(move, None, False, engine.nodes, depth)


def _exact(engine: Engine, score: int, plies: int) -> SearchResult:
    move = engine.move_of_bit(engine.best_bit)
    return SearchResult(move, score, True, engine.nodes, plies)


def warm_up() -> float:
    """Map the opening book and read its pages, and compile the accelerated paths (if numba is
    available and enabled); seconds taken."""
    started = time.perf_counter()
    opened = book.load()
    if opened is not None:
        opened.touch()
    if _solver_jit.compiled() is not None:
        from core.games.rules import CONNECT_FOUR

        for p in (
            Position.from_moves(CONNECT_FOUR, [3, 3, 3, 3, 2, 4, 2, 4, 4]),
            Position.from_moves(Rules(3, 3, 3), [4]),
        ):
            solve(p)
            best_move(p, time.perf_counter() + 0.01)
            with lock:
                engine = engine_for(p.rules)
                engine.start(engine.table.next_generation())
                engine.heuristic(p, 2, math.inf)
        # the kernel functions called from Python: a forced move, a game's analysis
        best_move(Position.from_moves(CONNECT_FOUR, [0, 6, 1, 6, 2]), math.inf)
        analysis.game_scores(Rules(4, 4, 3, gravity=True), [1, 1, 2], needs_best=lambda b, a: True)
    return time.perf_counter() - started


def accelerated() -> bool:
    """Whether boards that fit 64-bit words use the compiled kernel (imports numba if needed)."""
    return _solver_jit.compiled() is not None

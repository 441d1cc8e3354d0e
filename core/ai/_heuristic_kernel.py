"""The search kernel's fallback: a depth-limited alpha-beta on an evaluation.

Used by :func:`core.ai.solver.best_move` while the exact search of :mod:`core.ai._solver_kernel`
cannot finish in time. Written in the same numba-compilable subset, on the same ``work`` array
(its ``S_HBEST`` slot receives the best move), and compiled in the same namespace
(:mod:`core.ai._solver_jit`).
"""

from __future__ import annotations

from typing import Any

from core.ai._solver_kernel import (
    G_BOARD,
    G_CELLS,
    G_GRAVITY,
    G_MOVES,
    G_MOVES_AT,
    G_ODD_ROWS,
    S_ABORT,
    S_HBEST,
    non_losing_moves,
    popcount,
    possible_moves,
    sort_moves,
    tick,
    winning_spots,
)

WIN_BASE = 10_000  # proven results are beyond, evaluations below


def evaluate(cur: Any, mask: Any, nb: Any, work: Any) -> Any:
    """A small heuristic score for the side to move: its winning spots minus the opponent's.

    With gravity a spot counts double on the rows where it tends to decide the end game (odd
    rows from the bottom for the first player, even rows for the second: zugzwang).
    """
    mine = winning_spots(cur, mask, work)
    theirs = winning_spots(cur ^ mask, mask, work)
    score = popcount(mine) - popcount(theirs)
    if work[G_GRAVITY]:
        odd = work[G_ODD_ROWS]
        even = work[G_BOARD] ^ odd
        if nb % 2 == 0:
            score += popcount(mine & odd) - popcount(theirs & even)
        else:
            score += popcount(mine & even) - popcount(theirs & odd)
    return score


def heuristic(
    cur: Any, mask: Any, nb: Any, depth: Any, alpha: Any, beta: Any, work: Any, deadline: Any
) -> Any:
    """Depth-limited alpha-beta (no table) for when the exact search cannot finish.

    Results beyond +-WIN_BASE are proven (WIN_BASE + the exact score, docs/design.md), the
    rest evaluations.
    """
    if tick(work, deadline):
        return 0
    cells = work[G_CELLS]
    if winning_spots(cur, mask, work) & possible_moves(mask, work):
        return WIN_BASE + (cells + 1 - nb) // 2
    safe = non_losing_moves(cur, mask, work)
    if safe == 0:
        return -(WIN_BASE + (cells - nb) // 2)
    if nb >= cells - 2:
        return 0
    if depth <= 0:
        return evaluate(cur, mask, nb, work)
    count = sort_moves(cur, mask, nb, safe, work)
    base = work[G_MOVES_AT] + nb * work[G_MOVES]
    best = -(WIN_BASE + cells)
    for i in range(count - 1, -1, -1):
        move = work[base + i]
        score = -heuristic(
            cur ^ mask, mask | move, nb + 1, depth - 1, -beta, -alpha, work, deadline
        )
        if work[S_ABORT]:
            return 0
        if score > best:
            best = score
            if score > alpha:
                alpha = score
                if alpha >= beta:
                    break
    return best


def heuristic_root(cur: Any, mask: Any, nb: Any, depth: Any, work: Any, deadline: Any) -> Any:
    """:func:`heuristic` at the root of a game not over: records its best move in S_HBEST."""
    cells = work[G_CELLS]
    possible = possible_moves(mask, work)
    wins = winning_spots(cur, mask, work) & possible
    if wins:
        work[S_HBEST] = wins & -wins
        return WIN_BASE + (cells + 1 - nb) // 2
    safe = non_losing_moves(cur, mask, work)
    if safe == 0:
        work[S_HBEST] = possible & -possible
        return -(WIN_BASE + (cells - nb) // 2)
    count = sort_moves(cur, mask, nb, safe, work)
    base = work[G_MOVES_AT] + nb * work[G_MOVES]
    alpha = -(WIN_BASE + cells)
    beta = WIN_BASE + cells
    work[S_HBEST] = work[base + count - 1]
    for i in range(count - 1, -1, -1):
        move = work[base + i]
        score = -heuristic(
            cur ^ mask, mask | move, nb + 1, depth - 1, -beta, -alpha, work, deadline
        )
        if work[S_ABORT]:
            return 0
        if score > alpha:
            alpha = score
            work[S_HBEST] = move
    return alpha


# the functions the compiled copy compiles, callees first
HEURISTIC_FUNCTIONS = ("evaluate", "heuristic", "heuristic_root")

"""Exact analysis of whole games on the solver's engine: every position's score and optimal
moves (what :mod:`core.ai.review` reports)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from core.ai import book, solver
from core.games.position import Position
from core.games.rules import Rules

__all__ = ["OPENING_PLIES", "game_scores"]

# game_scores keeps what it found for positions with up to this many stones: every game passes
# through a few of them, and the first plies are the slowest to analyse (tens of ms each)
OPENING_PLIES = 4

_openings: dict[Position, tuple[int, tuple[int, ...]]] = {}


def game_scores(
    rules: Rules, moves: Sequence[int], *, deadline: float | None = None
) -> list[tuple[int, tuple[int, ...]]]:
    """For each position of a game that is not over, its exact score (DESIGN.md, for the side
    to move) and its optimal moves (those that keep that score), ascending.

    The positions are those before each of ``moves``, from the empty board. One search
    generation serves the whole game, so the searches share their table entries. Whether a move
    is optimal is a null-window search around the known score, cheaper than a score; after an
    optimal move the next score is known without a search.

    Raises:
        IllegalMove: ``moves`` is not a game of ``rules``.
        SearchTimeout: the deadline passed first.
    """
    positions = [Position.start(rules)]
    for move in moves:
        if positions[-1].is_over:
            break
        positions.append(positions[-1].play(move))
    positions = [p for p in positions if not p.is_over]
    limit = math.inf if deadline is None else deadline
    with solver._lock:
        engine = solver._engine(rules)
        generation = engine.table.next_generation()
        found: list[tuple[int, tuple[int, ...]]] = []
        for p in positions:
            known = _openings.get(p)
            if known is None:
                if found and p.moves[-1] in found[-1][1]:
                    score = -found[-1][0]  # an optimal move keeps the score
                else:
                    score = _exact_score(engine, p, generation, limit)
                best = tuple(m for m in p.legal_moves() if _keeps(engine, p, m, score, limit))
                known = score, best
                if len(p.moves) <= OPENING_PLIES:
                    _openings[p] = known
            found.append(known)
        return found


def _exact_score(engine: solver._Engine, p: Position, generation: int, deadline: float) -> int:
    known = engine.book_score(p)
    if known is not None:
        return known
    engine.start(generation)
    score = engine.solve_root(p, False, deadline)
    if engine.aborted():
        raise solver.SearchTimeout(f"no exact score before the deadline for {p!r}")
    return score


def _keeps(engine: solver._Engine, p: Position, move: int, score: int, deadline: float) -> bool:
    """Whether ``move`` reaches ``score``, the exact score of ``p`` (so it can do no better)."""
    child = p.play(move)
    if child.winner is not None:
        return (p.rules.cells + 1 - len(p.moves)) // 2 == score
    if child.is_draw:
        return score == 0
    cur, mask, nb = solver._bitboards(child)
    functions = engine.functions
    if functions["winning_spots"](cur, mask, engine.work) & functions["possible_moves"](
        mask, engine.work
    ):
        return -((p.rules.cells - len(p.moves)) // 2) == score  # the opponent wins at once
    # the child scores at least -score; it is optimal unless it scores more
    if engine.has_book and nb == book.BOOK_PLY + 1:
        # one stone beyond the book: the child's other parents in it may show that at once
        height, cols = engine.height, p.rules.cols
        if functions["book_parent_bound"](cur, mask, nb, height, cols, engine.book) > -score:
            return False
    engine.resume()
    value = functions["negamax"](
        cur, mask, nb, -score, -score + 1, engine.work, deadline, engine.table.keys,
        engine.table.values, engine.book,
    )  # fmt: skip
    if engine.aborted():
        raise solver.SearchTimeout(f"no exact score before the deadline for {child!r}")
    return bool(value <= -score)

"""Exact analysis of whole games on the solver's engine (:mod:`core.ai.engine`): the value of
every move played, and the optimal moves where the review asks for them (what
:mod:`core.ai.review` reports)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from core.ai._book_kernel import BOOK_MISSING
from core.ai.engine import Engine, SearchTimeout, engine_for, lock
from core.games.position import Position
from core.games.rules import Rules

__all__ = ["OPENING_PLIES", "MoveScores", "game_scores", "with_every_best"]

# game_scores keeps the scores it found for positions with up to this many stones: every game
# passes through a few of them, and the first plies are the slowest to analyse (tens of ms each)
OPENING_PLIES = 4

_openings: dict[Position, int] = {}


@dataclass(frozen=True, slots=True)
class MoveScores:
    """The exact value of one move of a game, for the side that played it.

    Attributes:
        before: the score (docs/design.md) of the position before the move.
        after: the score once the move is played (``before`` when the move is optimal).
        best: the optimal moves of the position, ascending, where the caller asked for them;
            else empty.
    """

    before: int
    after: int
    best: tuple[int, ...]


def game_scores(
    rules: Rules,
    moves: Sequence[int],
    *,
    needs_best: Callable[[int, int], bool],
    deadline: float | None = None,
    known: Sequence[MoveScores] = (),
) -> list[MoveScores]:
    """The exact value of each move of a game, before and after it is played.

    Only the move played is examined: whether it keeps the position's score is one null-window
    search of the position it leads to, and then that position's score is known without a
    search. The optimal moves of a position are searched only where ``needs_best(before,
    after)`` is true (the review's mistakes), since each of them costs a search. One search
    generation serves the whole game, so the searches share their table entries.

    Args:
        rules: the game's rules (any board the solver handles).
        moves: the moves played, from the empty board (moves after the end are ignored).
        needs_best: whether to find the optimal moves of a position, given the mover's score
            before and after the move played.
        deadline: a :func:`time.perf_counter` value after which to give up.
        known: what an earlier call found for the first moves of the same game (a review kept
            while the game went on): taken as it is, and the search starts after it. Scores
            are exact, so the result is the same as without it.

    Raises:
        IllegalMove: ``moves`` is not a game of ``rules``.
        SearchTimeout: the deadline passed first.
    """
    limit = math.inf if deadline is None else deadline
    found = list(known[: len(moves)])
    p = Position.from_moves(rules, moves[: len(found)])
    if len(found) == len(moves):
        return found
    with lock:
        engine = engine_for(rules)
        generation = engine.table.next_generation()
        engine.start(generation)
        score = -found[-1].after if found else _cached_score(engine, p, generation, limit)
        for move in moves[len(found) :]:
            if p.is_over:
                break
            after = _after(engine, p, move, score, generation, limit)
            best: tuple[int, ...] = ()
            if needs_best(score, after):
                best = _optimal_moves(engine, p, move, score, after, limit)
            found.append(MoveScores(score, after, best))
            p = p.play(move)
            score = -after
        return found


def with_every_best(
    rules: Rules,
    moves: Sequence[int],
    scores: Sequence[MoveScores],
    *,
    deadline: float | None = None,
) -> list[MoveScores]:
    """``scores`` (exact, of the game ``moves``, as :func:`game_scores` found them, maybe kept
    from earlier) with the optimal moves of every position where they lack them: the values
    are not searched again, only each position's other moves.

    Raises:
        SearchTimeout: the deadline passed first.
    """
    limit = math.inf if deadline is None else deadline
    found = []
    p = Position.start(rules)
    with lock:
        engine = engine_for(rules)
        engine.start(engine.table.next_generation())
        for move, scored in zip(moves, scores, strict=False):
            best = scored.best or _optimal_moves(
                engine, p, move, scored.before, scored.after, limit
            )
            found.append(MoveScores(scored.before, scored.after, best))
            p = p.play(move)
    return found


def _cached_score(engine: Engine, p: Position, generation: int, deadline: float) -> int:
    score = _openings.get(p)
    if score is None:
        score = _exact_score(engine, p, generation, deadline)
        if len(p.moves) <= OPENING_PLIES:
            _openings[p] = score
    return score


def _after(
    engine: Engine, p: Position, move: int, score: int, generation: int, deadline: float
) -> int:
    """The exact score of ``move`` for the side to move in ``p``, whose exact score is
    ``score``."""
    child = p.play(move)
    known = _settled(p, child)
    if known is not None:
        return known
    if _keeps(engine, p, child, score, deadline):
        value = -score
    else:
        # the child scores more than -score (and at least its book parents' bound)
        floor = max(-score + 1, engine.parent_bound(child))
        value = _exact_score(engine, child, generation, deadline, floor)
    if len(child.moves) <= OPENING_PLIES:
        _openings[child] = value
    return -value


def _optimal_moves(
    engine: Engine, p: Position, played: int, score: int, after: int, deadline: float
) -> tuple[int, ...]:
    """The moves of ``p`` that reach ``score``, its exact score, ascending; ``played`` reaches
    ``after``."""
    best = [played] if after == score else []
    others = [m for m in p.legal_moves() if m != played]
    if p.rules.gravity:
        # the central columns are the likelier to be optimal: they go last, where a search
        # may be saved
        centre = p.rules.cols - 1
        others.sort(key=lambda m: -abs(2 * m - centre))
    for index, move in enumerate(others):
        if not best and index == len(others) - 1:
            best.append(move)  # some move reaches the score, and every other one falls short
        elif _optimal(engine, p, move, score, deadline):
            best.append(move)
    return tuple(sorted(best))


def _optimal(engine: Engine, p: Position, move: int, score: int, deadline: float) -> bool:
    """Whether ``move`` reaches ``score``, the exact score of ``p``."""
    child = p.play(move)
    known = _settled(p, child)
    if known is not None:
        return known == score
    return _keeps(engine, p, child, score, deadline)


def _settled(p: Position, child: Position) -> int | None:
    """The score of the move from ``p`` to ``child`` for its mover when it needs no search: the
    game is over, or the child's score is kept."""
    if child.winner is not None:
        return (p.rules.cells + 1 - len(p.moves)) // 2
    if child.is_draw:
        return 0
    known = _openings.get(child)
    return None if known is None else -known


def _exact_score(
    engine: Engine,
    p: Position,
    generation: int,
    deadline: float,
    floor: int = -BOOK_MISSING,
) -> int:
    """The exact score of ``p``, known to be at least ``floor``."""
    known = engine.book_score(p)
    if known is not None:
        return known
    engine.start(generation)
    score = engine.solve_root(p, False, deadline, floor)
    if engine.aborted():
        raise SearchTimeout(f"no exact score before the deadline for {p!r}")
    return score


def _keeps(engine: Engine, p: Position, child: Position, score: int, deadline: float) -> bool:
    """Whether ``child``, a position after one move from ``p`` that is not over, reaches
    ``score``, the exact score of ``p`` (so the move can do no better)."""
    if engine.wins_now(child):
        return -((p.rules.cells - len(p.moves)) // 2) == score  # the opponent wins at once
    # the child scores at least -score; it is optimal unless it scores more, which its other
    # parents in the book may show at once (one stone beyond the book)
    if engine.parent_bound(child) > -score:
        return False
    value = engine.null_window(child, -score, deadline)
    if engine.aborted():
        raise SearchTimeout(f"no exact score before the deadline for {child!r}")
    return bool(value <= -score)

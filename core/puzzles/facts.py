"""The solver's checks that make a puzzle a fact, and the scores they are read from.

Scores follow Pascal Pons' convention (docs: /work/shared/DESIGN.md "Scores"), as
:func:`core.ai.solver.solve` returns them: positive when the side to move wins, larger for a
faster win. Every check here reads exact scores, never a stored line.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.ai import solver
from core.games.position import Position
from core.puzzles import vcf
from core.puzzles.puzzle import Puzzle, Theme

MAX_DEPTH = 10
LOST = -(1 << 20)  # below any score: the side to move has already lost


class NotAFact(ValueError):
    """A puzzle the solver does not confirm."""


def score(p: Position, deadline: float | None = None) -> int:
    """The exact score for the side to move of ``p``, over or not.

    Raises:
        SearchTimeout: the deadline passed first.
    """
    if p.winner is not None:
        return LOST  # the last stone won: the side to move has lost
    if p.is_over:
        return 0
    return solver.solve(p, deadline=deadline)


def moves_to_win(win_score: int, stones: int, cells: int) -> int:
    """How many of the winner's own moves a win of ``win_score`` takes from ``stones`` stones.

    The winner moves with ``stones`` on the board; their ``n``-th move is played on
    ``stones + 2 * (n - 1)`` stones, and a winning stone played on ``s`` stones scores
    ``(cells + 1 - s) // 2``.
    """
    if win_score <= 0:
        raise ValueError(f"not a win: {win_score}")
    n = 1
    while (cells + 1 - (stones + 2 * (n - 1))) // 2 > win_score:
        n += 1
    if (cells + 1 - (stones + 2 * (n - 1))) // 2 != win_score:
        raise ValueError(f"score {win_score} is not reachable from {stones} stones")
    return n


def move_values(p: Position, deadline: float | None = None) -> dict[int, int]:
    """Each legal move's exact value for the side to move of ``p`` (the child's score negated;
    an immediate win counts as the best possible score)."""
    values: dict[int, int] = {}
    for move in p.legal_moves():
        child = p.play(move)
        values[move] = move_value(child, deadline)
    return values


def move_value(child: Position, deadline: float | None = None) -> int:
    """The exact value of the move that made ``child`` for the side that played it."""
    if child.winner is not None:
        return (child.rules.cells + 1 - (len(child.moves) - 1)) // 2
    return -score(child, deadline)


def classify(p: Position, deadline: float | None = None) -> tuple[Theme, int, int] | None:
    """The puzzle ``p`` makes, as (theme, depth, solution), or None.

    A win in N when exactly one move wins (and it wins in N <= :data:`MAX_DEPTH`); a hold when
    exactly one move does not lose and the others lose.

    Raises:
        SearchTimeout: the deadline passed first.
    """
    if p.is_over:
        return None
    values = move_values(p, deadline)
    return _classify(values, len(p.moves), p.rules.cells)


def _classify(values: dict[int, int], stones: int, cells: int) -> tuple[Theme, int, int] | None:
    if len(values) < 2:
        return None  # a forced move is no puzzle
    winning = [move for move, value in values.items() if value > 0]
    if len(winning) == 1:
        depth = moves_to_win(values[winning[0]], stones, cells)
        return (Theme.WIN, depth, winning[0]) if depth <= MAX_DEPTH else None
    if winning:
        return None
    holding = [move for move, value in values.items() if value == 0]
    if len(holding) == 1:
        return Theme.HOLD, 1, holding[0]
    return None


def tempting(values: dict[int, int], solution: int, medium: Sequence[int]) -> int:
    """The wrong moves that look good: those that do not lose, or that a person (the MEDIUM
    level, ``medium``) would play."""
    return sum(
        1 for move, value in values.items() if move != solution and (value >= 0 or move in medium)
    )


def difficulty(theme: Theme, depth: int, tempting_moves: int) -> int:
    """A starting rating: deeper and with more tempting wrong moves is harder."""
    base = {Theme.WIN: 1000, Theme.HOLD: 1100, Theme.VCF: 1100}[theme]
    return base + 120 * (depth - 1) + 80 * tempting_moves


def classify_vcf(p: Position) -> tuple[Theme, int, int] | None:
    """The VCF puzzle ``p`` makes, as (theme, N, solution), or None: the side to move wins by
    fours in N moves (2 <= N <= :data:`vcf.MAX_FOURS`) and by one first move only."""
    if p.is_over:
        return None
    depth = vcf.shortest(p)
    if depth is None or depth < 2:
        return None
    firsts = vcf.winning_firsts(p, depth)
    return (Theme.VCF, depth, firsts[0]) if len(firsts) == 1 else None


def verify(puzzle: Puzzle, deadline: float | None = None) -> None:
    """Check ``puzzle``: its first move is the only good one and N is exact (the exact solver
    under gravity, :mod:`core.puzzles.vcf`'s own search for a VCF).

    Raises:
        NotAFact: the solver disagrees; the message says how.
        SearchTimeout: the deadline passed first.
    """
    p = puzzle.position
    found = classify_vcf(p) if puzzle.theme is Theme.VCF else classify(p, deadline)
    stated = (puzzle.theme, puzzle.depth, puzzle.solution)
    if found != stated:
        raise NotAFact(f"puzzle {puzzle.id}: stated {stated}, the solver finds {found}")

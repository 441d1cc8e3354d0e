"""The puzzle value and its one-line text form (the shipped set's format)."""

from __future__ import annotations

import enum
import hashlib
from dataclasses import dataclass, field

from core.games.position import Position
from core.games.rules import Rules


class Theme(enum.Enum):
    WIN = "win"  # win in N of the solver's moves; the first move is the only winning one
    HOLD = "hold"  # the only move that does not lose
    VCF = "vcf"  # on a free board: win by continuous fours in N, by one first move only


@dataclass(frozen=True)
class Puzzle:
    """A position, its theme and its proven first move.

    ``moves`` (0-based columns) lead from the empty board to the start position; ``depth`` is
    N, the attacker's moves to the win (1 for a hold); ``solution`` is the only good first move.
    ``answers``: an added puzzle's answer tree and refutations as the store keeps them
    (:func:`core.puzzles.lines.answers_of`; a shipped puzzle's are in ``data/``), not part of
    what the puzzle is.
    """

    id: str
    theme: Theme
    rules: Rules
    moves: tuple[int, ...]
    depth: int
    solution: int
    difficulty: int
    answers: str | None = field(default=None, compare=False, repr=False)

    @property
    def position(self) -> Position:
        return Position.from_moves(self.rules, self.moves)

    @property
    def side_to_move(self) -> int:
        return len(self.moves) % 2 + 1


def puzzle_id(theme: Theme, rules: Rules, moves: tuple[int, ...]) -> str:
    """A short id that is the same wherever the puzzle is made: a digest of what defines it."""
    key = f"{theme.value}:{rules.rows}x{rules.cols}k{rules.k}:{','.join(map(str, moves))}"
    return hashlib.sha1(key.encode()).hexdigest()[:10]


def make(
    theme: Theme, rules: Rules, moves: tuple[int, ...], depth: int, solution: int, difficulty: int
) -> Puzzle:
    return Puzzle(puzzle_id(theme, rules, moves), theme, rules, moves, depth, solution, difficulty)


# One line per puzzle: id theme rowsxcols/k moves depth solution difficulty, moves and solution
# 1-based. Under gravity the moves are column digits (the convention of the solver's published
# test sets); on a free board ("/kf") cell numbers joined by dots.
def to_line(p: Puzzle) -> str:
    if p.rules.gravity:
        moves = "".join(str(move + 1) for move in p.moves)
    else:
        moves = ".".join(str(move + 1) for move in p.moves)
    shape = f"{p.rules.rows}x{p.rules.cols}/{p.rules.k}{'' if p.rules.gravity else 'f'}"
    return f"{p.id},{p.theme.value},{shape},{moves},{p.depth},{p.solution + 1},{p.difficulty}"


def from_line(line: str) -> Puzzle:
    """Parse :func:`to_line`'s form.

    Raises:
        ValueError: the line is malformed or its id does not match its content.
    """
    ident, theme_name, shape, written, depth, solution, difficulty = line.strip().split(",")
    size, k = shape.split("/")
    rows, cols = size.split("x")
    gravity = not k.endswith("f")
    rules = Rules(int(rows), int(cols), int(k.removesuffix("f")), gravity=gravity)
    moves = tuple(int(m) - 1 for m in (written if gravity else written.split(".")))
    theme = Theme(theme_name)
    puzzle = Puzzle(ident, theme, rules, moves, int(depth), int(solution) - 1, int(difficulty))
    if ident != puzzle_id(theme, rules, moves):
        raise ValueError(f"id {ident!r} does not match the puzzle on line {line.strip()!r}")
    return puzzle

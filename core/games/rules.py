"""Game rules: board size, line length and whether stones fall (gravity)."""

from __future__ import annotations

from dataclasses import dataclass

MIN_SIDE = 3
MAX_SIDE = 25
COLUMN_LETTERS = "abcdefghijklmnopqrstuvwxy"
"""The letter of each column in a coordinate (``b2``: column b, row 2 from the top), one per
column of the widest board."""
MIN_K = 3


@dataclass(frozen=True, slots=True)
class Rules:
    """The rules of one k-in-a-row game.

    Args:
        rows: board height, 3..25.
        cols: board width, 3..25.
        k: stones in a row that win, 3..max(rows, cols).
        gravity: True when a move names a column and the stone falls to the lowest empty cell
            (Connect Four); False when a move names any empty cell (tic-tac-toe).

    Raises:
        ValueError: a value is out of range; the message names it and the allowed range.
    """

    rows: int
    cols: int
    k: int
    gravity: bool = False

    def __post_init__(self) -> None:
        for name in ("rows", "cols", "k"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise ValueError(f"{name} must be a whole number, got {value!r}")
        for name, value in (("rows", self.rows), ("cols", self.cols)):
            if not MIN_SIDE <= value <= MAX_SIDE:
                raise ValueError(f"{name} must be between {MIN_SIDE} and {MAX_SIDE}, got {value!r}")
        longest = max(self.rows, self.cols)
        if not MIN_K <= self.k <= longest:
            raise ValueError(
                f"k must be between {MIN_K} and {longest} on a {self.rows}x{self.cols} board,"
                f" got {self.k!r}"
            )
        if not isinstance(self.gravity, bool):
            raise ValueError(f"gravity must be True or False, got {self.gravity!r}")

    @property
    def cells(self) -> int:
        """Number of cells on the board."""
        return self.rows * self.cols

    @property
    def move_count(self) -> int:
        """Number of distinct moves: columns with gravity, cells without."""
        return self.cols if self.gravity else self.cells

    def __repr__(self) -> str:
        return f"Rules({self.rows}, {self.cols}, {self.k}, gravity={self.gravity})"


TICTACTOE = Rules(3, 3, 3, gravity=False)
CONNECT_FOUR = Rules(6, 7, 4, gravity=True)

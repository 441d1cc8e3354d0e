"""Boards drawn as plain text, shared by the console and the Matrix plain ``body``.

One line per board row, cells separated by spaces, ``X`` and ``O`` for the marks and ``·`` for an
empty cell, column letters above and row numbers on the left (docs/design.md, "Matrix").
"""

from __future__ import annotations

from core.games.rules import COLUMN_LETTERS as COLUMN_LETTERS  # drawn here; adapters use it
from core.replies import BoardView

MARKS = ("·", "X", "O")


def board_lines(board: BoardView) -> list[str]:
    """The board as text lines: a header of column labels, then one line per row."""
    rules = board.rules
    row_width = len(str(rules.rows))
    header = " " * row_width + " " + " ".join(COLUMN_LETTERS[: rules.cols])
    lines = [header.rstrip()]
    for r, row in enumerate(board.rows):
        marks = " ".join(MARKS[cell.mark] for cell in row)
        lines.append(f"{r + 1:>{row_width}} {marks}")
    return lines


def board_text(board: BoardView) -> str:
    """The board as one block of text (see :func:`board_lines`)."""
    return "\n".join(board_lines(board))

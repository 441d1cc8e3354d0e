"""Boards drawn as plain text, shared by the console and the Matrix plain ``body``.

One line per board row, cells separated by spaces, ``X`` and ``O`` for the marks and ``·`` for an
empty cell, column letters above and row numbers on the left (docs/design.md, "Matrix").
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from core.admin.durations import DAY, HOUR, MINUTE
from core.games import Rules
from core.games.rules import COLUMN_LETTERS as COLUMN_LETTERS  # drawn here; adapters use it
from core.i18n import Text
from core.replies import BoardView, WebLink

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


def move_label(rules: Rules, move: int) -> str:
    """A move as players type it: a column number under gravity, else a coordinate (``b2``).
    The review, the pages and the puzzles name moves with it."""
    return str(move + 1) if rules.gravity else cell_name(rules, move)


def cell_name(rules: Rules, cell: int) -> str:
    """A cell's coordinate on any board: its column letter and row number from the top
    (``b2``), as the boards' edges show them (a winning line, a threat, on gravity boards too)."""
    row, col = divmod(cell, rules.cols)
    return f"{COLUMN_LETTERS[col]}{row + 1}"


def link_lines(links: Sequence[WebLink], locale: str) -> list[str]:
    """A reply's links to the web pages as lines of text (``This game on the web:
    https://...``), for platforms without link buttons (Matrix, the console): the address
    whole, so that a client that makes links of addresses makes one."""
    return [f"{link.label.render(locale)}: {link.url}" for link in links]


def board_text(board: BoardView) -> str:
    """The board as one block of text (see :func:`board_lines`)."""
    return "\n".join(board_lines(board))


# The largest unit that still reads exactly enough: "2 days", "5 hours", "4 minutes", "45 seconds".
_SPANS = (("days", DAY), ("hours", HOUR), ("minutes", MINUTE))


def time_left(seconds: float) -> Text:
    """A span of time in words (``4 minutes``), to the nearest of its largest unit that is at
    least two (so 90 seconds stay "90 seconds"); never below one second."""
    whole = max(1, round(seconds))
    for name, size in _SPANS:
        if whole >= 2 * size:
            return Text(f"game.span.{name}", {"n": round(whole / size)})
    return Text("game.span.seconds", {"n": whole})


def clock_words(seconds: float) -> Text:
    """A clock in words, in its largest whole unit (``1 day``, ``90 seconds``)."""
    whole = round(seconds)
    for name, size in _SPANS:
        if whole >= size and whole % size == 0:
            return Text(f"game.span.{name}", {"n": whole // size})
    return time_left(seconds)


def status_line(board: BoardView, locale: str, now: float | None = None) -> str:
    """The board's status line in ``locale``, with what is left of the mover's clock in words
    when the game runs on one (Matrix and the console, which cannot count down by themselves;
    the words are as of ``now``, by default the time of drawing)."""
    line = board.status.render(locale)
    if board.deadline is None:
        return line
    left = board.deadline - (time.time() if now is None else now)
    return f"{line} {Text('game.clock_left', {'left': time_left(left)}).render(locale)}"

"""Boards as the players see them: grids read from Discord messages and Matrix bodies.

A grid is a tuple of rows of marks (0 empty, 1 X, 2 O), row 0 at the top, the same as
``Position.cell``. The drivers decide everything from what the bot showed them (whose turn, is
the game over, did my move land) and never from the store: the store is what the check reads
afterwards, and a driver that peeked at it could not catch the store and the screen disagreeing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from adapters.discord.ids import MoveId, parse_custom_id
from core.games import Position, Rules
from tests.e2e.discord_double import buttons

Grid = tuple[tuple[int, ...], ...]
Json = dict[str, Any]

_VS16 = "\ufe0f"  # emoji presentation selector: "🅾️" is U+1F17E followed by it
# Discord: marks on cell buttons, and the cells of a gravity board drawn as emoji in the text
# (the winning line uses the boxed forms).
_DISCORD_MARKS = {"⚫": 0, "❌": 1, "❎": 1, "⭕": 2, "🅾": 2}
# Matrix: the plain body, one line per row: the row number, then the cells.
_MATRIX_ROW = re.compile(r"^\s*(\d+) ([·XO](?: [·XO])*)\s*$")
_MATRIX_MARKS = {"·": 0, "X": 1, "O": 2}


def stones(grid: Grid) -> int:
    """How many marks are on the board (the number of moves played)."""
    return sum(1 for row in grid for mark in row if mark)


def side_to_move(grid: Grid) -> int:
    """1 (X) or 2 (O): X always plays first, so the count of stones says whose turn it is."""
    return 1 + stones(grid) % 2


def winner(grid: Grid, k: int) -> int | None:
    """The mark with k in a row (row, column or diagonal), or None."""
    rows, cols = len(grid), len(grid[0])
    for r in range(rows):
        for c in range(cols):
            mark = grid[r][c]
            if not mark:
                continue
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                end_r, end_c = r + (k - 1) * dr, c + (k - 1) * dc
                if not (0 <= end_r < rows and 0 <= end_c < cols):
                    continue
                if all(grid[r + i * dr][c + i * dc] == mark for i in range(k)):
                    return mark
    return None


def is_over(grid: Grid, rules: Rules) -> bool:
    """Won, or no empty cell left."""
    return winner(grid, rules.k) is not None or all(mark for row in grid for mark in row)


def landing(grid: Grid, rules: Rules, move: int) -> tuple[int, int] | None:
    """Where ``move`` puts a stone on ``grid``: (row, column), or None when it cannot."""
    if rules.gravity:
        for row in range(rules.rows - 1, -1, -1):
            if grid[row][move] == 0:
                return row, move
        return None
    row, col = divmod(move, rules.cols)
    return (row, col) if grid[row][col] == 0 else None


def legal_moves(grid: Grid, rules: Rules) -> list[int]:
    """The moves a player may make on ``grid`` (cells, or columns with gravity)."""
    if is_over(grid, rules):
        return []
    if rules.gravity:
        return [c for c in range(rules.cols) if grid[0][c] == 0]
    return [
        r * rules.cols + c for r in range(rules.rows) for c in range(rules.cols) if not grid[r][c]
    ]


def shows_move(before: Grid, after: Grid, rules: Rules, move: int, mark: int) -> bool:
    """Whether ``after`` (a board the bot showed) has ``move`` played by ``mark`` on ``before``."""
    spot = landing(before, rules, move)
    if spot is None or stones(after) <= stones(before):
        return False
    return after[spot[0]][spot[1]] == mark


def grid_of_moves(rules: Rules, moves: Sequence[int]) -> Grid:
    """The grid after ``moves`` (the store's history), through the project's own rules."""
    position = Position.from_moves(rules, list(moves))
    return tuple(tuple(position.cell(r, c) for c in range(rules.cols)) for r in range(rules.rows))


def empty_grid(rules: Rules) -> Grid:
    return tuple((0,) * rules.cols for _ in range(rules.rows))


# --- Discord ------------------------------------------------------------------------------------


def move_buttons(message: Json) -> list[tuple[MoveId, Json]]:
    """The move buttons (cells or columns) of a message, in order, with what they name."""
    found = []
    for button in buttons(message):
        parsed = parse_custom_id(str(button.get("custom_id", "")))
        if isinstance(parsed, MoveId):
            found.append((parsed, button))
    return found


def discord_grid(message: Json, rules: Rules) -> Grid | None:
    """The board a Discord message shows, or None when it shows none of that shape.

    Free boards: one button per cell, the mark as the button's emoji. Gravity boards: the board
    is drawn in the text as one line of emoji per row (the buttons are the columns).
    """
    if not rules.gravity:
        cells = move_buttons(message)
        if len(cells) != rules.rows * rules.cols:
            return None
        marks = [
            _DISCORD_MARKS.get(
                str((button.get("emoji") or {}).get("name", "")).replace(_VS16, ""), 0
            )
            for _, button in cells
        ]
        return tuple(tuple(marks[r * rules.cols : (r + 1) * rules.cols]) for r in range(rules.rows))
    rows: list[tuple[int, ...]] = []
    for line in str(message.get("content", "")).split("\n"):
        text = line.strip().replace(_VS16, "")
        if len(text) == rules.cols and all(ch in _DISCORD_MARKS for ch in text):
            rows.append(tuple(_DISCORD_MARKS[ch] for ch in text))
    return tuple(rows) if len(rows) == rules.rows else None


def session_of(message: Json) -> str | None:
    """The session a Discord board belongs to (every move button names it)."""
    cells = move_buttons(message)
    return cells[0][0].session_id if cells else None


# --- Matrix -------------------------------------------------------------------------------------


def matrix_grid(body: str, rules: Rules) -> Grid | None:
    """The board of a Matrix plain body (column letters, then ``N cells...`` per row)."""
    rows: list[tuple[int, ...]] = []
    for line in body.split("\n"):
        match = _MATRIX_ROW.match(line)
        if match is None:
            if rows:
                break
            continue
        cells = match.group(2).split(" ")
        if int(match.group(1)) != len(rows) + 1 or len(cells) != rules.cols:
            return None
        rows.append(tuple(_MATRIX_MARKS[cell] for cell in cells))
    return tuple(rows) if len(rows) == rules.rows else None

"""The select menus of picture boards: pick a column, then a cell in it (Components V2).

Like the buttons (:mod:`adapters.discord.ids`), a select carries no state of its own: its
``custom_id`` names the session and the version of the board it was drawn from, and its options'
values say the rest, so a board posted before a restart keeps working.

Formats (at most 100 characters)::

    c4:col:<session>:<version>     pick a column; an option's value is COL:COLS:FREE, FREE the
                                   free rows of that column as a hexadecimal bit mask
    c4:cell:<session>:<version>    pick a cell of that column; an option's value is the cell

Picking a column plays nothing: the board's cell menu is redrawn with that column's free cells.
Picking a cell is a move, checked by the service like a button's (a stale board, a forged value
and an occupied cell get the same answers).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from adapters.discord.ids import _SESSION, _VERSION, MAX_LENGTH

COLUMN_TEMPLATE = rf"c4:col:{_SESSION}:{_VERSION}"
CELL_TEMPLATE = rf"c4:cell:{_SESSION}:{_VERSION}"
MENU_TEMPLATE = rf"c4:(?:col|cell):{_SESSION}:{_VERSION}"  # either menu
_COLUMN = re.compile(COLUMN_TEMPLATE)
_CELL = re.compile(CELL_TEMPLATE)
_COLUMN_VALUE = re.compile(r"(?P<col>[0-9]{1,2}):(?P<cols>[0-9]{1,2}):(?P<free>[0-9a-f]{1,7})")


@dataclass(frozen=True, slots=True)
class ColumnPick:
    """The column menu of ``session_id``'s board at ``version``."""

    session_id: str
    version: int

    def encode(self) -> str:
        return _checked(f"c4:col:{self.session_id}:{self.version}", _COLUMN)


@dataclass(frozen=True, slots=True)
class CellPick:
    """The cell menu of ``session_id``'s board at ``version``."""

    session_id: str
    version: int

    def encode(self) -> str:
        return _checked(f"c4:cell:{self.session_id}:{self.version}", _CELL)


Pick = ColumnPick | CellPick


@dataclass(frozen=True, slots=True)
class Column:
    """A column option's value: which column, the board's width, its free rows."""

    col: int
    cols: int
    free_rows: tuple[int, ...]

    def encode(self) -> str:
        mask = sum(1 << row for row in self.free_rows)
        return f"{self.col}:{self.cols}:{mask:x}"

    def cells(self) -> tuple[int, ...]:
        """The free cells of the column, top to bottom."""
        return tuple(row * self.cols + self.col for row in self.free_rows)


def _checked(custom_id: str, pattern: re.Pattern[str]) -> str:
    if len(custom_id) > MAX_LENGTH or pattern.fullmatch(custom_id) is None:
        raise ValueError(f"cannot make a select id from {custom_id!r}")
    return custom_id


def parse_pick(custom_id: str) -> Pick | None:
    """The select a ``custom_id`` names, or None when it is not one of ours."""
    if (match := _COLUMN.fullmatch(custom_id)) is not None:
        return ColumnPick(match["session"], int(match["version"]))
    if (match := _CELL.fullmatch(custom_id)) is not None:
        return CellPick(match["session"], int(match["version"]))
    return None


def parse_column(value: str) -> Column | None:
    """A column option's value, or None when it is not one (a forged selection)."""
    match = _COLUMN_VALUE.fullmatch(value)
    if match is None:
        return None
    col, cols, mask = int(match["col"]), int(match["cols"]), int(match["free"], 16)
    if not 0 <= col < cols <= 25 or mask >= 1 << 25:
        return None
    return Column(col, cols, tuple(row for row in range(25) if mask >> row & 1))


def parse_cell(value: str) -> int | None:
    """A cell option's value, or None when it is not one."""
    return int(value) if value.isdigit() and len(value) <= 3 else None

"""The ``custom_id`` of every component of ours, and the values of our menus' options: the one
module that writes and reads them.

A component carries no state of its own: its ``custom_id`` only names a session in the store,
the version of the board it was drawn from and, for a button, the move or action, so a board
posted before a restart keeps working. A click is parsed once, by :func:`parse_custom_id`, where
it arrives (``GameBot.on_interaction``); the parsed value travels from there.

Formats (at most 100 characters, Discord's limit)::

    c4:move:<session>:<version>:<move>     a button: a cell (free boards) or a column (gravity)
    c4:act:<session>:<version>:<action>    a button: any ActionKind value (accept, rematch...)
    c4:col:<session>:<version>             a picture board's column menu; an option's value is
                                           COL:COLS:FREE, FREE the free rows of that column as
                                           a hexadecimal bit mask (:class:`Column`)
    c4:cell:<session>:<version>            its cell menu; an option's value is the cell

Picking a column plays nothing: the board's cell menu is redrawn with that column's free cells.
Picking a cell is a move, checked by the service like a button's (a stale board, a forged value
and an occupied cell get the same answers).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from core.replies import ActionKind

MAX_LENGTH = 100  # Discord's limit for a custom_id
_PATTERN = re.compile(
    r"c4:(?P<kind>move|act|col|cell):(?P<session>[A-Za-z0-9_-]{1,64}):(?P<version>[0-9]{1,9})"
    rf"(?::(?P<arg>[0-9]{{1,3}}|{'|'.join(a.value for a in ActionKind)}))?"
)
_COLUMN_VALUE = re.compile(r"(?P<col>[0-9]{1,2}):(?P<cols>[0-9]{1,2}):(?P<free>[0-9a-f]{1,7})")


@dataclass(frozen=True, slots=True)
class MoveId:
    """A move button: play ``move`` in ``session_id`` as seen at ``version``."""

    session_id: str
    version: int
    move: int

    def encode(self) -> str:
        return _checked(f"c4:move:{self.session_id}:{self.version}:{self.move}", self)


@dataclass(frozen=True, slots=True)
class ActionId:
    """An action button: accept or decline a challenge, or ask for a rematch."""

    session_id: str
    version: int
    action: ActionKind

    def encode(self) -> str:
        return _checked(f"c4:act:{self.session_id}:{self.version}:{self.action.value}", self)


@dataclass(frozen=True, slots=True)
class ColumnPick:
    """The column menu of ``session_id``'s board at ``version``."""

    session_id: str
    version: int

    def encode(self) -> str:
        return _checked(f"c4:col:{self.session_id}:{self.version}", self)


@dataclass(frozen=True, slots=True)
class CellPick:
    """The cell menu of ``session_id``'s board at ``version``."""

    session_id: str
    version: int

    def encode(self) -> str:
        return _checked(f"c4:cell:{self.session_id}:{self.version}", self)


ButtonId = MoveId | ActionId
Pick = ColumnPick | CellPick
ComponentId = ButtonId | Pick
"""Any component of ours: a button or a menu."""


def parse_custom_id(custom_id: str) -> ComponentId | None:
    """The component a ``custom_id`` names, or None when it is not one of ours."""
    match = _PATTERN.fullmatch(custom_id)
    if match is None:
        return None
    kind, session, version, arg = (
        match["kind"],
        match["session"],
        int(match["version"]),
        match["arg"],
    )
    if kind == "move":
        return MoveId(session, version, int(arg)) if arg is not None and arg.isdigit() else None
    if kind == "act":
        return None if arg is None or arg.isdigit() else ActionId(session, version, ActionKind(arg))
    if arg is not None:
        return None
    return ColumnPick(session, version) if kind == "col" else CellPick(session, version)


def _checked(custom_id: str, component: ComponentId) -> str:
    if len(custom_id) > MAX_LENGTH or parse_custom_id(custom_id) != component:
        raise ValueError(f"cannot make a component id from {custom_id!r}")
    return custom_id


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

"""The ``custom_id`` of every button: which session, at which version, and what it does.

A button carries no state of its own: its ``custom_id`` only names a session in the store, the
version of the board it was drawn from and the move or action, so a click on a board posted
before a restart still works (discord.py's ``DynamicItem`` matches the ids by regex).

Formats (at most 100 characters, Discord's limit)::

    c4:move:<session>:<version>:<move>       a cell (free boards) or a column (gravity)
    c4:act:<session>:<version>:<action>      any ActionKind value (accept, decline, rematch...)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from core.replies import ActionKind

MAX_LENGTH = 100  # Discord's limit for a custom_id
_SESSION = r"(?P<session>[A-Za-z0-9_-]{1,64})"
_VERSION = r"(?P<version>[0-9]{1,9})"
_MOVE = r"move:" + _SESSION + r":" + _VERSION + r":(?P<move>[0-9]{1,3})"
_ACTION = (
    r"act:"
    + _SESSION.replace("session", "asession")
    + ":"
    + _VERSION.replace("version", "aversion")
    + f":(?P<action>{'|'.join(a.value for a in ActionKind)})"
)
TEMPLATE = rf"c4:(?:{_MOVE}|{_ACTION})"
"""Every button of ours, moves and actions: one pattern, matched once per click."""
_PATTERN = re.compile(TEMPLATE)


@dataclass(frozen=True, slots=True)
class MoveId:
    """A move button: play ``move`` in ``session_id`` as seen at ``version``."""

    session_id: str
    version: int
    move: int

    def encode(self) -> str:
        return _checked(f"c4:move:{self.session_id}:{self.version}:{self.move}")


@dataclass(frozen=True, slots=True)
class ActionId:
    """An action button: accept or decline a challenge, or ask for a rematch."""

    session_id: str
    version: int
    action: ActionKind

    def encode(self) -> str:
        return _checked(f"c4:act:{self.session_id}:{self.version}:{self.action.value}")


ButtonId = MoveId | ActionId


def _checked(custom_id: str) -> str:
    if len(custom_id) > MAX_LENGTH or _PATTERN.fullmatch(custom_id) is None:
        raise ValueError(f"cannot make a button id from {custom_id!r}")
    return custom_id


def button_from_match(match: re.Match[str]) -> ButtonId:
    """The button named by a match of :data:`TEMPLATE`."""
    if match["move"] is not None:
        return MoveId(match["session"], int(match["version"]), int(match["move"]))
    return ActionId(match["asession"], int(match["aversion"]), ActionKind(match["action"]))


def is_ours(custom_id: str) -> bool:
    """Whether ``custom_id`` names one of our buttons (checked without building it)."""
    return _PATTERN.fullmatch(custom_id) is not None


def parse_custom_id(custom_id: str) -> ButtonId | None:
    """The button a ``custom_id`` names, or None when it is not one of ours."""
    match = _PATTERN.fullmatch(custom_id)
    return None if match is None else button_from_match(match)

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
MOVE_TEMPLATE = rf"c4:move:{_SESSION}:{_VERSION}:(?P<move>[0-9]{{1,3}})"
ACTION_TEMPLATE = (
    rf"c4:act:{_SESSION}:{_VERSION}:(?P<action>{'|'.join(a.value for a in ActionKind)})"
)
_MOVE = re.compile(MOVE_TEMPLATE)
_ACTION = re.compile(ACTION_TEMPLATE)


@dataclass(frozen=True, slots=True)
class MoveId:
    """A move button: play ``move`` in ``session_id`` as seen at ``version``."""

    session_id: str
    version: int
    move: int

    def encode(self) -> str:
        return _checked(f"c4:move:{self.session_id}:{self.version}:{self.move}", _MOVE)


@dataclass(frozen=True, slots=True)
class ActionId:
    """An action button: accept or decline a challenge, or ask for a rematch."""

    session_id: str
    version: int
    action: ActionKind

    def encode(self) -> str:
        return _checked(f"c4:act:{self.session_id}:{self.version}:{self.action.value}", _ACTION)


ButtonId = MoveId | ActionId


def _checked(custom_id: str, pattern: re.Pattern[str]) -> str:
    if len(custom_id) > MAX_LENGTH or pattern.fullmatch(custom_id) is None:
        raise ValueError(f"cannot make a button id from {custom_id!r}")
    return custom_id


def move_from_match(match: re.Match[str]) -> MoveId:
    """The move named by a match of :data:`MOVE_TEMPLATE`."""
    return MoveId(match["session"], int(match["version"]), int(match["move"]))


def action_from_match(match: re.Match[str]) -> ActionId:
    """The action named by a match of :data:`ACTION_TEMPLATE`."""
    return ActionId(match["session"], int(match["version"]), ActionKind(match["action"]))


def parse_custom_id(custom_id: str) -> ButtonId | None:
    """The button a ``custom_id`` names, or None when it is not one of ours."""
    if (match := _MOVE.fullmatch(custom_id)) is not None:
        return move_from_match(match)
    if (match := _ACTION.fullmatch(custom_id)) is not None:
        return action_from_match(match)
    return None

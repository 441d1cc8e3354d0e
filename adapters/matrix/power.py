"""Who may change a room's settings: power levels read from the room state as synced.

The level of a person is what the room's ``m.room.power_levels`` state says (their entry in
``users``, else ``users_default``), never anything they wrote. Each ``m.room.power_levels`` event
replaces the whole previous one, as the Matrix spec has it: someone removed from ``users`` falls
back to the default. (matrix-nio's ``MatrixRoom.power_levels`` merges the ``users`` of a new event
into the old ones, so a demoted moderator would keep their level there; this module reads the
raw events instead.)

The adapter applies the state events in the order the sync gives them, the state section of a
room first, then its timeline, and asks for a level when it meets a message: a promotion sent
before a message counts for it, one sent after does not.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

POWER_LEVELS = "m.room.power_levels"
CREATE = "m.room.create"
TRACKED = frozenset({POWER_LEVELS, CREATE})
"""The state event types the transport hands over for this module."""

ADMIN_LEVEL = 50
"""The level from which a person may change a room's settings (Element's "Moderator")."""

# Without any power levels event, the spec gives the room's creator 100 and everyone else 0.
_CREATOR_DEFAULT = 100
# From room version 12, the creators stand above every level and are not listed in ``users``.
_CREATORS_ABOVE_ALL_FROM = 12
_ABOVE_ALL = 2**53


def is_tracked(source: Mapping[str, Any]) -> bool:
    """Whether ``source`` is a room state event that the power levels depend on."""
    return source.get("type") in TRACKED and source.get("state_key") == ""


class PowerLevels:
    """The power levels of every room the bot is in, as far as the sync has shown them."""

    def __init__(self) -> None:
        self._levels: dict[str, Mapping[str, Any]] = {}
        self._creators: dict[str, frozenset[str]] = {}
        self._creators_above_all: dict[str, bool] = {}

    def apply(self, room_id: str, source: Mapping[str, Any]) -> None:
        """Take a state event into account (others are ignored)."""
        if not is_tracked(source):
            return
        content = source.get("content")
        if not isinstance(content, dict):
            return
        if source.get("type") == POWER_LEVELS:
            self._levels[room_id] = content
            return
        creators = {source.get("sender"), content.get("creator")}
        additional = content.get("additional_creators")
        if isinstance(additional, list):
            creators.update(additional)
        self._creators[room_id] = frozenset(c for c in creators if isinstance(c, str))
        version = _integer(content.get("room_version"))
        self._creators_above_all[room_id] = (
            version is not None and version >= _CREATORS_ABOVE_ALL_FROM
        )

    def level(self, room_id: str, user_id: str) -> int:
        """The power level of ``user_id`` in ``room_id`` (0 in a room the sync never showed)."""
        creator = user_id in self._creators.get(room_id, ())
        if creator and self._creators_above_all.get(room_id, False):
            return _ABOVE_ALL
        content = self._levels.get(room_id)
        if content is None:
            return _CREATOR_DEFAULT if creator else 0
        users = content.get("users")
        if isinstance(users, dict) and user_id in users:
            own = _integer(users[user_id])
            if own is not None:
                return own
        default = _integer(content.get("users_default"))
        return 0 if default is None else default

    def may_administer(self, room_id: str, user_id: str) -> bool:
        """Whether ``user_id`` has the level to change the settings of ``room_id``."""
        return self.level(room_id, user_id) >= ADMIN_LEVEL


def _integer(value: object) -> int | None:
    # Older room versions allow levels written as strings ("50").
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        try:
            return int(value.strip())
        except ValueError:
            return None
    return None

"""People leaving a room, and the bot leaving one: the games there end as abandoned.

The sync says both: a member's ``m.room.member`` event with ``membership`` ``leave`` (they left,
or were kicked) or ``ban`` in a joined room's timeline, and the bot's own rooms under
``rooms.leave`` (it left, or was kicked or banned). Each becomes a :class:`Departure` handed to
:meth:`core.ports.GameServicePort.abandon_games`, which is idempotent: a departure handled again
after a restart finds nothing left to end.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

GONE = ("leave", "ban")


@dataclass(frozen=True, slots=True)
class Departure:
    """``user_id`` left ``room_id`` (or was kicked or banned); None: the bot itself did."""

    room_id: str
    user_id: str | None = None

    @property
    def queue(self) -> str:
        """The worker that handles it: not the room's own, since the end of a game is shown
        through the room's queue, which must not wait behind the departure that shows it."""
        return f"{self.room_id}\x00departures"


def departure(room_id: str, source: Mapping[str, Any], own_user_id: str) -> Departure | None:
    """The member who left in the timeline event ``source``, or None. The bot's own membership
    is not read here: a room it left comes under ``rooms.leave``, and a leave that the same
    sync followed by a join again must not end anything."""
    user = source.get("state_key")
    content = source.get("content")
    if source.get("type") != "m.room.member" or not isinstance(content, dict):
        return None
    if not isinstance(user, str) or user == own_user_id or content.get("membership") not in GONE:
        return None
    return Departure(room_id, user)

"""People leaving a room, and the bot leaving one: the games there end as abandoned.

The sync says both: a member's ``m.room.member`` event with ``membership`` ``leave`` (they left,
or were kicked) or ``ban`` in a joined room's timeline, and the bot's own rooms under
``rooms.leave`` (it left, or was kicked or banned). Each becomes a :class:`Departure` handed to
:meth:`core.ports.GameServicePort.abandon_games`, which is idempotent: a departure handled again
after a restart finds nothing left to end.

A gappy sync is read too. When more happened in a room since the last sync than its timeline
holds (``limited``: the bot was down, or busy), the timeline starts late and the events before
it are never sent; the spec's ``state`` section then carries the room's state as of the
timeline's start, so a member who left in the gap is there, as a membership, and nowhere else
(:func:`gap_departures`). matrix-nio applies that section to its member lists but reports no
event for it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from adapters.matrix.events import events_after_own_join

GONE = ("leave", "ban")
MEMBER = "m.room.member"


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
    if source.get("type") != MEMBER or not isinstance(content, dict):
        return None
    if not isinstance(user, str) or user == own_user_id or content.get("membership") not in GONE:
        return None
    return Departure(room_id, user)


def gap_departures(
    room_id: str,
    state: Sequence[Mapping[str, Any]],
    timeline: Sequence[Mapping[str, Any]],
    own_user_id: str,
) -> tuple[Departure, ...]:
    """The members gone in the gap before a room's ``limited`` timeline: those whose membership
    in the room's ``state`` section is ``leave`` or ``ban``. Only for a limited timeline: a
    whole one leaves no gap, and the state section of a ``full_state`` sync would then name
    every member who ever left.

    Not read, so that nothing acts twice or wrongly:

    - a member whose membership changes in the timeline as well: the timeline is later and
      says it (a leave there is read there, once; a join there means they came back; a
      membership that is ``join`` in the state section is no departure at all);
    - the whole section when the bot's own join is in the timeline: that state is the room
      from before the bot was there, every former member included.

    A ``full_state`` sync (the first one after a restart) whose timeline is limited gives the
    room's whole state, so members who left long ago are read too: each finds nothing to end.
    """
    if len(events_after_own_join(timeline, own_user_id)) != len(timeline):
        return ()
    later = {source.get("state_key") for source in timeline if source.get("type") == MEMBER}
    found: dict[str, Departure] = {}
    for source in state:
        gone = departure(room_id, source, own_user_id)
        if gone is not None and gone.user_id is not None and gone.user_id not in later:
            found.setdefault(gone.user_id, gone)
    return tuple(found.values())

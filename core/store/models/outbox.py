"""The outbox's items: what one process has to show in a chat that another process serves, left
in the store as a neutral item; the operations are in :mod:`core.store.outbox`, the sending and
the showing in :mod:`core.sessions.openplay.relay`.

An item names what to show (its :class:`Kind`), where, and the game it is about; never the
words. The process that serves the chat builds the replies from the item and the game as it
stands, in that chat's language, as the process that left it would have.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field

JsonValue = str | int | float | bool | None | list["JsonValue"] | dict[str, "JsonValue"]
"""What an item's ``detail`` holds: plain values that JSON keeps as they are."""


class Kind(enum.Enum):
    """What an item shows."""

    BOARD = "board"
    """The game's board as it stands (an open game's other chat); one item per chat and game,
    the newest version."""
    PAIRED = "paired"
    """A new open game's board with its pairing line (``detail["seeks"]``: both seeks' rows)."""
    TIMEOUT = "timeout"
    """A game whose clock ran out: its board edited to the end, and the result."""
    REMINDER = "reminder"
    """The reminder to the player of ``seat`` to move, while the game is at ``version``."""
    SEEK_EXPIRED = "seek_expired"
    """A seek that waited too long (``detail["seek"]``: its row; no game)."""
    ABANDONED = "abandoned"
    """A game ended, or a challenge withdrawn, because a player (or the bot) left a chat: its
    board edited to its end and why; a withdrawn challenge, gone from the store, is said from
    ``detail`` (who left, and who reads it there)."""
    EVENT = "event"
    """A tournament's notice (``detail["event"]``: its id, ``detail["notice"]``: which: a
    reminder, a cancellation, a new game with its board, the final standings)."""
    DAILY_PUZZLE = "daily_puzzle"
    """The day's puzzle posted in a chat that asked for it (``detail["day"]``: the UTC date;
    no game)."""


KEPT = 86_400.0
"""Seconds an item waits in the outbox for a process that serves its chat; then it goes (the
sweep): nothing runs that platform, or syncs that account, for a day."""

SHOWS_THE_BOARD = frozenset({Kind.PAIRED, Kind.TIMEOUT, Kind.ABANDONED})
"""Kinds that show the game's whole board: an older board item of that chat goes with them."""


@dataclass(frozen=True, slots=True)
class OutboxItem:
    """One thing to show in one chat (see the module docstring).

    Attributes:
        kind: what to show.
        platform, chat_id: where.
        session_id: the game it is about (None for a seek's notice).
        version: the game's version it was left at.
        seat: the seat (1 or 2) it is for, if one: whose chat and whose mention.
        detail: what the game itself does not say (the seeks of a pairing), plain values.
        id: the store's id (None until stored).
        posted: the platform's ids of the messages an earlier try posted for it (it was shown,
            and its process died before it was done): shown again, it edits them.
    """

    kind: Kind
    platform: str
    chat_id: str
    session_id: str | None = None
    version: int = 0
    seat: int | None = None
    detail: Mapping[str, JsonValue] = field(default_factory=dict)
    id: int | None = None
    posted: tuple[str, ...] = ()

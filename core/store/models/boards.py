"""Where a game's board is shown: one message per chat that shows it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class BoardLocation:
    """A board message: the game ``session_id`` shown in ``chat_id`` by ``message_id``.

    Attributes:
        platform: whose board it is: the adapter's own name, ``discord`` or
            ``matrix:<bot user id>`` (two Matrix bots may share a database).
        version: the game's version the message showed when it was stored, None if unknown.
        detail: what the adapter alone reads (Discord: a Components V2 message; Matrix: a
            picture board), a short text of its own; empty for none.
    """

    platform: str
    session_id: str
    chat_id: str
    message_id: str
    version: int | None = None
    detail: str = ""

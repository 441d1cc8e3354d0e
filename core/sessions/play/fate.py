"""A move whose write's fate is unknown: the connection dropped as it committed.

A write that the driver reports as failed with the connection (PostgreSQL stopped between the
commit and its answer) may have been stored or not; "nothing changed" would be a guess, and a
wrong one costs the game (the bot's answer never comes; the move typed again is played after
the bot's, as a second move). So the game is read back, by its version, once the store answers
again, and the player is told what really happened (:class:`Fate`).
"""

from __future__ import annotations

import asyncio
import enum
import time

from core.sessions.context import Context
from core.sessions.outages import REFUSED
from core.store import Session, sessions

FIRST_LOOK = 0.1  # seconds before the first read back
MOST_BETWEEN = 1.0  # seconds at most between two reads back


class Fate(enum.Enum):
    """What became of a write whose answer was lost."""

    SAVED = "saved"
    """Stored as written: the game is at the written version, with its moves."""
    LOST = "lost"
    """Not stored: the game is still at the version the write expected."""
    OTHER = "other"
    """Someone else changed the game (or deleted it): the write did not apply as it was."""


def fate_of(written: Session, expected_version: int, found: Session | None) -> Fate:
    """What became of ``written`` (a compare-and-set on ``expected_version``), by the game as
    it is ``found`` stored now."""
    if found is None:
        return Fate.OTHER
    if found.version == expected_version:
        return Fate.LOST
    if found.version == written.version and found.moves == written.moves:
        return Fate.SAVED
    return Fate.OTHER


async def read_back(ctx: Context, session_id: str, seconds: float) -> Session | None:
    """The game as stored, read as soon as the store answers, trying for up to ``seconds``.

    Raises:
        StoreBusy, StoreUnavailable: the store did not answer in that time.
    """
    ends = time.monotonic() + seconds
    delay = FIRST_LOOK
    while True:
        started = ctx.outages.now()
        try:
            return await ctx.store.run(sessions.get(session_id))
        except REFUSED as error:
            ctx.outages.refused(error, since=started, work="the read back of a move")
            if time.monotonic() + delay > ends:
                raise
        await asyncio.sleep(delay)
        delay = min(delay * 2, MOST_BETWEEN)

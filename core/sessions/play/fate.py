"""A write whose fate is unknown: the connection dropped as it committed.

A write that the driver reports as failed with the connection (PostgreSQL stopped between the
commit and its answer) may have been stored or not; "nothing changed" would be a guess, and a
wrong one costs the game (the bot's answer never comes; the move typed again is played after
the bot's, as a second move). So the game is read back, by its version, once the store answers
again, and the player is told what really happened (:class:`Fate`). Moves do it in
:mod:`core.sessions.play.moves`; the other writes of a game (a challenge made, accepted,
withdrawn or declined, ``/final``) through :func:`settled`.
"""

from __future__ import annotations

import asyncio
import enum
import time
from collections.abc import Awaitable, Callable

from core.errors import UserError
from core.sessions.context import Context
from core.sessions.openplay.open_games import noted
from core.sessions.outages import REFUSED
from core.store import Session, StoreBusy, StoreUnavailable, WriteUnknown, sessions

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


def fate_of(written: Session | None, expected_version: int | None, found: Session | None) -> Fate:
    """What became of ``written`` (a compare-and-set on ``expected_version``; None: a new game;
    ``written`` None: the game deleted), by the game as it is ``found`` stored now."""
    if written is None:
        if found is None:
            return Fate.SAVED  # gone (or ended by someone else as it went: gone all the same)
        return Fate.LOST if found.version == expected_version else Fate.OTHER
    if found is None:
        return Fate.LOST if expected_version is None else Fate.OTHER
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


async def settled(
    ctx: Context,
    write: Callable[[], Awaitable[bool]],
    session: Session,
    written: Session | None,
    *,
    new: bool = False,
) -> bool:
    """Run ``write``, the compare-and-set of ``session`` to ``written`` (None: it is deleted;
    ``new``: ``session`` is created); whether it applied. When its answer is lost
    (:class:`WriteUnknown`), the game is read back first (within ``fate_wait``): stored as
    written counts as applied (and is told as :meth:`Context.update` tells it), changed by
    someone else as not applied.

    Raises:
        WriteUnknown: it was not stored: "nothing changed" is then the truth.
        UserError: ``error.change_unknown``, the store did not answer in time: not known yet.
    """
    try:
        return await write()
    except WriteUnknown as unknown:
        try:
            found = await read_back(ctx, session.id, ctx.settings.fate_wait)
        except (StoreBusy, StoreUnavailable):
            raise UserError("error.change_unknown") from None
        fate = fate_of(written, None if new else session.version, found)
        if fate is Fate.LOST:
            raise unknown from None
        if fate is Fate.OTHER:
            return False
        if written is None:
            noted(session)  # as Context.delete: an open game's other chat is told
        elif not new:
            ctx.applied(written)
        else:
            noted(written)
        return True

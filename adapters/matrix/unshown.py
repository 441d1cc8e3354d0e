"""Answers still queued when the process stops are shown again at the next start.

Under rate limits an edit may wait tens of seconds in its room's queue; a stop (a deploy's
SIGTERM drains for a few seconds only) or a crash would lose it. Its move is stored, so the
board would show an old state until the next edit, and for a game's last move, for good. So
each board whose newest edit is queued but not yet delivered is written down in the store
(``unshown``: the board's message and the version queued), and struck off once the edit is
delivered. At the start of a term, the boards still written down are edited again to what the
store holds now, through the send queues like any answer. A game's last board is written down
with its content and sent again as it was: a game ended before its first move is deleted, and
the store can no longer show it.

One row, rewritten whole: only the holder of the account's sync lease writes it, and it lists
only the answers waiting now (a few, or a few hundred under heavy limits). The writes happen
beside the sends, never before them: an answer does not wait for the store. A crash in the few
milliseconds between a move's commit and its first write loses that answer as before (its board
catches up at the next edit).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Mapping
from typing import Any

from adapters.matrix.state import BoardRef, MatrixState, Waiting

log = logging.getLogger(__name__)


class Unshown:
    """The boards whose newest edit is queued and not yet delivered, kept in the store."""

    def __init__(self, state: MatrixState, may_write: Callable[[], bool] = lambda: True) -> None:
        # may_write: False once this process may no longer hold the account's sync lease; the
        # process that took over keeps the row now.
        self._state = state
        self._may_write = may_write
        # By session and room: an open game has a board in each of its rooms.
        self._waiting: dict[tuple[str, str], Waiting] = {}
        self._writer: asyncio.Task[None] | None = None
        self._again = False

    async def load(self) -> list[Waiting]:
        """The boards the previous term left undelivered; they stay written down until shown
        again (:meth:`delivered`) or found gone (:meth:`forget`)."""
        for entry in await self._state.unshown():
            self._waiting.setdefault(_key(entry.ref), entry)
        return list(self._waiting.values())

    def queued(self, ref: BoardRef, version: int, final: Mapping[str, Any] | None = None) -> None:
        """The edit of ``ref``'s board showing ``version`` is queued (``final``: the content
        of a finished game's board, to send again as it is)."""
        known = self._waiting.get(_key(ref))
        if known is None or version > known.version:
            self._waiting[_key(ref)] = Waiting(ref, version, final)
            self._write()

    def delivered(self, ref: BoardRef, version: int) -> None:
        """The edit queued for ``version`` was delivered (or, coalesced, a newer one)."""
        known = self._waiting.get(_key(ref))
        if known is not None and known.version <= version:
            del self._waiting[_key(ref)]
            self._write()

    def forget(self, ref: BoardRef) -> None:
        """Nothing to show on ``ref`` any more (its game is gone)."""
        if self._waiting.pop(_key(ref), None) is not None:
            self._write()

    def _write(self) -> None:
        if self._writer is not None and not self._writer.done():
            self._again = True  # the running writer writes the newer state next
            return
        self._writer = asyncio.create_task(self._run(), name="matrix unshown")

    async def _run(self) -> None:
        while True:
            self._again = False
            if not self._may_write():
                return
            try:
                await self._state.set_unshown(list(self._waiting.values()))
            except Exception as error:  # the store is down: the answers still go out
                log.warning("matrix: could not note the answers waiting to be sent: %s", error)
            if not self._again:
                return

    async def close(self) -> None:
        """Let the last write finish (what is still waiting stays written down)."""
        if self._writer is not None:
            with contextlib.suppress(Exception):
                await self._writer


def _key(ref: BoardRef) -> tuple[str, str]:
    return ref.session_id, ref.room_id

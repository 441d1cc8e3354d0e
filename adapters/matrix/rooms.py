"""One worker per room, and the sync watermark.

Each room's events are handled in order by that room's worker, so one slow room never stalls
another. The sync token (``next_batch``) is saved only when every event of its sync and of all
syncs before it is handled: after a crash the homeserver sends the rest again (the receipts in
the store skip what was handled already).
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from adapters.matrix.state import MatrixState

log = logging.getLogger(__name__)

ROOM_IDLE_S = 300.0

J = TypeVar("J")


@dataclass(slots=True)
class Batch:
    """One sync response in flight: its token and how many of its jobs are still open."""

    seq: int
    token: str
    pending: int


class Watermark:
    """Saves the newest sync token whose events, and all before them, are handled."""

    def __init__(self, state: MatrixState, may_save: Callable[[], bool] = lambda: True) -> None:
        # may_save: False once this process may no longer hold the account's sync lease; a
        # token saved then could move another process's token back.
        self._state = state
        self._may_save = may_save
        self._open: deque[Batch] = deque()
        self._seq = 0
        self._saved_seq = 0
        self._lock = asyncio.Lock()

    def open(self, token: str, jobs: int) -> Batch:
        self._seq += 1
        batch = Batch(self._seq, token, jobs)
        self._open.append(batch)
        return batch

    async def done(self, batch: Batch) -> None:
        batch.pending -= 1
        await self.advance()

    async def advance(self) -> None:
        newest: Batch | None = None
        while self._open and self._open[0].pending <= 0:
            newest = self._open.popleft()
        if newest is None:
            return
        async with self._lock:
            if newest.seq > self._saved_seq and self._may_save():
                await self._state.set_next_batch(newest.token)
                self._saved_seq = newest.seq
                await self._state.first_sync_handled()


@dataclass(slots=True)
class _Room(Generic[J]):
    queue: asyncio.Queue[tuple[J, Batch | None]] = field(default_factory=asyncio.Queue)
    task: asyncio.Task[None] | None = None


class Rooms(Generic[J]):
    """The room workers: :meth:`put` queues a job for a room, its worker runs ``handle``.

    Args:
        handle: does one job; an exception is logged and the worker goes on.
        watermark: told when a job that came with a sync batch is done.
        idle: seconds after which a worker with nothing to do ends (the next job starts one).
    """

    def __init__(
        self,
        handle: Callable[[str, J], Awaitable[None]],
        watermark: Watermark,
        *,
        idle: float = ROOM_IDLE_S,
    ) -> None:
        self._handle = handle
        self._watermark = watermark
        self._idle = idle
        self._rooms: dict[str, _Room[J]] = {}

    def put(self, room_id: str, job: J, batch: Batch | None) -> None:
        """Queue ``job`` behind the room's earlier jobs (``batch``: the sync it came with)."""
        room = self._rooms.get(room_id)
        if room is None:
            room = _Room()
            room.task = asyncio.create_task(self._work(room_id, room), name=room_id)
            self._rooms[room_id] = room
        room.queue.put_nowait((job, batch))

    async def _work(self, room_id: str, room: _Room[J]) -> None:
        while True:
            try:
                async with asyncio.timeout(self._idle):
                    job, batch = await room.queue.get()
            except TimeoutError:
                if room.queue.empty():
                    # No await between the check and the removal: nothing can be queued here
                    # in between, the next job for the room starts a new worker.
                    self._rooms.pop(room_id, None)
                    return
                continue
            try:
                await self._handle(room_id, job)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("matrix: handling an event in %s failed", room_id)
            finally:
                room.queue.task_done()
            if batch is not None:
                await self._watermark.done(batch)

    async def close(self, drain: float) -> None:
        """Let the queued jobs finish for up to ``drain`` seconds, then stop every worker."""
        rooms = [room for room in self._rooms.values() if room.task is not None]
        if rooms:
            drained = asyncio.gather(*(room.queue.join() for room in rooms))
            try:
                async with asyncio.timeout(drain):
                    await drained
            except TimeoutError:
                log.warning(
                    "matrix: stopping with events still queued; they are handled next start"
                )
        tasks = [room.task for room in rooms if room.task is not None]
        for task in tasks:
            task.cancel()
        # Whatever ended a worker was logged (or is a crash being tested): stopping goes on.
        await asyncio.gather(*tasks, return_exceptions=True)
        self._rooms.clear()

""":class:`SqliteThread`: one thread that owns one ``sqlite3`` connection and runs functions on it.

Why a thread of our own rather than aiosqlite: the store runs each operation (a whole
transaction included) as one plain function in the connection's thread, in one hop, and
aiosqlite has no public way to do that. A hop costs about as much as a small transaction (a GIL
hand-over each way), so one hop per operation is the design's budget. Here a hop is a put on a
``SimpleQueue`` (the thread blocks on it, no polling) and a ``call_soon_threadsafe`` back to the
caller's loop. Jobs run in the order they were queued, so a transaction never interleaves with
another coroutine's statements and no asyncio lock is needed.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import sqlite3
import threading
from collections.abc import Callable
from queue import SimpleQueue
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class _Job(Generic[T]):
    __slots__ = ("fn", "future")

    def __init__(self, fn: Callable[[sqlite3.Connection], T], future: asyncio.Future[T]) -> None:
        self.fn = fn
        self.future = future


def _settle(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    # The caller may have been cancelled meanwhile: the work is done, nobody wants the answer.
    if future.done():
        return
    if error is None:
        future.set_result(result)
    else:
        future.set_exception(error)


def _reply(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    # RuntimeError: the caller's loop is closed, so nobody is waiting any more.
    with contextlib.suppress(RuntimeError):
        future.get_loop().call_soon_threadsafe(_settle, future, result, error)


class SqliteThread:
    """A daemon thread owning one connection; :meth:`run` executes a function there, in one hop.

    Start it with ``await SqliteThread.start(connect)``. After :meth:`close` no new work is
    accepted; work queued before it still runs, then the connection is closed.
    """

    def __init__(self, connect: Callable[[], sqlite3.Connection]) -> None:
        # Use start(): the connection must be created in the thread that will use it.
        self._connect = connect
        self._queue: SimpleQueue[_Job[Any] | None] = SimpleQueue()
        # Thread-safe and loop-free, so close() may be awaited from any event loop; set
        # running at once so that no waiter's cancellation can cancel it for the others.
        self._ended: concurrent.futures.Future[None] = concurrent.futures.Future()
        self._ended.set_running_or_notify_cancel()
        self._open = False

    @classmethod
    async def start(
        cls, connect: Callable[[], sqlite3.Connection], *, name: str = "sqlite"
    ) -> SqliteThread:
        """Start the thread and open the connection in it.

        Args:
            connect: makes the connection (called once, in the new thread).
            name: the thread's name (shows in debuggers and thread dumps).

        Returns:
            The running thread, ready for :meth:`run`.

        Raises:
            Exception: whatever ``connect`` raised (the thread has then ended).
        """
        worker = cls(connect)
        opened: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        # Daemon: a store nobody closed must not keep the interpreter alive at exit (WAL makes
        # an abandoned connection safe: every committed transaction is in the file).
        threading.Thread(target=worker._serve, args=(opened,), name=name, daemon=True).start()
        worker._open = True
        try:
            await opened
        except BaseException:
            await worker.close()  # also when cancelled: the thread must not wait forever
            raise
        return worker

    def run(self, fn: Callable[[sqlite3.Connection], T]) -> asyncio.Future[T]:
        """Queue ``fn(connection)`` for the thread.

        Returns:
            A future of the running loop with ``fn``'s result or exception.

        Raises:
            RuntimeError: the thread was closed.
        """
        if not self._open:
            raise RuntimeError("the store is closed")
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._queue.put(_Job(fn, future))
        return future

    async def close(self) -> None:
        """Let queued work finish, close the connection, end the thread (idempotent)."""
        if self._open:
            self._open = False
            self._queue.put(None)
        await asyncio.wrap_future(self._ended)

    # --- in the thread ------------------------------------------------------------------------

    def _serve(self, opened: asyncio.Future[None]) -> None:
        try:
            try:
                connection = self._connect()
            except BaseException as error:
                _reply(opened, None, error)
                return
            _reply(opened, None, None)
            try:
                while (job := self._queue.get()) is not None:
                    try:
                        result = job.fn(connection)
                    except BaseException as error:  # delivered to the caller, never lost here
                        _reply(job.future, None, error)
                    else:
                        _reply(job.future, result, None)
                    del job  # drop the result and traceback now, not at the next job
            finally:
                connection.close()
        finally:
            self._ended.set_result(None)

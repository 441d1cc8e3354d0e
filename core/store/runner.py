""":class:`SqlStore`: what both stores share, :meth:`SqlStore.run` (the one way to run any
operation) and their lifetime.

An operation is a generator of a feature's module (:func:`core.store.sessions.get`, ...), run
by ``await store.run(sessions.get(session_id))``: :meth:`~SqlStore.run` times it by its name
when a timer is set (:meth:`~SqlStore.time_operations`; the metrics'
``chatbots_store_operation_seconds``), and hands it to the store's driver
(:class:`~core.store.sqlite.SqliteStore`: one hop of its connection's thread;
:class:`~core.store.postgres.PostgresStore`: one connection of the pool), which answers its
steps, the store's :class:`~core.store.sql.Env` included.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Coroutine, Generator
from types import TracebackType
from typing import Any, Generic, Protocol, Self, TypeVar

from core.store import schema
from core.store.errors import SchemaTooNew, StoreUnavailable
from core.store.migrations import Dialect
from core.store.sql import Env, Op, name_of

log = logging.getLogger(__name__)

T = TypeVar("T")

Timer = Callable[[str, float], None]
"""Told each operation's name and duration in seconds, failures included."""


class SqlStore:
    """What both stores share; a subclass gives :attr:`dialect`, :meth:`_drive`, :meth:`close`
    and :meth:`_where` (the database, for messages)."""

    dialect: Dialect

    def __init__(self, clock: Callable[[], float]) -> None:
        self._env = Env(self.dialect, clock)
        self._timer: Timer | None = None

    def time_operations(self, timer: Timer | None) -> None:
        """Tell ``timer`` the name and duration of every operation from now on (None: stop)."""
        self._timer = timer

    async def _drive(self, op: Op[T]) -> T:
        """Run ``op`` on the database (its :data:`~core.store.sql.ENV` steps answered with
        ``self._env``), errors translated to the store's own."""
        raise NotImplementedError

    def _where(self) -> str:
        raise NotImplementedError

    async def close(self) -> None:
        raise NotImplementedError

    async def _upgrade(
        self, current: int, known: int, step: Callable[[int], Awaitable[bool]], setting: str
    ) -> None:
        """Bring the schema from version ``current`` to ``known``, one ``step(version)`` at a
        time (each in a transaction of its own; False: another process did it meanwhile).

        Raises:
            SchemaTooNew: ``current`` is beyond ``known`` (``setting`` names where the
                database is chosen).
        """
        if current > known:
            raise SchemaTooNew(
                self._where(),
                f"it has schema version {current}, but this code knows versions up to"
                f" {known}: upgrade the bot, or point {setting} at another database",
            )
        for version in range(current, known):
            started = time.perf_counter()
            if await step(version):
                log.info(
                    "schema migrated to version %d in %.1f ms (%s)",
                    version + 1,
                    (time.perf_counter() - started) * 1000,
                    self._where(),
                )

    async def run(self, op: Op[T]) -> T:
        """Run the operation ``op`` (a generator of a feature's module) to its end: one hop of
        SQLite's thread, one connection of PostgreSQL's pool; its result, or what it raised.

        Raises:
            StoreBusy: the database stayed locked (nothing was written).
            StoreUnavailable: it cannot be written or read now (nothing was written).
            StoreFault: the database refused a statement otherwise (a missing table, a
                constraint): not temporary.
            RuntimeError: the store is closed.
        """
        timer = self._timer
        if timer is None:
            return await self._drive(op)
        started = time.perf_counter()
        try:
            return await self._drive(op)
        finally:
            timer(name_of(op), time.perf_counter() - started)

    # --- health and lifetime ---------------------------------------------------------------

    async def check(self) -> None:
        """Prove the store answers and takes a write now (a committed write that changes
        nothing).

        Raises:
            StoreUnavailable: closed, unreachable, read-only, full, failing or corrupt.
            StoreBusy: the database stayed locked beyond the busy timeout.
        """
        try:
            await self.run(schema.check())
        except RuntimeError as error:  # closed
            raise StoreUnavailable(self._where(), str(error)) from error

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()


class _Closable(Protocol):
    async def close(self) -> None: ...


StoreT = TypeVar("StoreT", bound=_Closable)


class Opening(Generic[StoreT]):
    """What a store's ``open`` returns: await it for the store, or use it with ``async with``
    (the store is closed when the block ends)."""

    def __init__(self, opening: Coroutine[Any, Any, StoreT]) -> None:
        self._opening = opening
        self._store: StoreT | None = None

    def __await__(self) -> Generator[Any, None, StoreT]:
        return self._opening.__await__()

    async def __aenter__(self) -> StoreT:
        self._store = await self._opening
        return self._store

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._store is not None:
            await self._store.close()

""":class:`SqliteStore`: the session store on SQLite, through one long-lived connection.

Why this shape:

- One connection for the store's whole life, owned by one thread (:class:`SqliteThread`).
  Every store operation (:mod:`core.store.sql`, written once for both stores), a whole
  transaction included, is driven to its end in that thread in a single hop
  (:func:`core.store.sqlite_driver.drive`). Operations queue in the thread's order, so a
  transaction never interleaves with another coroutine's statements and no asyncio lock is
  needed.
- Writes start with ``BEGIN IMMEDIATE``: the write lock is taken up front, so two connections
  never deadlock upgrading a read lock, and ``busy_timeout`` applies in one place.
- Every session change is ``UPDATE ... WHERE id = ? AND version = ?``; the row count says who won.
- WAL lets readers proceed while a writer holds the lock; ``synchronous=NORMAL`` is durable
  across application crashes (a power loss may lose the last transactions, never corrupt).
- Opening proves the file sound (``quick_check``) and writable, so a broken database stops the
  bot at start with one clear line instead of failing every command later.
"""

from __future__ import annotations

import functools
import logging
import sqlite3
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TypeVar

from core.store import sqlite_driver
from core.store import sqlite_health as health
from core.store.errors import StoreUnavailable, WriteUnknown
from core.store.migrations import MIGRATIONS, Dialect, Migration
from core.store.runner import Opening, SqlStore
from core.store.sql import Op
from core.store.sqlite_thread import SqliteThread

log = logging.getLogger(__name__)

T = TypeVar("T")

SCHEMA_VERSION = len(MIGRATIONS)
"""The schema version this code writes; a database with a higher ``user_version`` is refused."""


class SqliteStore(SqlStore):
    """The store on one SQLite file.

    Open it with ``store = await SqliteStore.open(path)`` (then ``await store.close()``) or
    ``async with SqliteStore.open(path) as store:``. The parent directory is created if missing;
    the schema is created or upgraded on open.
    """

    dialect = Dialect.SQLITE

    def __init__(
        self, db: SqliteThread, path: Path, *, clock: Callable[[], float] = time.time
    ) -> None:
        # Use SqliteStore.open(); the constructor takes a running, configured connection
        # thread (which several store objects may share: the first close() closes it).
        super().__init__(clock)
        self._db = db
        self._path = path

    @property
    def path(self) -> Path:
        """The database file."""
        return self._path

    @classmethod
    def open(
        cls,
        path: str | Path,
        *,
        busy_timeout_ms: int = 5000,
        clock: Callable[[], float] = time.time,
    ) -> Opening[SqliteStore]:
        """Open (create, check, migrate) the database at ``path``.

        Args:
            path: the database file; its directory is created if missing.
            busy_timeout_ms: how long a write waits for another connection's lock before the
                store raises :class:`StoreBusy`.
            clock: seconds since the epoch, for the time a row was quarantined.

        Returns:
            An object to ``await`` (gives the store) or to use with ``async with`` (closes it).

        Raises:
            StoreUnavailable: the file cannot be used: its folder cannot be made, it is a
                directory, not a database, corrupt (``quick_check``), read-only, on a full or
                failing disk, or locked beyond the timeout. One line naming path and cause.
            SchemaTooNew: (a StoreUnavailable) the database was written by newer code.
            ValueError: ``busy_timeout_ms`` is negative.
        """
        if busy_timeout_ms < 0:
            raise ValueError(f"busy_timeout_ms must be >= 0, got {busy_timeout_ms!r}")
        return Opening(cls._open(Path(path), busy_timeout_ms, clock))

    @classmethod
    async def _open(
        cls, path: Path, busy_timeout_ms: int, clock: Callable[[], float]
    ) -> SqliteStore:
        def connect() -> sqlite3.Connection:
            # In the new thread: the event loop never waits on the file system.
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                cause = f"its folder cannot be created ({error.strerror or error})"
                raise StoreUnavailable(path, cause) from error
            health.check_files(path)
            # isolation_level=None: autocommit; transactions are explicit BEGIN IMMEDIATE.
            return sqlite3.connect(path, timeout=busy_timeout_ms / 1000, isolation_level=None)

        try:
            db = await SqliteThread.start(connect, name=f"sqlite {path.name}")
        except Exception as error:
            raise health.unavailable(error, path) from error
        store = cls(db, path, clock=clock)
        try:
            await store._call(lambda conn: _configure(conn, busy_timeout_ms))
            problem = await store._call(health.integrity_problem)
            if problem is not None:
                raise StoreUnavailable(path, f"the file is corrupt (quick_check: {problem})")
            await store._migrate(MIGRATIONS)
            await store.check()
        except BaseException as error:
            await db.close()
            if isinstance(error, Exception):
                raise health.unavailable(error, path) from error
            raise
        return store

    async def _migrate(self, migrations: Iterable[Migration]) -> None:
        steps = list(migrations)

        def step(conn: sqlite3.Connection, version: int) -> bool:
            # Re-read inside the write lock: another process may have migrated meanwhile.
            if sqlite_driver.user_version(conn) != version:
                return False
            steps[version](conn)
            conn.execute(f"PRAGMA user_version = {version + 1}")  # an int, not input
            return True

        current = await self._call(sqlite_driver.user_version)
        await self._upgrade(
            current,
            len(steps),
            lambda version: self._write(functools.partial(step, version=version)),
            "DATABASE_PATH",
        )

    # --- plumbing --------------------------------------------------------------------------

    async def _call(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``fn`` on the connection, in its thread, in one hop.

        Raises:
            StoreBusy: the database stayed locked (temporary; nothing was written).
            StoreUnavailable: read-only, full, failing or corrupt (nothing was written).
            WriteUnknown: (a StoreUnavailable) failing as a write committed: it may have been.
            StoreFault: SQLite refused a statement otherwise (a missing table, a constraint).
            RuntimeError: the store is closed.
        """
        try:
            return await self._db.run(fn)
        except sqlite3.Error as error:
            raise health.translate(error, self._path) from error
        except sqlite_driver.CommitFailed as failed:
            at_commit = health.translate(failed.error, self._path)
            if isinstance(at_commit, StoreUnavailable):
                raise WriteUnknown(at_commit.path, at_commit.cause) from failed.error
            raise at_commit from failed.error

    async def _write(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``fn`` in one write transaction (``BEGIN IMMEDIATE``), in one hop."""
        return await self._call(lambda conn: sqlite_driver.transaction(conn, fn))

    async def _drive(self, op: Op[T]) -> T:
        """Run the whole operation ``op`` in the connection's thread, in one hop."""
        env = self._env
        return await self._call(lambda conn: sqlite_driver.drive(conn, op, env))

    def _where(self) -> str:
        return str(self._path)

    async def close(self) -> None:
        """Close the connection (idempotent); operations already queued finish first."""
        await self._db.close()


def _configure(conn: sqlite3.Connection, busy_timeout_ms: int) -> None:
    conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")  # an int
    conn.execute("PRAGMA synchronous = NORMAL")
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA foreign_keys = ON")

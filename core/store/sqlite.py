""":class:`SqliteStore`: the session store on SQLite, through one long-lived connection.

Why this shape:

- One connection for the store's whole life, owned by one thread (:class:`SqliteThread`).
  Every store operation, a whole transaction included, is one plain function (in
  :mod:`core.store.ops`) run in that thread in a single hop. Operations queue in the thread's
  order, so a transaction never interleaves with another coroutine's statements and no asyncio
  lock is needed.
- Writes start with ``BEGIN IMMEDIATE``: the write lock is taken up front, so two connections
  never deadlock upgrading a read lock, and ``busy_timeout`` applies in one place.
- Every session change is ``UPDATE ... WHERE id = ? AND version = ?``; the row count says who won.
- WAL lets readers proceed while a writer holds the lock; ``synchronous=NORMAL`` is durable
  across application crashes (a power loss may lose the last transactions, never corrupt).
- Opening proves the file sound (``quick_check``) and writable, so a broken database stops the
  bot at start with one clear line instead of failing every command later.
"""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any, Self, TypeVar

from core.store import health, lease_sql, ops
from core.store.base import (
    KvEntry,
    LeaseHolder,
    Opening,
    SchemaTooNew,
    StoreUnavailable,
    check_lease_arguments,
)
from core.store.migrations import MIGRATIONS, Dialect, Migration
from core.store.models import LiveCounts, PlatformTotals, Session, SettingRow, StatsRow, Status
from core.store.thread import SqliteThread

log = logging.getLogger(__name__)

T = TypeVar("T")

_ACQUIRE_LEASE = lease_sql.acquire(Dialect.SQLITE)
_RELEASE_LEASE = lease_sql.release(Dialect.SQLITE)
_LEASE_HOLDER = lease_sql.holder(Dialect.SQLITE)

SCHEMA_VERSION = len(MIGRATIONS)
"""The schema version this code writes; a database with a higher ``user_version`` is refused."""


class SqliteStore:
    """The :class:`~core.store.SessionStore` on one SQLite file.

    Open it with ``store = await SqliteStore.open(path)`` (then ``await store.close()``) or
    ``async with SqliteStore.open(path) as store:``. The parent directory is created if missing;
    the schema is created or upgraded on open.
    """

    def __init__(
        self, db: SqliteThread, path: Path, *, clock: Callable[[], float] = time.time
    ) -> None:
        # Use SqliteStore.open(); the constructor takes a running, configured connection
        # thread (which several store objects may share: the first close() closes it).
        self._db = db
        self._path = path
        self._clock = clock

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
            await store._call(health.probe_write)
        except BaseException as error:
            await db.close()
            if isinstance(error, Exception):
                raise health.unavailable(error, path) from error
            raise
        return store

    async def _migrate(self, migrations: Iterable[Migration]) -> None:
        steps = list(migrations)
        current = await self._call(ops.user_version)
        if current > len(steps):
            raise SchemaTooNew(
                self._path,
                f"it has schema version {current}, but this code knows versions up to"
                f" {len(steps)}: upgrade the bot, or point DATABASE_PATH at another file",
            )
        for version in range(current, len(steps)):
            started = time.perf_counter()

            def step(conn: sqlite3.Connection, version: int = version) -> bool:
                # Re-read inside the write lock: another process may have migrated meanwhile.
                if ops.user_version(conn) != version:
                    return False
                steps[version](conn)
                conn.execute(f"PRAGMA user_version = {version + 1}")  # an int, not input
                return True

            if await self._write(step):
                log.info(
                    "schema migrated to version %d in %.1f ms (path=%s)",
                    version + 1,
                    (time.perf_counter() - started) * 1000,
                    self._path,
                )

    async def schema_version(self) -> int:
        """The ``user_version`` of the open database."""
        return await self._call(ops.user_version)

    # --- plumbing --------------------------------------------------------------------------

    async def _call(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``fn`` on the connection, in its thread, in one hop.

        Raises:
            StoreBusy: the database stayed locked (temporary; nothing was written).
            StoreUnavailable: read-only, full, failing or corrupt (nothing was written).
            RuntimeError: the store is closed.
        """
        try:
            return await self._db.run(fn)
        except sqlite3.Error as error:
            translated = health.translate(error, self._path)
            if translated is None:
                raise
            raise translated from error

    async def _write(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``fn`` in one write transaction (``BEGIN IMMEDIATE``), in one hop."""
        return await self._call(lambda conn: ops.transaction(conn, fn))

    def _load(
        self, where: str, params: tuple[Any, ...]
    ) -> Callable[[sqlite3.Connection], Session | None]:
        clock = self._clock
        return lambda conn: ops.load(conn, where, params, clock)

    # --- sessions --------------------------------------------------------------------------

    async def create(self, session: Session, *, receipt: KvEntry | None = None) -> None:
        await self._write(lambda conn: ops.create(conn, session, receipt))

    async def get(self, session_id: str) -> Session | None:
        return await self._call(self._load("id = ?", (session_id,)))

    async def live_game(self, platform: str, chat_id: str, user_id: str) -> Session | None:
        return await self._call(
            self._load(
                "id = (SELECT session_id FROM players"
                " WHERE platform = ? AND chat_id = ? AND user_id = ?)",
                (platform, chat_id, user_id),
            )
        )

    async def challenge_for(self, platform: str, chat_id: str, user_id: str) -> Session | None:
        return await self._call(
            self._load(
                "platform = ? AND chat_id = ? AND status = ? AND challenged = ?"
                " ORDER BY created_at DESC LIMIT 1",
                (platform, chat_id, Status.CHALLENGE.value, user_id),
            )
        )

    async def last_finished(
        self, platform: str, chat_id: str, user_id: str | None
    ) -> Session | None:
        # A user's games are the ones they sat at or started (watching two bots included).
        mine = " AND (x_user = ?1 OR o_user = ?1 OR challenger = ?1)" if user_id else ""
        return await self._call(
            self._load(
                f"platform = ?2 AND chat_id = ?3 AND status = ?4{mine}"
                " ORDER BY updated_at DESC LIMIT 1",
                (user_id, platform, chat_id, Status.FINISHED.value),
            )
        )

    async def update(
        self, session: Session, *, expected_version: int, receipt: KvEntry | None = None
    ) -> bool:
        return await self._write(lambda conn: ops.update(conn, session, expected_version, receipt))

    async def delete(
        self,
        session_id: str,
        *,
        expected_version: int | None = None,
        receipt: KvEntry | None = None,
    ) -> bool:
        return await self._write(
            lambda conn: ops.delete(conn, session_id, expected_version, receipt)
        )

    async def swap(self, old: Session, new: Session, *, receipt: KvEntry | None = None) -> bool:
        return await self._write(lambda conn: ops.swap(conn, old, new, receipt))

    async def delete_expired(self, now: float) -> int:
        return await self._write(lambda conn: ops.delete_expired(conn, now))

    async def count_sessions(self) -> int:
        """How many sessions are stored (any status)."""
        return await self._call(
            lambda conn: int(conn.execute("SELECT count(*) FROM sessions").fetchone()[0])
        )

    async def live_counts(self, platform: str, chat_id: str, user_id: str) -> LiveCounts:
        return await self._call(lambda conn: ops.live_counts(conn, platform, chat_id, user_id))

    async def totals(self, since: float) -> list[PlatformTotals]:
        return await self._call(lambda conn: ops.totals(conn, since))

    # --- settings --------------------------------------------------------------------------

    async def settings_rows(self, platform: str, scopes: Sequence[str]) -> list[SettingRow]:
        scopes = tuple(scopes)
        return await self._call(lambda conn: ops.settings_rows(conn, platform, scopes))

    async def setting_put(self, row: SettingRow) -> None:
        await self._write(lambda conn: ops.setting_put(conn, row))

    async def setting_delete(self, platform: str, scope: str, key: str) -> bool:
        return await self._write(lambda conn: ops.setting_delete(conn, platform, scope, key))

    # --- stats -----------------------------------------------------------------------------

    async def player_stats(
        self, platform: str, user_id: str, chat_id: str | None = None
    ) -> StatsRow | None:
        # The latest name wins: people rename themselves.
        sql = (
            "SELECT user_id, (SELECT name FROM stats AS latest WHERE latest.platform = s.platform"
            " AND latest.user_id = s.user_id ORDER BY updated_at DESC LIMIT 1),"
            " sum(wins), sum(losses), sum(draws) FROM stats AS s"
            " WHERE platform = ? AND user_id = ?"
        )
        params: tuple[str, ...] = (platform, user_id)
        if chat_id is not None:
            sql += " AND chat_id = ?"
            params += (chat_id,)
        sql += " GROUP BY user_id"
        row = await self._call(lambda conn: conn.execute(sql, params).fetchone())
        if row is None:
            return None
        return StatsRow(str(row[0]), str(row[1]), int(row[2]), int(row[3]), int(row[4]))

    async def top(self, platform: str, chat_id: str, limit: int = 10) -> list[StatsRow]:
        rows = await self._call(
            lambda conn: conn.execute(
                "SELECT user_id, name, wins, losses, draws FROM stats"
                " WHERE platform = ? AND chat_id = ?"
                " ORDER BY wins DESC, draws DESC, losses ASC, name ASC LIMIT ?",
                (platform, chat_id, limit),
            ).fetchall()
        )
        return [StatsRow(str(r[0]), str(r[1]), int(r[2]), int(r[3]), int(r[4])) for r in rows]

    # --- adapter state ---------------------------------------------------------------------

    async def kv_get(self, namespace: str, key: str) -> str | None:
        row = await self._call(
            lambda conn: conn.execute(
                "SELECT value FROM kv WHERE namespace = ? AND key = ?", (namespace, key)
            ).fetchone()
        )
        return None if row is None else str(row[0])

    async def kv_set(
        self,
        namespace: str,
        key: str,
        value: str,
        *,
        session_id: str | None = None,
        expires_at: float | None = None,
    ) -> None:
        entry = KvEntry(namespace, key, value, session_id=session_id, expires_at=expires_at)
        await self._write(lambda conn: ops.put_kv(conn, entry))

    async def kv_delete(self, namespace: str, key: str) -> None:
        await self._write(
            lambda conn: conn.execute(
                "DELETE FROM kv WHERE namespace = ? AND key = ?", (namespace, key)
            )
        )

    # --- leases ----------------------------------------------------------------------------

    async def acquire_lease(self, name: str, holder: str, ttl: float) -> bool:
        check_lease_arguments(name, holder, ttl)
        params = (name, holder, float(ttl))
        # fetchall: the statement ends before COMMIT.
        return bool(await self._write(lambda conn: conn.execute(_ACQUIRE_LEASE, params).fetchall()))

    async def release_lease(self, name: str, holder: str) -> bool:
        check_lease_arguments(name, holder)
        params = (name, holder)
        return bool(await self._write(lambda conn: conn.execute(_RELEASE_LEASE, params).fetchall()))

    async def lease_holder(self, name: str) -> LeaseHolder | None:
        row = await self._call(lambda conn: conn.execute(_LEASE_HOLDER, (name,)).fetchone())
        return None if row is None else LeaseHolder(str(row[0]), float(row[1]))

    # --- health and lifetime ---------------------------------------------------------------

    async def check(self) -> None:
        """Prove the store answers and takes a write now (a committed no-op write).

        Raises:
            StoreUnavailable: closed, read-only, full, failing disk or corrupt.
            StoreBusy: the database stayed locked beyond the busy timeout.
        """
        try:
            await self._call(health.probe_write)
        except RuntimeError as error:  # closed
            raise StoreUnavailable(self._path, str(error)) from error

    async def close(self) -> None:
        """Close the connection (idempotent); operations already queued finish first."""
        await self._db.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()


def _configure(conn: sqlite3.Connection, busy_timeout_ms: int) -> None:
    conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")  # an int
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = NORMAL")
    conn.execute("PRAGMA foreign_keys = ON")

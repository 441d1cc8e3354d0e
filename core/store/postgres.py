""":class:`PostgresStore`: the session store on PostgreSQL, through an asyncpg connection pool.

Chosen by ``DATABASE_URL=postgresql://...`` when one SQLite file is not enough (several
processes, several machines). It keeps every promise of :class:`~core.store.SqliteStore`, by
the same means where the dialects allow (the schema steps of :mod:`core.store.migrations`, the
row codec of :mod:`core.store.rows`) and by PostgreSQL's own where they part (see
:mod:`core.store.pg_ops`). Why this shape:

- A pool, not one connection: every operation borrows a connection for one transaction, so
  moves in different chats run side by side, and a broken connection is replaced.
- The schema version lives in a table (``chatbots_schema``); each migration step runs in one
  transaction under an advisory lock, so processes opening a fresh database together migrate
  it once. A database whose ``sessions`` table chatbots did not make is refused, as mautrix's
  ``database_owner`` does.
- ``lock_timeout`` bounds a wait for another writer's row lock: beyond it the store raises
  :class:`StoreBusy` (nothing written), like SQLite's ``busy_timeout``.
- asyncpg is imported when a store is opened, never by ``import core.store``: SQLite users do
  not need it installed (``pip install 'chatbots[postgres]'`` brings it).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self, TypeVar
from urllib.parse import urlsplit

from core.store import pg_ops
from core.store.base import KvEntry, Opening, SchemaTooNew, StoreBusy, StoreUnavailable
from core.store.migrations import STEPS, Dialect, Step
from core.store.models import LiveCounts, PlatformTotals, Session, SettingRow, StatsRow, Status
from core.store.pg_health import redact_url, translate, unavailable
from core.store.pg_ops import MIGRATION_LOCK, VERSION_TABLE, prepare_versions, version_of

if TYPE_CHECKING:
    import asyncpg
    from asyncpg import Pool, Record

    from core.store.pg_ops import Connection

log = logging.getLogger(__name__)

T = TypeVar("T")

SCHEMES = ("postgresql", "postgres")
"""URL schemes of a PostgreSQL ``DATABASE_URL``."""


class PostgresStore:
    """The :class:`~core.store.SessionStore` on a PostgreSQL database.

    Open it with ``store = await PostgresStore.open(url)`` (then ``await store.close()``) or
    ``async with PostgresStore.open(url) as store:``. The schema is created or upgraded on open.
    """

    def __init__(
        self, pool: Pool[Record], url: str, *, acquire_timeout: float, clock: Callable[[], float]
    ) -> None:
        # Use PostgresStore.open(): the constructor takes a ready pool.
        self._pool = pool
        self._url = url
        self._acquire_timeout = acquire_timeout
        self._clock = clock
        self._closing: asyncio.Future[None] | None = None
        # Operations under way; close() waits for them (as SQLite's queued work finishes).
        self._running = 0
        self._idle = asyncio.Event()
        self._idle.set()

    @property
    def url(self) -> str:
        """The database's URL, password masked."""
        return self._url

    @classmethod
    def open(
        cls,
        url: str,
        *,
        busy_timeout_ms: int = 5000,
        pool_size: int = 10,
        connect_timeout: float = 10.0,
        clock: Callable[[], float] = time.time,
    ) -> Opening[PostgresStore]:
        """Connect to the database at ``url``, then create or upgrade its schema.

        Args:
            url: ``postgresql://user:password@host:port/database`` (or a Unix socket:
                ``postgresql:///database?host=/run/postgresql``); other query parameters are
                server settings (asyncpg's rule).
            busy_timeout_ms: how long a write waits for another connection's lock (and for a
                free connection of the pool) before the store raises :class:`StoreBusy`.
            pool_size: connections at most in this process.
            connect_timeout: seconds to wait for the server at connection.
            clock: seconds since the epoch, for the time a row was quarantined.

        Returns:
            An object to ``await`` (gives the store) or to use with ``async with`` (closes it).

        Raises:
            StoreUnavailable: the server cannot be reached, refuses the login, the database
                does not exist, is read-only or holds tables that are not ours. One line
                naming the URL (password masked) and the cause.
            SchemaTooNew: (a StoreUnavailable) the database was written by newer code.
            ValueError: a bad argument (not a PostgreSQL URL, a negative timeout).
        """
        if urlsplit(url).scheme.lower() not in SCHEMES:
            raise ValueError(f"not a PostgreSQL URL (postgresql://...): {redact_url(url)!r}")
        if busy_timeout_ms < 0 or pool_size < 1 or connect_timeout <= 0:
            raise ValueError("busy_timeout_ms >= 0, pool_size >= 1 and connect_timeout > 0")
        return Opening(cls._open(url, busy_timeout_ms, pool_size, connect_timeout, clock))

    @classmethod
    async def _open(
        cls,
        url: str,
        busy_timeout_ms: int,
        pool_size: int,
        connect_timeout: float,
        clock: Callable[[], float],
    ) -> PostgresStore:
        shown = redact_url(url)
        try:
            import asyncpg
        except ImportError as error:
            cause = "asyncpg is not installed: pip install 'chatbots[postgres]'"
            raise StoreUnavailable(shown, cause) from error
        try:
            pool = await asyncpg.create_pool(
                url,
                min_size=1,
                max_size=pool_size,
                timeout=connect_timeout,
                # The pool's reset after each use (RESET ALL, UNLISTEN, ...) is a round trip
                # per operation, and there is nothing to reset: the store never changes a
                # session setting, and its advisory locks end with their transactions.
                reset=_nothing_to_reset,
                server_settings={
                    "lock_timeout": f"{int(busy_timeout_ms)}ms",
                    "application_name": "chatbots",
                },
            )
        except Exception as error:
            raise unavailable(error, shown) from error
        store = cls(pool, shown, acquire_timeout=max(busy_timeout_ms / 1000, 0.001), clock=clock)
        try:
            await store._migrate(STEPS)
            await store.check()
        except BaseException as error:
            await store.close()
            if isinstance(error, Exception):
                raise unavailable(error, shown) from error
            raise
        return store

    async def _migrate(self, migrations: Iterable[Step]) -> None:
        steps = list(migrations)
        current = await self._write(prepare_versions)
        if current > len(steps):
            raise SchemaTooNew(
                self._url,
                f"it has schema version {current}, but this code knows versions up to"
                f" {len(steps)}: upgrade the bot, or point DATABASE_URL at another database",
            )
        for version in range(current, len(steps)):
            started = time.perf_counter()

            async def step(conn: Connection, version: int = version) -> bool:
                await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
                # Re-read under the lock: another process may have migrated meanwhile.
                if await version_of(conn) != version:
                    return False
                for statement in steps[version].sql(Dialect.POSTGRES):
                    await conn.execute(statement)
                await conn.execute(f"UPDATE {VERSION_TABLE} SET version = $1", version + 1)
                return True

            if await self._write(step):
                log.info(
                    "schema migrated to version %d in %.1f ms (url=%s)",
                    version + 1,
                    (time.perf_counter() - started) * 1000,
                    self._url,
                )

    async def schema_version(self) -> int:
        """The schema version of the database."""
        return await self._read(version_of)

    # --- plumbing --------------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def _connection(self) -> AsyncIterator[Connection]:
        """A connection of the pool, errors translated (see :meth:`_read`)."""
        if self._closing is not None:
            raise RuntimeError("the store is closed")
        self._running += 1
        self._idle.clear()
        try:
            async with self._pool.acquire(timeout=self._acquire_timeout) as conn:
                yield conn
        except TimeoutError as error:
            if self._pool.get_size() >= self._pool.get_max_size():  # every one is in use
                raise StoreBusy(f"no free connection within {self._acquire_timeout} s") from error
            raise translate(error, self._url) or error from error
        except Exception as error:
            translated = translate(error, self._url)
            if translated is None or translated is error:
                raise
            raise translated from error
        finally:
            self._running -= 1
            if not self._running:
                self._idle.set()

    async def _read(self, fn: Callable[[Connection], Awaitable[T]]) -> T:
        """Run ``fn`` on a connection of the pool (autocommit statements).

        Raises:
            StoreBusy: a lock or a connection was not had in time (nothing was written).
            StoreUnavailable: the server is gone, read-only or failing (nothing was written).
            RuntimeError: the store is closed.
        """
        async with self._connection() as conn:
            return await fn(conn)

    async def _write(self, fn: Callable[[Connection], Awaitable[T]]) -> T:
        """Run ``fn`` in one transaction: all of it is committed, or none of it."""
        async with self._connection() as conn, conn.transaction():
            return await fn(conn)

    def _load(self, where: str, *params: Any) -> Callable[[Connection], Awaitable[Session | None]]:
        clock = self._clock
        return lambda conn: pg_ops.load(conn, where, params, clock)

    # --- sessions --------------------------------------------------------------------------

    async def create(self, session: Session, *, receipt: KvEntry | None = None) -> None:
        await self._write(lambda conn: pg_ops.create(conn, session, receipt))

    async def get(self, session_id: str) -> Session | None:
        return await self._read(self._load("id = $1", session_id))

    async def live_game(self, platform: str, chat_id: str, user_id: str) -> Session | None:
        return await self._read(
            self._load(
                "id = (SELECT session_id FROM players"
                " WHERE platform = $1 AND chat_id = $2 AND user_id = $3)",
                platform,
                chat_id,
                user_id,
            )
        )

    async def challenge_for(self, platform: str, chat_id: str, user_id: str) -> Session | None:
        return await self._read(
            self._load(
                "platform = $1 AND chat_id = $2 AND status = $3 AND challenged = $4"
                " ORDER BY created_at DESC LIMIT 1",
                platform,
                chat_id,
                Status.CHALLENGE.value,
                user_id,
            )
        )

    async def last_finished(
        self, platform: str, chat_id: str, user_id: str | None
    ) -> Session | None:
        # A user's games are the ones they sat at or started (watching two bots included).
        return await self._read(
            self._load(
                "platform = $2 AND chat_id = $3 AND status = $4 AND ($1::text IS NULL"
                " OR x_user = $1 OR o_user = $1 OR challenger = $1)"
                " ORDER BY updated_at DESC LIMIT 1",
                user_id,
                platform,
                chat_id,
                Status.FINISHED.value,
            )
        )

    async def update(
        self, session: Session, *, expected_version: int, receipt: KvEntry | None = None
    ) -> bool:
        # Most updates are a move that keeps the status: one statement, one round trip.
        if await self._read(
            lambda conn: pg_ops.update_in_place(conn, session, expected_version, receipt)
        ):
            return True
        return await self._write(
            lambda conn: pg_ops.update(conn, session, expected_version, receipt)
        )

    async def delete(
        self,
        session_id: str,
        *,
        expected_version: int | None = None,
        receipt: KvEntry | None = None,
    ) -> bool:
        return await self._write(
            lambda conn: pg_ops.delete(conn, session_id, expected_version, receipt)
        )

    async def swap(self, old: Session, new: Session, *, receipt: KvEntry | None = None) -> bool:
        return await self._write(lambda conn: pg_ops.swap(conn, old, new, receipt))

    async def delete_expired(self, now: float) -> int:
        return await self._write(lambda conn: pg_ops.delete_expired(conn, now))

    async def count_sessions(self) -> int:
        """How many sessions are stored (any status)."""
        return int(await self._read(lambda conn: conn.fetchval("SELECT count(*) FROM sessions")))

    async def live_counts(self, platform: str, chat_id: str, user_id: str) -> LiveCounts:
        return await self._read(lambda conn: pg_ops.live_counts(conn, platform, chat_id, user_id))

    async def totals(self, since: float) -> list[PlatformTotals]:
        return await self._read(lambda conn: pg_ops.totals(conn, since))

    # --- settings --------------------------------------------------------------------------

    async def settings_rows(self, platform: str, scopes: Sequence[str]) -> list[SettingRow]:
        return await self._read(lambda conn: pg_ops.settings_rows(conn, platform, scopes))

    async def setting_put(self, row: SettingRow) -> None:
        await self._write(lambda conn: pg_ops.setting_put(conn, row))

    async def setting_delete(self, platform: str, scope: str, key: str) -> bool:
        return await self._write(lambda conn: pg_ops.setting_delete(conn, platform, scope, key))

    # --- stats -----------------------------------------------------------------------------

    async def player_stats(
        self, platform: str, user_id: str, chat_id: str | None = None
    ) -> StatsRow | None:
        # The latest name wins: people rename themselves.
        row = await self._read(
            lambda conn: conn.fetchrow(
                "SELECT user_id, (SELECT name FROM stats WHERE platform = $1 AND user_id = $2"
                " ORDER BY updated_at DESC LIMIT 1), sum(wins), sum(losses), sum(draws)"
                " FROM stats WHERE platform = $1 AND user_id = $2"
                " AND ($3::text IS NULL OR chat_id = $3) GROUP BY user_id",
                platform,
                user_id,
                chat_id,
            )
        )
        if row is None:
            return None
        return StatsRow(str(row[0]), str(row[1]), int(row[2]), int(row[3]), int(row[4]))

    async def top(self, platform: str, chat_id: str, limit: int = 10) -> list[StatsRow]:
        # COLLATE "C": names in code point order, as SQLite's BINARY, whatever the server's
        # locale.
        rows = await self._read(
            lambda conn: conn.fetch(
                "SELECT user_id, name, wins, losses, draws FROM stats"
                " WHERE platform = $1 AND chat_id = $2"
                ' ORDER BY wins DESC, draws DESC, losses ASC, name COLLATE "C" ASC LIMIT $3',
                platform,
                chat_id,
                limit,
            )
        )
        return [StatsRow(str(r[0]), str(r[1]), int(r[2]), int(r[3]), int(r[4])) for r in rows]

    # --- adapter state ---------------------------------------------------------------------

    async def kv_get(self, namespace: str, key: str) -> str | None:
        value = await self._read(
            lambda conn: conn.fetchval(
                "SELECT value FROM kv WHERE namespace = $1 AND key = $2", namespace, key
            )
        )
        return None if value is None else str(value)

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
        await self._write(lambda conn: pg_ops.put_kv(conn, entry))

    async def kv_delete(self, namespace: str, key: str) -> None:
        await self._write(
            lambda conn: conn.execute(
                "DELETE FROM kv WHERE namespace = $1 AND key = $2", namespace, key
            )
        )

    # --- health and lifetime ---------------------------------------------------------------

    async def check(self) -> None:
        """Prove the server answers and takes a write now (a committed no-op update).

        Raises:
            StoreUnavailable: closed, unreachable, read-only or failing.
            StoreBusy: the version row stayed locked (a migration in another process).
        """
        try:
            await self._write(
                lambda conn: conn.execute(f"UPDATE {VERSION_TABLE} SET version = version")
            )
        except RuntimeError as error:  # closed
            raise StoreUnavailable(self._url, str(error)) from error

    async def close(self) -> None:
        """Close the pool (idempotent); operations already started finish first."""
        if self._closing is None:
            self._closing = asyncio.ensure_future(self._close())
        await asyncio.shield(self._closing)

    async def _close(self) -> None:
        await self._idle.wait()
        await self._pool.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()


async def _nothing_to_reset(conn: asyncpg.Connection[Record]) -> None:
    """The pool's reset hook: asyncpg still rolls back a transaction left open."""

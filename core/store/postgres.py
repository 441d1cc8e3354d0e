""":class:`PostgresStore`: the session store on PostgreSQL, through an asyncpg connection pool.

Chosen by ``DATABASE_URL=postgresql://...`` when one SQLite file is not enough (several
processes, several machines). It keeps every promise of :class:`~core.store.SqliteStore`, by
the same means where the dialects allow (the schema steps of :mod:`core.store.migrations`, the
row codec of :mod:`core.store.rows`) and by PostgreSQL's own where they part (see
:mod:`core.store.sessions`). Why this shape:

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
import functools
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import urlsplit

from core.store.errors import StoreBusy, StoreUnavailable, WriteUnknown
from core.store.migrations import STEPS, Dialect, Step
from core.store.postgres_health import redact_url, translate, unavailable
from core.store.runner import Opening, SqlStore
from core.store.schema import VERSION_TABLE
from core.store.sql import ENV, Atomic, Env, Op, Query, Want

if TYPE_CHECKING:
    import asyncpg
    from asyncpg import Pool, Record
    from asyncpg.pool import PoolConnectionProxy

    Connection = PoolConnectionProxy[Record]
    """A connection borrowed from the store's pool."""

log = logging.getLogger(__name__)

T = TypeVar("T")

MIGRATION_LOCK = 0x63686174
"""The ``pg_advisory_xact_lock`` key that migrations hold: any constant of ours ("chat")."""

SCHEMES = ("postgresql", "postgres")
"""URL schemes of a PostgreSQL ``DATABASE_URL``."""


class PostgresStore(SqlStore):
    """The store on a PostgreSQL database.

    Open it with ``store = await PostgresStore.open(url)`` (then ``await store.close()``) or
    ``async with PostgresStore.open(url) as store:``. The schema is created or upgraded on open.
    """

    dialect = Dialect.POSTGRES

    def __init__(
        self, pool: Pool[Record], url: str, *, acquire_timeout: float, clock: Callable[[], float]
    ) -> None:
        # Use PostgresStore.open(): the constructor takes a ready pool.
        super().__init__(clock)
        self._pool = pool
        self._url = url
        self._acquire_timeout = acquire_timeout
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

        async def step(conn: Connection, version: int) -> bool:
            await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
            # Re-read under the lock: another process may have migrated meanwhile.
            if await version_of(conn) != version:
                return False
            for statement in steps[version].sql(Dialect.POSTGRES):
                await conn.execute(statement)
            await conn.execute(f"UPDATE {VERSION_TABLE} SET version = $1", version + 1)
            return True

        current = await self._transaction(prepare_versions)
        await self._upgrade(
            current,
            len(steps),
            lambda version: self._transaction(functools.partial(step, version=version)),
            "DATABASE_URL",
        )

    # --- plumbing --------------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def _connection(self) -> AsyncIterator[Connection]:
        """A connection of the pool, errors translated (see :meth:`_transaction`)."""
        if self._closing is not None:
            raise RuntimeError("the store is closed")
        self._running += 1
        self._idle.clear()
        try:
            async with self._pool.acquire(timeout=self._acquire_timeout) as conn:
                yield conn
        except TimeoutError as error:
            if self._pool.get_size() >= self._pool.get_max_size():  # every one is in use
                raise StoreBusy(
                    f"no free connection within {self._acquire_timeout} s", self._url
                ) from error
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

    async def _transaction(self, fn: Callable[[Connection], Awaitable[T]]) -> T:
        """Run ``fn`` in one transaction: all of it is committed, or none of it.

        Raises:
            StoreBusy: a lock or a connection was not had in time (nothing was written).
            StoreUnavailable: the server is gone, read-only or failing (nothing was written).
            StoreFault: the server refused a statement otherwise (a missing table, a
                constraint).
            RuntimeError: the store is closed.
        """
        async with self._connection() as conn, conn.transaction():
            return await fn(conn)

    async def _drive(self, op: Op[T]) -> T:
        """Run the operation ``op`` on a connection of the pool (errors as :meth:`_transaction`
        says); its queries run in autocommit, each :class:`Atomic` group in a transaction.

        Raises:
            WriteUnknown: (a StoreUnavailable) the connection failed once a write was sent: it
                may have been committed (the server answers a commit after it is done).
        """
        writing = _Writing()
        try:
            async with self._connection() as conn:
                return await _drive(conn, op, self._env, writing)
        except StoreUnavailable as error:
            if writing.sent and not isinstance(error, WriteUnknown):
                raise WriteUnknown(error.path, error.cause) from error
            raise

    def _where(self) -> str:
        return self._url

    async def close(self) -> None:
        """Close the pool (idempotent); operations already started finish first."""
        if self._closing is None:
            self._closing = asyncio.ensure_future(self._close())
        await asyncio.shield(self._closing)

    async def _close(self) -> None:
        await self._idle.wait()
        await self._pool.close()


async def _nothing_to_reset(conn: asyncpg.Connection[Record]) -> None:
    """The pool's reset hook: asyncpg still rolls back a transaction left open."""


class _Writing:
    """Whether an operation sent a write (a writing statement, or a transaction): from then
    on, a failed connection leaves it unknown whether the write was committed."""

    sent = False


async def _drive(conn: Connection, op: Op[T], env: Env, writing: _Writing) -> T:
    # core.store.sqlite_driver.drive's loop with awaits: why it is written twice is said there.
    answer: Any = None
    try:
        while True:
            step = op.send(answer)
            if type(step) is Query:
                writing.sent = writing.sent or step.writes
                answer = await _query(conn, step)
            elif type(step) is Atomic:
                writing.sent = True
                async with conn.transaction():
                    answer = await _drive(conn, step.op, env, writing)
            else:
                assert step is ENV
                answer = env
    except StopIteration as stop:
        return stop.value  # type: ignore[no-any-return]
    finally:
        op.close()


async def _query(conn: Connection, query: Query) -> Any:
    want = query.want
    if want is Want.COUNT:
        # The command tag, such as "DELETE 3" or "UPDATE 1": the rows touched last.
        status = await conn.execute(query.sql, *query.args)
        return int(status.rsplit(" ", 1)[-1])
    if want is Want.ROWS:
        return [tuple(found) for found in await conn.fetch(query.sql, *query.args)]
    if want is Want.ROW:
        found = await conn.fetchrow(query.sql, *query.args)
        return None if found is None else tuple(found)
    if want is Want.VALUE:
        return await conn.fetchval(query.sql, *query.args)
    await conn.executemany(query.sql, query.args)
    return None


# --- the schema version ----------------------------------------------------------------------


async def version_of(conn: Connection) -> int:
    """The schema version in the version table."""
    return int(await conn.fetchval(f"SELECT version FROM {VERSION_TABLE}"))


async def prepare_versions(conn: Connection) -> int:
    """Make the version table if missing (at version 0) and return the version; refuse a
    database whose tables another program made."""
    await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
    ours = await conn.fetchval("SELECT to_regclass($1) IS NOT NULL", VERSION_TABLE)
    if not ours:
        if await conn.fetchval("SELECT to_regclass('sessions') IS NOT NULL"):
            raise StoreUnavailable(
                "",
                "it has a sessions table that chatbots did not make: use a database of its own",
            )
        await conn.execute(
            f"CREATE TABLE {VERSION_TABLE} (version INTEGER NOT NULL CHECK (version >= 0))"
        )
        await conn.execute(f"INSERT INTO {VERSION_TABLE} (version) VALUES (0)")
    return await version_of(conn)

""":class:`SqliteStore`: the session store on SQLite, through one long-lived aiosqlite connection.

Why this shape:

- aiosqlite runs one worker thread per connection, so the store keeps exactly one connection
  for its whole life. Every store operation (a whole transaction included) is one plain
  function run in that thread in a single hop: a hop costs about as much as a small
  transaction (a GIL hand-over each way), so an update as seven awaited statements took ten
  times as long. Operations queue in the thread's order, so a transaction can never interleave
  with another coroutine's statements, and no asyncio lock is needed.
- Writes start with ``BEGIN IMMEDIATE``: the write lock is taken up front, so two connections
  never deadlock upgrading a read lock, and ``busy_timeout`` applies in one place.
- Every session change is ``UPDATE ... WHERE id = ? AND version = ?``; the row count says who won.
- WAL lets readers proceed while a writer holds the lock; ``synchronous=NORMAL`` is durable
  across application crashes (a power loss may lose the last transactions, never corrupt).
"""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Callable, Coroutine, Generator, Iterable
from pathlib import Path
from types import TracebackType
from typing import Any, Self, TypeVar, cast

import aiosqlite

from core.ai.levels import Level
from core.games import Rules
from core.store.base import AlreadyPlaying, KvEntry, SchemaTooNew, StoreBusy
from core.store.migrations import MIGRATIONS, Migration
from core.store.models import Seat, Session, StatsRow, Status

log = logging.getLogger(__name__)

T = TypeVar("T")

SCHEMA_VERSION = len(MIGRATIONS)
"""The schema version this code writes; a database with a higher ``user_version`` is refused."""

_SESSION_COLUMNS = (
    "id, platform, chat_id, rows, cols, k, gravity, x_user, x_name, x_level,"
    " o_user, o_name, o_level, moves, status, version, created_at, updated_at, expires_at,"
    " challenger, challenged, winner"
)
_SELECT_SESSION = f"SELECT {_SESSION_COLUMNS} FROM sessions"


def _is_busy(error: sqlite3.OperationalError) -> bool:
    text = str(error).lower()
    return "locked" in text or "busy" in text


def _encode_moves(moves: Iterable[int]) -> str:
    return ",".join(str(move) for move in moves)


def _decode_moves(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split(",")) if text else ()


def _seat(user_id: str | None, name: str, level: str | None) -> Seat:
    return Seat(name=name, user_id=user_id, level=Level(level) if level is not None else None)


def _row_to_session(row: sqlite3.Row | tuple[Any, ...]) -> Session:
    (
        session_id,
        platform,
        chat_id,
        rows,
        cols,
        k,
        gravity,
        x_user,
        x_name,
        x_level,
        o_user,
        o_name,
        o_level,
        moves,
        status,
        version,
        created_at,
        updated_at,
        expires_at,
        challenger,
        challenged,
        winner,
    ) = tuple(row)
    return Session(
        id=session_id,
        platform=platform,
        chat_id=chat_id,
        seats=(_seat(x_user, x_name, x_level), _seat(o_user, o_name, o_level)),
        rules=Rules(rows, cols, k, gravity=bool(gravity)),
        moves=_decode_moves(moves),
        status=Status(status),
        version=version,
        created_at=created_at,
        updated_at=updated_at,
        expires_at=expires_at,
        challenger=challenger,
        challenged=challenged,
        winner=winner,
    )


def _session_values(s: Session) -> tuple[Any, ...]:
    x, o = s.seats
    return (
        s.platform,
        s.chat_id,
        s.rules.rows,
        s.rules.cols,
        s.rules.k,
        int(s.rules.gravity),
        x.user_id,
        x.name,
        x.level.value if x.level else None,
        o.user_id,
        o.name,
        o.level.value if o.level else None,
        _encode_moves(s.moves),
        s.status.value,
        s.version,
        s.created_at,
        s.updated_at,
        s.expires_at,
        s.challenger,
        s.challenged,
        s.winner,
    )


class SqliteStore:
    """The :class:`~core.store.SessionStore` on one SQLite file.

    Open it with ``store = await SqliteStore.open(path)`` (then ``await store.close()``) or
    ``async with SqliteStore.open(path) as store:``. The parent directory is created if missing;
    the schema is created or upgraded on open.
    """

    def __init__(self, db: aiosqlite.Connection, path: Path) -> None:
        # Use SqliteStore.open(); the constructor takes an already configured connection.
        self._db = db
        self._path = path
        self._closed = False

    @property
    def path(self) -> Path:
        return self._path

    @classmethod
    def open(cls, path: str | Path, *, busy_timeout_ms: int = 5000) -> _OpenStore:
        """Open (create, migrate) the database at ``path``.

        Args:
            path: the database file; its directory is created if missing.
            busy_timeout_ms: how long a write waits for another connection's lock before the
                store raises :class:`StoreBusy`.

        Returns:
            An object to ``await`` (gives the store) or to use with ``async with`` (closes it).

        Raises:
            SchemaTooNew: the database was written by newer code.
            ValueError: ``busy_timeout_ms`` is negative.
        """
        if busy_timeout_ms < 0:
            raise ValueError(f"busy_timeout_ms must be >= 0, got {busy_timeout_ms!r}")
        return _OpenStore(cls._open(Path(path), busy_timeout_ms))

    @classmethod
    async def _open(cls, path: Path, busy_timeout_ms: int) -> SqliteStore:
        path.parent.mkdir(parents=True, exist_ok=True)
        # isolation_level=None: autocommit; transactions are explicit BEGIN IMMEDIATE ... COMMIT.
        db = await aiosqlite.connect(path, timeout=busy_timeout_ms / 1000, isolation_level=None)
        try:
            store = cls(db, path)

            def configure(conn: sqlite3.Connection) -> None:
                conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")  # an int
                conn.execute("PRAGMA journal_mode = WAL")
                conn.execute("PRAGMA synchronous = NORMAL")
                conn.execute("PRAGMA foreign_keys = ON")

            await store._call(configure)
            await store._migrate(MIGRATIONS)
        except BaseException:
            await db.close()
            raise
        return store

    async def _migrate(self, migrations: Iterable[Migration]) -> None:
        steps = list(migrations)
        current = await self._call(_user_version)
        if current > len(steps):
            raise SchemaTooNew(
                f"the database {str(self._path)!r} has schema version {current}, but this code"
                f" knows versions up to {len(steps)}: upgrade the bot, or point DATABASE_PATH"
                " at another file"
            )
        for version in range(current, len(steps)):
            started = time.perf_counter()

            def step(conn: sqlite3.Connection, version: int = version) -> bool:
                # Re-read inside the write lock: another process may have migrated meanwhile.
                if _user_version(conn) != version:
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
        return await self._call(_user_version)

    # --- plumbing --------------------------------------------------------------------------

    async def _call(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``fn`` on the connection, in its thread, in one hop.

        "database is locked" becomes :class:`StoreBusy` (temporary; nothing was written).
        """
        if self._closed:
            raise RuntimeError("the store is closed")
        db = self._db

        def run() -> T:
            conn = cast(sqlite3.Connection, cast(Any, db)._conn)
            try:
                return fn(conn)
            except sqlite3.OperationalError as error:
                if _is_busy(error):
                    raise StoreBusy(str(error)) from error
                raise

        # aiosqlite has no public "run this function in your thread"; _execute is what its own
        # execute() uses (stable since 0.17). One hop instead of one per statement.
        return cast(T, await cast(Any, db)._execute(run))

    async def _write(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``fn`` in one write transaction (``BEGIN IMMEDIATE``), in one hop."""
        return await self._call(lambda conn: _transaction(conn, fn))

    # --- sessions --------------------------------------------------------------------------

    async def create(self, session: Session, *, receipt: KvEntry | None = None) -> None:
        def create(conn: sqlite3.Connection) -> None:
            _insert(conn, session)
            _put_receipt(conn, receipt)

        await self._write(create)

    async def swap(self, old: Session, new: Session, *, receipt: KvEntry | None = None) -> bool:
        def swap(conn: sqlite3.Connection) -> bool:
            deleted = conn.execute(
                "DELETE FROM sessions WHERE id = ? AND version = ?", (old.id, old.version)
            ).rowcount
            if deleted != 1:
                return False
            _insert(conn, new)
            _put_receipt(conn, receipt)
            return True

        return await self._write(swap)

    async def get(self, session_id: str) -> Session | None:
        return await self._call(
            lambda conn: _fetch_session(conn, f"{_SELECT_SESSION} WHERE id = ?", (session_id,))
        )

    async def live_game(self, platform: str, chat_id: str, user_id: str) -> Session | None:
        return await self._call(
            lambda conn: _fetch_session(
                conn,
                f"{_SELECT_SESSION} WHERE id = (SELECT session_id FROM players"
                " WHERE platform = ? AND chat_id = ? AND user_id = ?)",
                (platform, chat_id, user_id),
            )
        )

    async def challenge_for(self, platform: str, chat_id: str, user_id: str) -> Session | None:
        return await self._call(
            lambda conn: _fetch_session(
                conn,
                f"{_SELECT_SESSION} WHERE platform = ? AND chat_id = ? AND status = ?"
                " AND challenged = ? ORDER BY created_at DESC LIMIT 1",
                (platform, chat_id, Status.CHALLENGE.value, user_id),
            )
        )

    async def last_finished(self, platform: str, chat_id: str, user_id: str) -> Session | None:
        return await self._call(
            lambda conn: _fetch_session(
                conn,
                f"{_SELECT_SESSION} WHERE platform = ? AND chat_id = ? AND status = ?"
                " AND (x_user = ? OR o_user = ?) ORDER BY updated_at DESC LIMIT 1",
                (platform, chat_id, Status.FINISHED.value, user_id, user_id),
            )
        )

    async def update(
        self, session: Session, *, expected_version: int, receipt: KvEntry | None = None
    ) -> bool:
        def update(conn: sqlite3.Connection) -> bool:
            row = conn.execute(
                "SELECT status FROM sessions WHERE id = ? AND version = ?",
                (session.id, expected_version),
            ).fetchone()
            if row is None:
                return False
            before = Status(row[0])
            conn.execute(
                "UPDATE sessions SET platform = ?, chat_id = ?, rows = ?, cols = ?, k = ?,"
                " gravity = ?, x_user = ?, x_name = ?, x_level = ?, o_user = ?, o_name = ?,"
                " o_level = ?, moves = ?, status = ?, version = ?, created_at = ?,"
                " updated_at = ?, expires_at = ?, challenger = ?, challenged = ?, winner = ?"
                " WHERE id = ? AND version = ?",
                (*_session_values(session), session.id, expected_version),
            )
            # Who is live only changes with the status (accepted, finished): a plain move
            # leaves the players rows alone.
            if before is not session.status:
                _set_players(conn, session)
            if session.status is Status.FINISHED and before is not Status.FINISHED:
                _record_result(conn, session)
            _put_receipt(conn, receipt)
            return True

        return await self._write(update)

    async def delete(
        self,
        session_id: str,
        *,
        expected_version: int | None = None,
        receipt: KvEntry | None = None,
    ) -> bool:
        def delete(conn: sqlite3.Connection) -> bool:
            if expected_version is None:
                cursor = conn.execute("DELETE FROM sessions WHERE id = ?", (session_id,))
            else:
                cursor = conn.execute(
                    "DELETE FROM sessions WHERE id = ? AND version = ?",
                    (session_id, expected_version),
                )
            if cursor.rowcount != 1:
                return False
            _put_receipt(conn, receipt)
            return True

        return await self._write(delete)

    async def delete_expired(self, now: float) -> int:
        return await self._write(
            lambda conn: conn.execute("DELETE FROM sessions WHERE expires_at <= ?", (now,)).rowcount
        )

    async def count_sessions(self) -> int:
        """How many sessions are stored (any status)."""
        return await self._call(
            lambda conn: int(conn.execute("SELECT count(*) FROM sessions").fetchone()[0])
        )

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
        entry = KvEntry(namespace, key, value, session_id, expires_at)
        await self._write(lambda conn: _put_receipt(conn, entry))

    async def kv_delete(self, namespace: str, key: str) -> None:
        await self._write(
            lambda conn: conn.execute(
                "DELETE FROM kv WHERE namespace = ? AND key = ?", (namespace, key)
            )
        )

    # --- lifetime --------------------------------------------------------------------------

    async def close(self) -> None:
        """Close the connection (idempotent); operations already queued finish first."""
        if self._closed:
            return
        self._closed = True
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


# --- work done in the connection's thread ----------------------------------------------------


def _user_version(conn: sqlite3.Connection) -> int:
    row = conn.execute("PRAGMA user_version").fetchone()
    return int(row[0]) if row else 0


def _transaction(conn: sqlite3.Connection, fn: Callable[[sqlite3.Connection], T]) -> T:
    # BEGIN IMMEDIATE takes the write lock now (waiting up to busy_timeout), so the
    # transaction never has to upgrade a read lock later, where SQLite could only fail.
    conn.execute("BEGIN IMMEDIATE")
    try:
        result = fn(conn)
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    try:
        conn.execute("COMMIT")
    except sqlite3.Error:
        if conn.in_transaction:  # the transaction must not stay open on the shared connection
            conn.execute("ROLLBACK")
        raise
    return result


def _insert(conn: sqlite3.Connection, session: Session) -> None:
    conn.execute(
        f"INSERT INTO sessions ({_SESSION_COLUMNS})"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (session.id, *_session_values(session)),
    )
    _set_players(conn, session)
    if session.status is Status.FINISHED:
        _record_result(conn, session)


def _put_receipt(conn: sqlite3.Connection, entry: KvEntry | None) -> None:
    if entry is None:
        return
    conn.execute(
        "INSERT INTO kv (namespace, key, value) VALUES (?, ?, ?)"
        " ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value",
        (entry.namespace, entry.key, entry.value),
    )


def _fetch_session(conn: sqlite3.Connection, sql: str, params: tuple[Any, ...]) -> Session | None:
    row = conn.execute(sql, params).fetchone()
    return None if row is None else _row_to_session(row)


def _set_players(conn: sqlite3.Connection, session: Session) -> None:
    """Make the ``players`` rows say who lives in ``session`` (inside a transaction)."""
    conn.execute("DELETE FROM players WHERE session_id = ?", (session.id,))
    for user_id in dict.fromkeys(session.live_users):
        try:
            conn.execute(
                "INSERT INTO players (platform, chat_id, user_id, session_id) VALUES (?, ?, ?, ?)",
                (session.platform, session.chat_id, user_id, session.id),
            )
        except sqlite3.IntegrityError:
            row = conn.execute(
                "SELECT session_id FROM players WHERE platform = ? AND chat_id = ? AND user_id = ?",
                (session.platform, session.chat_id, user_id),
            ).fetchone()
            raise AlreadyPlaying(str(row[0]) if row else "?", user_id) from None


def _record_result(conn: sqlite3.Connection, session: Session) -> None:
    """Add a finished game to its players' stats (inside the finishing transaction)."""
    for number, seat in enumerate(session.seats, start=1):
        if seat.user_id is None:
            continue
        if session.winner is None:
            wins, losses, draws = 0, 0, 1
        elif session.winner == number:
            wins, losses, draws = 1, 0, 0
        else:
            wins, losses, draws = 0, 1, 0
        conn.execute(
            "INSERT INTO stats (platform, chat_id, user_id, name, wins, losses, draws,"
            " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (platform, chat_id, user_id) DO UPDATE SET"
            " name = excluded.name, wins = wins + excluded.wins,"
            " losses = losses + excluded.losses, draws = draws + excluded.draws,"
            " updated_at = excluded.updated_at",
            (
                session.platform,
                session.chat_id,
                seat.user_id,
                seat.name,
                wins,
                losses,
                draws,
                session.updated_at,
            ),
        )


class _OpenStore:
    """What :meth:`SqliteStore.open` returns: await it, or use it with ``async with``."""

    def __init__(self, opening: Coroutine[Any, Any, SqliteStore]) -> None:
        self._opening = opening
        self._store: SqliteStore | None = None

    def __await__(self) -> Generator[Any, None, SqliteStore]:
        return self._opening.__await__()

    async def __aenter__(self) -> SqliteStore:
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

"""The PostgreSQL store's work: each function is one store operation on an asyncpg connection.

The pair of :mod:`core.store.ops` (SQLite), statement for statement where the dialects allow;
the differences are PostgreSQL's concurrency, which SQLite (one writer at a time) never meets:

- A refused insert aborts a PostgreSQL transaction, so "one live game per user per chat" is
  ``INSERT ... ON CONFLICT DO NOTHING`` and a look at who holds the row, not a caught error.
- Several processes write at once: the compare-and-set ``UPDATE ... WHERE id = $n AND version =
  $m`` is re-checked by PostgreSQL on the newest row version after a concurrent commit (READ
  COMMITTED), so exactly one of two racing writers updates a row.
- The sweep locks the rows it deletes with ``FOR UPDATE SKIP LOCKED``: two sweepers never wait
  on each other (no deadlock), never delete or count a row twice, and leave alone a game whose
  move is being written (the next sweep sees it again).

No asyncpg import at run time: its classes are only named in type hints.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from core.store import lease_sql
from core.store.base import AlreadyPlaying, KvEntry, StoreError, StoreUnavailable
from core.store.models import LiveCounts, PlatformTotals, Session, SettingRow, Status
from core.store.rows import (
    PG_INSERT_SESSION,
    PG_SELECT_SESSION,
    PG_UPDATE_SESSION,
    BadRow,
    decode_session,
    row_json,
    session_row,
    stats_rows,
)

if TYPE_CHECKING:
    from asyncpg import Record
    from asyncpg.pool import PoolConnectionProxy

    Connection = PoolConnectionProxy[Record]
    """A connection borrowed from the store's pool."""

log = logging.getLogger(__name__)

Clock = Callable[[], float]

_MAX_QUARANTINES_PER_READ = 100  # as core.store.ops

VERSION_TABLE = "chatbots_schema"
"""One row: the schema version (SQLite keeps it in ``PRAGMA user_version``)."""
MIGRATION_LOCK = 0x63686174
"""The ``pg_advisory_xact_lock`` key that migrations hold: any constant of ours ("chat")."""


def _count(status: str) -> int:
    """Rows touched, from a command tag such as ``DELETE 3`` or ``UPDATE 1``."""
    return int(status.rsplit(" ", 1)[-1])


# --- sessions ------------------------------------------------------------------------------------


async def create(conn: Connection, session: Session, receipt: KvEntry | None) -> None:
    """Insert a session, its players rows, its result if finished, and the receipt.

    Raises:
        AlreadyPlaying: a live user of ``session`` plays another game in the chat.
    """
    await conn.execute(PG_INSERT_SESSION, *session_row(session))
    await set_players(conn, session, new=True)
    if session.status is Status.FINISHED:
        await record_result(conn, session)
    await put_receipt(conn, receipt)


async def update(
    conn: Connection, session: Session, expected_version: int, receipt: KvEntry | None
) -> bool:
    """Compare-and-set a session on its version (see ``SessionStore.update``).

    Runs inside the caller's transaction; :func:`update_in_place` is the one-statement try
    that the store makes first.
    """
    # FOR UPDATE: the status read here is the one the UPDATE replaces, whoever races us.
    before = await conn.fetchval(
        "SELECT status FROM sessions WHERE id = $1 AND version = $2 FOR UPDATE",
        session.id,
        expected_version,
    )
    if before is None:
        return False
    done = await conn.execute(
        PG_UPDATE_SESSION, *session_row(session)[1:], session.id, expected_version
    )
    if _count(done) != 1:
        return False
    # Who is live only changes with the status (accepted, finished).
    if before != session.status.value:
        await set_players(conn, session)
    if session.status is Status.FINISHED and before != Status.FINISHED.value:
        await record_result(conn, session)
    await put_receipt(conn, receipt)
    return True


async def update_in_place(
    conn: Connection, session: Session, expected_version: int, receipt: KvEntry | None
) -> bool:
    """The common update in one statement, without a transaction of its own: a move that
    leaves the status as it was (so the players rows and the stats stay as they are), with
    its receipt in the same statement (written iff the session row was).

    Returns:
        True if applied. False says only "not this way": the session changed meanwhile, is
        gone, or changes status; :func:`update` in a transaction then decides.
    """
    values = (*session_row(session)[1:], session.id, expected_version)
    where_status = f" AND status = ${len(values) + 1}"
    if receipt is None:
        done = await conn.execute(PG_UPDATE_SESSION + where_status, *values, session.status.value)
        return _count(done) == 1
    n = len(values) + 1
    applied = await conn.fetchval(
        f"WITH moved AS ({PG_UPDATE_SESSION}{where_status} RETURNING id),"
        f" receipt AS (INSERT INTO kv (namespace, key, value, session_id, expires_at)"
        f" SELECT ${n + 1}, ${n + 2}, ${n + 3}, ${n + 4}::text, ${n + 5}::double precision"
        f" FROM moved WHERE ${n + 4}::text IS NULL OR ${n + 4}::text = moved.id"
        f" OR EXISTS (SELECT 1 FROM sessions WHERE id = ${n + 4}::text FOR KEY SHARE)"
        " ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value,"
        " session_id = excluded.session_id, expires_at = excluded.expires_at)"
        " SELECT count(*) FROM moved",
        *values,
        session.status.value,
        receipt.namespace,
        receipt.key,
        receipt.value,
        receipt.session_id,
        receipt.expires_at,
    )
    return bool(applied)


async def delete(
    conn: Connection, session_id: str, expected_version: int | None, receipt: KvEntry | None
) -> bool:
    """Delete a session (at ``expected_version`` if given); players and kv rows go with it."""
    done = await conn.execute(
        "DELETE FROM sessions WHERE id = $1 AND ($2::integer IS NULL OR version = $2)",
        session_id,
        expected_version,
    )
    if _count(done) != 1:
        return False
    await put_receipt(conn, receipt)
    return True


async def swap(conn: Connection, old: Session, new: Session, receipt: KvEntry | None) -> bool:
    """Delete ``old`` at its version and create ``new`` (inside the caller's transaction).

    Raises:
        AlreadyPlaying: as :func:`create`; the caller's transaction rolls back, ``old`` stays.
    """
    if not await delete(conn, old.id, old.version, None):
        return False
    await create(conn, new, receipt)
    return True


async def delete_expired(conn: Connection, now: float) -> int:
    """Sweep expired sessions (with their players and kv rows) and expired kv rows; safe to run
    in several processes at once (see the module's notes)."""
    swept = await conn.fetchval(
        "WITH gone AS (DELETE FROM sessions WHERE id IN (SELECT id FROM sessions"
        " WHERE expires_at <= $1 FOR UPDATE SKIP LOCKED) RETURNING 1)"
        " SELECT count(*) FROM gone",
        now,
    )
    await conn.execute(
        "DELETE FROM kv WHERE (namespace, key) IN (SELECT namespace, key FROM kv"
        f" WHERE expires_at <= $1 AND {lease_sql.SWEEP_SPARES} FOR UPDATE SKIP LOCKED)",
        now,
    )
    return int(swept)


async def set_players(conn: Connection, session: Session, *, new: bool = False) -> None:
    """Make the ``players`` rows say who lives in ``session`` (inside a transaction); ``new``:
    the session was just inserted, so it has no rows yet.

    Raises:
        AlreadyPlaying: the primary key refused a user who already has a live game here.
    """
    if not new:
        await conn.execute("DELETE FROM players WHERE session_id = $1", session.id)
    users = list(dict.fromkeys(session.live_users))
    if not users:
        return
    # ON CONFLICT waits for a concurrent insert of the same key to commit or roll back, so the
    # rows it skips belong to a game that really exists.
    inserted = await conn.fetch(
        "INSERT INTO players (platform, chat_id, user_id, session_id)"
        " SELECT $1, $2, user_id, $4 FROM unnest($3::text[]) AS user_id"
        " ON CONFLICT (platform, chat_id, user_id) DO NOTHING RETURNING user_id",
        session.platform,
        session.chat_id,
        users,
        session.id,
    )
    placed = {row[0] for row in inserted}
    for user_id in users:
        if user_id not in placed:
            holder = await conn.fetchval(
                "SELECT session_id FROM players"
                " WHERE platform = $1 AND chat_id = $2 AND user_id = $3",
                session.platform,
                session.chat_id,
                user_id,
            )
            raise AlreadyPlaying(str(holder) if holder is not None else "?", user_id)


async def record_result(conn: Connection, session: Session) -> None:
    """Add a finished game to its players' stats (inside the finishing transaction)."""
    await conn.executemany(
        "INSERT INTO stats (platform, chat_id, user_id, name, wins, losses, draws,"
        " updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"
        " ON CONFLICT (platform, chat_id, user_id) DO UPDATE SET"
        " name = excluded.name, wins = stats.wins + excluded.wins,"
        " losses = stats.losses + excluded.losses, draws = stats.draws + excluded.draws,"
        " updated_at = excluded.updated_at",
        [
            (session.platform, session.chat_id, *row, session.updated_at)
            for row in stats_rows(session)
        ],
    )


# --- kv ------------------------------------------------------------------------------------------


async def put_kv(conn: Connection, entry: KvEntry) -> None:
    """Upsert a kv row; a row tied to a session that is gone is skipped, not an error.

    ``FOR KEY SHARE`` holds the session row until the insert commits: a concurrent delete of
    the session either ran first (the row is skipped) or waits (the row then goes with it).
    """
    await conn.execute(
        "INSERT INTO kv (namespace, key, value, session_id, expires_at)"
        " SELECT $1, $2, $3, $4::text, $5::double precision"
        " WHERE $4::text IS NULL"
        " OR EXISTS (SELECT 1 FROM sessions WHERE id = $4::text FOR KEY SHARE)"
        " ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value,"
        " session_id = excluded.session_id, expires_at = excluded.expires_at",
        entry.namespace,
        entry.key,
        entry.value,
        entry.session_id,
        entry.expires_at,
    )


async def put_receipt(conn: Connection, receipt: KvEntry | None) -> None:
    """:func:`put_kv` when there is a receipt (inside the change's transaction)."""
    if receipt is not None:
        await put_kv(conn, receipt)


# --- loading, with quarantine ----------------------------------------------------------------


async def load(
    conn: Connection, where: str, params: tuple[Any, ...], clock: Clock
) -> Session | None:
    """The first session of ``SELECT ... WHERE <where>``, quarantining rows that do not load
    (as :func:`core.store.ops.load`).

    Raises:
        StoreError: damaged rows keep coming back (more than a hundred in one read).
    """
    sql = f"{PG_SELECT_SESSION} WHERE {where}"
    for _ in range(_MAX_QUARANTINES_PER_READ):
        row = await conn.fetchrow(sql, *params)
        if row is None:
            return None
        try:
            return decode_session(tuple(row))
        except BadRow:
            async with conn.transaction():
                moved = await quarantine(conn, session_id=row[0], clock=clock)
            # Logged after COMMIT, by the one connection whose transaction moved the row: once.
            if moved is not None:
                log.warning(
                    "session quarantined, it cannot be loaded: session=%s reason=%s", *moved
                )
    raise StoreError(f"more than {_MAX_QUARANTINES_PER_READ} damaged sessions in one read")


async def quarantine(conn: Connection, *, session_id: str, clock: Clock) -> tuple[str, str] | None:
    """Move the session ``session_id`` to ``quarantine`` if it still does not load (inside a
    transaction).

    Returns:
        ``(session id, reason)`` if this call moved it; None if it is gone or loads now.
    """
    row: Record | None = await conn.fetchrow(
        f"{PG_SELECT_SESSION} WHERE id = $1 FOR UPDATE", session_id
    )
    if row is None:
        return None  # someone else moved or deleted it meanwhile
    try:
        decode_session(tuple(row))
    except BadRow as bad:
        reason = str(bad)
    else:
        return None  # repaired meanwhile
    await conn.execute(
        "INSERT INTO quarantine (session_id, row, reason, quarantined_at) VALUES ($1, $2, $3, $4)",
        session_id,
        row_json(tuple(row), handle=False),
        reason,
        clock(),
    )
    await conn.execute("DELETE FROM sessions WHERE id = $1", session_id)
    return session_id, reason


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


# --- settings, counts and totals (as core.store.ops) ---------------------------------------------

_LIVE = "status IN ('challenge', 'active')"


async def settings_rows(conn: Connection, platform: str, scopes: Sequence[str]) -> list[SettingRow]:
    rows = await conn.fetch(
        "SELECT platform, scope, key, value, updated_at, updated_by FROM settings"
        " WHERE platform = $1 AND scope = ANY($2::text[])",
        platform,
        list(scopes),
    )
    return [
        SettingRow(str(r[0]), str(r[1]), str(r[2]), str(r[3]), float(r[4]), str(r[5])) for r in rows
    ]


async def setting_put(conn: Connection, row: SettingRow) -> None:
    await conn.execute(
        "INSERT INTO settings (platform, scope, key, value, updated_at, updated_by)"
        " VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (platform, scope, key) DO UPDATE SET"
        " value = excluded.value, updated_at = excluded.updated_at,"
        " updated_by = excluded.updated_by",
        row.platform,
        row.scope,
        row.key,
        row.value,
        row.updated_at,
        row.updated_by,
    )


async def setting_delete(conn: Connection, platform: str, scope: str, key: str) -> bool:
    status = await conn.execute(
        "DELETE FROM settings WHERE platform = $1 AND scope = $2 AND key = $3",
        platform,
        scope,
        key,
    )
    return _count(status) > 0


async def live_counts(conn: Connection, platform: str, chat_id: str, user_id: str) -> LiveCounts:
    row = await conn.fetchrow(
        "SELECT (SELECT count(*) FROM players WHERE platform = $1 AND user_id = $3),"
        f" (SELECT count(*) FROM sessions WHERE platform = $1 AND chat_id = $2 AND {_LIVE})",
        platform,
        chat_id,
        user_id,
    )
    assert row is not None
    return LiveCounts(int(row[0]), int(row[1]))


async def totals(conn: Connection, since: float) -> list[PlatformTotals]:
    # Moves are stored as "4,0,8": one comma fewer than moves.
    rows = await conn.fetch(
        "WITH s AS (SELECT platform, count(*) FILTER (WHERE " + _LIVE + ") AS live,"
        " count(*) FILTER (WHERE status = 'finished') AS finished,"
        " coalesce(sum(CASE WHEN updated_at >= $1 AND moves <> ''"
        " THEN length(moves) - length(replace(moves, ',', '')) + 1 ELSE 0 END), 0) AS moves"
        " FROM sessions GROUP BY platform),"
        " r AS (SELECT platform, sum(wins + losses + draws) AS results FROM stats"
        " GROUP BY platform)"
        " SELECT coalesce(s.platform, r.platform), coalesce(s.live, 0),"
        " coalesce(s.finished, 0), coalesce(r.results, 0), coalesce(s.moves, 0)"
        " FROM s FULL OUTER JOIN r ON s.platform = r.platform ORDER BY 1",
        since,
    )
    return [PlatformTotals(str(r[0]), int(r[1]), int(r[2]), int(r[3]), int(r[4])) for r in rows]

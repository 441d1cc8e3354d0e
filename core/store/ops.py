"""The store's operations, each written once for SQLite and PostgreSQL (see :mod:`core.store.sql`).

Each public function is one whole operation of :class:`~core.store.SessionStore`, named as the
method it serves (the name is also the ``operation`` label of its timing). Statements are in
PostgreSQL's spelling; the few places where the databases really part take ``dialect``:

- a move that keeps the status is one statement on PostgreSQL (:func:`update`): a
  ``WITH ... UPDATE`` that also writes the receipt, which SQLite cannot write (and does not
  need: its operation is one hop however many statements it has);
- a damaged row is found again by its ``rowid`` on SQLite (its id may be NULL there), by its
  id on PostgreSQL (a primary key);
- the leases read each database's own clock (:mod:`core.store.lease_sql`);
- the schema version is ``PRAGMA user_version`` on SQLite, a table on PostgreSQL.

PostgreSQL's concurrency, which SQLite (one writer at a time) never meets, is in the
statements themselves, and :func:`core.store.sql.for_sqlite` drops it for SQLite:

- a refused insert aborts a PostgreSQL transaction, so "one live game per user per chat" is
  ``INSERT ... ON CONFLICT DO NOTHING RETURNING`` and a look at who holds the row;
- the compare-and-set ``UPDATE ... WHERE id = $n AND version = $m`` is re-checked by PostgreSQL
  on the newest row version after a concurrent commit (READ COMMITTED), so exactly one of two
  racing writers updates a row; ``FOR UPDATE`` makes the status read first the one replaced;
- the sweep locks the rows it deletes with ``FOR UPDATE SKIP LOCKED``: two sweepers never wait
  on each other, never delete a row twice, and leave alone a game whose move is being written.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

from core.store import lease_sql, limit_ops
from core.store.base import AlreadyPlaying, GameLimits, KvEntry, LeaseHolder, StoreError
from core.store.migrations import Dialect
from core.store.models import (
    LiveCounts,
    PlatformTotals,
    Session,
    SettingRow,
    StatsRow,
    Status,
)
from core.store.rows import (
    PG_INSERT_SESSION,
    PG_SELECT_SESSION,
    PG_UPDATE_SESSION,
    SELECT_SESSION,
    BadRow,
    decode_session,
    row_json,
    session_row,
    stats_rows,
)
from core.store.sql import Atomic, Op, count, many, placeholders, row, rows, value

log = logging.getLogger(__name__)

Clock = Callable[[], float]

_MAX_QUARANTINES_PER_READ = 100
"""A read that keeps finding damaged rows gives up: something rewrites them as fast as we move
them, and an error is better than a loop."""

VERSION_TABLE = "chatbots_schema"
"""PostgreSQL's one row: the schema version (SQLite keeps it in ``PRAGMA user_version``)."""

_LIVE = "status IN ('challenge', 'active')"

# A damaged row's handle (first column of the select) and how to find the row again by it.
_SELECT = {Dialect.SQLITE: SELECT_SESSION, Dialect.POSTGRES: PG_SELECT_SESSION}
_BY_HANDLE = {Dialect.SQLITE: "rowid = $1", Dialect.POSTGRES: "id = $1 FOR UPDATE"}
_LEASES = {
    dialect: (lease_sql.acquire(dialect), lease_sql.release(dialect), lease_sql.holder(dialect))
    for dialect in Dialect
}


# --- sessions ------------------------------------------------------------------------------------


def create(session: Session, receipt: KvEntry | None, limits: GameLimits | None) -> Op[None]:
    """Insert a session, its players rows, its result if finished, and the receipt, if it
    keeps ``limits`` (:mod:`core.store.limit_ops`).

    Raises:
        AlreadyPlaying: a live user of ``session`` plays another game in the chat.
        Limited: ``limits`` refuse it.
    """
    yield Atomic(_create(session, receipt, limits))


def _create(session: Session, receipt: KvEntry | None, limits: GameLimits | None) -> Op[None]:
    if limits is not None:
        yield from limit_ops.keep(limits, session)
    yield count(PG_INSERT_SESSION, *session_row(session))
    yield from _set_players(session, new=True)
    if session.status is Status.FINISHED:
        yield from _record_result(session)
    yield from _put_receipt(receipt)


def update(
    dialect: Dialect,
    session: Session,
    expected_version: int,
    receipt: KvEntry | None,
    limits: GameLimits | None,
) -> Op[bool]:
    """Compare-and-set a session on its version (see ``SessionStore.update``)."""
    # Most updates are a move that keeps the status: on PostgreSQL one statement, one round
    # trip, where a transaction would be three.
    if (
        dialect is Dialect.POSTGRES
        and limits is None
        and (yield from _update_in_place(session, expected_version, receipt))
    ):
        return True
    return bool((yield Atomic(_update(session, expected_version, receipt, limits))))


def _update(
    session: Session, expected_version: int, receipt: KvEntry | None, limits: GameLimits | None
) -> Op[bool]:
    # FOR UPDATE: the status read here is the one the UPDATE replaces, whoever races us.
    before = yield value(
        "SELECT status FROM sessions WHERE id = $1 AND version = $2 FOR UPDATE",
        session.id,
        expected_version,
    )
    if before is None:
        return False
    if limits is not None:
        yield from limit_ops.keep(limits, session)
    if (
        yield count(PG_UPDATE_SESSION, *session_row(session)[1:], session.id, expected_version)
    ) != 1:
        return False
    # Who is live only changes with the status (accepted, finished): a plain move leaves the
    # players rows alone.
    if before != session.status.value:
        yield from _set_players(session)
    if session.status is Status.FINISHED and before != Status.FINISHED.value:
        yield from _record_result(session)
    yield from _put_receipt(receipt)
    return True


def _update_in_place(session: Session, expected_version: int, receipt: KvEntry | None) -> Op[bool]:
    """PostgreSQL's common update in one statement, without a transaction of its own: a move
    that leaves the status as it was (so the players rows and the stats stay as they are),
    with its receipt in the same statement (written iff the session row was).

    Returns:
        True if applied. False says only "not this way": the session changed meanwhile, is
        gone, or changes status; :func:`_update` in a transaction then decides.
    """
    values = (*session_row(session)[1:], session.id, expected_version)
    n = len(values) + 1
    where_status = f" AND status = ${n}"
    if receipt is None:
        return bool(
            (yield count(PG_UPDATE_SESSION + where_status, *values, session.status.value)) == 1
        )
    applied = yield value(
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
        writes=True,
    )
    return bool(applied)


def delete(session_id: str, expected_version: int | None, receipt: KvEntry | None) -> Op[bool]:
    """Delete a session (at ``expected_version`` if given); players and kv rows go with it."""
    return bool((yield Atomic(_delete(session_id, expected_version, receipt))))


def _delete(session_id: str, expected_version: int | None, receipt: KvEntry | None) -> Op[bool]:
    deleted = yield count(
        "DELETE FROM sessions WHERE id = $1 AND ($2::integer IS NULL OR version = $2)",
        session_id,
        expected_version,
    )
    if deleted != 1:
        return False
    yield from _put_receipt(receipt)
    return True


def swap(
    old: Session, new: Session, receipt: KvEntry | None, limits: GameLimits | None
) -> Op[bool]:
    """Delete ``old`` at its version and create ``new`` (if it keeps ``limits``), in one
    transaction.

    Raises:
        AlreadyPlaying: as :func:`create`; the transaction rolls back, ``old`` stays.
        Limited: as :func:`create`; ``old`` stays.
    """
    return bool((yield Atomic(_swap(old, new, receipt, limits))))


def _swap(
    old: Session, new: Session, receipt: KvEntry | None, limits: GameLimits | None
) -> Op[bool]:
    if not (yield from _delete(old.id, old.version, None)):
        return False
    yield from _create(new, receipt, limits)
    return True


def delete_expired(now: float) -> Op[int]:
    """Sweep expired sessions (with their players and kv rows) and expired kv rows; safe to run
    in several processes at once (see the module's notes)."""
    return int((yield Atomic(_delete_expired(now))))


def _delete_expired(now: float) -> Op[int]:
    swept = yield count(
        "DELETE FROM sessions WHERE id IN (SELECT id FROM sessions"
        " WHERE expires_at <= $1 FOR UPDATE SKIP LOCKED)",
        now,
    )
    yield count(
        "DELETE FROM kv WHERE (namespace, key) IN (SELECT namespace, key FROM kv"
        f" WHERE expires_at <= $1 AND {lease_sql.SWEEP_SPARES} FOR UPDATE SKIP LOCKED)",
        now,
    )
    return int(swept)


def _set_players(session: Session, *, new: bool = False) -> Op[None]:
    """Make the ``players`` rows say who lives in ``session`` (inside a transaction); ``new``:
    the session was just inserted, so it has no rows yet.

    Raises:
        AlreadyPlaying: the primary key refused a user who already has a live game here.
    """
    if not new:
        yield count("DELETE FROM players WHERE session_id = $1", session.id)
    users = list(dict.fromkeys(session.live_users))
    if not users:
        return
    # ON CONFLICT waits for a concurrent insert of the same key to commit or roll back, so the
    # rows it skips belong to a game that really exists.
    values = ", ".join(f"($1, $2, $3, ${n})" for n in range(4, 4 + len(users)))
    inserted = yield rows(
        f"INSERT INTO players (platform, chat_id, session_id, user_id) VALUES {values}"
        " ON CONFLICT (platform, chat_id, user_id) DO NOTHING RETURNING user_id",
        session.platform,
        session.chat_id,
        session.id,
        *users,
        writes=True,
    )
    placed = {r[0] for r in inserted}
    for user_id in users:
        if user_id not in placed:
            holder = yield value(
                "SELECT session_id FROM players"
                " WHERE platform = $1 AND chat_id = $2 AND user_id = $3",
                session.platform,
                session.chat_id,
                user_id,
            )
            raise AlreadyPlaying(str(holder) if holder is not None else "?", user_id)


def _record_result(session: Session) -> Op[None]:
    """Add a finished game to its players' stats (inside the finishing transaction)."""
    yield many(
        "INSERT INTO stats (platform, chat_id, user_id, name, wins, losses, draws,"
        " updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"
        " ON CONFLICT (platform, chat_id, user_id) DO UPDATE SET"
        " name = excluded.name, wins = stats.wins + excluded.wins,"
        " losses = stats.losses + excluded.losses, draws = stats.draws + excluded.draws,"
        " updated_at = excluded.updated_at",
        [
            (session.platform, session.chat_id, *result, session.updated_at)
            for result in stats_rows(session)
        ],
    )


# --- loading, with quarantine ----------------------------------------------------------------


def load(dialect: Dialect, where: str, *params: Any, clock: Clock) -> Op[Session | None]:
    """The first session of ``SELECT ... WHERE <where>``, quarantining rows that do not load.

    A damaged row is moved to the ``quarantine`` table (its players and kv rows go with it) and
    the query runs again, so the caller sees the next valid row, or None.

    Raises:
        StoreError: damaged rows keep coming back (more than a hundred in one read).
    """
    sql = f"{_SELECT[dialect]} WHERE {where}"
    for _ in range(_MAX_QUARANTINES_PER_READ):
        found = yield row(sql, *params)
        if found is None:
            return None
        try:
            return decode_session(found)
        except BadRow:
            moved = yield Atomic(_quarantine(dialect, found[0], clock))
            # Logged after COMMIT, by the one connection whose transaction moved the row: once.
            if moved is not None:
                log.warning(
                    "session quarantined, it cannot be loaded: session=%s reason=%s", *moved
                )
    raise StoreError(f"more than {_MAX_QUARANTINES_PER_READ} damaged sessions in one read")


def _quarantine(dialect: Dialect, handle: Any, clock: Clock) -> Op[tuple[str, str] | None]:
    """Move the session row found by ``handle`` to ``quarantine`` if it still does not load.

    Returns:
        ``(session id, reason)`` if this call moved it; None if it is gone or loads now.
    """
    found = yield row(f"{_SELECT[dialect]} WHERE {_BY_HANDLE[dialect]}", handle)
    if found is None:
        return None  # someone else moved or deleted it meanwhile
    try:
        decode_session(found)
    except BadRow as bad:
        reason = str(bad)
    else:
        return None  # repaired meanwhile
    session_id = found[1] if isinstance(found[1], str) else None
    yield count(
        "INSERT INTO quarantine (session_id, row, reason, quarantined_at) VALUES ($1, $2, $3, $4)",
        session_id,
        row_json(found, handle=dialect is Dialect.SQLITE),
        reason,
        clock(),
    )
    yield count(
        f"DELETE FROM sessions WHERE {_BY_HANDLE[dialect].removesuffix(' FOR UPDATE')}", handle
    )
    return str(session_id), reason


def get(dialect: Dialect, session_id: str, clock: Clock) -> Op[Session | None]:
    return (yield from load(dialect, "id = $1", session_id, clock=clock))


def live_game(
    dialect: Dialect, platform: str, chat_id: str, user_id: str, clock: Clock
) -> Op[Session | None]:
    return (
        yield from load(
            dialect,
            "id = (SELECT session_id FROM players"
            " WHERE platform = $1 AND chat_id = $2 AND user_id = $3)",
            platform,
            chat_id,
            user_id,
            clock=clock,
        )
    )


def challenge_for(
    dialect: Dialect, platform: str, chat_id: str, user_id: str, clock: Clock
) -> Op[Session | None]:
    return (
        yield from load(
            dialect,
            "platform = $1 AND chat_id = $2 AND status = $3 AND challenged = $4"
            " ORDER BY created_at DESC LIMIT 1",
            platform,
            chat_id,
            Status.CHALLENGE.value,
            user_id,
            clock=clock,
        )
    )


def last_finished(
    dialect: Dialect, platform: str, chat_id: str, user_id: str | None, clock: Clock
) -> Op[Session | None]:
    # A user's games are the ones they sat at or started (watching two bots included).
    return (
        yield from load(
            dialect,
            "platform = $2 AND chat_id = $3 AND status = $4 AND ($1::text IS NULL"
            " OR x_user = $1 OR o_user = $1 OR challenger = $1)"
            " ORDER BY updated_at DESC LIMIT 1",
            user_id,
            platform,
            chat_id,
            Status.FINISHED.value,
            clock=clock,
        )
    )


# --- kv ------------------------------------------------------------------------------------------


def kv_get(namespace: str, key: str) -> Op[str | None]:
    found = yield value("SELECT value FROM kv WHERE namespace = $1 AND key = $2", namespace, key)
    return None if found is None else str(found)


def kv_set(entry: KvEntry) -> Op[None]:
    """Upsert a kv row; a row tied to a session that is gone is skipped, not an error.

    The existence test is in the same statement, so it holds at the instant of the write;
    ``FOR KEY SHARE`` holds the session row until the insert commits: a concurrent delete of
    the session either ran first (the row is skipped) or waits (the row then goes with it).
    """
    yield count(
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


def _put_receipt(receipt: KvEntry | None) -> Op[None]:
    """:func:`kv_set` when there is a receipt (inside the change's transaction)."""
    if receipt is not None:
        yield from kv_set(receipt)


def kv_delete(namespace: str, key: str) -> Op[None]:
    yield count("DELETE FROM kv WHERE namespace = $1 AND key = $2", namespace, key)


# --- leases (core.store.lease_sql) ---------------------------------------------------------------


def acquire_lease(dialect: Dialect, name: str, holder: str, ttl: float) -> Op[bool]:
    return (yield row(_LEASES[dialect][0], name, holder, float(ttl), writes=True)) is not None


def release_lease(dialect: Dialect, name: str, holder: str) -> Op[bool]:
    return (yield row(_LEASES[dialect][1], name, holder, writes=True)) is not None


def lease_holder(dialect: Dialect, name: str) -> Op[LeaseHolder | None]:
    found = yield row(_LEASES[dialect][2], name)
    return None if found is None else LeaseHolder(str(found[0]), float(found[1]))


# --- settings, stats, counts and totals ----------------------------------------------------------


def settings_rows(platform: str, scopes: Sequence[str]) -> Op[list[SettingRow]]:
    found = yield rows(
        "SELECT platform, scope, key, value, updated_at, updated_by FROM settings"
        f" WHERE platform = $1 AND scope IN ({placeholders(2, len(scopes))})",
        platform,
        *scopes,
    )
    return [
        SettingRow(str(r[0]), str(r[1]), str(r[2]), str(r[3]), float(r[4]), str(r[5]))
        for r in found
    ]


def setting_put(setting: SettingRow) -> Op[None]:
    yield count(
        "INSERT INTO settings (platform, scope, key, value, updated_at, updated_by)"
        " VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (platform, scope, key) DO UPDATE SET"
        " value = excluded.value, updated_at = excluded.updated_at,"
        " updated_by = excluded.updated_by",
        setting.platform,
        setting.scope,
        setting.key,
        setting.value,
        setting.updated_at,
        setting.updated_by,
    )


def setting_delete(platform: str, scope: str, key: str) -> Op[bool]:
    deleted = yield count(
        "DELETE FROM settings WHERE platform = $1 AND scope = $2 AND key = $3",
        platform,
        scope,
        key,
    )
    return bool(deleted)


def player_stats(platform: str, user_id: str, chat_id: str | None) -> Op[StatsRow | None]:
    # The latest name wins: people rename themselves.
    found = yield row(
        "SELECT user_id, (SELECT name FROM stats WHERE platform = $1 AND user_id = $2"
        " ORDER BY updated_at DESC LIMIT 1), sum(wins), sum(losses), sum(draws)"
        " FROM stats WHERE platform = $1 AND user_id = $2"
        " AND ($3::text IS NULL OR chat_id = $3) GROUP BY user_id",
        platform,
        user_id,
        chat_id,
    )
    if found is None:
        return None
    return StatsRow(str(found[0]), str(found[1]), int(found[2]), int(found[3]), int(found[4]))


def top(platform: str, chat_id: str, limit: int) -> Op[list[StatsRow]]:
    # COLLATE "C": names in code point order whatever the server's locale (SQLite's BINARY).
    found = yield rows(
        "SELECT user_id, name, wins, losses, draws FROM stats"
        " WHERE platform = $1 AND chat_id = $2"
        ' ORDER BY wins DESC, draws DESC, losses ASC, name COLLATE "C" ASC LIMIT $3',
        platform,
        chat_id,
        limit,
    )
    return [StatsRow(str(r[0]), str(r[1]), int(r[2]), int(r[3]), int(r[4])) for r in found]


def count_sessions() -> Op[int]:
    return int((yield value("SELECT count(*) FROM sessions")))


def live_counts(platform: str, chat_id: str, user_id: str) -> Op[LiveCounts]:
    # The players table holds exactly the live users of live games (one row per user per chat).
    found = yield row(
        "SELECT (SELECT count(*) FROM players WHERE platform = $1 AND user_id = $3),"
        f" (SELECT count(*) FROM sessions WHERE platform = $1 AND chat_id = $2 AND {_LIVE})",
        platform,
        chat_id,
        user_id,
    )
    return LiveCounts(int(found[0]), int(found[1]))


def totals(since: float) -> Op[list[PlatformTotals]]:
    # Moves are stored as "4,0,8": one comma fewer than moves.
    found = yield rows(
        "SELECT platform, sum(live), sum(finished), sum(results), sum(moves) FROM ("
        f" SELECT platform, sum(CASE WHEN {_LIVE} THEN 1 ELSE 0 END) AS live,"
        " sum(CASE WHEN status = 'finished' THEN 1 ELSE 0 END) AS finished, 0 AS results,"
        " sum(CASE WHEN updated_at >= $1 AND moves <> ''"
        " THEN length(moves) - length(replace(moves, ',', '')) + 1 ELSE 0 END) AS moves"
        " FROM sessions GROUP BY platform"
        " UNION ALL SELECT platform, 0, 0, sum(wins + losses + draws), 0 FROM stats"
        " GROUP BY platform) AS counted GROUP BY platform ORDER BY platform",
        since,
    )
    return [PlatformTotals(str(r[0]), int(r[1]), int(r[2]), int(r[3]), int(r[4])) for r in found]


# --- the schema version and health ---------------------------------------------------------------


def schema_version(dialect: Dialect) -> Op[int]:
    """The schema version of the database."""
    if dialect is Dialect.SQLITE:
        return int((yield value("PRAGMA user_version")))
    return int((yield value(f"SELECT version FROM {VERSION_TABLE}")))


def check(dialect: Dialect) -> Op[None]:
    """Commit a write that changes nothing, to prove the database takes writes now.

    On SQLite, rewriting ``user_version`` with its own value dirties the header page, so the
    commit writes a WAL frame: it fails on a read-only file (SQLITE_READONLY) and on a journal
    that cannot be written (SQLITE_IOERR), where a rolled-back transaction would not notice.
    """
    yield Atomic(_rewrite_version(dialect))


def _rewrite_version(dialect: Dialect) -> Op[None]:
    if dialect is Dialect.SQLITE:
        version = yield from schema_version(dialect)
        yield count(f"PRAGMA user_version = {int(version)}")  # an int, not input
    else:
        yield count(f"UPDATE {VERSION_TABLE} SET version = version")

"""The store's operations on its other tables, each written once for SQLite and PostgreSQL: kv
rows and leases, settings, stats, counts and totals, the schema version and the health check
(the sessions' are in :mod:`core.store.ops`, where the module's notes on the two dialects hold
for these too).
"""

from __future__ import annotations

from collections.abc import Sequence

from core.store import lease_sql
from core.store.base import KvEntry, LeaseHolder
from core.store.migrations import Dialect
from core.store.models import OPEN_GAMES, LiveCounts, PlatformTotals, SettingRow, StatsRow
from core.store.sql import Atomic, Op, count, placeholders, row, rows, value

VERSION_TABLE = "chatbots_schema"
"""PostgreSQL's one row: the schema version (SQLite keeps it in ``PRAGMA user_version``)."""

LIVE = "status IN ('challenge', 'active')"
"""Live sessions (games and challenges), spelled as the partial index ``sessions_server``'s
predicate is, so that its lookups can use it."""

_LEASES = {
    dialect: (lease_sql.acquire(dialect), lease_sql.release(dialect), lease_sql.holder(dialect))
    for dialect in Dialect
}


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


def kv_delete(namespace: str, key: str) -> Op[None]:
    yield count("DELETE FROM kv WHERE namespace = $1 AND key = $2", namespace, key)


def kv_of_session(namespace: str, session_id: str) -> Op[dict[str, str]]:
    found = yield rows(
        "SELECT key, value FROM kv WHERE session_id = $1 AND namespace = $2 ORDER BY key",
        session_id,
        namespace,
    )
    return {str(key): str(found_value) for key, found_value in found}


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
        f" (SELECT count(*) FROM sessions WHERE platform = $1 AND chat_id = $2 AND {LIVE})",
        platform,
        chat_id,
        user_id,
    )
    return LiveCounts(int(found[0]), int(found[1]))


def totals(since: float) -> Op[list[PlatformTotals]]:
    # Moves are stored as "4,0,8": one comma fewer than moves. An open game (a seat in a chat
    # of its own) counts once, under OPEN_GAMES (Session.counted_platform); results are each
    # player's, under their own platform.
    found = yield rows(
        "SELECT platform, sum(live), sum(finished), sum(results), sum(moves) FROM ("
        f" SELECT CASE WHEN x_chat IS NULL AND o_chat IS NULL THEN platform ELSE $2 END"
        f" AS platform, sum(CASE WHEN {LIVE} THEN 1 ELSE 0 END) AS live,"
        " sum(CASE WHEN status = 'finished' THEN 1 ELSE 0 END) AS finished, 0 AS results,"
        " sum(CASE WHEN updated_at >= $1 AND moves <> ''"
        " THEN length(moves) - length(replace(moves, ',', '')) + 1 ELSE 0 END) AS moves"
        " FROM sessions GROUP BY 1"
        " UNION ALL SELECT platform, 0, 0, sum(wins + losses + draws), 0 FROM stats"
        " GROUP BY platform) AS counted GROUP BY platform ORDER BY platform",
        since,
        OPEN_GAMES,
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

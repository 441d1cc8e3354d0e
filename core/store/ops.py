"""The store's work, run in the connection's thread: transactions and the statements in them.

Each public function here is one whole store operation on a ``sqlite3.Connection`` (in
autocommit mode; transactions are explicit), so :class:`~core.store.sqlite.SqliteStore` runs it
in a single hop.
"""

from __future__ import annotations

import functools
import logging
import sqlite3
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from core.store import lease_sql
from core.store.base import AlreadyPlaying, KvEntry, StoreError
from core.store.models import LiveCounts, PlatformTotals, Session, SettingRow, Status
from core.store.rows import (
    INSERT_SESSION,
    SELECT_SESSION,
    UPDATE_SESSION,
    BadRow,
    decode_session,
    row_json,
    session_row,
    stats_rows,
)

log = logging.getLogger(__name__)

T = TypeVar("T")

Clock = Callable[[], float]

_MAX_QUARANTINES_PER_READ = 100
"""A read that keeps finding damaged rows gives up: something rewrites them as fast as we move
them, and an error is better than a loop."""


def transaction(conn: sqlite3.Connection, fn: Callable[[sqlite3.Connection], T]) -> T:
    """Run ``fn`` in one write transaction: all of it is committed, or none of it.

    ``BEGIN IMMEDIATE`` takes the write lock now (waiting up to ``busy_timeout``), so the
    transaction never has to upgrade a read lock later, where SQLite could only fail.
    """
    conn.execute("BEGIN IMMEDIATE")
    try:
        result = fn(conn)
        conn.execute("COMMIT")
    except BaseException:
        # SQLite rolls back by itself after some I/O and full-disk errors; a second ROLLBACK
        # would then fail and hide the error that matters.
        if conn.in_transaction:
            try:
                conn.execute("ROLLBACK")
            except sqlite3.Error:
                log.warning("rollback failed after an error", exc_info=True)
        raise
    return result


def user_version(conn: sqlite3.Connection) -> int:
    """The database's ``PRAGMA user_version`` (the schema version)."""
    row = conn.execute("PRAGMA user_version").fetchone()
    return int(row[0]) if row else 0


# --- sessions ------------------------------------------------------------------------------------


def create(conn: sqlite3.Connection, session: Session, receipt: KvEntry | None) -> None:
    """Insert a session, its players rows, its result if finished, and the receipt.

    Raises:
        AlreadyPlaying: a live user of ``session`` plays another game in the chat.
    """
    conn.execute(INSERT_SESSION, session_row(session))
    set_players(conn, session)
    if session.status is Status.FINISHED:
        record_result(conn, session)
    put_receipt(conn, receipt)


def update(
    conn: sqlite3.Connection, session: Session, expected_version: int, receipt: KvEntry | None
) -> bool:
    """Compare-and-set a session on its version (see ``SessionStore.update``)."""
    row = conn.execute(
        "SELECT status FROM sessions WHERE id = ? AND version = ?",
        (session.id, expected_version),
    ).fetchone()
    if row is None:
        return False
    before = row[0]
    conn.execute(UPDATE_SESSION, (*session_row(session)[1:], session.id, expected_version))
    # Who is live only changes with the status (accepted, finished): a plain move leaves the
    # players rows alone.
    if before != session.status.value:
        set_players(conn, session)
    if session.status is Status.FINISHED and before != Status.FINISHED.value:
        record_result(conn, session)
    put_receipt(conn, receipt)
    return True


def delete(
    conn: sqlite3.Connection,
    session_id: str,
    expected_version: int | None,
    receipt: KvEntry | None,
) -> bool:
    """Delete a session (at ``expected_version`` if given); players and kv rows go with it."""
    if expected_version is None:
        cursor = conn.execute("DELETE FROM sessions WHERE id = ?", (session_id,))
    else:
        cursor = conn.execute(
            "DELETE FROM sessions WHERE id = ? AND version = ?", (session_id, expected_version)
        )
    if cursor.rowcount != 1:
        return False
    put_receipt(conn, receipt)
    return True


def swap(conn: sqlite3.Connection, old: Session, new: Session, receipt: KvEntry | None) -> bool:
    """Delete ``old`` at its version and create ``new`` (inside the caller's transaction).

    Raises:
        AlreadyPlaying: as :func:`create`; the caller's transaction rolls back, ``old`` stays.
    """
    if not delete(conn, old.id, old.version, None):
        return False
    create(conn, new, receipt)
    return True


def delete_expired(conn: sqlite3.Connection, now: float) -> int:
    """Sweep expired sessions (with their players and kv rows) and expired kv rows."""
    swept = conn.execute("DELETE FROM sessions WHERE expires_at <= ?", (now,)).rowcount
    conn.execute(f"DELETE FROM kv WHERE expires_at <= ? AND {lease_sql.SWEEP_SPARES}", (now,))
    return swept


def set_players(conn: sqlite3.Connection, session: Session) -> None:
    """Make the ``players`` rows say who lives in ``session`` (inside a transaction).

    Raises:
        AlreadyPlaying: the primary key refused a user who already has a live game here.
    """
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


def record_result(conn: sqlite3.Connection, session: Session) -> None:
    """Add a finished game to its players' stats (inside the finishing transaction)."""
    conn.executemany(
        "INSERT INTO stats (platform, chat_id, user_id, name, wins, losses, draws,"
        " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (platform, chat_id, user_id) DO UPDATE SET"
        " name = excluded.name, wins = wins + excluded.wins,"
        " losses = losses + excluded.losses, draws = draws + excluded.draws,"
        " updated_at = excluded.updated_at",
        [
            (session.platform, session.chat_id, *row, session.updated_at)
            for row in stats_rows(session)
        ],
    )


# --- kv ------------------------------------------------------------------------------------------


def put_kv(conn: sqlite3.Connection, entry: KvEntry) -> None:
    """Upsert a kv row; a row tied to a session that is gone is skipped, not an error.

    The existence test is in the same statement, so it holds at the instant of the write (and
    the foreign key would refuse the row anyway).
    """
    conn.execute(
        "INSERT INTO kv (namespace, key, value, session_id, expires_at)"
        " SELECT ?1, ?2, ?3, ?4, ?5"
        " WHERE ?4 IS NULL OR EXISTS (SELECT 1 FROM sessions WHERE id = ?4)"
        " ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value,"
        " session_id = excluded.session_id, expires_at = excluded.expires_at",
        (entry.namespace, entry.key, entry.value, entry.session_id, entry.expires_at),
    )


def put_receipt(conn: sqlite3.Connection, receipt: KvEntry | None) -> None:
    """:func:`put_kv` when there is a receipt (inside the change's transaction)."""
    if receipt is not None:
        put_kv(conn, receipt)


# --- loading, with quarantine ----------------------------------------------------------------


def load(
    conn: sqlite3.Connection, where: str, params: tuple[Any, ...], clock: Clock
) -> Session | None:
    """The first session of ``SELECT ... WHERE <where>``, quarantining rows that do not load.

    A damaged row is moved to the ``quarantine`` table (its players and kv rows go with it) and
    the query runs again, so the caller sees the next valid row, or None.

    Raises:
        StoreError: damaged rows keep coming back (more than a hundred in one read).
    """
    sql = f"{SELECT_SESSION} WHERE {where}"
    for _ in range(_MAX_QUARANTINES_PER_READ):
        row = conn.execute(sql, params).fetchone()
        if row is None:
            return None
        try:
            return decode_session(row)
        except BadRow:
            moved = transaction(conn, functools.partial(quarantine, rowid=row[0], clock=clock))
            # Logged after COMMIT, by the one connection whose transaction moved the row: once.
            if moved is not None:
                log.warning(
                    "session quarantined, it cannot be loaded: session=%s reason=%s", *moved
                )
    raise StoreError(f"more than {_MAX_QUARANTINES_PER_READ} damaged sessions in one read")


def quarantine(conn: sqlite3.Connection, *, rowid: int, clock: Clock) -> tuple[str, str] | None:
    """Move the session row ``rowid`` to ``quarantine`` if it still does not load (inside a
    transaction).

    Returns:
        ``(session id, reason)`` if this call moved it; None if it is gone or loads now.
    """
    row = conn.execute(f"{SELECT_SESSION} WHERE rowid = ?", (rowid,)).fetchone()
    if row is None:
        return None  # someone else moved or deleted it meanwhile
    try:
        decode_session(row)
    except BadRow as bad:
        reason = str(bad)
    else:
        return None  # repaired meanwhile
    session_id = row[1] if isinstance(row[1], str) else None
    conn.execute(
        "INSERT INTO quarantine (session_id, row, reason, quarantined_at) VALUES (?, ?, ?, ?)",
        (session_id, row_json(row), reason, clock()),
    )
    conn.execute("DELETE FROM sessions WHERE rowid = ?", (rowid,))
    return str(session_id), reason


# --- settings, counts and totals -----------------------------------------------------------------

_LIVE = "status IN ('challenge', 'active')"


def settings_rows(
    conn: sqlite3.Connection, platform: str, scopes: Sequence[str]
) -> list[SettingRow]:
    marks = ", ".join("?" * len(scopes))
    rows = conn.execute(
        "SELECT platform, scope, key, value, updated_at, updated_by FROM settings"
        f" WHERE platform = ? AND scope IN ({marks})",
        (platform, *scopes),
    ).fetchall()
    return [
        SettingRow(str(r[0]), str(r[1]), str(r[2]), str(r[3]), float(r[4]), str(r[5])) for r in rows
    ]


def setting_put(conn: sqlite3.Connection, row: SettingRow) -> None:
    conn.execute(
        "INSERT INTO settings (platform, scope, key, value, updated_at, updated_by)"
        " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (platform, scope, key) DO UPDATE SET"
        " value = excluded.value, updated_at = excluded.updated_at,"
        " updated_by = excluded.updated_by",
        (row.platform, row.scope, row.key, row.value, row.updated_at, row.updated_by),
    )


def setting_delete(conn: sqlite3.Connection, platform: str, scope: str, key: str) -> bool:
    cursor = conn.execute(
        "DELETE FROM settings WHERE platform = ? AND scope = ? AND key = ?", (platform, scope, key)
    )
    return cursor.rowcount > 0


def live_counts(conn: sqlite3.Connection, platform: str, chat_id: str, user_id: str) -> LiveCounts:
    # The players table holds exactly the live users of live games (one row per user per chat).
    user = conn.execute(
        "SELECT count(*) FROM players WHERE platform = ? AND user_id = ?", (platform, user_id)
    ).fetchone()[0]
    chat = conn.execute(
        f"SELECT count(*) FROM sessions WHERE platform = ? AND chat_id = ? AND {_LIVE}",
        (platform, chat_id),
    ).fetchone()[0]
    return LiveCounts(int(user), int(chat))


def totals(conn: sqlite3.Connection, since: float) -> list[PlatformTotals]:
    by_platform: dict[str, list[int]] = {}
    for platform, live, finished in conn.execute(
        f"SELECT platform, sum({_LIVE}), sum(status = 'finished') FROM sessions GROUP BY platform"
    ):
        by_platform.setdefault(str(platform), [0, 0, 0, 0])[:2] = [int(live), int(finished)]
    for platform, results in conn.execute(
        "SELECT platform, sum(wins + losses + draws) FROM stats GROUP BY platform"
    ):
        by_platform.setdefault(str(platform), [0, 0, 0, 0])[2] = int(results)
    for platform, moves in conn.execute(
        "SELECT platform, moves FROM sessions WHERE updated_at >= ?", (since,)
    ):
        # Moves are stored as "4,0,8": one comma fewer than moves.
        count = str(moves).count(",") + 1 if moves else 0
        by_platform.setdefault(str(platform), [0, 0, 0, 0])[3] += count
    return [PlatformTotals(name, *counts) for name, counts in sorted(by_platform.items())]

"""Key-value rows: adapter state in the store (sync tokens, handled events, logins; where a
board is shown has its own table, :mod:`core.store.boards`), one value under
``(namespace, key)``, optionally tied to a session (deleted with it) or expiring (the sweep,
:func:`core.store.sessions.delete_expired`, removes it). Leases are kv rows too
(:mod:`core.store.leases`)."""

from __future__ import annotations

from core.store import sql
from core.store.models.kv import KvEntry
from core.store.sql import Op, count, rows


def kv_get(namespace: str, key: str) -> Op[str | None]:
    """The value under ``(namespace, key)``, or None."""
    found = yield sql.value(
        "SELECT value FROM kv WHERE namespace = $1 AND key = $2", namespace, key
    )
    return None if found is None else str(found)


def kv_set(
    namespace: str,
    key: str,
    value: str,
    *,
    session_id: str | None = None,
    expires_at: float | None = None,
) -> Op[None]:
    """Store (or replace) a value; see :class:`~core.store.models.KvEntry` for the keywords.
    A row tied to a session that no longer exists is not stored (no error)."""
    yield from put(KvEntry(namespace, key, value, session_id=session_id, expires_at=expires_at))


def put(entry: KvEntry) -> Op[None]:
    """Upsert a kv row (also a write's receipt, inside its transaction); a row tied to a
    session that is gone is skipped, not an error.

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
    """Remove a value (no error when absent)."""
    yield count("DELETE FROM kv WHERE namespace = $1 AND key = $2", namespace, key)


def kv_of_session(namespace: str, session_id: str) -> Op[dict[str, str]]:
    """Every value in ``namespace`` tied to ``session_id``, by key."""
    found = yield rows(
        "SELECT key, value FROM kv WHERE session_id = $1 AND namespace = $2 ORDER BY key",
        session_id,
        namespace,
    )
    return {str(key): str(found_value) for key, found_value in found}

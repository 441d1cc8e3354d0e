"""The lease statements of both stores (see :class:`core.store.base.LeaseStore`), written once.

A lease is a row of ``kv`` (no migration): namespace :data:`~core.store.base.LEASE_NAMESPACE`,
key the lease's name, value the holder id, ``expires_at`` its expiry in seconds since the epoch
by the database's clock. Taking a lease is one upsert whose ``WHERE`` decides:

- no row: the insert takes it (of two racing inserts, PostgreSQL makes the second wait for the
  first to commit and then sees the row; SQLite has one writer at a time);
- a row: ``DO UPDATE ... WHERE`` replaces it only if it is ours (a renewal), expired or
  without an expiry, evaluated on the newest row version under its row lock, so of several
  processes taking an expired lease at once exactly one gets it.

``RETURNING`` says whether the row was written. The clock is the database's in both dialects:
PostgreSQL's ``statement_timestamp()`` (one value for the whole statement), SQLite's
``julianday('now')`` (one value per statement; the file and every process using it are on one
machine).
"""

from __future__ import annotations

from core.store.base import LEASE_NAMESPACE
from core.store.migrations import Dialect

_NOW = {
    Dialect.SQLITE: "((julianday('now') - 2440587.5) * 86400.0)",
    Dialect.POSTGRES: "extract(epoch FROM statement_timestamp())::double precision",
}
_PARAMS = {
    # name, holder, ttl
    Dialect.SQLITE: ("?1", "?2", "?3"),
    Dialect.POSTGRES: ("$1::text", "$2::text", "$3::double precision"),
}


def acquire(dialect: Dialect) -> str:
    """Take or renew a lease: parameters ``(name, holder, ttl)``; a row back iff taken."""
    now = _NOW[dialect]
    name, holder, ttl = _PARAMS[dialect]
    return (
        "INSERT INTO kv (namespace, key, value, session_id, expires_at)"
        f" VALUES ('{LEASE_NAMESPACE}', {name}, {holder}, NULL, {now} + {ttl})"
        " ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value,"
        " session_id = NULL, expires_at = excluded.expires_at"
        " WHERE kv.value = excluded.value OR kv.expires_at IS NULL"
        f" OR kv.expires_at <= {now}"
        " RETURNING 1"
    )


def release(dialect: Dialect) -> str:
    """Give a lease up: parameters ``(name, holder)``; a row back iff released."""
    name, holder, _ = _PARAMS[dialect]
    return (
        f"DELETE FROM kv WHERE namespace = '{LEASE_NAMESPACE}' AND key = {name}"
        f" AND value = {holder} RETURNING 1"
    )


def holder(dialect: Dialect) -> str:
    """Who holds a lease: parameter ``(name,)``; ``(holder, seconds left)`` or no row."""
    now = _NOW[dialect]
    name, _, _ = _PARAMS[dialect]
    return (
        f"SELECT value, expires_at - {now} FROM kv"
        f" WHERE namespace = '{LEASE_NAMESPACE}' AND key = {name} AND expires_at > {now}"
    )


SWEEP_SPARES = f"namespace <> '{LEASE_NAMESPACE}'"
"""The sweep's condition that leaves lease rows alone: their expiry is by the database's clock,
the sweep's ``now`` by the sweeping process's, and an expired lease is free without deleting."""

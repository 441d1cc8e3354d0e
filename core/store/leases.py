"""Leases: a named right to do some work alone, for a time, among processes sharing the
database (the Matrix sync of one account, the sweeper, Discord's command sync); the operations
:func:`acquire_lease`, :func:`release_lease` and :func:`lease_holder`, written once.

A lease is a row of ``kv`` (no migration): namespace :data:`LEASE_NAMESPACE`, key the lease's
name, value the holder id, ``expires_at`` its expiry in seconds since the epoch by the
database's clock. Each operation is one statement, and every time in it is the database's
clock, so processes whose clocks disagree still agree on who holds a lease. A holder must
therefore count its own time from before it sent the statement: it holds the lease at most
``ttl`` seconds after that, however late the answer arrives (clocks may disagree on the time,
they are assumed to agree on the length of a second). The sweep leaves lease rows alone: only
these operations write them. Taking a lease is one upsert whose ``WHERE`` decides:

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

from core.store.migrations import Dialect
from core.store.models.kv import LeaseHolder
from core.store.sql import ENV, Op, row

LEASE_NAMESPACE = "lease"
"""The key-value namespace of the leases; no one else writes there."""

_NOW = {
    Dialect.SQLITE: "((julianday('now') - 2440587.5) * 86400.0)",
    Dialect.POSTGRES: "extract(epoch FROM statement_timestamp())::double precision",
}
_PARAMS = {
    # name, holder, ttl
    Dialect.SQLITE: ("?1", "?2", "?3"),
    Dialect.POSTGRES: ("$1::text", "$2::text", "$3::double precision"),
}


def _acquire(dialect: Dialect) -> str:
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


def _release(dialect: Dialect) -> str:
    """Give a lease up: parameters ``(name, holder)``; a row back iff released."""
    name, holder, _ = _PARAMS[dialect]
    return (
        f"DELETE FROM kv WHERE namespace = '{LEASE_NAMESPACE}' AND key = {name}"
        f" AND value = {holder} RETURNING 1"
    )


def _holder(dialect: Dialect) -> str:
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


_LEASES = {dialect: (_acquire(dialect), _release(dialect), _holder(dialect)) for dialect in Dialect}


def check_lease_arguments(name: str, holder: str, ttl: float = 1.0) -> None:
    """Refuse what no lease can be (each operation calls this first).

    Raises:
        ValueError: an empty name or holder, a ``ttl`` that is not a positive finite number.
    """
    if not isinstance(name, str) or not name:
        raise ValueError(f"a lease needs a name, got {name!r}")
    if not isinstance(holder, str) or not holder:
        raise ValueError(f"a lease needs a holder id, got {holder!r}")
    if isinstance(ttl, bool) or not isinstance(ttl, (int, float)) or not 0 < ttl < float("inf"):
        raise ValueError(f"a lease's ttl must be a positive number of seconds, got {ttl!r}")


def acquire_lease(name: str, holder: str, ttl: float) -> Op[bool]:
    """Take the lease ``name`` for ``holder`` for ``ttl`` seconds, if it is free, expired or
    already held by ``holder`` (then this renews it). Atomic: of several processes trying at
    once, exactly one gets a free lease.

    Returns:
        True if ``holder`` holds the lease now, until ``ttl`` seconds from now.

    Raises:
        ValueError: an empty name or holder, or a ``ttl`` that is not a positive number.
    """
    check_lease_arguments(name, holder, ttl)
    env = yield ENV
    return (yield row(_LEASES[env.dialect][0], name, holder, float(ttl), writes=True)) is not None


def release_lease(name: str, holder: str) -> Op[bool]:
    """Give the lease up, if ``holder`` holds it (another holder's lease stays as it is).

    Returns:
        True if it was released, False if ``holder`` did not hold it.
    """
    check_lease_arguments(name, holder)
    env = yield ENV
    return (yield row(_LEASES[env.dialect][1], name, holder, writes=True)) is not None


def lease_holder(name: str) -> Op[LeaseHolder | None]:
    """Who holds the lease ``name`` now; None when it is free or expired."""
    env = yield ENV
    found = yield row(_LEASES[env.dialect][2], name)
    return None if found is None else LeaseHolder(str(found[0]), float(found[1]))

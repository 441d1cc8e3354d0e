"""The schema version of the database and the store's health check (a write that changes
nothing); the steps that build the schema are in :mod:`core.store.migrations`."""

from __future__ import annotations

from core.store.migrations import Dialect
from core.store.sql import ENV, Atomic, Op, count, value

VERSION_TABLE = "chatbots_schema"
"""PostgreSQL's one row: the schema version (SQLite keeps it in ``PRAGMA user_version``)."""


def schema_version() -> Op[int]:
    """The schema version of the database."""
    env = yield ENV
    return (yield from _version(env.dialect))


def _version(dialect: Dialect) -> Op[int]:
    if dialect is Dialect.SQLITE:
        return int((yield value("PRAGMA user_version")))
    return int((yield value(f"SELECT version FROM {VERSION_TABLE}")))


def check() -> Op[None]:
    """Commit a write that changes nothing, to prove the database takes writes now.

    On SQLite, rewriting ``user_version`` with its own value dirties the header page, so the
    commit writes a WAL frame: it fails on a read-only file (SQLITE_READONLY) and on a journal
    that cannot be written (SQLITE_IOERR), where a rolled-back transaction would not notice.
    """
    env = yield ENV
    yield Atomic(_rewrite_version(env.dialect))


def _rewrite_version(dialect: Dialect) -> Op[None]:
    if dialect is Dialect.SQLITE:
        version = yield from _version(dialect)
        yield count(f"PRAGMA user_version = {int(version)}")  # an int, not input
    else:
        yield count(f"UPDATE {VERSION_TABLE} SET version = version")

"""Fault injection at the driver's edge, for what cannot be caused on demand here: a connection
that drops between a commit and its answer.

:class:`DropAtCommit` lets the next write of a session row reach the database (or not), then
raises what the driver raises when the connection is gone: asyncpg's
``ConnectionDoesNotExistError`` after closing the connection for real (PostgreSQL), SQLite's
``disk I/O error`` at ``COMMIT`` (SQLite has no connection to lose; an I/O error at the commit
leaves its fate as unknown). Everything above the driver (the store's translation, the service)
is the real code.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any

import pytest

from core.store import postgres, sqlite_driver
from core.store.sql import Query
from tests.backends import Kind

SQLITE_IOERR = 10


class DropAtCommit:
    """Armed with :meth:`arm`: the next write of a session row fails as a dropped connection.

    Attributes:
        fired: how many writes it failed.
        after: called once the write failed (a test stops the database there).
    """

    def __init__(self, kind: Kind, monkeypatch: pytest.MonkeyPatch) -> None:
        self._committed = True
        self._armed = False
        self.fired = 0
        self.after: Callable[[], None] | None = None
        if kind == "sqlite":
            monkeypatch.setattr(sqlite_driver, "commit", self._sqlite_commit(sqlite_driver.commit))
        else:
            monkeypatch.setattr(postgres, "_query", self._pg_query(postgres._query))

    def arm(self, *, committed: bool) -> None:
        """Fail the next write of a session row; ``committed``: after it was stored."""
        self._armed = True
        self._committed = committed

    def _fire(self) -> None:
        self._armed = False
        self.fired += 1
        if self.after is not None:
            self.after()

    def _sqlite_commit(
        self, commit: Callable[[sqlite3.Connection], None]
    ) -> Callable[[sqlite3.Connection], None]:
        def hooked(conn: sqlite3.Connection) -> None:
            if not self._armed:
                commit(conn)
                return
            if self._committed:
                commit(conn)
            else:
                conn.execute("ROLLBACK")
            self._fire()
            error = sqlite3.OperationalError("disk I/O error")
            error.sqlite_errorcode = SQLITE_IOERR
            raise error

        return hooked

    def _pg_query(self, query: Callable[[Any, Query], Any]) -> Callable[[Any, Query], Any]:
        import asyncpg

        async def hooked(conn: Any, step: Query) -> Any:
            if not (self._armed and step.writes and "UPDATE sessions" in step.sql):
                return await query(conn, step)
            if self._committed:
                await query(conn, step)  # autocommit: stored when the server answers
            conn.terminate()
            self._fire()
            raise asyncpg.exceptions.ConnectionDoesNotExistError(
                "connection was closed in the middle of operation"
            )

        return hooked

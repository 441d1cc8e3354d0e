"""Fault injection at the driver's edge, for what cannot be caused on demand here: a connection
that drops between a commit and its answer.

:class:`DropAtCommit` lets the next write of a session row reach the database (or not), then
raises what the driver raises when the connection is gone: asyncpg's
``ConnectionDoesNotExistError`` after closing the connection for real (PostgreSQL; inside a
transaction, once the transaction committed, or before it did), SQLite's ``disk I/O error`` at
``COMMIT`` (SQLite has no connection to lose; an I/O error at the commit leaves its fate as
unknown). Everything above the driver (the store's translation, the service)
is the real code.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable
from typing import Any

import pytest

from core.store import StoreUnavailable, outbox, postgres, sqlite_driver
from core.store.models import OutboxItem
from core.store.sql import Op, Query
from tests.backends import Kind

SQLITE_IOERR = 10

# The statements that write a session row (the one armed fails).
_WRITES_SESSIONS = re.compile(r"(UPDATE|INSERT INTO|DELETE FROM) sessions\b")


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
        # A write inside a transaction whose drop waits for its commit (PostgreSQL).
        self._at_commit = False
        if kind == "sqlite":
            monkeypatch.setattr(sqlite_driver, "commit", self._sqlite_commit(sqlite_driver.commit))
        else:
            import asyncpg.transaction

            monkeypatch.setattr(postgres, "_query", self._pg_query(postgres._query))
            transaction = asyncpg.transaction.Transaction
            monkeypatch.setattr(transaction, "__aexit__", self._pg_commit(transaction.__aexit__))

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
            if not (self._armed and step.writes and _WRITES_SESSIONS.search(step.sql)):
                return await query(conn, step)
            if self._committed and conn.is_in_transaction():
                self._armed, self._at_commit = False, True
                return await query(conn, step)
            if self._committed:
                # Autocommit: stored when the server answers. One that wrote nothing (the
                # one-statement update of a move, tried first) is not the write: the next is.
                answer = await query(conn, step)
                if not answer:
                    return answer
            conn.terminate()
            self._fire()
            raise asyncpg.exceptions.ConnectionDoesNotExistError(
                "connection was closed in the middle of operation"
            )

        return hooked

    def _pg_commit(self, aexit: Callable[..., Any]) -> Callable[..., Any]:
        import asyncpg

        async def hooked(transaction: Any, *exc: Any) -> Any:
            answer = await aexit(transaction, *exc)
            if not self._at_commit or exc[0] is not None or transaction._nested:
                return answer  # not the commit (a savepoint's release is not one)
            self._at_commit = False
            # Committed: the connection drops before its answer reaches the bot.
            transaction._connection.terminate()
            self._fire()
            raise asyncpg.exceptions.ConnectionDoesNotExistError(
                "connection was closed in the middle of operation"
            )

        return hooked


def outbox_done_refused_once(monkeypatch: pytest.MonkeyPatch) -> list[OutboxItem]:
    """The store refuses the next delete of a shown outbox item (``outbox.outbox_done``), as a
    process that died after showing it never deletes it: its claim lapses, and a later pass
    shows it again. The item refused, once it was."""
    done = outbox.outbox_done
    refused: list[OutboxItem] = []

    def outbox_done(item: OutboxItem) -> Op[None]:
        if not refused:
            refused.append(item)
            raise StoreUnavailable("test database", "the process died")
        return done(item)

    monkeypatch.setattr(outbox, "outbox_done", outbox_done)
    return refused

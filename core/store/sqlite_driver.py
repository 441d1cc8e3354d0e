"""Driving store operations (:mod:`core.store.sql`) on a ``sqlite3`` connection, in its thread.

The connection is in autocommit mode; transactions are explicit. :func:`drive` runs a whole
operation, every statement and transaction of it, in the caller's thread, so
:class:`~core.store.sqlite.SqliteStore` runs it in one hop of its connection's thread.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar

from core.store.sql import ENV, Atomic, Env, Op, Query, Want, for_sqlite

log = logging.getLogger(__name__)

T = TypeVar("T")


def transaction(conn: sqlite3.Connection, fn: Callable[[sqlite3.Connection], T]) -> T:
    """Run ``fn`` in one write transaction: all of it is committed, or none of it.

    ``BEGIN IMMEDIATE`` takes the write lock now (waiting up to ``busy_timeout``), so the
    transaction never has to upgrade a read lock later, where SQLite could only fail.
    """
    conn.execute("BEGIN IMMEDIATE")
    try:
        result = fn(conn)
        try:
            commit(conn)
        except sqlite3.Error as error:
            raise CommitFailed(error) from error
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


class CommitFailed(Exception):
    """SQLite's ``error`` at ``COMMIT``: the transaction may have been stored or not (an I/O
    error as the log is written)."""

    def __init__(self, error: sqlite3.Error) -> None:
        super().__init__(str(error))
        self.error = error


def commit(conn: sqlite3.Connection) -> None:
    """``COMMIT`` the transaction under way (one place, where a test can fail it)."""
    conn.execute("COMMIT")


def user_version(conn: sqlite3.Connection) -> int:
    """The database's ``PRAGMA user_version`` (the schema version)."""
    row = conn.execute("PRAGMA user_version").fetchone()
    return int(row[0]) if row else 0


def drive(conn: sqlite3.Connection, op: Op[T], env: Env) -> T:
    """Run the operation ``op`` to its end on ``conn``; its result, or what it raised.

    An :class:`Atomic` group, or a writing query, outside a transaction gets one of its own;
    inside one, it joins it. :data:`ENV` is answered with ``env``.
    """
    # The same loop as core.store.postgres._drive, a plain function here: one coroutine loop
    # for both, run in this thread by one send, cost 0.6 µs an operation and 0.3 µs a step
    # (5 % of a transaction's store.run), for six shared lines.
    answer: Any = None
    try:
        while True:
            step = op.send(answer)
            if type(step) is Query:
                if step.writes and not conn.in_transaction:
                    answer = transaction(conn, partial(_run, query=step))
                else:
                    answer = _run(conn, step)
            elif type(step) is Atomic:
                inner = step.op
                answer = (
                    drive(conn, inner, env)
                    if conn.in_transaction
                    else transaction(conn, partial(drive, op=inner, env=env))
                )
            else:
                assert step is ENV
                answer = env
    except StopIteration as stop:
        return stop.value  # type: ignore[no-any-return]
    finally:
        op.close()


def _run(conn: sqlite3.Connection, query: Query) -> Any:
    sql = for_sqlite(query.sql)
    want = query.want
    if want is Want.MANY:
        conn.executemany(sql, query.args)
        return None
    cursor = conn.execute(sql, query.args)
    if want is Want.COUNT:
        return cursor.rowcount
    if want is Want.ROWS or query.writes:
        # A writing statement's rows are all read before COMMIT (RETURNING ends there).
        found = cursor.fetchall()
        if want is Want.ROWS:
            return found
        first = found[0] if found else None
    else:
        first = cursor.fetchone()
    if want is Want.ROW or first is None:
        return first
    return first[0]

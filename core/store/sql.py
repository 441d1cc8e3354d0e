"""The connection protocol the store's operations are written over, once for both databases.

An operation (such as :func:`core.store.sessions.get`) is a generator: it yields what it wants
done (a :class:`Query`, an :class:`Atomic` group of queries, or :data:`ENV`: which store runs
it) and receives each answer, so it does no I/O of its own (the sans-I/O shape of
mautrix-python's ``util/async_db``, without its async layer). The generator is the
operation's one declaration: callers run it with ``await store.run(sessions.get(id))``, and
its function's name is its timing label. Each store drives it its own way:

- SQLite runs the whole generator in its connection's thread, in one hop, as before;
- PostgreSQL drives it on a pooled connection, one ``await`` per query, an :class:`Atomic`
  group inside ``conn.transaction()``.

Statements are written once, in PostgreSQL's spelling (``$n`` placeholders, ``::type`` casts,
row locks). :func:`for_sqlite` turns one into SQLite's by rules that change nothing of its
meaning there (SQLite has one writer at a time: a row lock has nothing to lock), computed once
per statement and cached.
"""

from __future__ import annotations

import enum
import functools
import re
from collections.abc import Callable, Generator
from dataclasses import dataclass
from types import GeneratorType
from typing import Any, Final, TypeVar, cast

from core.store.migrations import Dialect

T = TypeVar("T")


class Want(enum.Enum):
    """What a query answers with."""

    COUNT = "count"
    """How many rows the statement wrote."""
    ROWS = "rows"
    """Every row, as tuples."""
    ROW = "row"
    """The first row as a tuple, or None."""
    VALUE = "value"
    """The first column of the first row, or None."""
    MANY = "many"
    """Nothing: ``args`` is a list of argument tuples, the statement runs once for each."""


@dataclass(frozen=True, slots=True)
class Query:
    """One statement to run, its arguments, and what to answer with.

    ``writes``: a single statement that writes. SQLite runs it in a write transaction of its
    own when it is not inside one already (``BEGIN IMMEDIATE``: the lock is taken up front,
    under the busy timeout); PostgreSQL needs none (one statement is atomic).
    """

    sql: str
    args: tuple[Any, ...]
    want: Want
    writes: bool = False


@dataclass(frozen=True, slots=True)
class Atomic:
    """Run ``op`` in one transaction (answers with its result): all of it, or none of it."""

    op: Op[Any]


@dataclass(frozen=True, slots=True)
class Env:
    """What the store running an operation answers to :data:`ENV`: its database's dialect,
    and its clock (seconds since the epoch; a quarantined row's time)."""

    dialect: Dialect
    clock: Callable[[], float]


class AskEnv:
    """The step that asks the driver for its :class:`Env` (one value: :data:`ENV`)."""

    __slots__ = ()


ENV: Final = AskEnv()
"""Yield it to receive the running store's :class:`Env`: ``env = yield ENV``."""

Step = Query | Atomic | AskEnv
Op = Generator[Step, Any, T]
"""A store operation: yields :data:`Step` values, receives their answers, returns ``T``."""


def name_of(op: Op[Any]) -> str:
    """The operation's name: its generator function's (the ``operation`` label of its
    timing)."""
    return cast("GeneratorType[Any, Any, Any]", op).__name__


def count(sql: str, *args: Any) -> Query:
    """A writing statement answered with its row count (in a transaction of its own if
    needed)."""
    return Query(sql, args, Want.COUNT, writes=True)


def rows(sql: str, *args: Any, writes: bool = False) -> Query:
    return Query(sql, args, Want.ROWS, writes)


def row(sql: str, *args: Any, writes: bool = False) -> Query:
    return Query(sql, args, Want.ROW, writes)


def value(sql: str, *args: Any, writes: bool = False) -> Query:
    return Query(sql, args, Want.VALUE, writes)


def many(sql: str, args: list[tuple[Any, ...]]) -> Query:
    return Query(sql, tuple(args), Want.MANY, writes=True)


def placeholders(first: int, n: int) -> str:
    """``$first, $first+1, ...``: ``n`` numbered placeholders (an ``IN (...)`` list)."""
    return ", ".join(f"${i}" for i in range(first, first + n))


_NUMBERED = re.compile(r"\$(\d+)")
_CAST = re.compile(r"::(?:text|integer|double precision)(?:\[\])?")
_ROW_LOCK = re.compile(r" FOR (?:NO KEY UPDATE|KEY SHARE|UPDATE|SHARE)(?: SKIP LOCKED| NOWAIT)?")
_COLLATE_C = ' COLLATE "C"'  # code point order: SQLite's BINARY


@functools.lru_cache(maxsize=512)
def for_sqlite(sql: str) -> str:
    """``sql`` as SQLite spells it: ``$n`` to ``?n`` (SQLite's numbered parameters), casts and
    row locks dropped (types are the columns' affinity; one writer at a time), ``COLLATE
    "C"`` to ``BINARY``."""
    sql = _NUMBERED.sub(r"?\1", sql)
    sql = _CAST.sub("", sql)
    sql = _ROW_LOCK.sub("", sql)
    return sql.replace(_COLLATE_C, " COLLATE BINARY")

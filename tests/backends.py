"""The two stores behind one test interface, so one test runs against SQLite and PostgreSQL.

A test takes the ``backend`` fixture (parametrised ``sqlite`` / ``postgres`` in
``tests/conftest.py``) and opens its store with ``backend.open()``; ``backend.sql`` runs a
statement on a connection of its own (to look at the rows, or to damage them), written once
with ``$1`` placeholders. Each test gets a fresh database: a new file, or a new schema in the
PostgreSQL server of the session (:mod:`tests.pg`), named in the URL's ``search_path``.

A new SQLite file starts as a copy of one the store made and migrated at the session's first
need (:meth:`Backends.fresh`): migrating an empty file costs more than most tests (every step,
each in its transaction: the SQLite tests of the fast run took 23 s of CPU, 13 s with copies),
and the copy is the very file that ``open`` leaves, so the store then opens it as it opens any
current database. A test that writes the file before opening it (an older schema, a damaged
one) gets no copy: ``open`` migrates what it finds.
"""

from __future__ import annotations

import contextlib
import re
import shutil
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, Literal

from core.store import SqliteStore
from core.store.postgres import PostgresStore
from tests.pg import PostgresServer, PostgresUnavailable

Kind = Literal["sqlite", "postgres"]
KINDS: tuple[Kind, ...] = ("sqlite", "postgres")
AnyStore = SqliteStore | PostgresStore

_NUMBERED = re.compile(r"\$(\d+)")


class Backend:
    """One fresh database of one kind. ``where`` is the file or the URL."""

    kind: Kind
    where: str

    def open(self, **options: Any) -> Any:
        """The store's ``open(...)`` on this database: await it, or ``async with`` it."""
        raise NotImplementedError

    async def sql(self, statement: str, *params: Any) -> list[tuple[Any, ...]]:
        """Run one statement on a connection of its own (autocommit); its rows as tuples."""
        raise NotImplementedError

    async def set_schema_version(self, version: int) -> None:
        """Write the schema version as a newer (or older) program would."""
        raise NotImplementedError


class SqliteBackend(Backend):
    kind: Kind = "sqlite"

    def __init__(self, path: Path, template: Path | None = None) -> None:
        self.path = path
        self.where = str(path)
        self._template = template

    def open(self, **options: Any) -> Any:
        if self._template is not None and not self.path.exists():
            shutil.copyfile(self._template, self.path)
        return SqliteStore.open(self.path, **options)

    async def sql(self, statement: str, *params: Any) -> list[tuple[Any, ...]]:
        db = sqlite3.connect(self.path, isolation_level=None)
        try:
            return db.execute(_NUMBERED.sub(r"?\1", statement), params).fetchall()
        finally:
            db.close()

    async def set_schema_version(self, version: int) -> None:
        await self.sql(f"PRAGMA user_version = {int(version)}")


class PostgresBackend(Backend):
    kind: Kind = "postgres"

    def __init__(self, server: PostgresServer, schema: str) -> None:
        self.server = server
        self.schema = schema
        self.where = f"{server.url()}&search_path={schema}"

    def open(self, **options: Any) -> Any:
        return PostgresStore.open(self.where, **options)

    async def sql(self, statement: str, *params: Any) -> list[tuple[Any, ...]]:
        import asyncpg

        conn = await asyncpg.connect(self.where)
        try:
            return [tuple(row) for row in await conn.fetch(statement, *params)]
        finally:
            await conn.close()

    async def set_schema_version(self, version: int) -> None:
        await self.sql("CREATE TABLE IF NOT EXISTS chatbots_schema (version INTEGER NOT NULL)")
        await self.sql("DELETE FROM chatbots_schema")
        await self.sql("INSERT INTO chatbots_schema (version) VALUES ($1)", version)


class Backends:
    """Fresh databases of either kind; starts the PostgreSQL server on first need."""

    def __init__(self, folder: Path) -> None:
        self._folder = folder
        self._server: PostgresServer | None = None
        self._failure: PostgresUnavailable | None = None
        self._template: Path | None = None

    async def sqlite_template(self) -> Path:
        """A file the SQLite store created and migrated (made on the first call), closed: its
        write-ahead log checkpointed into it, so that the file alone is the whole database."""
        if self._template is None:
            made = self._folder / "template.sqlite3"
            async with SqliteStore.open(made):
                pass
            self._template = made
        return self._template

    def server(self) -> PostgresServer:
        """The session's server (started now if it is not yet).

        Raises:
            PostgresUnavailable: it cannot start (every PostgreSQL test then fails with why).
        """
        if self._failure is not None:
            raise self._failure
        if self._server is None:
            try:
                self._server = PostgresServer.start()
            except PostgresUnavailable as error:
                self._failure = error
                raise
        return self._server

    @contextlib.asynccontextmanager
    async def fresh(self, kind: Kind, folder: Path) -> AsyncIterator[Backend]:
        """A new, empty database of ``kind`` (its file in ``folder`` for SQLite), dropped at
        the end of the block."""
        if kind == "sqlite":
            yield SqliteBackend(folder / "db.sqlite3", await self.sqlite_template())
            return
        import asyncpg

        server = self.server()
        # A schema per test, not a database: CREATE DATABASE costs about 0.2 s here, a schema
        # a millisecond, and the store sees the same empty place (search_path in the URL).
        name = server.new_database_name()
        admin = await asyncpg.connect(server.url())
        try:
            await admin.execute(f"CREATE SCHEMA {name}")
            try:
                yield PostgresBackend(server, name)
            finally:
                await admin.execute(f"DROP SCHEMA {name} CASCADE")
        finally:
            await admin.close()

    def close(self) -> None:
        """Stop the server if it was started."""
        if self._server is not None:
            self._server.stop()
            self._server = None

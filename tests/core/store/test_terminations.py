"""How a game ended is checked by the terminations table (core.games.Termination's values), on
both stores: every termination has its row, others are refused, a new one is one INSERT (no
copy of the sessions table), and a database from before the table upgrades with its rows."""

from __future__ import annotations

import re
import sqlite3
from dataclasses import replace
from typing import Any

import pytest

from core.games import Outcome, Termination
from core.store import Status, schema, sessions
from core.store.migrations import STEPS, TERMINATIONS, Dialect
from core.store.rows import SESSION_COLUMNS, session_row
from tests.backends import Backend, SqliteBackend
from tests.core.store.helpers import make_session, played, upgraded

_ADDED = re.compile(r"INSERT INTO terminations \(name\) VALUES (.*)")


def test_every_termination_was_added_by_a_step() -> None:
    """A new ``Termination`` needs a step that adds its row (``terminations(...)``): a database
    made before it would refuse games that end that way."""
    added = [
        value
        for step in STEPS
        for statement in step.sql(Dialect.SQLITE)
        if (found := _ADDED.fullmatch(statement))
        for value in re.findall(r"\('([a-z_]+)'\)", found.group(1))
    ]
    assert sorted(added) == sorted(t.value for t in Termination)


async def _run(backend: Backend, statement: str, *params: Any) -> list[tuple[Any, ...]]:
    """One statement on a connection of its own, as the store's own connections see the
    schema (SQLite: with foreign keys on, as the store configures every connection)."""
    if not isinstance(backend, SqliteBackend):
        return await backend.sql(statement, *params)
    db = sqlite3.connect(backend.path, isolation_level=None)
    try:
        db.execute("PRAGMA foreign_keys = ON")
        return db.execute(re.sub(r"\$(\d+)", r"?\1", statement), params).fetchall()
    finally:
        db.close()


async def test_each_termination_is_stored_and_no_other(backend: Backend) -> None:
    async with backend.open() as store:
        names = await backend.sql("SELECT name FROM terminations")
        assert sorted(name for (name,) in names) == sorted(t.value for t in Termination)
        game = make_session()
        await store.run(sessions.create(game))
    update = "UPDATE sessions SET termination = $1 WHERE id = $2"
    for termination in Termination:
        await _run(backend, update, termination.value, game.id)
        assert await backend.sql("SELECT termination FROM sessions") == [(termination.value,)]
    with pytest.raises(Exception, match=r"(?i)foreign key"):
        await _run(backend, update, "forfeit", game.id)
    # A new termination is one row: no step copies the sessions table for it.
    await _run(backend, "INSERT INTO terminations (name) VALUES ('forfeit')")
    await _run(backend, update, "forfeit", game.id)
    assert await backend.sql("SELECT termination FROM sessions") == [("forfeit",)]


async def test_a_database_from_before_the_table_upgrades_in_place(backend: Backend) -> None:
    """At the step before the table, with finished games in it: they keep their rows and read
    as they ended; SQLite's sessions table is the same b-tree (its root page), not a copy."""
    before = list(STEPS).index(TERMINATIONS)
    for step in STEPS[:before]:
        for statement in step.sql(Dialect(backend.kind)):
            await backend.sql(statement)
    await backend.set_schema_version(before)
    resigned = replace(
        played(make_session(chat="c1"), 0, 4),
        status=Status.FINISHED,
        outcome=Outcome(Termination.RESIGNATION, 2),
    )
    won = played(make_session(chat="c2"), 0, 3, 1, 4, 2)
    columns = SESSION_COLUMNS[: SESSION_COLUMNS.index("public_id")]  # added later
    marks = ", ".join(f"${n}" for n in range(1, len(columns) + 1))
    for session in (resigned, won):
        await backend.sql(
            f"INSERT INTO sessions ({', '.join(columns)}) VALUES ({marks})",
            *session_row(session)[: len(columns)],
        )
    root = "SELECT rootpage FROM sqlite_master WHERE name = 'sessions'"
    page = await backend.sql(root) if backend.kind == "sqlite" else None
    async with backend.open() as store:
        assert await store.run(schema.schema_version()) == len(STEPS)
        assert await store.run(sessions.get(resigned.id)) == upgraded(resigned)
        assert await store.run(sessions.get(won.id)) == upgraded(won)
    if backend.kind == "sqlite":
        assert await backend.sql(root) == page
        (declared,) = await backend.sql("SELECT sql FROM sqlite_master WHERE name = 'sessions'")
        assert "termination TEXT REFERENCES terminations (name)" in declared[0]
        assert "CHECK (termination" not in declared[0]
        assert await backend.sql("PRAGMA integrity_check") == [("ok",)]
        assert await _run(backend, "PRAGMA foreign_key_check") == []
    else:
        checks = await backend.sql(
            "SELECT conname, contype::text FROM pg_constraint"
            " WHERE conrelid = 'sessions'::regclass AND conname LIKE 'sessions_termination%'"
        )
        assert sorted(checks) == [("sessions_termination_fkey", "f")]

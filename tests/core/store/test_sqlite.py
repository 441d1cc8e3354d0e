"""SQLite only: what only a file has (its folder, pragmas, migration steps as functions on a
``sqlite3`` connection). The promises both stores keep are tested on both in test_store.py."""

from __future__ import annotations

import functools
import json
import sqlite3
from pathlib import Path

import pytest

from core.store import (
    SCHEMA_VERSION,
    SqliteStore,
    schema,
)
from tests.core.store.helpers import sql


def _pragma(conn: sqlite3.Connection, name: str) -> object:
    return conn.execute(f"PRAGMA {name}").fetchone()[0]


async def test_open_creates_directory_and_sets_pragmas(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "er" / "db.sqlite3"
    store = await SqliteStore.open(path, busy_timeout_ms=1234)
    try:
        assert path.exists()
        assert await store.run(schema.schema_version()) == SCHEMA_VERSION
        pragmas = {}
        for name in ("journal_mode", "synchronous", "foreign_keys", "busy_timeout"):
            # The store's own connection: busy_timeout and foreign_keys are per connection.
            pragmas[name] = await store._call(functools.partial(_pragma, name=name))
        assert pragmas == {
            "journal_mode": "wal",
            "synchronous": 1,  # NORMAL
            "foreign_keys": 1,
            "busy_timeout": 1234,
        }
    finally:
        await store.close()
        await store.close()  # idempotent


async def test_a_failing_migration_step_rolls_back_alone(tmp_path: Path) -> None:
    def step_ok(db: sqlite3.Connection) -> None:
        db.execute("CREATE TABLE extra_one (x INTEGER)")

    def step_bad(db: sqlite3.Connection) -> None:
        db.execute("CREATE TABLE extra_two (x INTEGER)")
        raise RuntimeError("boom")

    async with SqliteStore.open(tmp_path / "db.sqlite3") as store:
        from core.store.migrations import MIGRATIONS

        with pytest.raises(RuntimeError, match="boom"):
            await store._migrate([*MIGRATIONS, step_ok, step_bad])
        assert await store.run(schema.schema_version()) == SCHEMA_VERSION + 1
        names = sql(store.path, "SELECT name FROM sqlite_master WHERE name LIKE 'extra_%'")
        assert names == [("extra_one",)]


def test_released_schema_steps_are_unchanged() -> None:
    """Every released step renders, to the character, the schema it released (steps 1 and 2
    before PostgreSQL came, step 3 the settings; sqlite_master after each step, snapshot in
    data/sqlite_schema.json)."""
    from core.store.migrations import MIGRATIONS

    expected = json.loads((Path(__file__).parent / "data" / "sqlite_schema.json").read_text())
    db = sqlite3.connect(":memory:")
    try:
        seen = []
        for step in MIGRATIONS:
            step(db)
            rows = db.execute("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name")
            seen.append([list(row) for row in rows])
    finally:
        db.close()
    assert seen == expected[: len(seen)] and len(seen) >= len(expected)

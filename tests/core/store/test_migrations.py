"""Upgrades: a database written by version 1 of the schema opens at the current one, every row
kept; kv rows then get lifetimes. SQLite only (PostgreSQL's upgrade: test_postgres.py)."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

from core.store import SCHEMA_VERSION, SettingRow, SqliteStore, Status
from core.store.migrations import MIGRATIONS
from core.store.rows import INSERT_SESSION, session_row
from tests.core.store.helpers import NOW, make_session, played, sql

TABLES = ("sessions", "players", "stats")


def dump(path: Path, table: str) -> list[tuple[Any, ...]]:
    return sorted(sql(path, f"SELECT * FROM {table}"), key=repr)


def make_v1(path: Path) -> list[str]:
    """A database at schema version 1 (made by MIGRATIONS[:1] alone) with a bit of everything;
    the ids of its sessions."""
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("BEGIN")
        for step in MIGRATIONS[:1]:
            step(db)
        db.execute("PRAGMA user_version = 1")
        active = make_session()
        challenge = make_session(alice="carol", bob="dave", status=Status.CHALLENGE)
        finished = played(make_session(chat="c2"), 0, 3, 1, 4, 2)
        for session in (active, challenge, finished):
            db.execute(INSERT_SESSION, session_row(session))
        for user, session in (("alice", active), ("bob", active), ("carol", challenge)):
            db.execute(
                "INSERT INTO players VALUES (?, ?, ?, ?)",
                ("test", session.chat_id, user, session.id),
            )
        db.execute("INSERT INTO stats VALUES ('test', 'c2', 'alice', 'Alice', 1, 0, 0, ?)", (NOW,))
        db.execute("INSERT INTO kv VALUES ('matrix', 'next_batch', 's42')")
        db.execute("COMMIT")
        return [active.id, challenge.id, finished.id]
    finally:
        db.close()


async def test_a_v1_database_is_upgraded_and_keeps_every_row(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    ids = make_v1(path)
    before = {table: dump(path, table) for table in TABLES}
    assert all(before.values())
    async with SqliteStore.open(path) as store:
        assert await store.schema_version() == SCHEMA_VERSION == 3
        assert {table: dump(path, table) for table in TABLES} == before
        # Old kv rows are tied to nothing and never expire.
        assert sql(path, "SELECT * FROM kv") == [("matrix", "next_batch", "s42", None, None)]
        for session_id in ids:
            assert await store.get(session_id) is not None
        live = await store.live_game("test", "c1", "bob")
        assert live is not None and live.id == ids[0]
        assert sql(path, "SELECT count(*) FROM quarantine") == [(0,)]
        # The new columns work on the upgraded file.
        await store.kv_set("matrix", f"board:{ids[0]}", "$e", session_id=ids[0])
        assert await store.delete(ids[0])
        assert await store.kv_get("matrix", f"board:{ids[0]}") is None
        # So does the settings table of step 3.
        row = SettingRow("matrix", "chat:!r:x", "level", "hard", NOW, "@admin:x")
        await store.setting_put(row)
        assert await store.settings_rows("matrix", ["chat:!r:x"]) == [row]
    assert sql(path, "PRAGMA integrity_check") == [("ok",)]
    assert sql(path, "PRAGMA foreign_key_check") == []


async def test_two_stores_opening_a_v1_database_together_upgrade_it_once(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    make_v1(path)
    # Each store has its own thread and connection: the two migrations really race.
    one, two = await asyncio.gather(SqliteStore.open(path), SqliteStore.open(path))
    try:
        assert await one.schema_version() == await two.schema_version() == SCHEMA_VERSION
    finally:
        await one.close()
        await two.close()
    assert len(sql(path, "SELECT * FROM sessions")) == 3

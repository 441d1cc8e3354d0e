"""Upgrades: a database written by version 1 of the schema opens at the current one, every row
kept; kv rows then get lifetimes. SQLite only (PostgreSQL's upgrade: test_postgres.py)."""

from __future__ import annotations

import asyncio
import re
import sqlite3
from dataclasses import replace
from pathlib import Path
from typing import Any

from core.games import Outcome, Termination
from core.store import (
    SCHEMA_VERSION,
    Session,
    SettingRow,
    SqliteStore,
    Status,
    kv,
    schema,
    sessions,
    settings,
)
from core.store.migrations import MIGRATIONS, STEPS
from core.store.rows import SESSION_COLUMNS, session_row
from tests.core.store.helpers import NOW, make_session, played, sql

TABLES = ("sessions", "players", "stats")
V1_COLUMNS = SESSION_COLUMNS[: SESSION_COLUMNS.index("winner") + 1]


def insert_v1(db: sqlite3.Connection, session: Session) -> None:
    """``session`` as a release before the outcome column (schema 4) wrote it."""
    marks = ", ".join("?" * len(V1_COLUMNS))
    db.execute(
        f"INSERT INTO sessions ({', '.join(V1_COLUMNS)}) VALUES ({marks})",
        session_row(session)[: len(V1_COLUMNS)],
    )


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
            insert_v1(db, session)
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
        assert await store.run(schema.schema_version()) == SCHEMA_VERSION == len(STEPS)
        # Every row is kept; the sessions table has more columns, empty on old rows (0 for the
        # casual flag), but for the public id each game is given.
        after = {table: dump(path, table) for table in TABLES}
        n = len(before["sessions"][0])
        public = SESSION_COLUMNS.index("public_id")
        after["sessions"] = [
            row[:n]
            for row in after["sessions"]
            if set(row[n:public] + row[public + 1 :]) <= {0, None}
        ]
        assert after == before
        public_ids = [row[0] for row in sql(path, "SELECT public_id FROM sessions")]
        assert len(set(public_ids)) == 3
        assert all(re.fullmatch("[0-9a-f]{32}", public_id) for public_id in public_ids)
        # Old kv rows are tied to nothing and never expire.
        assert sql(path, "SELECT * FROM kv") == [("matrix", "next_batch", "s42", None, None)]
        for session_id in ids:
            assert await store.run(sessions.get(session_id)) is not None
        live = await store.run(sessions.live_game("test", "c1", "bob"))
        assert live is not None and live.id == ids[0]
        assert sql(path, "SELECT count(*) FROM quarantine") == [(0,)]
        # The new columns work on the upgraded file.
        await store.run(kv.kv_set("matrix", f"board:{ids[0]}", "$e", session_id=ids[0]))
        assert await store.run(sessions.delete(ids[0]))
        assert await store.run(kv.kv_get("matrix", f"board:{ids[0]}")) is None
        # So does the settings table of step 3.
        row = SettingRow("matrix", "chat:!r:x", "level", "hard", NOW, "@admin:x")
        await store.run(settings.setting_put(row))
        assert await store.run(settings.settings_rows("matrix", ["chat:!r:x"])) == [row]
    assert sql(path, "PRAGMA integrity_check") == [("ok",)]
    assert sql(path, "PRAGMA foreign_key_check") == []


async def test_two_stores_opening_a_v1_database_together_upgrade_it_once(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    make_v1(path)
    # Each store has its own thread and connection: the two migrations really race.
    one, two = await asyncio.gather(SqliteStore.open(path), SqliteStore.open(path))
    try:
        assert (
            await one.run(schema.schema_version())
            == await two.run(schema.schema_version())
            == SCHEMA_VERSION
        )
    finally:
        await one.close()
        await two.close()
    assert len(sql(path, "SELECT * FROM sessions")) == 3


async def test_games_finished_before_the_outcome_column_read_as_they_ended(
    tmp_path: Path,
) -> None:
    """Rows finished at schema 3 have no termination: the board tells a win or a draw, and a
    finished game whose board goes on was resigned (a winner) or stopped (none)."""
    path = tmp_path / "db.sqlite3"
    won = played(make_session(chat="won"), 0, 3, 1, 4, 2)
    drawn = played(make_session(chat="drawn"), 0, 1, 2, 4, 3, 5, 7, 6, 8)
    cut = replace(played(make_session(chat="cut"), 0, 4), status=Status.FINISHED, outcome=None)
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("BEGIN")
        for step in MIGRATIONS[:3]:
            step(db)
        db.execute("PRAGMA user_version = 3")
        for session in (won, drawn):
            insert_v1(db, session)
        insert_v1(db, replace(cut, id="resigned", chat_id="resigned"))
        db.execute("UPDATE sessions SET winner = 2 WHERE id = 'resigned'")
        insert_v1(db, replace(cut, id="stopped", chat_id="stopped"))
        db.execute("COMMIT")
    finally:
        db.close()
    async with SqliteStore.open(path) as store:
        outcomes = {}
        for session_id in (won.id, drawn.id, "resigned", "stopped"):
            found = await store.run(sessions.get(session_id))
            assert found is not None
            outcomes[found.chat_id] = found.outcome
    assert outcomes == {
        "won": Outcome(Termination.WIN, 1),
        "drawn": Outcome(Termination.DRAW),
        "resigned": Outcome(Termination.RESIGNATION, 2),
        "stopped": Outcome(Termination.STOPPED),
    }

"""SqliteStore on real files: pragmas, migrations, compare-and-set, expiry, stats, kv, locks."""

from __future__ import annotations

import functools
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from core.store import (
    SCHEMA_VERSION,
    AlreadyPlaying,
    SchemaTooNew,
    SqliteStore,
    Status,
    StoreBusy,
)
from tests.core.store.helpers import NOW, make_session, played, sql


def _pragma(conn: sqlite3.Connection, name: str) -> object:
    return conn.execute(f"PRAGMA {name}").fetchone()[0]


async def test_open_creates_directory_and_sets_pragmas(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "er" / "db.sqlite3"
    store = await SqliteStore.open(path, busy_timeout_ms=1234)
    try:
        assert path.exists()
        assert await store.schema_version() == SCHEMA_VERSION
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


async def test_async_with_form_closes(tmp_path: Path) -> None:
    async with SqliteStore.open(tmp_path / "db.sqlite3") as store:
        await store.kv_set("ns", "k", "v")
    with pytest.raises(RuntimeError, match="closed"):
        await store.kv_get("ns", "k")
    async with SqliteStore.open(tmp_path / "db.sqlite3") as again:
        assert await again.kv_get("ns", "k") == "v"


async def test_newer_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 5}")
    with pytest.raises(SchemaTooNew, match=r"schema version \d+.*upgrade the bot"):
        await SqliteStore.open(path)
    with sqlite3.connect(path) as db:  # untouched
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION + 5


async def test_reopen_is_idempotent(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    async with SqliteStore.open(path) as store:
        session = make_session()
        await store.create(session)
    async with SqliteStore.open(path) as store:
        assert await store.get(session.id) == session
        assert await store.schema_version() == SCHEMA_VERSION


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
        assert await store.schema_version() == SCHEMA_VERSION + 1
        names = sql(store.path, "SELECT name FROM sqlite_master WHERE name LIKE 'extra_%'")
        assert names == [("extra_one",)]


async def test_compare_and_set(tmp_path: Path) -> None:
    async with SqliteStore.open(tmp_path / "db.sqlite3") as store:
        session = make_session()
        await store.create(session)
        first = played(session, 4)
        assert await store.update(first, expected_version=1)
        assert not await store.update(played(session, 0), expected_version=1)  # lost the race
        assert await store.get(session.id) == first
        assert not await store.delete(session.id, expected_version=1)
        assert await store.delete(session.id, expected_version=2)
        assert await store.get(session.id) is None
        assert not await store.update(played(first, 0), expected_version=2)  # gone


async def test_two_connections_compare_and_set(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    async with SqliteStore.open(path) as one, SqliteStore.open(path) as two:
        session = make_session()
        await one.create(session)
        assert await two.get(session.id) == session
        assert await two.update(played(session, 4), expected_version=1)
        assert not await one.update(played(session, 0), expected_version=1)
        stored = await one.get(session.id)
        assert stored is not None and stored.moves == (4,)


async def test_one_live_game_per_user_per_chat(tmp_path: Path) -> None:
    async with SqliteStore.open(tmp_path / "db.sqlite3") as store:
        first = make_session()
        await store.create(first)
        with pytest.raises(AlreadyPlaying) as caught:
            await store.create(make_session(alice="carol", bob="bob"))
        assert caught.value.session_id == first.id and caught.value.user_id == "bob"
        await store.create(make_session(chat="c2"))  # another chat is fine
        await store.create(make_session(alice="carol", bob=None))  # carol vs the bot
        live = await store.live_game("test", "c1", "bob")
        assert live is not None and live.id == first.id
        # A pending challenge binds only the challenger.
        challenge = make_session(alice="dave", bob="bob", status=Status.CHALLENGE)
        await store.create(challenge)
        assert await store.challenge_for("test", "c1", "bob") == challenge
        live_dave = await store.live_game("test", "c1", "dave")
        assert live_dave is not None and live_dave.id == challenge.id
        # Accepting it would make bob live twice.
        accepted = replace(challenge, status=Status.ACTIVE, version=2)
        with pytest.raises(AlreadyPlaying):
            await store.update(accepted, expected_version=1)
        assert await store.get(challenge.id) == challenge  # rolled back
        # Deleting a session frees its players (ON DELETE CASCADE).
        assert await store.delete(first.id)
        assert await store.live_game("test", "c1", "bob") is None
        assert await store.update(accepted, expected_version=1)


async def test_finishing_records_stats_once(tmp_path: Path) -> None:
    async with SqliteStore.open(tmp_path / "db.sqlite3") as store:
        session = make_session()
        await store.create(session)
        won = played(session, 0, 3, 1, 4, 2)  # alice (X) wins on the top row
        assert won.status is Status.FINISHED and won.winner == 1
        assert await store.update(won, expected_version=1)
        # Touching a finished game again (a later write) must not count it twice.
        assert await store.update(replace(won, version=3), expected_version=2)
        alice = await store.player_stats("test", "alice")
        bob = await store.player_stats("test", "bob", "c1")
        assert alice is not None and (alice.wins, alice.losses, alice.draws) == (1, 0, 0)
        assert bob is not None and (bob.wins, bob.losses, bob.draws) == (0, 1, 0)
        assert await store.live_game("test", "c1", "alice") is None  # finished: not live
        finished = await store.last_finished("test", "c1", "bob")
        assert finished is not None and finished.id == session.id
        # A draw in another chat: per-platform totals sum the chats.
        other = make_session(chat="c2")
        await store.create(other)
        assert await store.update(played(other, 0, 1, 2, 4, 3, 5, 7, 6, 8), expected_version=1)
        alice = await store.player_stats("test", "alice")
        assert alice is not None and (alice.wins, alice.draws, alice.games) == (1, 1, 2)
        here = await store.player_stats("test", "alice", "c2")
        assert here is not None and (here.wins, here.draws) == (0, 1)
        assert await store.player_stats("test", "nobody") is None
        top = await store.top("test", "c1")
        assert [row.user_id for row in top] == ["alice", "bob"]
        assert await store.top("test", "c1", limit=1) == top[:1]


async def test_delete_expired(tmp_path: Path) -> None:
    async with SqliteStore.open(tmp_path / "db.sqlite3") as store:
        old = make_session(expires_at=NOW - 1)
        fresh = make_session(alice="carol", bob="dave", expires_at=NOW + 1)
        await store.create(old)
        await store.create(fresh)
        assert await store.delete_expired(NOW) == 1
        assert await store.get(old.id) is None
        assert await store.get(fresh.id) == fresh
        assert await store.live_game("test", "c1", "alice") is None
        assert await store.count_sessions() == 1


async def test_kv(tmp_path: Path) -> None:
    async with SqliteStore.open(tmp_path / "db.sqlite3") as store:
        assert await store.kv_get("matrix", "next_batch") is None
        await store.kv_set("matrix", "next_batch", "s1")
        await store.kv_set("matrix", "next_batch", "s2")
        await store.kv_set("discord", "next_batch", "other")
        assert await store.kv_get("matrix", "next_batch") == "s2"
        await store.kv_delete("matrix", "next_batch")
        await store.kv_delete("matrix", "absent")
        assert await store.kv_get("matrix", "next_batch") is None
        assert await store.kv_get("discord", "next_batch") == "other"
        # Values are parameters, never SQL.
        nasty = "'); DROP TABLE kv; --"
        await store.kv_set(nasty, nasty, nasty)
        assert await store.kv_get(nasty, nasty) == nasty


async def test_locked_database_is_a_temporary_error(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    async with SqliteStore.open(path, busy_timeout_ms=50) as store:
        session = make_session()
        await store.create(session)
        blocker = sqlite3.connect(path, isolation_level=None)
        try:
            blocker.execute("BEGIN IMMEDIATE")
            with pytest.raises(StoreBusy):
                await store.update(played(session, 4), expected_version=1)
            with pytest.raises(StoreBusy):
                await store.kv_set("ns", "k", "v")
            # Readers are not blocked in WAL mode.
            assert await store.get(session.id) == session
        finally:
            blocker.execute("ROLLBACK")
            blocker.close()
        # Nothing lost, nothing half-written, and the same store works again.
        assert await store.update(played(session, 4), expected_version=1)
        stored = await store.get(session.id)
        assert stored is not None and stored.moves == (4,)

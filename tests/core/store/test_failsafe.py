"""A database that cannot be used stops the bot at open with one line; at run time, a write the
disk refuses is StoreUnavailable with nothing written (issue 15). Real files, real failures
(read-only files through :func:`read_only`: ``chattr +i`` as root, file modes otherwise).
SQLite only: a file's failures (PostgreSQL's, a read-only or vanished server: test_postgres.py).
"""

from __future__ import annotations

import os
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from core.store import (
    SCHEMA_VERSION,
    SchemaTooNew,
    SqliteStore,
    StoreBusy,
    StoreUnavailable,
    kv,
    sessions,
    stats,
)
from tests.core.store.helpers import ROOT, make_session, played, read_only, sql


def assert_one_line(error: BaseException, path: Path, *words: str) -> None:
    text = str(error)
    assert "\n" not in text
    assert str(path) in text
    for word in words:
        assert word in text, text


async def make_database(path: Path, games: int = 0) -> None:
    """A real database with ``games`` sessions in it, closed: the last connection's close
    checkpoints the WAL into the file, so damage done to the file is what SQLite reads."""
    async with SqliteStore.open(path) as store:
        for number in range(games):
            await store.run(sessions.create(make_session(alice=f"a{number}", bob=f"b{number}")))


# --- at open -------------------------------------------------------------------------------------


async def test_a_read_only_file_in_a_writable_folder(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    await make_database(path, games=3)
    before = path.read_bytes()
    with read_only(path), pytest.raises(StoreUnavailable) as caught:
        await SqliteStore.open(path)
    assert_one_line(caught.value, path, "read-only")
    assert path.read_bytes() == before


async def test_a_valid_header_with_a_garbage_page(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    await make_database(path, games=200)  # enough rows for several pages per table
    page_size = int(sql(path, "PRAGMA page_size")[0][0])
    pages = path.stat().st_size // page_size
    assert pages > 6
    with path.open("r+b") as file:  # page 1 (the header) stays valid, page 4 becomes noise
        file.seek(3 * page_size)
        file.write(os.urandom(page_size))
    assert path.read_bytes()[:16] == b"SQLite format 3\x00"
    with pytest.raises(StoreUnavailable) as caught:
        await SqliteStore.open(path)
    assert_one_line(caught.value, path, "corrupt")


async def test_a_truncated_file(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    await make_database(path, games=200)
    size = path.stat().st_size
    with path.open("r+b") as file:
        file.truncate(size // 2)
    with pytest.raises(StoreUnavailable) as caught:
        await SqliteStore.open(path)
    assert_one_line(caught.value, path)


async def test_a_text_file(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("these are my notes, not a database\n" * 100, encoding="utf-8")
    with pytest.raises(StoreUnavailable) as caught:
        await SqliteStore.open(path)
    assert_one_line(caught.value, path, "not a SQLite database")
    assert path.read_text(encoding="utf-8").startswith("these are my notes")


async def test_a_newer_schema_is_one_line_too(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    sql(path, f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(SchemaTooNew) as caught:
        await SqliteStore.open(path)
    assert isinstance(caught.value, StoreUnavailable)
    assert_one_line(caught.value, path, f"schema version {SCHEMA_VERSION + 1}", "upgrade the bot")


async def test_a_directory(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    path.mkdir()
    with pytest.raises(StoreUnavailable) as caught:
        await SqliteStore.open(path)
    assert_one_line(caught.value, path, "directory")


async def test_a_folder_that_cannot_be_created(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x", encoding="utf-8")
    path = tmp_path / "file" / "data" / "db.sqlite3"
    with pytest.raises(StoreUnavailable) as caught:
        await SqliteStore.open(path)
    assert_one_line(caught.value, path, "folder cannot be created")


async def test_a_folder_without_write_permission(tmp_path: Path) -> None:
    folder = tmp_path / "locked"
    folder.mkdir()
    path = folder / "db.sqlite3"
    with read_only(folder), pytest.raises(StoreUnavailable) as caught:
        await SqliteStore.open(path)
    assert_one_line(caught.value, path, "cannot be opened or created", "permissions")
    assert not path.exists()


async def test_a_lock_held_past_the_timeout_at_open(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    await make_database(path)
    blocker = sqlite3.connect(path, isolation_level=None)
    try:
        blocker.execute("BEGIN IMMEDIATE")
        with pytest.raises(StoreUnavailable) as caught:
            await SqliteStore.open(path, busy_timeout_ms=50)
        assert_one_line(caught.value, path, "lock")
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()


# --- at run time ---------------------------------------------------------------------------------


async def test_a_full_disk_is_unavailable_and_writes_nothing(tmp_path: Path) -> None:
    async with SqliteStore.open(tmp_path / "db.sqlite3") as store:
        session = make_session()
        await store.run(sessions.create(session))
        # SQLite's own quota: the file may not grow one page more, as on a full disk.
        pages = await store._call(lambda c: c.execute("PRAGMA page_count").fetchone()[0])
        await store._call(lambda c: c.execute(f"PRAGMA max_page_count = {int(pages)}"))
        big = replace(played(session, 4), chat_id="x" * 100_000)
        with pytest.raises(StoreUnavailable) as caught:
            await store.run(sessions.update(big, expected_version=1))
        assert_one_line(caught.value, store.path, "disk is full")
        with pytest.raises(StoreUnavailable):
            await store.run(kv.kv_set("ns", "big", "y" * 100_000))
        assert await store.run(sessions.get(session.id)) == session  # nothing of it was written
        assert await store.run(kv.kv_get("ns", "big")) is None
        await store._call(lambda c: c.execute("PRAGMA max_page_count = 1073741823"))
        assert await store.run(sessions.update(big, expected_version=1))  # and it recovers


@pytest.mark.skipif(not ROOT, reason="needs chattr +i on an open file (root)")
async def test_a_journal_that_turns_read_only_while_running(tmp_path: Path) -> None:
    async with SqliteStore.open(tmp_path / "db.sqlite3") as store:
        session = make_session()
        await store.run(sessions.create(session))
        await store.check()
        # The disk refuses the journal's next write, as a failing or remounted disk would.
        with read_only(Path(f"{store.path}-wal")):
            with pytest.raises(StoreUnavailable) as caught:
                await store.run(sessions.update(played(session, 4), expected_version=1))
            assert_one_line(caught.value, store.path, "I/O error")
            with pytest.raises(StoreUnavailable):
                await store.check()
            assert (
                await store.run(sessions.get(session.id)) == session
            )  # reads still answer, unchanged
        await store.check()
        assert await store.run(sessions.update(played(session, 4), expected_version=1))


async def test_check_on_a_healthy_and_a_closed_store(tmp_path: Path) -> None:
    store = await SqliteStore.open(tmp_path / "db.sqlite3")
    await store.check()
    await store.check()  # a no-op write: repeatable, changes nothing
    assert await store.run(stats.count_sessions()) == 0
    await store.close()
    with pytest.raises(StoreUnavailable, match="closed"):
        await store.check()


async def test_a_held_lock_at_run_time_is_still_busy_not_unavailable(tmp_path: Path) -> None:
    async with SqliteStore.open(tmp_path / "db.sqlite3", busy_timeout_ms=50) as store:
        blocker = sqlite3.connect(store.path, isolation_level=None)
        try:
            blocker.execute("BEGIN IMMEDIATE")
            with pytest.raises(StoreBusy):
                await store.check()
        finally:
            blocker.execute("ROLLBACK")
            blocker.close()
        await store.check()

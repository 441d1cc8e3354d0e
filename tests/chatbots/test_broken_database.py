"""``chatbots run`` on a database it cannot use exits non-zero with one line naming the file and
the cause, before any adapter starts (issue 15); an empty file, a full disk and an unwritable
``-shm`` file are each named for what they are (issue 21); the operator's commands say a
locked database in one line too."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import os
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from chatbots.app import EXIT_FAILED
from core.store import SqliteStore, sessions
from tests.chatbots.test_app import chatbots
from tests.core.store.helpers import ROOT, make_session, read_only


def database(tmp_path: Path) -> Path:
    """Where :func:`chatbots` points ``DATABASE_PATH``."""
    path = tmp_path / "db" / "games.sqlite3"
    path.parent.mkdir()
    return path


def assert_refused(tmp_path: Path, path: Path, cause: str) -> None:
    result = chatbots(tmp_path, "run", stdin="/tres easy\n5\n")
    assert result.returncode == EXIT_FAILED, result.stderr
    [line] = [line for line in result.stderr.splitlines() if "cannot use the database" in line]
    assert str(path) in line and cause in line, line
    assert "Traceback" not in result.stderr
    assert "a b c" not in result.stdout  # no board: nothing was played


def make_database(path: Path) -> None:
    async def fill() -> None:
        async with SqliteStore.open(path) as store:
            for number in range(200):
                await store.run(sessions.create(make_session(alice=f"a{number}", bob=f"b{number}")))

    asyncio.run(fill())


def test_a_read_only_database_is_refused(tmp_path: Path) -> None:
    path = database(tmp_path)
    make_database(path)
    with read_only(path):
        assert_refused(tmp_path, path, "read-only")


def test_a_database_with_a_garbage_page_is_refused(tmp_path: Path) -> None:
    path = database(tmp_path)
    make_database(path)
    with path.open("r+b") as file:
        file.seek(3 * 4096)
        file.write(os.urandom(4096))
    assert_refused(tmp_path, path, "corrupt")


# --- start-up checks an admin would otherwise trip on (issue 21) -------------------------------


def test_an_empty_database_file_starts_a_new_database_and_says_so(tmp_path: Path) -> None:
    # A zero-length file is what a failed copy or restore leaves; SQLite opens it as a new
    # database without a word.
    path = database(tmp_path)
    path.touch()
    result = chatbots(tmp_path, "run", stdin="/tres easy\n")
    assert result.returncode == 0, result.stderr
    [line] = [line for line in result.stderr.splitlines() if "is empty" in line]
    assert "WARNING" in line
    assert f"the database file {path} is empty: starting a new database" in line
    assert "a b c" in result.stdout  # the new database works
    assert path.stat().st_size > 0


def test_an_unwritable_shm_file_is_refused_naming_it(tmp_path: Path) -> None:
    # SQLite maps the -shm file into memory; one it cannot write (immutable, chattr +i) has
    # ended the process with SIGBUS, and otherwise it blames the database file.
    path = database(tmp_path)
    make_database(path)
    shm = path.with_name(path.name + "-shm")
    shm.write_bytes(b"\0" * 32768)
    with read_only(shm):
        assert_refused(tmp_path, path, f"{shm} cannot be written")


@contextlib.contextmanager
def small_disk(folder: Path, size: str = "16m") -> Iterator[None]:
    """A tmpfs of ``size`` mounted on ``folder``: a disk that really fills up.

    Mounting needs root (as this suite runs, in its container and CI); elsewhere the test is
    skipped like the other tests that need the root's means to break a disk (helpers.read_only).
    """
    if not ROOT:
        pytest.skip("mounting a small tmpfs needs root")
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)], check=True)
    try:
        yield
    finally:
        subprocess.run(["umount", str(folder)], check=True)


def fill_disk(folder: Path) -> None:
    with (folder / "filler").open("wb", buffering=0) as filler:
        block = b"x" * 65536
        while True:
            try:
                filler.write(block)
            except OSError as error:
                assert error.errno == errno.ENOSPC, error
                if len(block) == 1:
                    return
                block = block[: len(block) // 2]


def test_a_restart_on_a_full_disk_says_the_disk_is_full(tmp_path: Path) -> None:
    # SQLite itself says "disk I/O error": it runs out of room opening its write-ahead log.
    path = database(tmp_path)
    with small_disk(path.parent):
        make_database(path)
        fill_disk(path.parent)
        assert_refused(tmp_path, path, f"the disk is full (0 bytes free for {path.parent})")


def test_the_operators_commands_say_a_locked_database_in_one_line(tmp_path: Path) -> None:
    # Another program holds the write lock past the busy timeout (5 s): each command waits
    # that long, then names the database and the lock, exit 1, no traceback.
    path = database(tmp_path)
    make_database(path)
    blocker = sqlite3.connect(path, isolation_level=None)
    try:
        blocker.execute("BEGIN EXCLUSIVE")
        for command in (("settings", "console:console", "level", "hard"), ("stats",)):
            result = chatbots(tmp_path, *command)
            assert result.returncode == EXIT_FAILED, result.stderr
            [line] = result.stderr.splitlines()
            assert line.startswith(f"chatbots: cannot use the database {str(path)!r}"), line
            assert "database is locked" in line, line
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()

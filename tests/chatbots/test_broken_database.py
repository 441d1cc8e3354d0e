"""``chatbots run`` on a database it cannot use exits non-zero with one line naming the file and
the cause, before any adapter starts (issue 15)."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from chatbots.app import EXIT_FAILED
from core.store import SqliteStore
from tests.chatbots.test_app import chatbots
from tests.core.store.helpers import make_session, read_only


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
                await store.create(make_session(alice=f"a{number}", bob=f"b{number}"))

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

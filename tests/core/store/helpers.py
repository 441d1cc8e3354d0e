"""Sessions to store, and a plain second connection to look at (or damage) the file."""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any
from unittest.mock import ANY

import pytest

from core.ai import Level
from core.games import TICTACTOE, Position
from core.store import Seat, Session, Status, new_session_id
from core.store.migrations import STEPS, Dialect, Step
from tests.backends import Backend

NOW = 1_000_000.0


def make_session(
    *,
    alice: str = "alice",
    bob: str | None = "bob",
    chat: str = "c1",
    status: Status = Status.ACTIVE,
    expires_at: float = NOW + 100,
) -> Session:
    """A tic-tac-toe session between two people (or alice and the bot when ``bob`` is None)."""
    second = Seat.person(bob, bob.title()) if bob else Seat.bot(Level.EASY)
    return Session(
        id=new_session_id(),
        platform="test",
        chat_id=chat,
        seats=(Seat.person(alice, alice.title()), second),
        rules=TICTACTOE,
        moves=(),
        status=status,
        version=1,
        created_at=NOW,
        updated_at=NOW,
        expires_at=expires_at,
        challenger=alice,
        challenged=bob if status is Status.CHALLENGE else None,
    )


def played(session: Session, *moves: int) -> Session:
    """``session`` after ``moves``, one version later (finished if the game ended)."""
    position = Position.from_moves(session.rules, (*session.moves, *moves))
    return replace(
        session,
        moves=position.moves,
        version=session.version + 1,
        status=Status.FINISHED if position.is_over else Status.ACTIVE,
        outcome=position.outcome,
    )


def sql(path: Path, statement: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Run one statement on its own connection (autocommit) and return its rows."""
    db = sqlite3.connect(path, isolation_level=None)
    try:
        return db.execute(statement, params).fetchall()
    finally:
        db.close()


ROOT = os.geteuid() == 0


def chattr(flag: str, path: Path) -> bool:
    """Set or clear a file attribute (``+i``, ``-i``); False when that is not possible here."""
    if shutil.which("chattr") is None:
        return False
    done = subprocess.run(["chattr", flag, str(path)], capture_output=True, check=False)
    return done.returncode == 0


@contextlib.contextmanager
def read_only(path: Path) -> Iterator[None]:
    """Make a file or folder truly unwritable for this process while inside, root included.

    As root, file modes do not stop writes; the immutable attribute (``chattr +i``, on ext4 and
    most Linux file systems) does. Without either way to deny a write, the test is skipped. The
    attribute is always cleared afterwards, or pytest could not delete the temporary folder.
    """
    if not ROOT:
        mode = path.stat().st_mode
        path.chmod(0o555 if path.is_dir() else 0o444)
        try:
            yield
        finally:
            path.chmod(mode)
        return
    if not chattr("+i", path):
        pytest.skip("running as root where chattr +i is unavailable: no way to deny a write")
    try:
        yield
    finally:
        chattr("-i", path)


async def before_step(backend: Backend, step: Step) -> str:
    """Bring ``backend``'s fresh database to the version before ``step`` (the steps' shared
    statements), with one active tic-tac-toe game between alice and bob in chat ``c1``, as
    rows of that version: the game's id."""
    before = list(STEPS).index(step)
    dialect = Dialect.SQLITE if backend.kind == "sqlite" else Dialect.POSTGRES
    for earlier in STEPS[:before]:
        for statement in earlier.sql(dialect):
            await backend.sql(statement)
    await backend.set_schema_version(before)
    game_id = new_session_id()
    await backend.sql(
        "INSERT INTO sessions (id, platform, chat_id, rows, cols, k, gravity, x_user, x_name,"
        " o_user, o_name, moves, status, version, created_at, updated_at, expires_at)"
        " VALUES ($1, 'test', 'c1', 3, 3, 3, 0, 'alice', 'Alice', 'bob', 'Bob', '', 'active',"
        " 4, 0, 0, 4e9)",
        game_id,
    )
    return game_id


def upgraded(session: Session) -> Session:
    """``session`` as an upgrade from before step ``public ids`` reads it back: with whatever
    public id that step drew for it (random; the tests check its form on their own)."""
    return replace(session, public_id=ANY)

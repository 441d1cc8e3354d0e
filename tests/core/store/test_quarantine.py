"""A session row that cannot be loaded is moved aside, logged once, and frees its players
(issue 15). The rows are damaged with SQL on the real database, as a bug or a hand edit would;
on both stores, but for the damage only SQLite's untyped columns allow."""

from __future__ import annotations

import json
import logging
import random
from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path

import pytest

from core.replies import Actor
from core.sessions import GameService, ServiceSettings
from core.store import Session, Status, departures, kv, sessions
from tests.backends import KINDS, AnyStore, Backend, Backends, Kind, SqliteBackend
from tests.core.store.helpers import NOW, make_session, played

DAMAGE = {
    "moves that do not parse": ("moves = 'x,y'", "moves do not parse"),
    "moves with a space": ("moves = '4, 0'", "moves do not parse"),
    "a move on an occupied cell": ("moves = '4,4'", "not a legal game"),
    "a move off the board": ("moves = '9'", "not a legal game"),
    "moves after the end": ("moves = '0,3,1,4,2,5'", "not a legal game"),
    "impossible rules": ("rows = 1", "rules"),
    "k longer than the board": ("k = 9", "rules"),
    "an unknown level": ("o_user = NULL, o_level = 'godlike'", "seat O"),
    "a seat that is nobody": ("x_user = NULL, x_level = NULL", "seat X"),
}
# SQLite only: its columns take a value of any type; PostgreSQL's typed columns refuse these.
SQLITE_ONLY_DAMAGE = {
    "moves stored as a blob": ("moves = X'0102'", "moves must be text"),
    "a time that is text": ("expires_at = 'soon'", "expires_at"),
    "a version that is text": ("version = 'two'", "version"),
}
CASES = [
    *((kind, name) for name in DAMAGE for kind in KINDS),
    *(("sqlite", name) for name in SQLITE_ONLY_DAMAGE),
]


async def quarantined(backend: Backend) -> list[tuple[str | None, dict[str, object], str, float]]:
    rows = await backend.sql("SELECT session_id, row, reason, quarantined_at FROM quarantine")
    return [(sid, json.loads(row), reason, at) for sid, row, reason, at in rows]


def warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]


@pytest.mark.parametrize(("kind", "damage"), CASES, ids=[f"{k}-{d}" for k, d in CASES])
async def test_a_damaged_row_is_quarantined_once_and_frees_its_players(
    backends: Backends,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    kind: Kind,
    damage: str,
) -> None:
    change, reason_words = (DAMAGE | SQLITE_ONLY_DAMAGE)[damage]
    async with (
        backends.fresh(kind, tmp_path) as backend,
        backend.open(clock=lambda: NOW + 5) as store,
    ):
        session = make_session()
        await store.run(sessions.create(session))
        await store.run(kv.kv_set("matrix", f"board:{session.id}", "$e", session_id=session.id))
        neighbour = make_session(alice="carol", bob="dave")
        await store.run(sessions.create(neighbour))
        original = await backend.sql("SELECT * FROM sessions WHERE id = $1", session.id)
        await backend.sql(f"UPDATE sessions SET {change} WHERE id = $1", session.id)
        damaged = await backend.sql("SELECT * FROM sessions WHERE id = $1", session.id)
        assert damaged and damaged != original

        with caplog.at_level(logging.WARNING, logger="core.store"):
            assert await store.run(sessions.get(session.id)) is None
            assert (
                await store.run(sessions.get(session.id)) is None
            )  # asked again: nothing more to log
            assert await store.run(sessions.live_game("test", "c1", "alice")) is None

        [(session_id, row, reason, at)] = await quarantined(backend)
        assert session_id == session.id and at == NOW + 5
        assert reason_words in reason
        assert row["id"] == session.id and row["chat_id"] == "c1"  # the raw row, as it was
        [logged] = warnings(caplog)
        assert session.id in logged and reason in logged
        assert await backend.sql("SELECT * FROM players WHERE session_id = $1", session.id) == []
        assert await store.run(kv.kv_get("matrix", f"board:{session.id}")) is None
        # Its players start again; the game next door was not touched.
        await store.run(sessions.create(make_session()))
        assert await store.run(sessions.get(neighbour.id)) == neighbour


Reader = Callable[[AnyStore, str], Awaitable[Session | None]]
READERS: dict[str, tuple[Status, Reader]] = {
    "get": (Status.ACTIVE, lambda s, session_id: s.run(sessions.get(session_id))),
    "live_game": (Status.ACTIVE, lambda s, _: s.run(sessions.live_game("test", "c1", "bob"))),
    "challenge_for": (
        Status.CHALLENGE,
        lambda s, _: s.run(sessions.challenge_for("test", "c1", "bob")),
    ),
    "last_finished": (
        Status.FINISHED,
        lambda s, _: s.run(sessions.last_finished("test", "c1", "alice")),
    ),
}


@pytest.mark.parametrize("reader", READERS, ids=list(READERS))
async def test_every_reader_quarantines(
    backend: Backend, caplog: pytest.LogCaptureFixture, reader: str
) -> None:
    status, read = READERS[reader]
    async with backend.open() as store:
        session = make_session(status=status)
        if status is Status.FINISHED:
            session = played(session, 0, 3, 1, 4, 2)
        await store.run(sessions.create(session))
        assert await read(store, session.id) == session
        await backend.sql("UPDATE sessions SET x_level = 'godlike' WHERE id = $1", session.id)
        with caplog.at_level(logging.WARNING, logger="core.store"):
            assert await read(store, session.id) is None
        assert len(warnings(caplog)) == 1
        assert [q[0] for q in await quarantined(backend)] == [session.id]


async def test_the_next_valid_row_is_found_behind_a_damaged_one(backend: Backend) -> None:
    async with backend.open() as store:
        older = played(make_session(), 0, 3, 1, 4, 2)
        newer = played(make_session(), 4, 0, 8, 2, 1, 7, 6, 3, 5)  # a draw, finished later
        newer = replace(newer, updated_at=NOW + 10)
        await store.run(sessions.create(older))
        await store.run(sessions.create(newer))
        await backend.sql("UPDATE sessions SET moves = 'zz' WHERE id = $1", newer.id)
        found = await store.run(sessions.last_finished("test", "c1", "alice"))
        assert found == older
        assert [q[0] for q in await quarantined(backend)] == [newer.id]


async def test_a_row_without_an_id_is_quarantined_by_rowid(tmp_path: Path) -> None:
    """SQLite only: PostgreSQL's primary key is NOT NULL, so there the id is the handle."""
    backend = SqliteBackend(tmp_path / "db.sqlite3")
    async with backend.open() as store:
        session = played(make_session(), 0, 3, 1, 4, 2)
        await store.run(sessions.create(session))
        # SQLite lets a TEXT PRIMARY KEY be NULL (a known quirk): the row is still found.
        await backend.sql("UPDATE sessions SET id = NULL WHERE id = $1", session.id)
        assert await store.run(sessions.last_finished("test", "c1", "alice")) is None
        [(session_id, row, reason, _)] = await quarantined(backend)
        assert session_id is None and row["id"] is None and "id must be text" in reason
        assert await backend.sql("SELECT count(*) FROM sessions") == [(0,)]


async def test_the_service_lets_the_player_start_again(backend: Backend) -> None:
    alice = Actor("test", "c1", "alice", "Alice")
    async with backend.open() as store:
        service = GameService(store, settings=ServiceSettings(ai_workers=0), rng=random.Random(3))
        try:
            started = await service.handle_text(alice, "/tres easy", addressed=True)
            assert started[0].session_id is not None and not started[0].error
            await backend.sql("UPDATE sessions SET moves = '4,4,4'")
            for text in ("5", "/final", "/tres easy"):
                replies = await service.handle_text(alice, text, addressed=True)
                assert replies and replies[0].text is not None
                assert not (replies[0].error and replies[0].text.key == "error.internal"), text
            game = await store.run(sessions.live_game("test", "c1", "alice"))
            assert game is not None and game.id != started[0].session_id
        finally:
            await service.close()


async def test_the_live_sessions_of_chats_skip_a_damaged_one(backend: Backend) -> None:
    async with backend.open() as store:
        kept = make_session(alice="carol", bob="dave", chat="c2")
        damaged = make_session()
        challenge = make_session(alice="erin", bob="frank", status=Status.CHALLENGE)
        for session in (kept, damaged, challenge):
            await store.run(sessions.create(session))
        await backend.sql("UPDATE sessions SET moves = 'zz' WHERE id = $1", damaged.id)
        found = await store.run(departures.live_in_chats("test", ["c1", "c2", "c3"]))
        assert {s.id for s in found} == {kept.id, challenge.id}
        assert [q[0] for q in await quarantined(backend)] == [damaged.id]
        assert await store.run(departures.live_in_chats("test", ["c1", "c2"], "frank")) == [
            challenge
        ]

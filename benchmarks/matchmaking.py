"""Matchmaking: pairing latency and pairs per second, on SQLite and on PostgreSQL.

``python -m benchmarks matchmaking [--quick]``.

- Pairing latency: from the second compatible ``/seek`` to both boards shown, through
  ``GameService.handle_text`` with two platforms whose ``publish`` records when the other
  chat's board was handed over (the adapters' own drawing is their benchmarks'): the time until
  the seeker's answer is back and the other chat's board is published, p50 and p99 over 200
  pairs (each a new pair of players in two chats).
- Pairs per second: a queue of 10,000 waiting seeks (two games, rated and casual, ratings
  spread around 1500, waiting up to a minute), paired by one process's passes
  (``GameService.match_waiting``: each pass takes the oldest 500 under ``FOR UPDATE SKIP
  LOCKED``, pairs them, stores each game in the same transaction) until a pass pairs nobody.
- The relay's outbox (``core.sessions.openplay.relay``): what a pass over an empty queue and
  an empty outbox costs (every process runs one a second: one read of the queue, one of the
  outbox per platform), p50 and p99 over 1,000 passes with two platforms; and how many items left by
  another process one process shows per second (expired seeks' notices, each claimed, built
  and handed to ``publish``).

PostgreSQL is the tests' server (tests/pg.py), on the same machine.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import statistics
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from core.games import CONNECT_FOUR, TICTACTOE
from core.pairing.seeks import SEEK_TTL, Seek
from core.ports import PlatformStyle
from core.replies import Actor, Reply
from core.sessions import GameService, ServiceSettings
from core.store import SqliteStore, new_session_id, outbox
from core.store.models import Kind, OutboxItem
from core.store.postgres import PostgresStore
from core.store.ratings import own_identity
from core.store.seeks import seek_row

PAIRS = 200
QUEUE = 10_000
IDLE_PASSES = 1_000
ITEMS = 1_000
INSERT = (
    "INSERT INTO seeks (player, id, platform, chat_id, user_id, name, rows, cols, k, gravity,"
    " rated, clock, rating, created_at, expires_at)"
    " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)"
)


class Clock:
    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


def _service(store: Any, clock: Clock) -> GameService:
    return GameService(store, settings=ServiceSettings(ai_workers=0, limits=False), clock=clock)


async def latency(store: Any, pairs: int) -> list[float]:
    """Seconds from the second seek to both boards shown, one sample per pair."""
    published: dict[str, float] = {}
    seen = asyncio.Event()

    async def publish(actor: Actor, replies: Sequence[Reply]) -> None:
        for reply in replies:
            if reply.board is not None:
                published[reply.board.session_id] = time.perf_counter()
                seen.set()

    svc = _service(store, Clock())
    for platform in ("disc", "mx"):
        svc.register_platform(PlatformStyle(platform, publish=publish))
    samples: list[float] = []
    for n in range(pairs):
        first = Actor("disc", f"chan-{n}", f"d{n}", f"D{n}", direct=True)
        second = Actor("mx", f"!room-{n}:hs", f"@m{n}:hs", f"M{n}", direct=True)
        await svc.handle_text(first, "/seek tres casual")
        started = time.perf_counter()
        replies = await svc.handle_text(second, "!seek tres casual")
        answered = time.perf_counter()
        board = next(r.board for r in replies if r.board is not None)
        await svc.open_games_idle()
        other = published[board.session_id]
        samples.append(max(answered, other) - started)
    return samples


async def relay(store: Any, passes: int, items: int) -> tuple[list[float], float]:
    """Seconds of each pass over an empty queue and outbox; items shown per second."""

    async def publish(actor: Actor, replies: Sequence[Reply]) -> None:
        pass

    svc = _service(store, Clock())
    for platform in ("disc", "mx"):
        svc.register_platform(PlatformStyle(platform, publish=publish))
    samples: list[float] = []
    for _ in range(passes):
        started = time.perf_counter()
        await svc.match_waiting()
        samples.append(time.perf_counter() - started)
    now = time.time()
    for n in range(items):
        seek = Seek(
            id=new_session_id(),
            player=own_identity("mx", f"@p{n}:hs"),
            platform="mx",
            chat_id=f"!room-{n}:hs",
            user_id=f"@p{n}:hs",
            name=f"P{n}",
            rules=TICTACTOE,
            rated=False,
            clock=120.0,
            rating=1500.0,
            created_at=now - SEEK_TTL,
            expires_at=now,
        )
        item = OutboxItem(Kind.SEEK_EXPIRED, "mx", seek.chat_id, detail={"seek": [*seek_row(seek)]})
        await store.run(outbox.outbox_put(item, now + 3600))
    started = time.perf_counter()
    shown = 0
    while shown < items:
        await svc.match_waiting()
        await svc.open_games_idle()
        shown = items - len(await store.run(outbox.outbox_due("mx", now, items)))
    return samples, items / (time.perf_counter() - started)


async def fill(store: Any, sql: Any, count: int, rng: random.Random) -> None:
    now = time.time()
    rows = []
    for n in range(count):
        rules = (TICTACTOE, CONNECT_FOUR)[n % 2]
        rows.append(
            (
                own_identity("bench", f"u{n}"),
                new_session_id(),
                "bench",
                f"chat-{n % 997}",
                f"u{n}",
                f"U{n}",
                rules.rows,
                rules.cols,
                rules.k,
                int(rules.gravity),
                int(rng.random() < 0.5),
                120.0,
                rng.gauss(1500, 250),
                now - rng.uniform(0, 60),
                now - rng.uniform(0, 60) + SEEK_TTL,
            )
        )
    await sql(rows)


async def drain(store: Any) -> tuple[int, float]:
    """Pairs made and seconds taken by one process's passes until one pairs nobody."""
    svc = _service(store, Clock())
    made = 0
    started = time.perf_counter()
    while True:
        pairs = await svc.match_waiting()
        if not pairs:
            break
        made += pairs
    elapsed = time.perf_counter() - started
    await svc.open_games_idle()
    return made, elapsed


Run = tuple[list[float], int, float, list[float], float]
"""Pairing latencies, pairs made, seconds; idle passes' seconds, outbox items shown a second."""


async def sqlite_run(folder: Path, pairs: int, queue: int, passes: int, items: int) -> Run:
    import sqlite3

    async with SqliteStore.open(folder / "relay.sqlite3") as store:
        idle, shown = await relay(store, passes, items)
    async with SqliteStore.open(folder / "latency.sqlite3") as store:
        samples = await latency(store, pairs)
    path = folder / "queue.sqlite3"
    async with SqliteStore.open(path) as store:

        async def insert(rows: list[tuple[Any, ...]]) -> None:
            db = sqlite3.connect(path)
            with db:
                db.executemany(INSERT.replace("$", "?"), rows)
            db.close()

        await fill(store, insert, queue, random.Random(24))
        made, elapsed = await drain(store)
    return samples, made, elapsed, idle, shown


async def pg_run(url: str, pairs: int, queue: int, passes: int, items: int) -> Run:
    import asyncpg

    async with PostgresStore.open(url) as store:
        idle, shown = await relay(store, passes, items)  # first: the queue is empty
        samples = await latency(store, pairs)
        conn = await asyncpg.connect(url)
        try:
            await conn.execute("DELETE FROM seeks")

            async def insert(rows: list[tuple[Any, ...]]) -> None:
                await conn.executemany(INSERT, rows)

            await fill(store, insert, queue, random.Random(24))
        finally:
            await conn.close()
        made, elapsed = await drain(store)
    return samples, made, elapsed, idle, shown


def _ms(samples: list[float], share: int) -> float:
    return statistics.quantiles(samples, n=100)[share - 1] * 1000


def main(quick: bool) -> None:
    from tests.pg import PostgresServer

    logging.getLogger("core").setLevel(logging.WARNING)
    pairs = PAIRS // 4 if quick else PAIRS
    queue = QUEUE // 10 if quick else QUEUE
    passes = IDLE_PASSES // 10 if quick else IDLE_PASSES
    items = ITEMS // 10 if quick else ITEMS
    rows: list[tuple[str, list[float], int, float, list[float], float]] = []
    with tempfile.TemporaryDirectory(prefix="bench-match-") as name:
        rows.append(("SQLite", *asyncio.run(sqlite_run(Path(name), pairs, queue, passes, items))))
    server = PostgresServer.start()
    try:
        run = pg_run(server.url(), pairs, queue, passes, items)
        rows.append(("PostgreSQL", *asyncio.run(run)))
    finally:
        server.stop()
    print(
        f"pairing latency: second /seek to both boards shown ({pairs} pairs);"
        f" pairs/s: one process pairing a queue of {queue} waiting seeks"
    )
    print(f"{'store':<11} {'p50 ms':>8} {'p99 ms':>8} {'pairs':>7} {'seconds':>8} {'pairs/s':>9}")
    for store, samples, made, elapsed, _, _ in rows:
        print(
            f"{store:<11} {statistics.median(samples) * 1000:>8.2f} {_ms(samples, 99):>8.2f}"
            f" {made:>7} {elapsed:>8.2f} {made / elapsed:>9.0f}"
        )
    print(
        f"relay: a pass over an empty queue and outbox, two platforms ({passes} passes);"
        f" outbox items left by another process shown per second ({items} items)"
    )
    print(f"{'store':<11} {'idle p50 ms':>12} {'idle p99 ms':>12} {'items/s':>9}")
    for store, _, _, _, idle, shown in rows:
        print(
            f"{store:<11} {statistics.median(idle) * 1000:>12.3f} {_ms(idle, 99):>12.3f}"
            f" {shown:>9.0f}"
        )
    print(f"(machine: {os.cpu_count()} cores, shared by the server and the benchmark)")

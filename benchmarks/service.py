"""GameService on SQLite: throughput, memory, and latency under HARD load.

1. Moves per second through ``GameService`` (human moves against EASY in many parallel games,
   each call = the player's move + the bot's answer, both compare-and-set writes), beside a raw
   loop of sqlite3 upserts, each one awaited through a one-thread executor (one hop, one
   autocommitted statement), on the same kind of database in the same run (the ratio is the
   figure that travels between machines).
2. Peak Python memory (tracemalloc) while 10,000 games are live.
3. Command latency in chat A (median, p99) while 50 HARD searches for other chats run in the
   process pool (issue 6), next to the same commands on an idle service.
4. Admin settings (issue 12): the cost of the settings lookup each command makes (p50, p99),
   from the cache and when the cache misses (a store read), and the moves per second of 1.
   with settings set for every chat and the rate limits on, against limits off and no
   settings, in the same run.
"""

from __future__ import annotations

import asyncio
import os
import random
import sqlite3
import statistics
import tempfile
import time
import tracemalloc
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from core.admin.effective import CACHE_SECONDS, write
from core.replies import Actor
from core.sessions import GameService, ServiceSettings
from core.store import SqliteStore, sessions, stats


def _actor(user: str, chat: str) -> Actor:
    return Actor("bench", chat, user, user)


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


async def _throughput(
    directory: Path, games: int, seconds: float, *, admin: bool = False, name: str = "throughput"
) -> float:
    async with SqliteStore.open(directory / f"{name}.sqlite3") as store:
        service = GameService(
            store, settings=ServiceSettings(ai_workers=0, limits=admin), rng=random.Random(1)
        )
        if admin:
            await _admin_settings(store, chats=50)
        moves = 0
        deadline = time.perf_counter() + seconds

        async def player(index: int) -> None:
            nonlocal moves
            who = _actor(f"p{index}", f"chat{index % 50}")
            rng = random.Random(index)
            while time.perf_counter() < deadline:
                replies = await service.handle_text(who, "/quatre easy", addressed=True)
                board = replies[0].board
                assert board is not None, replies
                while board is not None and board.playable and time.perf_counter() < deadline:
                    replies = await service.handle_move(
                        who, board.session_id, rng.choice(board.playable), board.version
                    )
                    assert not replies[0].error, replies
                    moves += 1
                    board = replies[0].board
                if board is not None and board.playable:  # out of time mid-game
                    await service.handle_text(who, "/final")

        started = time.perf_counter()
        await asyncio.gather(*(player(i) for i in range(games)))
        elapsed = time.perf_counter() - started
        await service.close()
    return moves / elapsed


async def _admin_settings(store: SqliteStore, chats: int) -> None:
    # Settings in every chat, as a busy community would have them, loose enough that the
    # benchmark's players (a new game every few seconds each) are never refused: the figure is
    # the cost of checking, not of refusing.
    values = {
        "games": "quatre,tres",
        "max_board": "10x10",
        "level": "easy",
        "cooldown": "0.01",
        "max_games_per_user": "5",
        "max_games_per_chat": "100",
        "rate_burst": "50",
        "rate_per_minute": "600",
        "boards_per_minute": "600",
    }
    for chat in range(chats):
        for key, value in values.items():
            await write(store, "bench", f"chat:chat{chat}", key, value, by="bench", now=0.0)


async def _lookup_cost(directory: Path, chats: int, commands: int) -> None:
    async with SqliteStore.open(directory / "lookup.sqlite3") as store:
        await _admin_settings(store, chats)
        service = GameService(store, settings=ServiceSettings(ai_workers=0))
        actors = [_actor("u", f"chat{i % chats}") for i in range(commands)]
        cached: list[float] = []
        missed: list[float] = []
        for index, who in enumerate(actors):
            began = time.perf_counter()
            await service.chat_settings(who)
            (missed if index < chats else cached).append((time.perf_counter() - began) * 1e6)
        await service.close()
    print(
        f"settings lookup per command, cached: p50 {_percentile(cached, 0.5):5.1f} us,"
        f" p99 {_percentile(cached, 0.99):5.1f} us ({len(cached)} lookups, {chats} chats)"
    )
    print(
        f"settings lookup, cache miss (store read): p50 {_percentile(missed, 0.5):5.0f} us,"
        f" p99 {_percentile(missed, 0.99):5.0f} us ({len(missed)} lookups;"
        f" at most one per chat every {CACHE_SECONDS:.0f} s)"
    )


async def raw_upserts(directory: Path, seconds: float) -> float:
    # The floor under any store: one autocommitted upsert per await, same pragmas, each one a
    # hop to a thread that owns the connection (the standard library's executor, not ours).
    loop = asyncio.get_running_loop()
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="raw-sqlite") as pool:
        db = await loop.run_in_executor(
            pool,
            lambda: sqlite3.connect(
                directory / "raw.sqlite3", isolation_level=None, check_same_thread=False
            ),
        )
        try:

            def setup() -> None:
                db.execute("PRAGMA journal_mode = WAL")
                db.execute("PRAGMA synchronous = NORMAL")
                db.execute(
                    "CREATE TABLE t (id TEXT PRIMARY KEY, moves TEXT NOT NULL,"
                    " version INTEGER NOT NULL)"
                )

            def upsert(count: int) -> None:
                db.execute(
                    "INSERT INTO t (id, moves, version) VALUES (?, ?, 1)"
                    " ON CONFLICT (id) DO UPDATE SET moves = excluded.moves,"
                    " version = version + 1",
                    (f"g{count % 1000}", str(count)),
                )

            await loop.run_in_executor(pool, setup)
            count = 0
            started = time.perf_counter()
            deadline = started + seconds
            while time.perf_counter() < deadline:
                await loop.run_in_executor(pool, upsert, count)
                count += 1
            return count / (time.perf_counter() - started)
        finally:
            await loop.run_in_executor(pool, db.close)


async def _memory(directory: Path, games: int) -> tuple[float, float, int]:
    tracemalloc.start()
    try:
        async with SqliteStore.open(directory / "memory.sqlite3") as store:
            # A bulk load, not people: no rate limits or boards per minute.
            service = GameService(store, settings=ServiceSettings(ai_workers=0, limits=False))
            baseline = tracemalloc.get_traced_memory()[0]
            tracemalloc.reset_peak()
            batch = 200
            for start in range(0, games, batch):
                await asyncio.gather(
                    *(
                        service.handle_text(_actor(f"u{i}", f"c{i % 100}"), "/quatre easy")
                        for i in range(start, min(games, start + batch))
                    )
                )
            # Every game one move in, so each one has been read, played and written back.
            for start in range(0, games, batch):
                await asyncio.gather(
                    *(
                        service.handle_text(_actor(f"u{i}", f"c{i % 100}"), "4")
                        for i in range(start, min(games, start + batch))
                    )
                )
            current, peak = tracemalloc.get_traced_memory()
            live = await store.run(stats.count_sessions())
            await service.close()
    finally:
        tracemalloc.stop()
    return (current - baseline) / 2**20, (peak - baseline) / 2**20, live


async def _latency_under_load(directory: Path, searches: int, budget: float) -> None:
    async with SqliteStore.open(directory / "latency.sqlite3") as store:
        # Chat A's commands come faster than a person's: measured without the rate limit.
        settings = ServiceSettings(ai_budget=budget, limits=False)
        service = GameService(store, settings=settings, rng=random.Random(2))
        started = time.perf_counter()
        await service.start()
        startup = time.perf_counter() - started
        print(
            f"process pool: {settings.workers} workers, start-up with JIT warm-up {startup:.2f} s"
        )

        chat_a = _actor("alice", "chat-A")

        async def commands_in_chat_a(count: int) -> list[float]:
            times: list[float] = []
            script = ["/tres easy", "5", "/stats", "/top", "/final"]
            for i in range(count):
                began = time.perf_counter()
                await service.handle_text(chat_a, script[i % len(script)], addressed=True)
                times.append((time.perf_counter() - began) * 1000)
                await asyncio.sleep(0.005)
            return times

        idle = await commands_in_chat_a(100)
        # The thinkers: each starts Connect Four against HARD and plays a move the bot must
        # search (the opening is not in any book: column 1, then the bot thinks).
        thinkers = [_actor(f"t{i}", f"chat-{i}") for i in range(searches)]
        for who in thinkers:
            await service.handle_text(who, "/quatre hard", addressed=True)
        load_started = time.perf_counter()
        load = asyncio.gather(*(service.handle_text(who, "1") for who in thinkers))
        busy: list[float] = []
        while not load.done():
            busy += await commands_in_chat_a(10)
        await load
        load_time = time.perf_counter() - load_started
        games = [
            await store.run(sessions.live_game("bench", who.chat_id, who.user_id))
            for who in thinkers
        ]
        answered = sum(1 for g in games if g is not None and len(g.moves) >= 2)
        await service.close()
    print(
        f"{searches} HARD searches (budget {budget:.1f} s) answered: {answered},"
        f" all done in {load_time:.1f} s"
    )
    print(
        f"chat A latency idle:        median {statistics.median(idle):6.2f} ms,"
        f" p99 {_percentile(idle, 0.99):6.2f} ms ({len(idle)} commands)"
    )
    print(
        f"chat A latency under load:  median {statistics.median(busy):6.2f} ms,"
        f" p99 {_percentile(busy, 0.99):6.2f} ms ({len(busy)} commands)"
    )


async def _run(quick: bool) -> None:
    with tempfile.TemporaryDirectory(prefix="bench-service-") as name:
        directory = Path(name)
        seconds = 2.0 if quick else 8.0
        games = 50 if quick else 200
        service_rate = await _throughput(directory, games, seconds)
        raw_rate = await raw_upserts(directory, seconds)
        print(f"moves/s through GameService ({games} parallel games vs EASY): {service_rate:8.0f}")
        print(f"raw sqlite3 upserts/s (one thread, one hop each, autocommit): {raw_rate:8.0f}")
        print(f"ratio service/raw: {service_rate / raw_rate:.3f}")

        await _lookup_cost(directory, 50, 2_000 if quick else 20_000)
        # Interleaved rounds, medians: on a shared machine the load drifts between runs.
        offs: list[float] = []
        ons: list[float] = []
        for round_ in range(3):
            offs.append(await _throughput(directory, games, seconds / 2, name=f"off{round_}"))
            ons.append(
                await _throughput(directory, games, seconds / 2, admin=True, name=f"on{round_}")
            )
        ratios = sorted(on / off for on, off in zip(ons, offs, strict=True))
        print(
            f"moves/s, settings and rate limits on: {statistics.median(ons):8.0f};"
            f" off: {statistics.median(offs):8.0f} (on/off per round {ratios[0]:.3f}"
            f"..{ratios[-1]:.3f}, median {statistics.median(ratios):.3f})"
        )

        live = 1_000 if quick else 10_000
        current, peak, stored = await _memory(directory, live)
        print(
            f"{stored} live games in SQLite: Python memory after {current:.1f} MiB,"
            f" peak {peak:.1f} MiB (tracemalloc, above the idle service)"
        )

        searches = 10 if quick else 50
        await _latency_under_load(directory, searches, 0.3 if quick else 1.0)
        print(f"(machine: {os.cpu_count()} cores)")


def main(quick: bool) -> None:
    asyncio.run(_run(quick))

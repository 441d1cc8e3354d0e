"""Spectators of a live page: how long after a move each of 200 spectators of one game sees it,
on SQLite and on PostgreSQL.

``python -m benchmarks web_live [--quick]``: the pages (``adapters.web``, the real aiohttp
application on 127.0.0.1) read one store; the moves of a Connect Four game between two people
are played through the GameService on another store of the same database, as another process
would play them. 200 spectators hold the game's event stream open (``/live/<id>/events``, a
connection each); for each move, the time from the start of the move (the player's press) to
the arrival of its event at each spectator. A move waits 0 to 300 ms after the previous one was
seen everywhere, so moves fall anywhere in the feed's poll (every 0.25 s). Spectators, pages
and players share this one process and core: the figures are an upper bound. Prints p50, p99
and the maximum in milliseconds.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import tempfile
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web

from adapters.web import AddressLimiter, WebPages
from core.pages import Pages
from core.replies import Actor
from core.sessions import GameService, ServiceSettings
from core.store import SqliteStore, sessions
from core.store.runner import SqlStore

SPECTATORS = 200
MOVES = 20  # a Connect Four game of columns 1..7 in turn: nobody wins before the 25th move
ALICE = Actor("bench", "room", "alice", "Alice")
BOB = Actor("bench", "room", "bob", "Bob")


def _quantile(values: list[float], q: int) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


class Spectator:
    """One open event stream: when each version of the game arrived."""

    def __init__(self) -> None:
        self.seen: dict[int, float] = {}
        self.changed = asyncio.Event()

    async def follow(self, client: aiohttp.ClientSession, url: str) -> None:
        async with client.get(url) as response:
            assert response.status == 200, response.status
            version = None
            async for raw in response.content:
                line = raw.decode().rstrip("\n")
                if line.startswith("id: "):
                    version = int(line[4:])
                elif not line and version is not None:
                    self.seen[version] = time.perf_counter()
                    version = None
                    self.changed.set()


@asynccontextmanager
async def _served(store: SqlStore) -> AsyncIterator[str]:
    pages = WebPages(Pages(store), AddressLimiter(10**9, 10**9), streams_per_address=SPECTATORS * 2)
    runner = web.AppRunner(pages.app(), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    try:
        yield f"http://127.0.0.1:{runner.addresses[0][1]}"
    finally:
        await runner.cleanup()


async def _measure(pages_store: SqlStore, players_store: SqlStore, quick: bool) -> str:
    spectators = SPECTATORS // 4 if quick else SPECTATORS
    moves = MOVES // 4 if quick else MOVES
    svc = GameService(players_store, settings=ServiceSettings(ai_workers=0, limits=False))
    await svc.handle_text(ALICE, "/quatre @bob first")
    accepted = await svc.handle_text(BOB, "/accept")
    session_id = next(r.session_id for r in accepted if r.session_id)
    game = await players_store.run(sessions.get(session_id or ""))
    assert game is not None
    rng = random.Random(33)
    latencies: list[float] = []
    async with _served(pages_store) as base:
        connector = aiohttp.TCPConnector(limit=0)
        async with aiohttp.ClientSession(connector=connector) as client:
            watchers = [Spectator() for _ in range(spectators)]
            url = f"{base}/live/{game.public_id}/events"
            tasks = [asyncio.create_task(w.follow(client, url)) for w in watchers]
            version = game.version
            await _all_seen(watchers, version)
            for n in range(moves):
                await asyncio.sleep(rng.uniform(0, 0.3))
                pressed = time.perf_counter()
                mover = ALICE if n % 2 == 0 else BOB
                await svc.handle_text(mover, str(n % 7 + 1))
                version += 1
                await _all_seen(watchers, version)
                latencies += [(w.seen[version] - pressed) * 1000 for w in watchers]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
    return (
        f"  {spectators} spectators, {moves} moves ({len(latencies)} arrivals): a move seen"
        f" p50 {statistics.median(latencies):.0f} ms, p99 {_quantile(latencies, 99):.0f} ms,"
        f" max {max(latencies):.0f} ms after it was played"
    )


async def _all_seen(watchers: list[Spectator], version: int, within: float = 30.0) -> None:
    deadline = time.monotonic() + within
    for watcher in watchers:
        while version not in watcher.seen:
            watcher.changed.clear()
            left = deadline - time.monotonic()
            assert left > 0, f"version {version} not seen within {within} s"
            await asyncio.wait_for(watcher.changed.wait(), left)


async def _sqlite(folder: Path, quick: bool) -> str:
    path = folder / "live.sqlite3"
    async with await SqliteStore.open(path) as pages, await SqliteStore.open(path) as players:
        return await _measure(pages, players, quick)


async def _postgres(url: str, quick: bool) -> str:
    from core.store.postgres import PostgresStore

    opened: Any = PostgresStore.open
    async with opened(url) as pages, opened(url) as players:
        return await _measure(pages, players, quick)


def main(quick: bool) -> None:
    from tests.pg import PostgresServer

    with tempfile.TemporaryDirectory(prefix="bench-live-") as name:
        print("SQLite:", flush=True)
        print(asyncio.run(_sqlite(Path(name), quick)), flush=True)
    server = PostgresServer.start()
    try:
        print("PostgreSQL:", flush=True)
        print(asyncio.run(_postgres(server.url(), quick)), flush=True)
    finally:
        server.stop()

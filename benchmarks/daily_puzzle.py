"""The daily puzzle post to many chats: how long one process takes to leave the day's post for
10,000 chats in the outbox (each claimed for its chat and day in a transaction of its own), on a
SQLite file, and how long the platforms then take to show them under their published rate limits
(computed, not measured: nothing here talks to Discord or a homeserver).

``python -m benchmarks daily_puzzle [--quick]`` (quick: 1,000 chats).
"""

from __future__ import annotations

import asyncio
import datetime
import tempfile
import time
from pathlib import Path

from core.sessions import GameService, ServiceSettings
from core.store import SettingRow, SqliteStore, settings

DISCORD_PER_SECOND = 50.0
"""Discord's global limit of requests per second for a bot (one post is one request)."""
MATRIX_PER_SECOND = 0.2
"""Synapse's default ``rc_message`` for a user not exempt from it (burst 10)."""
MATRIX_BURST = 10


async def leave(chats: int) -> tuple[float, float]:
    with tempfile.TemporaryDirectory() as folder:
        async with SqliteStore.open(Path(folder) / "daily.sqlite3") as store:
            for n in range(chats):
                row = SettingRow("test", f"chat:c{n}", "daily_puzzle", "9", 0.0, "bench")
                await store.run(settings.setting_put(row))
                if n % 2:  # half of them in a zone of their own: read with the hour
                    zone = SettingRow("test", f"chat:c{n}", "timezone", "UTC", 0.0, "bench")
                    await store.run(settings.setting_put(zone))
            day = datetime.datetime(2026, 11, 28, 9, 30, tzinfo=datetime.UTC).timestamp()
            service = GameService(store, settings=ServiceSettings(ai_workers=0), clock=lambda: day)
            started = time.perf_counter()
            left = await service.post_daily_puzzles()
            elapsed = time.perf_counter() - started
            assert left == chats, left
            # Every minute after: the look that finds every chat posted already.
            started = time.perf_counter()
            assert await service.post_daily_puzzles() == 0
            return elapsed, time.perf_counter() - started


def main(quick: bool) -> None:
    chats = 1_000 if quick else 10_000
    elapsed, again = asyncio.run(leave(chats))
    print(
        f"daily post, store side: {chats} chats in {elapsed:.1f} s"
        f" ({elapsed / chats * 1000:.2f} ms a chat, SQLite, one process);"
        f" the next minute's look, every chat posted: {again * 1000:.0f} ms"
    )
    big = 10_000
    discord = big / DISCORD_PER_SECOND
    matrix = (big - MATRIX_BURST) / MATRIX_PER_SECOND  # the burst goes at once
    print(
        f"showing {big} posts under the platforms' limits (computed): Discord {discord:.0f} s"
        f" at {DISCORD_PER_SECOND:.0f} requests a second; Matrix {matrix / 3600:.1f} h at"
        f" Synapse's default {MATRIX_PER_SECOND} events a second for a bot not exempt from"
        " rc_message (docs/matrix.md: exempt the bot)"
    )

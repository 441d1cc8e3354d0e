"""What a departure costs: ``GameService.abandon_games`` for the bot removed from a Discord
server of 500 channels, and for a member of it leaving, on SQLite and PostgreSQL, among many
live games elsewhere.

Each server channel holds a game between two people with moves played and an open challenge;
the member who leaves plays in ``MEMBER_GAMES`` of those channels. The other games (the same
kind, in other chats) are there so that the lookup must use the ``(platform, chat_id, status)``
index rather than read the table. The figure is the wall time of the one call: looking the
chats' sessions up, and one compare-and-set (with its stats) per session ended.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import random
import tempfile
import time
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

from core.games import TICTACTOE
from core.sessions import GameService, ServiceSettings
from core.sessions.model import new_session
from core.store import Seat, SessionStore, SqliteStore, Status
from core.store.postgres import PostgresStore

CHANNELS = 500
MEMBER_GAMES = 20


async def _fill(store: SessionStore, elsewhere: int) -> None:
    """The server's games and challenges, and ``elsewhere`` games in other chats."""
    now = time.time()

    def game(chat: str, x: str, o: str, status: Status) -> None:
        seats = (Seat.person(x, x), Seat.person(o, o))
        session = new_session(
            platform="discord",
            chat_id=chat,
            seats=seats,
            rules=TICTACTOE,
            status=status,
            now=now,
            ttl=86_400,
            challenger=x,
            challenged=o,
        )
        if status is Status.ACTIVE:
            session = dataclasses.replace(session, moves=(4, 0))
        pending.append(store.create(session))

    pending: list[Coroutine[Any, Any, None]] = []
    for n in range(CHANNELS):
        first = "leaver" if n < MEMBER_GAMES else f"a{n}"
        game(f"server-{n}", first, f"b{n}", Status.ACTIVE)
        game(f"server-{n}", f"c{n}", f"d{n}", Status.CHALLENGE)
    for n in range(elsewhere):
        game(f"other-{n % 5000}", f"e{n}", f"f{n}", Status.ACTIVE)
    for start in range(0, len(pending), 200):
        await asyncio.gather(*pending[start : start + 200])


async def _measure(store: SessionStore, elsewhere: int) -> tuple[float, int, float, int]:
    await _fill(store, elsewhere)
    service = GameService(store, settings=ServiceSettings(ai_workers=0), rng=random.Random(1))
    chats = [f"server-{n}" for n in range(CHANNELS)]
    started = time.perf_counter()
    member = await service.abandon_games("discord", chats, "leaver")
    member_s = time.perf_counter() - started
    started = time.perf_counter()
    server = await service.abandon_games("discord", chats)
    server_s = time.perf_counter() - started
    await service.close()
    return member_s, member, server_s, server


def main(quick: bool) -> None:
    from tests.pg import PostgresServer

    logging.getLogger("core").setLevel(logging.WARNING)
    elsewhere = 2_000 if quick else 20_000
    rows: list[tuple[str, float, int, float, int]] = []
    with tempfile.TemporaryDirectory(prefix="bench-abandon-") as name:

        async def sqlite() -> tuple[float, int, float, int]:
            async with await SqliteStore.open(Path(name) / "a.sqlite3") as store:
                return await _measure(store, elsewhere)

        rows.append(("sqlite", *asyncio.run(sqlite())))
    server = PostgresServer.start()
    try:

        async def postgres() -> tuple[float, int, float, int]:
            async with await PostgresStore.open(server.url()) as store:
                return await _measure(store, elsewhere)

        rows.append(("postgres", *asyncio.run(postgres())))
    finally:
        server.stop()
    print(f"a server of {CHANNELS} channels, {elsewhere} live games elsewhere")
    print(f"{'store':<10}{'member left':>14}{'ended':>7}{'bot removed':>14}{'ended':>7}")
    for store_name, member_s, member, server_s, ended in rows:
        member_ms, server_ms = member_s * 1000, server_s * 1000
        print(f"{store_name:<10}{member_ms:>11.0f} ms{member:>7}{server_ms:>11.0f} ms{ended:>7}")

"""What a departure costs: ``GameService.abandon_games`` for the bot removed from a Discord
server of 500 channels, and for a member of it leaving, on SQLite and PostgreSQL, among many
live games elsewhere.

Each server channel holds a game between two people with moves played and an open challenge;
the member who leaves plays in ``MEMBER_GAMES`` of those channels. ``THREADS`` more games of the
server are in archived threads, which the client does not list: they are found by the server
the game stored. The other games (the same kind, in other chats of other servers) are there so
that the lookups must use the ``(platform, chat_id, status)`` index and the partial
``sessions_server`` index rather than read the table. The figures: the wall time of the one
call (looking the sessions up by the server's listed chats and by the server, and one
compare-and-set, with its stats, per session ended), then the lookups alone, and the server
lookup's plan.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import random
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable, Coroutine
from pathlib import Path
from typing import Any

from core.games import TICTACTOE
from core.sessions import GameService, ServiceSettings
from core.sessions.play.model import new_session
from core.store import Seat, SqliteStore, Status, departures, sessions
from core.store.migrations import Dialect
from core.store.postgres import PostgresStore
from core.store.runner import SqlStore
from core.store.sql import ENV, Env, Query, for_sqlite

CHANNELS = 500
MEMBER_GAMES = 20
THREADS = 50
SERVER = "900000000000000001"

Explain = Callable[[Query], Awaitable[str]]


async def _fill(store: SqlStore, elsewhere: int) -> None:
    """The server's games and challenges, and ``elsewhere`` games in other servers' chats."""
    now = time.time()

    def game(chat: str, x: str, o: str, status: Status, server: str) -> None:
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
            server_id=server,
        )
        if status is Status.ACTIVE:
            session = dataclasses.replace(session, moves=(4, 0))
        pending.append(store.run(sessions.create(session)))

    pending: list[Coroutine[Any, Any, None]] = []
    for n in range(CHANNELS):
        first = "leaver" if n < MEMBER_GAMES else f"a{n}"
        game(f"server-{n}", first, f"b{n}", Status.ACTIVE, SERVER)
        game(f"server-{n}", f"c{n}", f"d{n}", Status.CHALLENGE, SERVER)
    for n in range(THREADS):
        game(f"thread-{n}", "leaver" if n < 2 else f"t{n}", f"u{n}", Status.ACTIVE, SERVER)
    for n in range(elsewhere):
        game(f"other-{n % 5000}", f"e{n}", f"f{n}", Status.ACTIVE, f"other-{n % 50}")
    for start in range(0, len(pending), 200):
        await asyncio.gather(*pending[start : start + 200])


def _server_query(dialect: Dialect) -> Query:
    """The first statement of the server's lookup, as the store runs it."""
    op = departures.live_in_chats("discord", [], server_id=SERVER)
    assert next(op) is ENV  # the store's dialect, asked first
    step = op.send(Env(dialect, time.time))
    assert isinstance(step, Query)
    return step


async def _timed(call: Awaitable[Any]) -> tuple[float, Any]:
    started = time.perf_counter()
    result = await call
    return (time.perf_counter() - started) * 1000, result


async def _measure(store: SqlStore, elsewhere: int, explain: Explain) -> list[str]:
    await _fill(store, elsewhere)
    chats = [f"server-{n}" for n in range(CHANNELS)]
    lookups = []
    for name, listed, server in (
        ("by the listed chats", chats, None),
        ("by the server", [], SERVER),
        ("by both", chats, SERVER),
    ):
        ms, found = await _timed(
            store.run(departures.live_in_chats("discord", listed, server_id=server))
        )
        lookups.append(f"  lookup {name}: {ms:.0f} ms, {len(found)} sessions")
    plan = await explain(_server_query(store.dialect))
    service = GameService(store, settings=ServiceSettings(ai_workers=0), rng=random.Random(1))
    member_ms, member = await _timed(
        service.abandon_games("discord", chats, "leaver", server_id=SERVER)
    )
    server_ms, server = await _timed(service.abandon_games("discord", chats, server_id=SERVER))
    await service.close()
    return [
        f"  member left: {member_ms:.0f} ms, {member} ended;"
        f" bot removed: {server_ms:.0f} ms, {server} ended",
        *lookups,
        f"  the server's statement: {plan}",
    ]


Probe = tuple[str, float]
"""A statement's plan, and the median of its run time in ms."""

_RUNS = 21


class _GiveItBack(Exception):
    """Rolls the dropped index back."""


def _sqlite_probe(db: sqlite3.Connection, sql: str, args: tuple[Any, ...]) -> Probe:
    plan = db.execute(f"EXPLAIN QUERY PLAN {sql}", args).fetchall()
    times = []
    for _ in range(_RUNS):
        started = time.perf_counter()
        db.execute(sql, args).fetchall()
        times.append((time.perf_counter() - started) * 1000)
    return " / ".join(str(row[-1]) for row in plan), statistics.median(times)


async def _pg_probe(conn: Any, query: Query) -> Probe:
    plan = await conn.fetch(f"EXPLAIN {query.sql}", *query.args)
    times = []
    for _ in range(_RUNS):
        started = time.perf_counter()
        await conn.fetch(query.sql, *query.args)
        times.append((time.perf_counter() - started) * 1000)
    return " / ".join(str(row[0]).strip() for row in plan), statistics.median(times)


def _probed(with_index: Probe, without: Probe) -> str:
    return (
        f"{with_index[1]:.2f} ms: {with_index[0]}\n"
        f"  the same without the index: {without[1]:.2f} ms: {without[0]}"
    )


def main(quick: bool) -> None:
    from tests.pg import PostgresServer

    logging.getLogger("core").setLevel(logging.WARNING)
    elsewhere = 2_000 if quick else 20_000
    print(
        f"a server of {CHANNELS} channels and {THREADS} archived threads,"
        f" {elsewhere} live games elsewhere"
    )
    with tempfile.TemporaryDirectory(prefix="bench-abandon-") as name:
        path = Path(name) / "a.sqlite3"

        async def sqlite_plan(query: Query) -> str:
            # No statement cache: the plan after the DROP must be planned anew.
            plain = sqlite3.connect(path, isolation_level=None, cached_statements=0)
            sql = for_sqlite(query.sql)
            try:
                plain.execute("ANALYZE")
                with_index = _sqlite_probe(plain, sql, query.args)
                plain.execute("BEGIN")  # the index dropped for a moment, then given back
                plain.execute("DROP INDEX sessions_server")
                without = _sqlite_probe(plain, sql, query.args)
                plain.execute("ROLLBACK")
            finally:
                plain.close()
            return _probed(with_index, without)

        async def sqlite() -> list[str]:
            async with await SqliteStore.open(path) as store:
                return await _measure(store, elsewhere, sqlite_plan)

        print("sqlite", *asyncio.run(sqlite()), sep="\n")
    server = PostgresServer.start()
    try:

        async def postgres_plan(query: Query) -> str:
            import asyncpg

            conn = await asyncpg.connect(server.url())
            try:
                await conn.execute("ANALYZE sessions")
                with_index = await _pg_probe(conn, query)
                async with conn.transaction():
                    await conn.execute("DROP INDEX sessions_server")
                    without = await _pg_probe(conn, query)
                    raise _GiveItBack
            except _GiveItBack:
                pass
            finally:
                await conn.close()
            return _probed(with_index, without)

        async def postgres() -> list[str]:
            async with await PostgresStore.open(server.url()) as store:
                return await _measure(store, elsewhere, postgres_plan)

        print("postgres", *asyncio.run(postgres()), sep="\n")
    finally:
        server.stop()

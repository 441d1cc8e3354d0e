"""The store's side of ratings, for ``python -m benchmarks ratings``: ``/top all`` with 100,000
rated players (p50/p99, and the plan that shows the index), and what the rating update adds to
the transaction that finishes a game (p50/p99 of a rated finish beside a casual one), on SQLite
and on PostgreSQL.

No ``main`` of its own: :mod:`benchmarks.ratings` runs it (the runner would otherwise run it as
a benchmark of its own).
"""

from __future__ import annotations

import asyncio
import random
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from core.games import TICTACTOE, Position
from core.ratings import ACTIVE_SECONDS, PROVISIONAL_GAMES
from core.store import Seat, Session, SqliteStore, Status, new_session_id, ratings, sessions
from core.store.ratings import ladder

PLAYERS = 100_000
LADDER_SAMPLES = 1000
FINISH_SAMPLES = 1000
NOW = 1_800_000_000.0
_X_WINS = Position.from_moves(TICTACTOE, (0, 3, 1, 4, 2))


def _quantile(times: list[float], share: int) -> float:
    return statistics.quantiles(times, n=100)[share - 1]


def _rows(count: int, rng: random.Random) -> list[tuple[Any, ...]]:
    """``count`` ratings in connect4: nine in ten settled, nine in ten of those active."""
    rows = []
    for n in range(count):
        games = rng.randrange(PROVISIONAL_GAMES, 400) if rng.random() < 0.9 else rng.randrange(10)
        last = NOW - rng.uniform(0, ACTIVE_SECONDS) * (1 if rng.random() < 0.9 else 3)
        platform = "discord" if n % 2 else "matrix"
        rows.append(
            (
                f"{platform}:u{n}",
                "connect4",
                rng.gauss(1500, 300),
                rng.uniform(40, 200),
                games,
                last,
                platform,
                f"Player {n}",
            )
        )
    return rows


_INSERT = (
    "INSERT INTO ratings (identity, pool, rating, deviation, games, last_rated_at, platform,"
    " name) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"
)


async def _timed(samples: int, call: Callable[[], Awaitable[object]]) -> tuple[float, float]:
    """p50 and p99 of ``call`` in milliseconds."""
    for _ in range(20):  # warm the caches and the connection
        await call()
    times = []
    for _ in range(samples):
        started = time.perf_counter()
        await call()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times), _quantile(times, 99)


def _game(first: str, second: str, casual: bool) -> Session:
    return Session(
        id=new_session_id(),
        platform="bench",
        chat_id=f"c-{first}",
        seats=(Seat.person(first, first), Seat.person(second, second)),
        rules=TICTACTOE,
        moves=(),
        status=Status.ACTIVE,
        version=1,
        created_at=NOW,
        updated_at=NOW,
        expires_at=NOW + 3600,
        casual=casual,
    )


async def _finishes(store: Any, casual: bool, samples: int, rng: random.Random) -> list[float]:
    """Milliseconds of each ``update`` that finishes a game (the create is not timed)."""
    times = []
    players = [f"p{n}" for n in range(200)]
    for n in range(samples):
        first, second = rng.sample(players, 2)
        game = _game(first, second, casual)
        await store.run(sessions.create(game))
        done = replace(
            game,
            moves=_X_WINS.moves,
            version=2,
            status=Status.FINISHED,
            outcome=_X_WINS.outcome,
            updated_at=NOW + n * 3600,  # an hour apart: the pair limit never applies
        )
        started = time.perf_counter()
        assert await store.run(sessions.update(done, expected_version=1))
        times.append((time.perf_counter() - started) * 1000)
    return times


Query = tuple[str, tuple[Any, ...]]


async def _measure(
    store: Any, explain: Callable[[Query], Awaitable[str]], quick: bool
) -> list[str]:
    rng = random.Random(23)
    players = PLAYERS // 10 if quick else PLAYERS
    lines = []
    top = await _timed(
        LADDER_SAMPLES // 10 if quick else LADDER_SAMPLES,
        lambda: store.run(ratings.ladder(None, "connect4", NOW, 10)),
    )
    lines.append(f"  /top all, {players:,} rated players: p50 {top[0]:.2f} ms, p99 {top[1]:.2f} ms")
    query = _first_query(ladder(None, "connect4", NOW, 10))
    lines.append("  plan: " + (await explain(query)).replace("\n", "\n        "))
    samples = FINISH_SAMPLES // 10 if quick else FINISH_SAMPLES
    casual = await _finishes(store, True, samples, rng)
    rated = await _finishes(store, False, samples, rng)
    for label, times in (("casual (no rating)", casual), ("rated", rated)):
        lines.append(
            f"  finishing a game, {label}: p50 {statistics.median(times):.2f} ms,"
            f" p99 {_quantile(times, 99):.2f} ms"
        )
    lines.append(
        f"  the rating update adds: p50 {statistics.median(rated) - statistics.median(casual):.2f}"
        f" ms, p99 {_quantile(rated, 99) - _quantile(casual, 99):.2f} ms"
    )
    return lines


def _first_query(op: Any) -> Query:
    step = next(op)
    return str(step.sql), tuple(step.args)


async def _sqlite(folder: Path, quick: bool) -> list[str]:
    import sqlite3

    from core.store.sql import for_sqlite

    path = folder / "ratings.sqlite3"
    async with SqliteStore.open(path):
        pass
    db = sqlite3.connect(path)
    with db:
        db.executemany(
            for_sqlite(_INSERT), _rows(PLAYERS // 10 if quick else PLAYERS, random.Random(1))
        )
    db.execute("ANALYZE")
    db.close()

    async def explain(query: Query) -> str:
        plain = sqlite3.connect(path)
        try:
            plan = plain.execute(f"EXPLAIN QUERY PLAN {for_sqlite(query[0])}", query[1]).fetchall()
        finally:
            plain.close()
        return "; ".join(str(row[-1]) for row in plan)

    async with SqliteStore.open(path) as store:
        return await _measure(store, explain, quick)


async def _postgres(url: str, quick: bool) -> list[str]:
    import asyncpg

    from core.store.postgres import PostgresStore

    async with PostgresStore.open(url):
        pass
    conn = await asyncpg.connect(url)
    try:
        await conn.executemany(
            _INSERT, _rows(PLAYERS // 10 if quick else PLAYERS, random.Random(1))
        )
        await conn.execute("ANALYZE ratings")
    finally:
        await conn.close()

    async def explain(query: Query) -> str:
        conn = await asyncpg.connect(url)
        try:
            rows = await conn.fetch(f"EXPLAIN {query[0]}", *query[1])
        finally:
            await conn.close()
        return "\n".join(str(row[0]) for row in rows)

    async with PostgresStore.open(url) as store:
        return await _measure(store, explain, quick)


def run(quick: bool) -> None:
    """Print the figures of both stores."""
    from tests.pg import PostgresServer

    with tempfile.TemporaryDirectory(prefix="bench-ratings-") as name:
        print("SQLite:")
        print("\n".join(asyncio.run(_sqlite(Path(name), quick))))
    server = PostgresServer.start()
    try:
        print("PostgreSQL:")
        print("\n".join(asyncio.run(_postgres(server.url(), quick))))
    finally:
        server.stop()

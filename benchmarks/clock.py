"""The move clock: how late a timeout is seen after its deadline, and what the sweep of due
clocks costs with 100,000 live timed games on SQLite and on PostgreSQL.

Lateness: 200 games between people (40 with ``--quick``) on the shortest clock (10 s), started
over a few seconds so their deadlines spread, while 20 players play the bot without pause (the
service is busy). The service runs as in production: the real clock, the sweeper under its lease
(a sweep of due clocks every ``clock_interval``, 1 s), and the platform's ``publish``, which
notes when each game's final board reaches it. Lateness is that moment minus the stored
deadline: the sweep's interval, the sweep itself, and the wait for the event loop.

Cost: 100,000 running timed games with deadlines over the next week (and 100 of them due),
written straight into each store; then the time of one sweep with nothing due (what every
process pays every second: one indexed query for clocks and one for reminders) and of the due
query, and the query plan of both databases, which must read the deadline's partial index, not
the table.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from core.games import TICTACTOE
from core.ports import PlatformStyle
from core.replies import Actor, Reply
from core.sessions import GameService, ServiceSettings
from core.store import Seat, Session, SqliteStore, Status, new_session_id, sessions
from core.store.port import Store
from core.store.rows import INSERT_SESSION, PG_INSERT_SESSION, session_row

CLOCK = 10  # seconds: the shortest clock
LIVE = 100_000
DUE = 100
_DUE_SQL = "SELECT id FROM sessions WHERE deadline <= {now} ORDER BY deadline LIMIT 100"


def _pct(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# --- lateness under load ---------------------------------------------------------------------


async def _lateness(path: Path, games: int) -> tuple[list[float], int]:
    """Seconds from each deadline to its final board's publish; and the bot's moves meanwhile."""
    seen: dict[str, float] = {}
    all_seen = asyncio.Event()

    async def publish(_: Actor, replies: Sequence[Reply]) -> None:
        for reply in replies:
            if reply.board is not None and reply.board.finished and reply.session_id:
                seen.setdefault(reply.session_id, time.time())
        if len(seen) == games:
            all_seen.set()

    async with SqliteStore.open(path) as store:
        service = GameService(
            store,
            settings=ServiceSettings(ai_workers=0, limits=False, chat_defaults={"clock": CLOCK}),
            rng=random.Random(1),
        )
        service.register_platform(PlatformStyle("bench", publish=publish))
        await service.start()
        stop = asyncio.Event()
        moves = 0

        async def busy(index: int) -> None:
            nonlocal moves
            who = Actor("bench", f"busy{index}", f"busy{index}", f"busy{index}")
            rng = random.Random(index)
            while not stop.is_set():
                board = (await service.handle_text(who, "/quatre medium", addressed=True))[0].board
                while board is not None and board.playable and not stop.is_set():
                    move = rng.choice(board.playable)
                    board = (await service.handle_move(who, board.session_id, move))[0].board
                    moves += 1
                await service.handle_text(who, "/final")

        async def timed(index: int) -> str:
            await asyncio.sleep(index * 4.0 / games)  # deadlines spread over 4 s
            alice = Actor("bench", f"room{index}", f"a{index}", f"a{index}")
            bob = Actor("bench", f"room{index}", f"b{index}", f"b{index}")
            await service.handle_text(alice, f"/tres @b{index}", addressed=True)
            accepted = await service.handle_text(bob, "/accept")
            assert accepted[0].session_id is not None, accepted
            return accepted[0].session_id

        players = [asyncio.create_task(busy(i)) for i in range(20)]
        try:
            ids = await asyncio.gather(*(timed(i) for i in range(games)))
            deadlines = {}
            for session_id in ids:
                session = await store.run(sessions.get(session_id))
                assert session is not None and session.deadline is not None
                deadlines[session_id] = session.deadline
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(all_seen.wait(), max(deadlines.values()) + 30 - time.time())
        finally:
            stop.set()
            await asyncio.gather(*players, return_exceptions=True)
            await service.close()
        missing = games - len(seen)
        assert missing == 0, f"{missing} timeouts never seen"
        return [seen[i] - deadlines[i] for i in ids], moves


# --- the sweep's cost ------------------------------------------------------------------------


def _live_rows(now: float) -> list[tuple[object, ...]]:
    rng = random.Random(7)
    base = replace(
        Session(
            id="",
            platform="bench",
            chat_id="",
            seats=(Seat.person("a", "a"), Seat.person("b", "b")),
            rules=TICTACTOE,
            moves=(),
            status=Status.ACTIVE,
            version=2,
            created_at=now,
            updated_at=now,
            expires_at=now + 8 * 86400,
        ),
        clock=7 * 86400.0,
    )
    rows = []
    for n in range(LIVE):
        # The first DUE are due now; the rest over the coming week.
        deadline = now - 1 - n if n < DUE else now + rng.uniform(60, 7 * 86400)
        session = replace(
            base, id=new_session_id(), chat_id=f"c{n}", deadline=deadline, remind_at=deadline - 60
        )
        rows.append(session_row(session))
    return rows


async def _timed(store: Store, now: float) -> tuple[float, float]:
    """Median ms of a sweep's queries with nothing due (both), and of the due query with 100
    due."""
    idle, due = [], []
    for _ in range(200):
        started = time.perf_counter()
        await store.run(sessions.due_clocks(now - 86400, 100))
        await store.run(sessions.due_reminders(now - 86400, 100))
        idle.append(time.perf_counter() - started)
        started = time.perf_counter()
        found = await store.run(sessions.due_clocks(now, 100))
        due.append(time.perf_counter() - started)
        assert len(found) == DUE
    return statistics.median(idle) * 1000, statistics.median(due) * 1000


async def _sqlite_cost(path: Path, now: float) -> tuple[float, float, str]:
    async with SqliteStore.open(path):
        pass  # the schema
    db = sqlite3.connect(path)
    try:
        db.executemany(INSERT_SESSION, _live_rows(now))
        db.commit()
        db.execute("ANALYZE")
        plan = db.execute("EXPLAIN QUERY PLAN " + _DUE_SQL.format(now=now)).fetchall()
    finally:
        db.close()
    async with SqliteStore.open(path) as store:
        idle, due = await _timed(store, now)
    return idle, due, " / ".join(str(row[-1]) for row in plan)


async def _pg_cost(url: str, now: float) -> tuple[float, float, str]:
    import asyncpg

    from core.store.postgres import PostgresStore

    async with PostgresStore.open(url):
        pass  # the schema
    conn = await asyncpg.connect(url)
    try:
        await conn.executemany(PG_INSERT_SESSION, _live_rows(now))
        await conn.execute("ANALYZE sessions")
        plan = await conn.fetch("EXPLAIN " + _DUE_SQL.format(now=now))
    finally:
        await conn.close()
    async with PostgresStore.open(url) as store:
        idle, due = await _timed(store, now)
    return idle, due, " / ".join(str(row[0]).strip() for row in plan)


def main(quick: bool) -> None:
    from tests.pg import PostgresServer

    logging.getLogger("core").setLevel(logging.ERROR)
    games = 40 if quick else 200
    with tempfile.TemporaryDirectory(prefix="bench-clock-") as name:
        folder = Path(name)
        late, moves = asyncio.run(_lateness(folder / "late.sqlite3", games))
        print(
            f"timeouts seen after their deadline: {games} clocks of {CLOCK} s, 20 players moving"
            f" against MEDIUM meanwhile ({moves} moves), sweep every 1 s (SQLite)"
        )
        print(
            f"  p50 {_pct(late, 0.5) * 1000:.0f} ms  p99 {_pct(late, 0.99) * 1000:.0f} ms"
            f"  max {max(late) * 1000:.0f} ms  min {min(late) * 1000:.0f} ms"
        )
        now = time.time()
        costs = [("SQLite", *asyncio.run(_sqlite_cost(folder / "cost.sqlite3", now)))]
    server = PostgresServer.start()
    try:
        costs.append(("PostgreSQL", *asyncio.run(_pg_cost(server.url(), now))))
    finally:
        server.stop()
    print(f"the sweep with {LIVE:,} live timed games ({DUE} due), median of 200:")
    for store, idle, due, plan in costs:
        print(f"  {store:<10} nothing due {idle:.2f} ms (both queries)  100 due {due:.2f} ms")
        print(f"  {'':<10} plan: {plan}")

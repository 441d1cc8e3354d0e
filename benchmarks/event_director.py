"""A tournament's director through the store, on SQLite and on PostgreSQL.

``python -m benchmarks event_director [--quick]``: an arena of 500 players (one chat) started
through the service, then ``GameService.director.step`` timed:

- the first wave: 500 free players paired (weighted matching on the top 30, neighbours below)
  and their 250 games written, each in its own transaction with its notice;
- a step with nothing to do while those games are played (what a running event costs every
  second in the process that directs it): the reads of the event, its players and pairings;
- the finish of a game that counts for the event, through ``GameService.handle_text`` (its
  result and both scores written in the game's own transaction), against a game outside any
  event (the same move, one extra statement that finds nothing).

PostgreSQL is the tests' server (tests/pg.py), on the same machine.
"""

from __future__ import annotations

import asyncio
import logging
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from core.replies import Actor
from core.sessions import GameService, ServiceSettings
from core.store import SqliteStore, events, sessions
from core.store.postgres import PostgresStore

PLAYERS = 500
IDLE_STEPS = 200
NOW = 1_700_000_000.0


class Clock:
    def __init__(self) -> None:
        self.now = NOW

    def __call__(self) -> float:
        return self.now


async def run(store: Any, players: int, idle_steps: int) -> dict[str, list[float]]:
    clock = Clock()
    svc = GameService(store, settings=ServiceSettings(ai_workers=0, limits=False), clock=clock)
    admin = Actor("bench", "c0", "admin", "Admin", direct=True, is_admin=True)
    [made] = await svc.handle_text(admin, "/tournament arena tictactoe 2h 60s +1m")
    assert made.text is not None
    ident = str(made.text.params["join"]).rsplit(" ", 1)[1]
    # One chat, as the plain games below: a game's end costs the same but for the event's part.
    people = [Actor("bench", "c0", f"u{n}", f"U{n}", direct=True) for n in range(players)]
    for who in people:
        await svc.handle_text(who, f"/tournament join {ident}")
    clock.now += 61
    await svc.director.step(ident)  # the start
    import networkx  # noqa: F401  (imported by the first wave of a process, once: not timed)

    started = time.perf_counter()
    await svc.director.step(ident)
    figures: dict[str, list[float]] = {"wave": [time.perf_counter() - started]}
    idle = []
    for _ in range(idle_steps):
        started = time.perf_counter()
        await svc.director.step(ident)
        idle.append(time.perf_counter() - started)
    figures["idle"] = idle
    by_user = {a.user_id: a for a in people}
    finish, plain = [], []
    games = [g for g in await store.run(events.games(ident)) if not g.done]
    for game in games[:50]:
        session = await store.run(sessions.get(game.session_id))
        assert session is not None
        x, o = (by_user[s.user_id or ""] for s in session.seats)
        for who, cell in ((x, 1), (o, 4), (x, 2), (o, 5)):
            await svc.handle_text(who, str(cell))
        started = time.perf_counter()
        await svc.handle_text(x, "3")
        finish.append(time.perf_counter() - started)
    for n in range(50):
        a = Actor("bench", f"p{n}", f"a{n}", f"A{n}")
        b = Actor("bench", f"p{n}", f"b{n}", f"B{n}")
        await svc.handle_text(a, f"/tres @b{n} first casual")
        await svc.handle_text(b, "/accept")
        for who, cell in ((a, 1), (b, 4), (a, 2), (b, 5)):
            await svc.handle_text(who, str(cell))
        started = time.perf_counter()
        await svc.handle_text(a, "3")
        plain.append(time.perf_counter() - started)
    figures["finish"], figures["plain"] = finish, plain
    await svc.close()
    return figures


async def sqlite_run(folder: Path, players: int, idle: int) -> dict[str, list[float]]:
    async with SqliteStore.open(folder / "bench.sqlite3") as store:
        return await run(store, players, idle)


async def pg_run(url: str, players: int, idle: int) -> dict[str, list[float]]:
    async with PostgresStore.open(url) as store:
        return await run(store, players, idle)


def _p99(values: list[float]) -> float:
    return statistics.quantiles(values, n=100)[98] if len(values) > 1 else values[0]


def main(quick: bool) -> None:
    from tests.pg import PostgresServer

    logging.getLogger("core").setLevel(logging.WARNING)
    players = PLAYERS // 5 if quick else PLAYERS
    idle = IDLE_STEPS // 10 if quick else IDLE_STEPS
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-events-") as name:
        rows.append(("SQLite", asyncio.run(sqlite_run(Path(name), players, idle))))
    server = PostgresServer.start()
    try:
        rows.append(("PostgreSQL", asyncio.run(pg_run(server.url(), players, idle))))
    finally:
        server.stop()
    print(
        f"arena of {players}: first wave (pair all, write {players // 2} games);"
        f" an idle step ({idle}); a game's last move, in an event and not (50 each)"
    )
    print(
        f"{'store':<11} {'wave ms':>8} {'idle p50':>9} {'idle p99':>9}"
        f" {'event end p50':>14} {'plain end p50':>14}"
    )
    for store, f in rows:
        print(
            f"{store:<11} {f['wave'][0] * 1000:>8.0f} {statistics.median(f['idle']) * 1000:>9.2f}"
            f" {_p99(f['idle']) * 1000:>9.2f} {statistics.median(f['finish']) * 1000:>14.2f}"
            f" {statistics.median(f['plain']) * 1000:>14.2f}"
        )
    print(f"(machine: {os.cpu_count()} cores, shared by the server and the benchmark)")

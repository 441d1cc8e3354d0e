"""A store outage during a player's turn is not held against him: his move is refused while the
store is down, but his clock, his reminder and his game's lifetime are moved by the outage (and
to a grace after the store's return at least) before anything is ended, by every process that
saw it, once. While it lasts, the background loops log one line when it starts and one when it
ends, no traceback.

Real outages, no double: PostgreSQL stopped mid-turn (a server of the test's own, halted and
started again on its data, as the session's server serves the other tests) and a SQLite file
locked mid-turn by another connection holding ``BEGIN EXCLUSIVE``. The service's clock is
injected where the test moves time past a deadline."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import random
import sqlite3
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from core.games import Termination
from core.leases import LeaseState
from core.sessions import GameService, ServiceSettings
from core.store import SqliteStore, Status, StoreBusy, StoreUnavailable
from core.store.postgres import PostgresStore
from tests.backends import KINDS, AnyStore, Kind
from tests.core.test_sessions import ALICE, BOB, NOW, Clock, error_key, keys
from tests.core.test_sessions_clock import game, get, make
from tests.core.test_sessions_restart import Lowest
from tests.pg import PostgresServer

GRACE = 30.0  # the default outage_grace
ROUNDS = 120


class Outage:
    """A database of ``kind`` that can go down (:meth:`begin`) and come back (:meth:`end`)."""

    def __init__(self, kind: Kind, folder: Path) -> None:
        self.kind = kind
        self._path = folder / "db.sqlite3"
        self._server: PostgresServer | None = None
        self._lock: sqlite3.Connection | None = None

    def open(self) -> Any:
        if self.kind == "sqlite":
            return SqliteStore.open(self._path, busy_timeout_ms=50)
        if self._server is None:
            self._server = PostgresServer.start()
        # A commit answered is written (the test server's default is off): an immediate stop
        # then keeps what was committed, as a real server does.
        url = f"{self._server.url()}&synchronous_commit=on"
        return PostgresStore.open(url, connect_timeout=10)

    async def begin(self, *, immediate: bool = False) -> None:
        if self._server is not None:
            await asyncio.to_thread(functools.partial(self._server.halt, immediate=immediate))
            return
        self._lock = sqlite3.connect(self._path, isolation_level=None)
        self._lock.execute("BEGIN EXCLUSIVE")

    async def end(self) -> None:
        if self._server is not None:
            await asyncio.to_thread(self._server.resume)
            return
        assert self._lock is not None
        self._lock.execute("ROLLBACK")
        self._lock.close()
        self._lock = None

    def close(self) -> None:
        if self._lock is not None:
            self._lock.close()
        if self._server is not None:
            self._server.stop()


@pytest.fixture(params=KINDS)
def outage(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Outage]:
    made = Outage(request.param, tmp_path)
    try:
        yield made
    finally:
        made.close()


@contextlib.asynccontextmanager
async def opened(outage: Outage) -> AsyncIterator[AnyStore]:
    async with outage.open() as store:
        yield store


async def test_an_outage_mid_turn_moves_the_clock_of_the_player_to_move(outage: Outage) -> None:
    clock = Clock()
    async with opened(outage) as store, opened(outage) as other:
        svc = make(store, clock)
        sweeper = make(other, clock)  # another process, which sweeps
        session_id = await game(svc, "/tres @bob 1m first")
        assert error_key(await svc.handle_move(ALICE, session_id, 4)) is None
        before = await get(store, session_id)
        assert before.deadline == NOW + 60 and before.remind_at == NOW + 48
        clock.advance(10)
        await outage.begin()
        # Bob's move is refused: the store cannot take it.
        refused = await svc.handle_move(BOB, session_id, 0)
        assert error_key(refused) in {"error.busy", "error.store_unavailable"}
        clock.advance(60)  # his deadline passes while the store is down
        with pytest.raises((StoreBusy, StoreUnavailable)):
            await svc.sweep_clocks()
        # The other process learns of it now (PostgreSQL: the read of due clocks fails;
        # SQLite, whose readers go on: the end of Bob's game is refused).
        with contextlib.suppress(StoreBusy, StoreUnavailable):
            assert await sweeper.sweep_clocks() == 0
        clock.advance(15)
        await outage.end()  # back 75 s after Bob's move was refused
        assert await svc.sweep_clocks() == 0
        # The same outage, seen from later: paused once, not twice.
        assert await sweeper.sweep_clocks() == 0
        assert await sweeper.sweep() == 0
        paused = await get(store, session_id)
        assert paused.status is Status.ACTIVE and paused.version == before.version
        assert paused.deadline == NOW + 60 + 75  # moved by the outage (past the grace)
        assert paused.remind_at == NOW + 48 + 75
        assert paused.expires_at == before.expires_at + 75
        # Bob moves after the store is back, in his time; the game goes on as played.
        clock.advance(40)
        assert await sweeper.sweep_clocks() == 0
        assert error_key(await svc.handle_move(BOB, session_id, 0)) is None
        played = await get(store, session_id)
        assert played.moves == (4, 0) and played.status is Status.ACTIVE
        assert played.outcome is None and played.deadline == clock() + 60
        # Alice's clock runs as usual: the outage is over, and counts no more.
        clock.advance(60)
        assert await sweeper.sweep_clocks() == 1
        ended = await get(store, session_id)
        assert ended.outcome is not None and ended.outcome.termination is Termination.TIMEOUT
        assert ended.outcome.winner == 2
        await svc.close()
        await sweeper.close()


async def test_a_deadline_just_after_the_outage_gets_the_grace(outage: Outage) -> None:
    clock = Clock()
    async with opened(outage) as store:
        svc = make(store, clock)
        session_id = await game(svc, "/tres @bob 30s first")
        assert error_key(await svc.handle_move(ALICE, session_id, 4)) is None
        clock.advance(25)
        await outage.begin()
        assert error_key(await svc.handle_move(BOB, session_id, 0)) is not None
        clock.advance(1)
        await outage.end()  # a 1 s outage, 4 s before Bob's deadline
        assert await svc.sweep_clocks() == 0
        paused = await get(store, session_id)
        assert paused.deadline == clock() + GRACE  # the grace after the store's return
        clock.advance(GRACE - 1)
        assert error_key(await svc.handle_move(BOB, session_id, 0)) is None
        await svc.close()


async def test_the_loops_log_an_outage_once_when_it_starts_and_once_when_it_ends(
    outage: Outage, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="core.sessions")
    async with opened(outage) as store:
        calls: dict[str, int] = {}
        store.time_operations(lambda name, _: calls.__setitem__(name, calls.get(name, 0) + 1))
        svc = GameService(
            store, settings=ServiceSettings(ai_workers=0, ai_warm_up=False, clock_interval=0.02)
        )
        session_id = await game(svc, "/tres @bob 5m first")
        await svc.start()
        try:
            await until(lambda: svc.sweeper_lease.state is LeaseState.HELD)
            await outage.begin()
            # A refused move (SQLite's readers go on under the lock: the loops learn of the
            # outage from it); the loops then fail again and again while it lasts.
            assert error_key(await svc.handle_move(ALICE, session_id, 4)) is not None
            seen = dict(calls)
            # The sweep and the matchmaking pass each try to settle it first, and are refused.
            await until(lambda: calls.get("pause_clocks", 0) >= seen.get("pause_clocks", 0) + 10)
            await outage.end()
            await until(lambda: any("outage over" in r.getMessage() for r in caplog.records))
        finally:
            await svc.close()
    mine = [r for r in caplog.records if r.name == "core.sessions" and r.levelno >= logging.WARNING]
    outages = [r.getMessage() for r in mine if r.getMessage().startswith("database outage")]
    assert len(outages) == 2, outages
    assert outages[0].startswith("database outage: ") and " was refused (" in outages[0]
    assert outages[1].startswith("database outage over after")
    assert not [r for r in mine if r.exc_info], [r.getMessage() for r in mine if r.exc_info]
    # The rest is the refused request's own line.
    assert len(mine) == 3, [r.getMessage() for r in mine]


async def until(condition: Any, seconds: float = 60.0) -> None:
    """Wait until ``condition()`` holds (checked every few milliseconds)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while not condition():
        assert loop.time() < deadline, "condition never held"
        await asyncio.sleep(0.01)


@pytest.mark.parametrize("kind", ["postgres"])
async def test_a_database_stopped_as_moves_commit_never_denies_a_stored_move(
    kind: Kind, tmp_path: Path
) -> None:
    """The report: PostgreSQL stopped 0 to 5 ms after typed Connect Four moves; a move stored
    was answered "nothing changed" in 16 of 180 rounds. Here the server really stops, 0 to 3 ms
    after the move is typed (an immediate shutdown kills each connection where it is, after
    its commit or before), and starts again at once. Before the fix, the first run of these
    rounds told a stored move "nothing changed"; the fault injection of test_sessions_fate.py
    shows the same on both stores every time."""
    outage = Outage(kind, tmp_path)
    rng = random.Random(11)
    told: dict[str, int] = {}
    try:
        async with opened(outage) as store:
            svc = GameService(
                store,
                # One person's quick lines, round after round: no rate limit in the way.
                settings=ServiceSettings(ai_workers=0, limits=False),
                rng=random.Random(3),
                runner=Lowest(),
            )
            try:
                for _ in range(ROUNDS):
                    opening = await svc.handle_text(ALICE, "/quatre easy first")
                    assert opening, told
                    (board, *_) = opening
                    assert board.board is not None
                    session_id = board.board.session_id
                    move = asyncio.create_task(svc.handle_text(ALICE, "4"))
                    await asyncio.sleep(rng.uniform(0, 0.003))  # when the fault strikes
                    await outage.begin(immediate=True)
                    await outage.end()
                    replies = await move
                    said = keys(replies)
                    stored = await get(store, session_id)
                    key = said[0] if said else "answered"
                    told[key] = told.get(key, 0) + 1
                    if stored.moves:
                        assert stored.moves[0] == 3 and key in {"answered", "game.move_saved"}, (
                            said,
                            stored.moves,
                        )
                    else:
                        assert key in {"error.store_unavailable", "game.move_not_saved"}, said
                    await svc.handle_text(ALICE, "/final")
            finally:
                await svc.close()
    finally:
        outage.close()
    assert sum(told.values()) == ROUNDS, told

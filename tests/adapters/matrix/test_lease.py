"""The Matrix adapter under its sync lease (fake homeserver, real service and SQLite file, two
stores on one file as two processes would have): one adapter syncs, the other stands by and
takes over from the stored token; an adapter whose lease is taken stops syncing at once."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

from adapters.matrix import MatrixAdapter
from core.leases import Lease, LeaseState
from core.sessions import GameService
from core.store import kv
from tests.adapters.matrix.fakes import BOT, FakeTransport, text
from tests.adapters.matrix.harness import ALICE, CONFIG, ROOM, Sleeps, edit_of, is_board, serving

TTL = 0.6
LEASE = f"matrix-sync:{BOT}"


@dataclass
class Running:
    adapter: MatrixAdapter
    fake: FakeTransport
    lease: Lease
    stop: asyncio.Event
    task: asyncio.Task[None]


@asynccontextmanager
async def running(service: GameService) -> AsyncIterator[Running]:
    fake = FakeTransport()
    lease = Lease(service.store, LEASE, ttl=TTL)
    adapter = MatrixAdapter(
        service, CONFIG, transport=fake, add_keycaps=False, sleep=Sleeps(), lease=lease
    )
    stop = asyncio.Event()
    task = asyncio.create_task(adapter.run(stop))
    try:
        yield Running(adapter, fake, lease, stop, task)
    finally:
        stop.set()
        await asyncio.wait_for(task, 10)


async def until(condition: object, within: float = 5.0) -> None:
    deadline = time.monotonic() + within
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, "condition not met in time"
        await asyncio.sleep(0.01)


async def test_one_adapter_syncs_the_other_stands_by_and_resumes_from_the_stored_token(
    tmp_path: Path,
) -> None:
    path = tmp_path / "db.sqlite3"
    async with serving(path) as first, serving(path) as second:
        async with running(first) as a:
            a.fake.deliver()  # the first sync
            await until(lambda: a.adapter.ready.is_set())
            a.fake.deliver((ROOM, text("$start", ALICE, "!tres easy")))
            board = (await a.fake.wait_sent(is_board))[0]
            await a.fake.wait_until(lambda: len(a.fake.syncs) >= 3)  # s2 handled, polling on
            async with running(second) as b:
                await asyncio.sleep(TTL * 2)  # several renewals by a; b keeps waiting
                assert b.lease.state is LeaseState.STANDBY and a.lease.state is LeaseState.HELD
                assert b.fake.syncs == [] and b.fake.logins == []  # not even logged in
                assert b.adapter.connected  # standing by is its job: healthy

                a.stop.set()  # a clean stop releases the lease
                await asyncio.wait_for(a.task, 10)
                await b.fake.wait_until(lambda: bool(b.fake.syncs), within=TTL * 2)
                # From the token a saved after handling "!tres easy": nothing again, nothing
                # skipped; and not a first start (which would skip the history).
                assert b.fake.syncs[0] == ("s2", False, True)
                b.fake.deliver()
                await until(lambda: b.adapter.ready.is_set())
                b.fake.deliver((ROOM, text("$move", ALICE, "5")))
                await b.fake.wait_sent(edit_of(board.event_id))
                assert b.lease.state.value == "held"  # a property: mypy would narrow `is`
        # The move was applied once, by b: the board a posted was edited by b alone.
        assert not [s for s in a.fake.sent if edit_of(board.event_id)(s)]


async def test_an_adapter_whose_lease_is_taken_stops_syncing_at_once(tmp_path: Path) -> None:
    async with serving(tmp_path / "db.sqlite3") as service, running(service) as a:
        a.fake.deliver()
        await until(lambda: a.adapter.ready.is_set())
        await a.fake.wait_until(lambda: len(a.fake.syncs) >= 2)  # a long poll is under way
        # As if this process had stalled past the expiry and another had taken the lease.
        await service.store.run(kv.kv_set("lease", LEASE, "another", expires_at=time.time() + 60))
        taken = time.monotonic()
        await until(lambda: a.fake.closed, within=TTL)
        assert time.monotonic() - taken <= TTL / 3 + 0.5  # at the next renewal (+ a loaded machine)
        await until(lambda: a.lease.state is LeaseState.STANDBY)
        syncs = len(a.fake.syncs)
        await asyncio.sleep(TTL)
        assert len(a.fake.syncs) == syncs  # no sync without the lease

        # The other holder goes away: a takes the lease again and resumes from the token.
        await service.store.run(kv.kv_delete("lease", LEASE))
        await a.fake.wait_until(lambda: len(a.fake.syncs) > syncs, within=TTL * 2)
        assert a.fake.syncs[syncs] == ("s1", False, True)
        assert a.lease.terms == 2

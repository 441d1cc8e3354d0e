"""adapters.discord.takeover: the shards of a sharded bot among its processes, on a real SQLite
store shared by two stores (as two processes would share it). A process that can no longer
reach the store stands for one that died: its leases run out, and nothing is released."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from adapters.discord.takeover import ShardLeases, shard_lease_name
from core.leases import holder_id
from core.store import SqliteStore, StoreUnavailable, leases

# Long enough that a renewal late by a busy machine's scheduling does not lose a lease (which
# would be a takeover the test did not cause), short enough for a quick test.
TTL = 1.5
COUNT = 2


class Cut:
    """A store that can be cut off: every call fails while ``cut`` is true."""

    def __init__(self, store: SqliteStore) -> None:
        self._store = store
        self.cut = False

    def __getattr__(self, name: str) -> Any:
        method = getattr(self._store, name)

        async def call(*args: Any, **kwargs: Any) -> Any:
            if self.cut:
                raise StoreUnavailable(self._store.path, "cut off (test)")
            return await method(*args, **kwargs)

        return call


class Process:
    """One process of the bot: its shard leases, and a client that runs whatever they hold
    (restarted at once), recording every shard it ran into a log shared by the processes."""

    def __init__(self, name: str, store: Cut, own: tuple[int, ...], log: list[Any]) -> None:
        self.name = name
        self.store = store
        self.leases = ShardLeases(store, COUNT, own, holder=holder_id(), ttl=TTL)
        self.log = log
        self.stop = asyncio.Event()
        self.tasks: list[asyncio.Task[None]] = []

    def start(self) -> None:
        self.tasks = [
            asyncio.create_task(self.leases.run(self.stop)),
            asyncio.create_task(self._client()),
        ]

    async def _client(self) -> None:
        while not self.stop.is_set():
            running = self.leases.running
            self.leases.applied(running)
            self.log.append((time.monotonic(), self.name, running))
            waiting = asyncio.create_task(self.leases.changed())
            stopping = asyncio.create_task(self.stop.wait())
            await asyncio.wait({waiting, stopping}, return_when=asyncio.FIRST_COMPLETED)
            waiting.cancel()
            stopping.cancel()
            self.leases.applied(frozenset())  # the old client closes before the new one starts
            self.log.append((time.monotonic(), self.name, frozenset()))

    async def close(self) -> None:
        self.stop.set()
        await asyncio.gather(*self.tasks, return_exceptions=True)


async def until(condition: Callable[[], bool], within: float = 15.0) -> None:
    deadline = time.monotonic() + within
    while not condition():
        assert time.monotonic() < deadline, "condition not met in time"
        await asyncio.sleep(0.01)


def never_two_at_once(log: list[Any]) -> None:
    """No shard was run by two processes at any moment."""
    now: dict[str, frozenset[int]] = {}
    for _, name, running in sorted(log, key=lambda entry: entry[0]):
        now[name] = running
        for shard in range(COUNT):
            holders = [who for who, shards in now.items() if shard in shards]
            assert len(holders) <= 1, (shard, holders)


@pytest.fixture
async def stores(tmp_path: Path) -> AsyncIterator[tuple[Cut, Cut]]:
    path = tmp_path / "db.sqlite3"
    async with SqliteStore.open(path) as one, SqliteStore.open(path) as two:
        yield Cut(one), Cut(two)


@contextlib.asynccontextmanager
async def two_processes(
    stores: tuple[Cut, Cut], log: list[Any]
) -> AsyncIterator[tuple[Process, Process]]:
    """Processes a and b on shards 0 and 1, each running its own; both stopped at the end."""
    a, b = Process("a", stores[0], (0,), log), Process("b", stores[1], (1,), log)
    a.start()
    b.start()
    try:
        await until(lambda: a.leases.running == {0} and b.leases.running == {1})
        yield a, b
    finally:
        await a.close()
        await b.close()


async def test_each_process_runs_its_own_shards_and_adopts_none(stores: tuple[Cut, Cut]) -> None:
    log: list[Any] = []
    async with two_processes(stores, log) as (a, b):
        await asyncio.sleep(3 * TTL)  # past the start-up grace: still nothing adopted
        assert a.leases.running == {0} and b.leases.running == {1}
        assert not a.leases.adopted and not b.leases.adopted
        holder = await stores[0].run(leases.lease_holder(shard_lease_name(COUNT, 0)))
        assert holder is not None and holder.holder == a.leases.holder
    # A clean stop lets the shards go at once.
    assert await stores[0].run(leases.lease_holder(shard_lease_name(COUNT, 0))) is None
    never_two_at_once(log)


async def test_a_dead_process_s_shard_is_adopted_and_handed_back(
    stores: tuple[Cut, Cut],
) -> None:
    log: list[Any] = []
    async with two_processes(stores, log) as (a, b):
        await asyncio.sleep(TTL)  # b is past its start-up grace
        stores[0].cut = True  # a is gone for the others: it renews nothing, releases nothing
        cut_at = time.monotonic()
        await until(lambda: b.leases.running == {0, 1})
        took = time.monotonic() - cut_at
        assert b.leases.adopted == {0}
        assert not a.leases.running  # a's own lease ran out, and it stopped running the shard
        # the lease's lifetime, a renewal interval seen free, and one more look at most
        assert took < TTL + 3 * b.leases.interval + 1.0, took

        stores[0].cut = False  # a is back: it asks for its shard, and b gives it back
        await until(lambda: a.leases.running == {0} and b.leases.running == {1})
        assert not b.leases.adopted
    never_two_at_once(log)


async def test_a_shard_nobody_was_started_for_is_adopted_after_the_grace(
    stores: tuple[Cut, Cut],
) -> None:
    log: list[Any] = []
    a = Process("a", stores[0], (0,), log)
    started = time.monotonic()
    a.start()
    try:
        await until(lambda: a.leases.running == {0, 1})
        # Not at once: shard 1's own process may be starting too.
        assert time.monotonic() - started >= TTL
        # Its own process starts at last: it gets its shard back.
        b = Process("b", stores[1], (1,), log)
        b.start()
        try:
            await until(lambda: a.leases.running == {0} and b.leases.running == {1})
        finally:
            await b.close()
    finally:
        await a.close()
    never_two_at_once(log)

"""The sweeper runs in one process at a time: two services on one database (both stores), only
the lease holder sweeps; when it closes, the other takes the sweeping over."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from core.leases import LeaseState
from core.replies import Actor
from core.sessions import GameService, ServiceSettings
from core.sessions.clocks.sweeper import SWEEPER_LEASE
from core.store import leases, stats
from tests.backends import AnyStore, Backend

NOW = 1_000_000.0
ALICE = Actor("test", "room", "alice", "Alice", "en")
SETTINGS = ServiceSettings(
    ai_workers=0, sweep_interval=0.02, chat_defaults={"challenge_ttl": 60}, lease_ttl=0.6
)


async def until(condition: Callable[[], bool], within: float = 10.0) -> None:
    deadline = time.monotonic() + within
    while not condition():
        assert time.monotonic() < deadline, "condition not met in time"
        await asyncio.sleep(0.01)


async def test_only_the_lease_holder_sweeps_and_the_other_takes_over(backend: Backend) -> None:
    async with backend.open() as first_store, backend.open() as second_store:
        # The first service's clock says "now"; the second's is an hour ahead, so a sweep by
        # the second would delete a challenge that the first still sees live.
        first = GameService(first_store, settings=SETTINGS, clock=lambda: NOW)
        second = GameService(second_store, settings=SETTINGS, clock=lambda: NOW + 3600)
        await first.start()
        await until(lambda: first.sweeper_lease.state is LeaseState.HELD)
        await second.start()
        try:
            await first.handle_text(ALICE, "/tres @bob")
            assert await first_store.run(stats.count_sessions()) == 1
            await asyncio.sleep(SETTINGS.lease_ttl * 2)  # dozens of sweep intervals
            assert second.sweeper_lease.state is LeaseState.STANDBY
            assert await first_store.run(stats.count_sessions()) == 1  # the standby did not sweep
            holder = await first_store.run(leases.lease_holder(SWEEPER_LEASE))
            assert holder is not None and holder.holder == first.sweeper_lease.holder

            await first.close()  # releases the lease
            await until(lambda: second.sweeper_lease.state is LeaseState.HELD)
            await until_none_left(first_store)
        finally:
            await first.close()
            await second.close()
        assert (
            await first_store.run(leases.lease_holder(SWEEPER_LEASE)) is None
        )  # released at close


async def until_none_left(store: AnyStore, within: float = 10.0) -> None:
    deadline = time.monotonic() + within
    while await store.run(stats.count_sessions()):
        assert time.monotonic() < deadline, "the new holder did not sweep"
        await asyncio.sleep(0.02)

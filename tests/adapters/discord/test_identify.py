"""IdentifyGate: one IDENTIFY per bucket per interval among processes sharing the store, on both
stores; buckets of ``max_concurrency`` go together; a store that does not answer delays a shard
by one interval and lets it go."""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Callable
from typing import TypeVar

from adapters.discord.identify import IdentifyGate
from core.store.sql import Op
from tests.backends import Backend

T = TypeVar("T")

INTERVAL = 0.6  # seconds; Discord's is 5, the rule is the same


async def turns(gates: list[IdentifyGate], shards: list[int]) -> list[float]:
    """When each shard's turn came, in seconds from the start, all asking at once."""
    started = time.monotonic()

    async def turn(gate: IdentifyGate, shard: int) -> float:
        await gate.wait_turn(shard)
        return time.monotonic() - started

    return list(await asyncio.gather(*(turn(g, s) for g, s in zip(gates, shards, strict=True))))


async def test_processes_asking_at_once_identify_an_interval_apart(backend: Backend) -> None:
    async with backend.open() as first_store, backend.open() as second_store:
        # Two processes (two stores on one database), two shards each.
        gates = [
            IdentifyGate(first_store, "host:1", interval=INTERVAL),
            IdentifyGate(second_store, "host:2", interval=INTERVAL),
        ]
        times = sorted(await turns([gates[0], gates[1], gates[0], gates[1]], [0, 1, 2, 3]))
        gaps = [later - earlier for earlier, later in itertools.pairwise(times)]
        # Timed here, after each answer: a slow answer shortens the gap seen from this side.
        assert all(gap >= INTERVAL * 0.75 for gap in gaps), times
        assert times[0] < INTERVAL  # the first goes at once


async def test_shards_of_different_buckets_go_together(backend: Backend) -> None:
    async with backend.open() as store:
        gate = IdentifyGate(store, "host:1", interval=INTERVAL)
        gate.max_concurrency = 2
        assert gate.bucket(4) == gate.bucket(0) != gate.bucket(1)
        times = await turns([gate, gate, gate], [0, 1, 2])
        assert times[0] < INTERVAL and times[1] < INTERVAL  # buckets 0 and 1
        assert times[2] >= INTERVAL * 0.75  # bucket 0 again


class Unanswering:
    """A store whose database is gone (an edge that cannot be had otherwise on demand)."""

    async def run(self, op: Op[T]) -> T:
        op.close()
        raise ConnectionError("the database does not answer")

    def time_operations(self, timer: Callable[[str, float], None] | None) -> None:
        pass

    async def check(self) -> None:
        raise ConnectionError("the database does not answer")

    async def close(self) -> None:
        pass


async def test_a_store_that_does_not_answer_delays_a_shard_by_one_interval() -> None:
    gate = IdentifyGate(Unanswering(), "host:1", interval=0.2)
    started = time.monotonic()
    await gate.wait_turn(0)
    assert 0.2 <= time.monotonic() - started < 2.0

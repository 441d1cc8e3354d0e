"""IdentifyGate: one IDENTIFY per bucket per interval among processes sharing the store, on both
stores; buckets of ``max_concurrency`` go together; a store that does not answer delays a shard
by one interval and lets it go."""

from __future__ import annotations

import asyncio
import contextvars
import itertools
import time
from collections.abc import Callable
from typing import TypeVar

from adapters.discord.identify import IdentifyGate
from core.store.port import Store
from core.store.sql import Op
from tests.backends import Backend

T = TypeVar("T")

INTERVAL = 0.6  # seconds; Discord's is 5, the rule is the same
LONG_INTERVAL = 3.0


async def turns(gates: list[IdentifyGate], shards: list[int]) -> list[float]:
    """When each shard's turn came, in seconds from the start, all asking at once."""
    started = time.monotonic()

    async def turn(gate: IdentifyGate, shard: int) -> float:
        _SHARD.set(shard)  # this task's own context: what Recording reads
        await gate.wait_turn(shard)
        return time.monotonic() - started

    return list(await asyncio.gather(*(turn(g, s) for g, s in zip(gates, shards, strict=True))))


_SHARD: contextvars.ContextVar[int] = contextvars.ContextVar("shard")


class Recording:
    """The store, recording each shard's lease attempts in order (the shard from the asking
    task's context): whether a shard passed at once is read from what the store answered, not
    from the clock, which a loaded machine stretches."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self.attempts: list[tuple[int, bool]] = []
        """``(shard, took the lease)``, in the order the store answered."""

    async def run(self, op: Op[T]) -> T:
        name = getattr(op, "__name__", "")
        answer = await self._store.run(op)
        if name == "acquire_lease":
            self.attempts.append((_SHARD.get(), bool(answer)))
        return answer

    def tries(self, shard: int) -> list[bool]:
        return [took for asked, took in self.attempts if asked == shard]

    def time_operations(self, timer: Callable[[str, float], None] | None) -> None:
        self._store.time_operations(timer)

    async def check(self) -> None:
        await self._store.check()

    async def close(self) -> None:
        await self._store.close()


async def asking(gate: IdentifyGate, shard: int) -> None:
    _SHARD.set(shard)
    await gate.wait_turn(shard)


async def test_processes_asking_at_once_identify_an_interval_apart(backend: Backend) -> None:
    async with backend.open() as first_store, backend.open() as second_store:
        # Two processes (two stores on one database), two shards each.
        first, second = Recording(first_store), Recording(second_store)
        gates = [
            IdentifyGate(first, "host:1", interval=INTERVAL),
            IdentifyGate(second, "host:2", interval=INTERVAL),
        ]
        times = sorted(await turns([gates[0], gates[1], gates[0], gates[1]], [0, 1, 2, 3]))
        gaps = [later - earlier for earlier, later in itertools.pairwise(times)]
        # Timed here, after each answer: a slow answer shortens the gap seen from this side.
        assert all(gap >= INTERVAL * 0.75 for gap in gaps), times
        # The first goes at once: the first try any of them made took the lease.
        assert [took for _, took in first.attempts][:1] == [True] or [
            took for _, took in second.attempts
        ][:1] == [True]


async def test_shards_of_different_buckets_go_together(backend: Backend) -> None:
    async with backend.open() as opened:
        store = Recording(opened)
        # An interval far past a slow answer of a loaded store: the second shard of bucket 0
        # finds the first's lease still held, however late its first try comes.
        gate = IdentifyGate(store, "host:1", interval=LONG_INTERVAL)
        gate.max_concurrency = 2
        assert gate.bucket(4) == gate.bucket(0) != gate.bucket(1)
        started = time.monotonic()
        await asyncio.gather(*(asking(gate, shard) for shard in (0, 1, 4)))
        # Bucket 1's only shard took the lease at its first try. Of bucket 0's two shards,
        # whichever the store answered first (a pool of connections may answer shard 4 before
        # shard 0) took it at once; the other found it held and passed only after it lapsed,
        # an interval after the first.
        assert store.tries(1) == [True]
        first, second = sorted((store.tries(0), store.tries(4)), key=len)
        assert first == [True]
        assert second[0] is False and second[-1] is True
        assert time.monotonic() - started >= LONG_INTERVAL * 0.75


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

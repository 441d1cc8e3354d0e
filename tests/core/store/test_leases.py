"""Leases in the store, on both stores: taken when free, expired or ours; refused while another
holds it; released only by the holder; read by the database's clock; left alone by the sweep.
And on PostgreSQL, processes racing for a lease: exactly one holder every round."""

from __future__ import annotations

import asyncio
import multiprocessing
import multiprocessing.synchronize
import time
from pathlib import Path
from typing import Any

import pytest

from core.store import LeaseHolder, kv, leases, sessions
from core.store.postgres import PostgresStore
from tests.backends import Backend, Backends, PostgresBackend

ROUNDS = 40


async def held_by(store: Any, name: str) -> str | None:
    """The holder of the lease, checking that it has about 30 s left."""
    held = await store.run(leases.lease_holder(name))
    if held is None:
        return None
    assert isinstance(held, LeaseHolder) and 29 < held.expires_in <= 30
    return held.holder


RACERS = 3


async def test_a_free_lease_is_taken_renewed_by_its_holder_and_refused_to_others(
    backend: Backend,
) -> None:
    async with backend.open() as store:
        assert await store.run(leases.lease_holder("sync")) is None
        assert await store.run(leases.acquire_lease("sync", "a", 30))
        assert not await store.run(leases.acquire_lease("sync", "b", 30))
        assert await store.run(leases.acquire_lease("sync", "a", 30))  # a renewal
        held = await store.run(leases.lease_holder("sync"))
        assert isinstance(held, LeaseHolder) and held.holder == "a"
        assert 29 < held.expires_in <= 30
        assert await store.run(leases.acquire_lease("other", "b", 30))  # leases are independent
        assert (await store.run(leases.lease_holder("sync"))) is not None


async def test_only_the_holder_releases_and_then_another_takes_it(backend: Backend) -> None:
    async with backend.open() as store:
        assert await store.run(leases.acquire_lease("sync", "a", 30))
        assert not await store.run(leases.release_lease("sync", "b"))
        assert await held_by(store, "sync") == "a"
        assert await store.run(leases.release_lease("sync", "a"))
        assert not await store.run(leases.release_lease("sync", "a"))  # already free
        assert await store.run(leases.lease_holder("sync")) is None
        assert await store.run(leases.acquire_lease("sync", "b", 30))


async def test_an_expired_lease_is_free_for_anyone(backend: Backend) -> None:
    async with backend.open() as store:
        assert await store.run(leases.acquire_lease("sync", "a", 0.2))
        assert not await store.run(leases.acquire_lease("sync", "b", 30))
        await asyncio.sleep(0.3)
        assert await store.run(leases.lease_holder("sync")) is None
        assert await store.run(leases.acquire_lease("sync", "b", 30))
        assert not await store.run(leases.acquire_lease("sync", "a", 30))  # the old holder lost it
        assert await held_by(store, "sync") == "b"


async def test_the_expiry_is_by_the_database_clock_and_the_sweep_leaves_leases_alone(
    backend: Backend,
) -> None:
    async with backend.open() as store:
        assert await store.run(leases.acquire_lease("sync", "a", 30))
        # A sweeping process whose clock is a day ahead: it would think the lease expired.
        await store.run(sessions.delete_expired(time.time() + 86_400))
        assert await held_by(store, "sync") == "a"
        assert not await store.run(leases.acquire_lease("sync", "b", 30))
        expires_at = await backend.sql(
            "SELECT expires_at FROM kv WHERE namespace = 'lease' AND key = 'sync'"
        )
        # The row's expiry is the database's now + ttl (here the same machine's clock).
        assert expires_at[0][0] == pytest.approx(time.time() + 30, abs=2)


async def test_a_row_without_expiry_in_the_lease_namespace_counts_as_free(
    backend: Backend,
) -> None:
    async with backend.open() as store:
        await store.run(kv.kv_set("lease", "sync", "someone"))  # not written by a lease: no expiry
        assert await store.run(leases.lease_holder("sync")) is None
        assert await store.run(leases.acquire_lease("sync", "a", 30))


@pytest.mark.parametrize(
    ("name", "holder", "ttl"),
    [("", "a", 1.0), ("n", "", 1.0), ("n", "a", 0), ("n", "a", -1.0), ("n", "a", float("nan"))],
)
async def test_bad_arguments_are_refused_and_write_nothing(
    backend: Backend, name: str, holder: str, ttl: float
) -> None:
    async with backend.open() as store:
        with pytest.raises(ValueError, match="lease"):
            await store.run(leases.acquire_lease(name, holder, ttl))
        assert await backend.sql("SELECT count(*) FROM kv") == [(0,)]


async def test_tasks_racing_for_a_free_lease_make_one_holder(backend: Backend) -> None:
    async with backend.open() as store:
        for round_ in range(10):
            won = await asyncio.gather(
                *(store.run(leases.acquire_lease(f"r{round_}", f"h{n}", 30)) for n in range(5))
            )
            assert sum(won) == 1, won


# --- PostgreSQL: processes racing ----------------------------------------------------------------


def _racer(url: str, racer: int, start: multiprocessing.synchronize.Barrier, results: Any) -> None:
    """One process: in every round, wait for the others, then all try to take two leases at
    once: one that was never taken (the insert path) and one whose holder's time ran out (the
    update path)."""

    async def race() -> None:
        async with PostgresStore.open(url) as store:
            for round_ in range(ROUNDS):
                start.wait(60)
                fresh, expired = await asyncio.gather(
                    store.run(leases.acquire_lease(f"fresh-{round_}", f"racer-{racer}", 30)),
                    store.run(leases.acquire_lease(f"expired-{round_}", f"racer-{racer}", 30)),
                )
                results.put((round_, racer, fresh, expired))

    asyncio.run(race())


@pytest.fixture
async def pg(backends: Backends, tmp_path: Path) -> Any:
    async with backends.fresh("postgres", tmp_path) as backend:
        assert isinstance(backend, PostgresBackend)
        yield backend


async def test_processes_racing_for_a_lease_make_exactly_one_holder_every_round(
    pg: PostgresBackend,
) -> None:
    async with pg.open() as store:
        for round_ in range(ROUNDS):
            assert await store.run(leases.acquire_lease(f"expired-{round_}", "dead", 0.001))
    await asyncio.sleep(0.01)
    context = multiprocessing.get_context("spawn")  # no loop or pool copied by fork
    start = context.Barrier(RACERS)
    results = context.Queue()
    racers = [
        context.Process(target=_racer, args=(pg.where, n, start, results)) for n in range(RACERS)
    ]
    for racer in racers:
        racer.start()
    outcomes = [results.get(timeout=120) for _ in range(ROUNDS * RACERS)]
    for racer in racers:
        racer.join(60)
        assert racer.exitcode == 0
    for path in (2, 3):  # fresh, expired
        winners: dict[int, list[int]] = {}
        for outcome in outcomes:
            if outcome[path]:
                winners.setdefault(outcome[0], []).append(outcome[1])
        assert {r: len(w) for r, w in winners.items()} == dict.fromkeys(range(ROUNDS), 1)
        assert len({w[0] for w in winners.values()}) > 1, "one racer won every round: no race"
        # The database names the winner as the holder.
        kind = "fresh" if path == 2 else "expired"
        rows = dict(
            await pg.sql(
                f"SELECT key, value FROM kv WHERE namespace = 'lease' AND key LIKE '{kind}-%'"
            )
        )
        assert rows == {f"{kind}-{r}": f"racer-{w[0]}" for r, w in winners.items()}

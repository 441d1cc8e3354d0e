"""One computation per key however many callers wait for it; a failure reaches each of them and
is not kept; a caller who leaves does not end the computation the others wait for."""

from __future__ import annotations

import asyncio

import pytest

from core.pages.flight import SingleFlight

CALLERS = 8


class Gated:
    """A computation that counts its runs and ends when told (with a value or a failure)."""

    def __init__(self, fail: bool = False) -> None:
        self.runs = 0
        self.fail = fail
        self.started = asyncio.Event()
        self.gate = asyncio.Event()

    async def __call__(self) -> str:
        self.runs += 1
        self.started.set()
        await self.gate.wait()
        if self.fail:
            raise RuntimeError(f"run {self.runs} failed")
        return f"run {self.runs}"


async def test_callers_of_one_key_share_one_computation() -> None:
    flight: SingleFlight[str, str] = SingleFlight()
    compute, other = Gated(), Gated()
    callers = [asyncio.create_task(flight.run("a", compute)) for _ in range(CALLERS)]
    elsewhere = asyncio.create_task(flight.run("b", other))
    # Tasks start in the order made: the computation's first step follows every caller's.
    await compute.started.wait()
    assert len(flight) == 2
    compute.gate.set()
    assert await asyncio.gather(*callers) == ["run 1"] * CALLERS
    assert compute.runs == 1 and not elsewhere.done()  # another key is its own computation
    other.gate.set()
    assert await elsewhere == "run 1"
    # Nothing is kept once done: the next caller computes anew.
    assert len(flight) == 0
    assert await flight.run("a", compute) == "run 2"


async def test_a_failure_reaches_every_waiter_and_is_not_kept() -> None:
    flight: SingleFlight[str, str] = SingleFlight()
    compute = Gated(fail=True)
    callers = [asyncio.create_task(flight.run("a", compute)) for _ in range(CALLERS)]
    await compute.started.wait()
    compute.gate.set()
    failures = await asyncio.gather(*callers, return_exceptions=True)
    assert [str(f) for f in failures] == ["run 1 failed"] * CALLERS
    assert all(isinstance(f, RuntimeError) for f in failures)
    assert len(flight) == 0
    compute.fail = False
    assert await flight.run("a", compute) == "run 2"


async def test_a_caller_who_leaves_does_not_cancel_the_others_computation() -> None:
    flight: SingleFlight[str, str] = SingleFlight()
    compute = Gated()
    leaving = asyncio.create_task(flight.run("a", compute))
    staying = asyncio.create_task(flight.run("a", compute))
    await compute.started.wait()
    leaving.cancel()
    with pytest.raises(asyncio.CancelledError):
        await leaving
    compute.gate.set()
    assert await staying == "run 1"
    assert compute.runs == 1

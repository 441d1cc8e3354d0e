"""core.leases: work that runs in one holder at a time, on a real SQLite store shared by two
stores (as two processes would share it): the takeover after a clean stop, a lost lease ending
the work at once, a store that stops answering (its outage logged in two lines), and work that
fails."""

from __future__ import annotations

import asyncio
import logging
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from core.leases import Lease, LeaseState, holder_id, surely_gone
from core.store import SqliteStore, kv, leases
from tests.core.test_sessions_outage import Outage, opened, outage

__all__ = ["outage"]  # the fixture

TTL = 0.6
RUNNING: set[str] = set()  # the workers running now, across holders


class Worker:
    """Work that records when it runs, and checks that no one else runs at the same time."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.started: list[float] = []
        self.ended: list[float] = []
        self.overlap = False

    async def __call__(self, ending: asyncio.Event) -> None:
        if RUNNING:
            self.overlap = True
        RUNNING.add(self.name)
        self.started.append(time.monotonic())
        try:
            await ending.wait()
        finally:
            RUNNING.discard(self.name)
            self.ended.append(time.monotonic())


async def until(condition: object, within: float = 10.0) -> None:
    deadline = time.monotonic() + within
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, "condition not met in time"
        await asyncio.sleep(0.01)


@pytest.fixture(autouse=True)
def _nobody_runs() -> None:
    RUNNING.clear()


def test_holder_ids_name_the_host_and_process_and_differ() -> None:
    first, second = holder_id(), holder_id()
    assert first != second
    host = re.escape(socket.gethostname())
    assert re.fullmatch(rf"{host}/[0-9]+:{os.getpid()}:[0-9a-f]{{8}}", first)


def a_finished_pid() -> int:
    process = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        check=True,
        capture_output=True,
        text=True,
    )
    return int(process.stdout)


def test_only_a_holder_of_this_machine_and_pid_namespace_that_no_longer_runs_is_gone() -> None:
    place = holder_id().split(":")[0]
    assert surely_gone(f"{place}:{a_finished_pid()}:0badf00d")
    assert surely_gone(f"{place}:{os.getpid()}:0badf00d")  # an earlier life with this pid
    with subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"]) as alive:
        try:
            assert not surely_gone(f"{place}:{alive.pid}:0badf00d")
        finally:
            alive.kill()
    assert not surely_gone(f"{socket.gethostname()}/1:{a_finished_pid()}:0badf00d")
    assert not surely_gone(f"other-host:{a_finished_pid()}:0badf00d")
    assert not surely_gone(holder_id())  # this process's own other leases


async def test_a_holder_of_this_machine_that_no_longer_runs_is_not_waited_for(
    tmp_path: Path,
) -> None:
    """A restart after a crash: the dead process's lease would last a minute; it is taken at
    once. A holder of another pid namespace (another container) is waited for."""
    place = holder_id().split(":")[0]
    dead = f"{place}:{a_finished_pid()}:0badf00d"
    elsewhere = f"{socket.gethostname()}/1:{a_finished_pid()}:0badf00d"
    async with SqliteStore.open(tmp_path / "db.sqlite3") as store:
        assert await store.run(leases.acquire_lease("job", dead, 60.0))
        lease, work, stop = Lease(store, "job", ttl=60.0), Worker("new"), asyncio.Event()
        started = time.monotonic()
        task = asyncio.create_task(lease.run(work, stop))
        await until(lambda: bool(work.started), within=5.0)
        assert work.started[0] - started < 2.0  # not the minute the dead holder's lease had
        assert (await store.run(leases.lease_holder("job"))).holder == lease.holder  # type: ignore[union-attr]

        assert await store.run(leases.acquire_lease("other", elsewhere, 60.0))
        waiting = Lease(store, "other", ttl=60.0)
        other_work, other_stop = Worker("other"), asyncio.Event()
        other_task = asyncio.create_task(waiting.run(other_work, other_stop))
        await asyncio.sleep(1.0)
        assert waiting.state is LeaseState.STANDBY and not other_work.started
        for event, running in ((stop, task), (other_stop, other_task)):
            event.set()
            await running


async def test_a_waiting_lease_woken_after_a_release_takes_it_at_once(tmp_path: Path) -> None:
    """Without wake() the waiting holder would try again a third of a minute later."""
    async with SqliteStore.open(tmp_path / "db.sqlite3") as store:
        other = holder_id()
        assert await store.run(leases.acquire_lease("job", other, 60.0))
        lease, work, stop = Lease(store, "job", ttl=60.0), Worker("waiting"), asyncio.Event()
        task = asyncio.create_task(lease.run(work, stop))
        await until(lambda: lease.state is LeaseState.STANDBY)
        await asyncio.sleep(0.2)  # it tried, found the lease held, and waits
        await store.run(leases.release_lease("job", other))
        released = time.monotonic()
        lease.wake()
        await until(lambda: bool(work.started), within=5.0)
        assert work.started[0] - released < 1.0
        stop.set()
        await task


def test_bad_lease_arguments_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="name"):
        Lease(None, "", ttl=1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="ttl"):
        Lease(None, "x", ttl=0)  # type: ignore[arg-type]


async def test_one_holder_works_and_the_other_takes_over_after_a_clean_stop(
    tmp_path: Path,
) -> None:
    path = tmp_path / "db.sqlite3"
    async with SqliteStore.open(path) as one, SqliteStore.open(path) as two:
        a, b = Lease(one, "job", ttl=TTL), Lease(two, "job", ttl=TTL)
        work_a, work_b = Worker("a"), Worker("b")
        stop_a, stop_b = asyncio.Event(), asyncio.Event()
        task_a = asyncio.create_task(a.run(work_a, stop_a))
        await until(lambda: a.state is LeaseState.HELD)
        task_b = asyncio.create_task(b.run(work_b, stop_b))
        await asyncio.sleep(TTL * 3)  # several renewals: a keeps it, b waits
        assert b.state is LeaseState.STANDBY and not work_b.started
        assert (await one.run(leases.lease_holder("job"))).holder == a.holder  # type: ignore[union-attr]

        stop_a.set()
        await task_a
        assert a.state is LeaseState.STOPPED
        await until(lambda: bool(work_b.started))
        # Released: b takes it at its next try, within ttl/3 (plus a loaded machine's slack).
        assert work_b.started[0] - work_a.ended[0] < TTL / 3 + 0.5
        stop_b.set()
        await task_b
        assert await one.run(leases.lease_holder("job")) is None  # released at the clean stop
    assert not work_a.overlap and not work_b.overlap


async def test_a_holder_whose_lease_was_taken_stops_at_its_next_renewal(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    async with SqliteStore.open(path) as store:
        a = Lease(store, "job", ttl=TTL)
        work_a = Worker("a")
        stop = asyncio.Event()
        task = asyncio.create_task(a.run(work_a, stop))
        await until(lambda: bool(work_a.started))
        # As if this process had stalled past the expiry and another had taken the lease.
        await store.run(kv.kv_set("lease", "job", "someone-else", expires_at=time.time() + 60))
        taken_at = time.monotonic()
        await until(lambda: bool(work_a.ended), within=TTL)
        assert work_a.ended[0] - taken_at <= TTL / 3 + 0.5  # the next renewal, a loaded machine
        assert a.remaining() == 0.0
        assert a.state is not LeaseState.HELD or not task.done()
        await asyncio.sleep(TTL / 2)
        assert len(work_a.started) == 1  # waiting for the other holder, not working
        assert a.state is LeaseState.STANDBY
        stop.set()
        await task
        holder = await store.run(leases.lease_holder("job"))
        assert holder is not None and holder.holder == "someone-else"  # not released by a


async def test_a_store_that_stops_answering_ends_the_work_before_the_lease_expires(
    tmp_path: Path,
) -> None:
    path = tmp_path / "db.sqlite3"
    async with SqliteStore.open(path) as two:
        one = await SqliteStore.open(path)
        a, b = Lease(one, "job", ttl=TTL), Lease(two, "job", ttl=TTL)
        work_a, work_b = Worker("a"), Worker("b")
        stop = asyncio.Event()
        task_a = asyncio.create_task(a.run(work_a, stop))
        await until(lambda: bool(work_a.started))
        task_b = asyncio.create_task(b.run(work_b, stop))
        await one.close()  # every renewal of a now fails
        await until(lambda: bool(work_b.started), within=TTL * 4)
        # a ended its work while the lease was still surely its own; b came after the expiry.
        assert work_a.ended and work_a.ended[0] < work_b.started[0]
        assert not work_b.overlap
        stop.set()
        await asyncio.gather(task_a, task_b)


async def test_work_that_fails_releases_the_lease_and_raises(tmp_path: Path) -> None:
    async with SqliteStore.open(tmp_path / "db.sqlite3") as store:
        lease = Lease(store, "job", ttl=TTL)

        async def broken(ending: asyncio.Event) -> None:
            raise RuntimeError("boom")

        with pytest.raises(RuntimeError, match="boom"):
            await lease.run(broken, asyncio.Event())
        assert await store.run(leases.lease_holder("job")) is None
        assert lease.state is LeaseState.STOPPED


async def test_a_store_outage_is_logged_once_when_it_starts_and_once_when_it_ends(
    outage: Outage, caplog: pytest.LogCaptureFixture
) -> None:
    """A real outage (SQLite locked, PostgreSQL stopped): the holder's renewals fail, it lets
    the lease go, and waits, failing try after try; two lines for all of it."""
    caplog.set_level(logging.INFO, logger="core.leases")
    async with opened(outage) as store:
        tries: list[str] = []
        store.time_operations(lambda name, _: tries.append(name))
        lease, work, stop = Lease(store, "job", ttl=TTL), Worker("a"), asyncio.Event()
        task = asyncio.create_task(lease.run(work, stop))
        try:
            await until(lambda: bool(work.started))
            await outage.begin()
            await until(lambda: bool(work.ended), within=30.0)
            failed = tries.count("acquire_lease")
            await until(lambda: tries.count("acquire_lease") >= failed + 6, within=60.0)
            assert lease.state is LeaseState.STANDBY
            await outage.end()
            await until(lambda: len(work.started) == 2, within=60.0)
        finally:
            stop.set()
            await task
    mine = [r for r in caplog.records if r.name == "core.leases"]
    lines = [r.getMessage() for r in mine if r.levelno >= logging.WARNING]
    # The outage's two lines, and between them the loss of the lease (an event of its own).
    assert len(lines) == 3, lines
    assert lines[0].startswith("lease job: the store did not answer (")
    assert lines[1] == "lease job: lost, the store did not answer in time"
    assert lines[2].startswith("lease job: the store answers again after ")
    assert not [r for r in mine if r.exc_info]


class HeldStore:
    """A store double (a real store cannot be made to answer at a chosen moment): it answers
    every call with True at once, but the first renewal, which waits for the test's answer."""

    def __init__(self) -> None:
        self.calls = 0
        self.first_renewal: asyncio.Future[bool] | None = None

    def run(self, op: object) -> asyncio.Future[bool]:
        self.calls += 1
        future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        if self.calls == 2:
            self.first_renewal = future
        else:
            future.set_result(True)
        return future


async def test_a_renewal_answered_as_the_work_ends_does_not_keep_the_lease_running() -> None:
    """The renewal's answer and the end of the work in one turn of the loop: Python 3.11's
    ``asyncio.wait_for`` returned the answer and dropped the cancellation, so the renewals went
    on forever and ``run`` never returned (a shard process that never stopped, seen in CI)."""
    store = HeldStore()
    lease, stop = Lease(store, "job", ttl=TTL), asyncio.Event()  # type: ignore[arg-type]

    async def work(ending: asyncio.Event) -> None:
        await until(lambda: store.first_renewal is not None)
        assert store.first_renewal is not None
        stop.set()
        store.first_renewal.set_result(True)  # answered; the keeper is cancelled right after

    # A hang is what this test is about: a bound far above the few milliseconds it takes.
    await asyncio.wait_for(lease.run(work, stop), 10.0)
    assert lease.state is LeaseState.STOPPED

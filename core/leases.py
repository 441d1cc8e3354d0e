"""Work that must run in one process at a time, among processes sharing the store.

:class:`Lease` holds a lease of the store (:mod:`core.store.leases`) while a piece of work
runs: it waits until the lease is free, takes it, starts the work, renews the lease every
``ttl / 3`` seconds, tells the work at once when the lease is lost, and releases it when the
work ends. The Matrix sync of one bot account, the sweeper and Discord's command sync use it::

    lease = Lease(store, "matrix-sync:@bot:example.org", ttl=15.0)
    await lease.run(sync_until, stop)   # sync_until(ending) returns soon after ending is set

Timing, and why it is safe:

- The store writes the expiry by the database's clock; this process counts its own time from
  just before it sent the statement (``time.monotonic``), so the lease is surely its own until
  ``sent + ttl`` whatever the clocks of the machines say (they are assumed to agree on the
  length of a second, not on the time).
- A renewal that the store refuses (another holder took it: this process was stalled past the
  expiry) ends the work at once. Renewals that fail (the database does not answer) are tried
  again until only ``ttl / 3`` seconds are left: then the work is told to end, with those
  seconds to stop before any other process can take the lease.
- A waiting process tries again when the holder's lease expires (it reads the expiry) and at
  least every ``ttl / 3`` seconds (a released lease), so a takeover comes at most about
  ``ttl`` seconds after the holder died, and within ``ttl / 3`` after a clean stop.
- A holder that surely died is not waited for: one of this machine's processes, seen through
  the same pid namespace, whose pid no longer runs (or is this process's own pid, taken over
  from it). That is the bot restarted after a crash or an out-of-memory kill, by hand or by
  systemd, which would otherwise wait ``ttl`` before syncing Matrix again. Its lease is released
  by a compare-and-delete on its holder id, so a process that took it meanwhile keeps it. A
  holder elsewhere (another machine or container) is always waited for: its pid means nothing
  here.

While the store does not answer, a lease logs one line when that starts and one when it
answers again (as the service's loops do, :mod:`core.sessions.outages`), not one per try: a
waiting lease tries every ``ttl / 3`` seconds and a holder's renewals every second.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import logging
import os
import secrets
import socket
import time
from collections.abc import Awaitable, Callable

from core.store import leases
from core.store.port import Store

log = logging.getLogger(__name__)

RENEWALS_PER_TTL = 3
"""How many renewals each ``ttl`` gets: one failed renewal still leaves two chances."""
DEFAULT_TTL = 15.0
"""Seconds a lease lasts without renewal: the bound on a takeover after the holder dies."""
RELEASE_TIMEOUT = 2.0
"""Seconds the release at a clean stop may take (then the lease simply expires)."""

Work = Callable[[asyncio.Event], Awaitable[None]]
"""The work a lease guards: runs until the event it is given is set, then returns promptly."""


class LeaseState(enum.Enum):
    """Where a :class:`Lease` is (for health and metrics)."""

    STANDBY = "standby"
    """Waiting: another process holds the lease (or the store does not answer)."""
    HELD = "held"
    """This process holds the lease; its work runs."""
    STOPPED = "stopped"
    """Not running (before :meth:`Lease.run` and after it returned)."""


_CREATED: set[str] = set()
"""Every holder id this process made: its own leases, alive even when they share its pid."""


def holder_id() -> str:
    """A holder id unique to this process: where it runs (host name, and the pid namespace
    where the OS tells it), pid and a random suffix (a pid comes back after a restart, and two
    containers may have the same host name and pid)."""
    holder = f"{_place()}:{os.getpid()}:{secrets.token_hex(4)}"
    _CREATED.add(holder)
    return holder


def _place() -> str:
    try:
        # "pid:[4026531836]": processes in one namespace see each other's pids.
        namespace = os.readlink("/proc/self/ns/pid").strip("pid:[]")
    except OSError:
        return socket.gethostname()
    return f"{socket.gethostname()}/{namespace}"


def surely_gone(holder: str) -> bool:
    """Whether ``holder`` names a process of this machine and pid namespace that no longer
    runs (see the module's notes); False whenever that cannot be known."""
    place, _, rest = holder.partition(":")
    pid_text, _, _ = rest.partition(":")
    if "/" not in place or place != _place() or not pid_text.isdigit() or holder in _CREATED:
        return False
    pid = int(pid_text)
    if pid == os.getpid():
        return True  # this process is not that holder, so that holder is gone
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:
        return False  # it exists (another user's process, say)
    return False


class Lease:
    """One named lease, held while its work runs (see the module's notes).

    Args:
        store: where the lease lives.
        name: what it guards (``sweeper``, ``matrix-sync:@bot:example.org``).
        ttl: seconds the lease lasts without renewal; a takeover after the holder died comes
            within about that long.
        holder: this process's holder id; by default :func:`holder_id`.
        clock: a monotonic clock in seconds.

    Raises:
        ValueError: an empty name or a ttl that is not a positive number.
    """

    def __init__(
        self,
        store: Store,
        name: str,
        *,
        ttl: float = DEFAULT_TTL,
        holder: str | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if not name:
            raise ValueError("a lease needs a name")
        if isinstance(ttl, bool) or not isinstance(ttl, (int, float)) or not 0 < ttl < 1e9:
            raise ValueError(f"a lease's ttl must be a positive number of seconds, got {ttl!r}")
        self._store = store
        self.name = name
        self.ttl = float(ttl)
        self.holder = holder or holder_id()
        _CREATED.add(self.holder)
        self._clock = clock
        self._state = LeaseState.STOPPED
        self._valid_until = 0.0
        self._wake = asyncio.Event()
        self._unanswered_since: float | None = None
        """When the store stopped answering this lease's tries (None: it answers)."""
        self.terms = 0
        """How many times this process took the lease (health, tests)."""

    @property
    def state(self) -> LeaseState:
        return self._state

    @property
    def interval(self) -> float:
        """Seconds between two renewals (and at most between two tries of a waiting process)."""
        return self.ttl / RENEWALS_PER_TTL

    def wake(self) -> None:
        """Try again now if waiting (someone who knows the lease was just released)."""
        self._wake.set()

    def remaining(self) -> float:
        """Seconds the lease is surely still this process's (0 when it does not hold it)."""
        if self._state is not LeaseState.HELD:
            return 0.0
        return max(0.0, self._valid_until - self._clock())

    async def run(self, work: Work, stop: asyncio.Event) -> None:
        """Run ``work`` whenever this process holds the lease, until ``stop`` is set.

        ``work(ending)`` starts when the lease is taken; ``ending`` is set when ``stop`` is set
        or the lease is lost, and ``work`` must then return promptly (within
        :meth:`remaining` seconds when it can). After a loss this waits for the lease again;
        when ``work`` returns on its own or raises, the lease is released and this returns
        (or raises the same).
        """
        try:
            while not stop.is_set():
                if not await self._acquire(stop):
                    return
                lost = asyncio.Event()
                ending = asyncio.Event()
                keeper = asyncio.create_task(self._keep(lost, ending), name=f"lease {self.name}")
                stopper = asyncio.create_task(_set_when(stop, ending))
                try:
                    await work(ending)
                finally:
                    for task in (keeper, stopper):
                        task.cancel()
                    await asyncio.gather(keeper, stopper, return_exceptions=True)
                    if not lost.is_set():
                        await self._release()
                    self._state = LeaseState.STANDBY
                if not lost.is_set():
                    return  # stopped, or the work ended on its own
        finally:
            self._state = LeaseState.STOPPED

    # --- taking, keeping, giving up ------------------------------------------------------

    async def _try(self) -> bool | None:
        """One acquire-or-renew; True held, False another holds it, None the store failed."""
        sent = self._clock()
        try:
            taken = await self._store.run(leases.acquire_lease(self.name, self.holder, self.ttl))
        except Exception as error:
            if self._unanswered_since is None:
                self._unanswered_since = sent
                log.warning(
                    "lease %s: the store did not answer (%s); trying again until it does",
                    self.name,
                    error,
                )
            return None
        if self._unanswered_since is not None:
            log.warning(
                "lease %s: the store answers again after %.1f s",
                self.name,
                self._clock() - self._unanswered_since,
            )
            self._unanswered_since = None
        if taken:
            self._valid_until = sent + self.ttl
        return taken

    async def _acquire(self, stop: asyncio.Event) -> bool:
        """Wait until the lease is ours (True) or ``stop`` is set (False)."""
        self._state = LeaseState.STANDBY
        waker = asyncio.create_task(_set_when(stop, self._wake))
        try:
            return await self._wait_until_taken(stop)
        finally:
            waker.cancel()

    async def _wait_until_taken(self, stop: asyncio.Event) -> bool:
        announced = False
        released: set[str] = set()
        while not stop.is_set():
            self._wake.clear()
            taken = await self._try()
            if taken:
                self._state = LeaseState.HELD
                self.terms += 1
                log.info("lease %s: taken by %s", self.name, self.holder)
                return True
            wait = self.interval
            if taken is False:
                try:
                    current = await self._store.run(leases.lease_holder(self.name))
                except Exception:
                    current = None
                if (
                    current is not None
                    and current.holder not in released  # once: a failed release is not retried
                    and surely_gone(current.holder)
                ):
                    released.add(current.holder)
                    log.info(
                        "lease %s: its holder %s no longer runs; taking the lease over",
                        self.name,
                        current.holder,
                    )
                    with contextlib.suppress(Exception):
                        await self._store.run(leases.release_lease(self.name, current.holder))
                    continue
                if current is not None:
                    if not announced:
                        log.info("lease %s: held by %s; waiting", self.name, current.holder)
                        announced = True
                    # Try right after it expires, unless its holder renews it first.
                    wait = min(wait, current.expires_in + 0.05)
                else:
                    wait = 0.05  # released or expired between the two reads
            if stop.is_set():
                break
            await wait_or_set(self._wake, wait)  # set by stop too, or by wake()
        return False

    async def _keep(self, lost: asyncio.Event, ending: asyncio.Event) -> None:
        """Renew every :attr:`interval` seconds; on a loss set ``lost`` and ``ending``."""
        margin = self.interval
        next_renewal = self._clock() + self.interval
        while True:
            await asyncio.sleep(max(0.0, next_renewal - self._clock()))
            try:
                # A renewal that hangs must not outlast the time the lease surely has left.
                async with asyncio.timeout(max(0.01, self.remaining() - margin)):
                    taken = await self._try()
            except TimeoutError:
                taken = None
            if taken:
                next_renewal = self._clock() + self.interval
                continue
            if taken is False:
                self._valid_until = self._clock()  # not ours even for a moment longer
                log.warning("lease %s: lost, another process holds it", self.name)
            elif self.remaining() > margin:
                next_renewal = self._clock() + min(1.0, self.interval / 2)
                continue
            else:
                log.warning("lease %s: lost, the store did not answer in time", self.name)
            lost.set()
            ending.set()
            return

    async def _release(self) -> None:
        try:
            async with asyncio.timeout(RELEASE_TIMEOUT):
                await self._store.run(leases.release_lease(self.name, self.holder))
        except Exception as error:
            log.warning("lease %s: not released (%s); it expires by itself", self.name, error)
        else:
            log.info("lease %s: released by %s", self.name, self.holder)


class Held:
    """``work`` run in a task of its own while this process holds ``lease``, from
    :meth:`start` to :meth:`close` (the sweeper, the daily puzzle post)."""

    def __init__(self, lease: Lease, work: Work, name: str) -> None:
        self.lease = lease
        self._work = work
        self._name = name
        self._task: asyncio.Task[None] | None = None
        self._stop = asyncio.Event()

    def start(self) -> None:
        if self._task is None:
            self._stop.clear()
            self._task = asyncio.create_task(
                self.lease.run(self._work, self._stop), name=self._name
            )

    async def close(self) -> None:
        if self._task is None:
            return
        # Stopped rather than cancelled, so that the lease is released and another process
        # takes the work at once; cancelled if the store does not let it go in time.
        self._stop.set()
        await asyncio.wait({self._task}, timeout=RELEASE_TIMEOUT + 1.0)
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
        self._task = None


async def wait_or_set(event: asyncio.Event, seconds: float) -> None:
    """Sleep ``seconds``, or less if ``event`` is set meanwhile."""
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(max(0.0, seconds)):
            await event.wait()


async def _set_when(source: asyncio.Event, target: asyncio.Event) -> None:
    await source.wait()
    target.set()

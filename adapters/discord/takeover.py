"""Which shards this process runs, among every process of a sharded bot (docs/scaling.md).

Each shard is run under a lease of the store, ``discord-shard:<count>:<id>``: two processes
never run one shard, and a shard whose process died is taken over by a survivor.

- **Own shards** (``DISCORD_SHARD_IDS``) are run whenever this process holds their lease. At a
  start it waits for a lease that another process holds, and meanwhile holds the shard's *want*
  lease (``discord-shard-want:<count>:<id>``) to ask for it back.
- **Adoption**: a shard of another process whose lease stayed free for a whole renewal interval
  (its process died, or was never started) is taken over by the first survivor to see it, once
  that survivor has run for a lease's lifetime (so processes started together first take their
  own). A holder of this machine that surely died (:func:`core.leases.surely_gone`) is not
  waited for.
- **Hand-back**: a process running an adopted shard gives it up within
  :data:`HANDBACK_POLL` after the shard's own process asks for it (the want lease), and
  releases its lease once its client no longer runs it; the asking process takes it at once.

The client runs the shards of :attr:`ShardLeases.running`; the adapter restarts it whenever that
set changes (:meth:`ShardLeases.changed`) and reports with :meth:`ShardLeases.applied` which
shards the client runs, so that a lease is released only once its shard is closed here.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections.abc import Callable

from core.leases import Lease, LeaseState, surely_gone, wait_or_set
from core.store import leases
from core.store.port import Store

log = logging.getLogger(__name__)

HANDBACK_POLL = 1.0
"""Seconds between two looks during a hand-back: at the want lease by the process running an
adopted shard, at the shard's lease by its own process waiting for it. A read a second per
adopted shard, which is rare (a process died), buys a hand-back in seconds, not a lease's
lifetime."""
HANDBACK_WINDOW = 60.0
"""Seconds a process waiting for its own shard looks every :data:`HANDBACK_POLL`."""


def shard_lease_name(count: int, shard: int) -> str:
    """The lease under which a process runs ``shard`` of ``count``."""
    return f"discord-shard:{count}:{shard}"


def want_lease_name(count: int, shard: int) -> str:
    """The lease a shard's own process holds while it waits to get the shard back."""
    return f"discord-shard-want:{count}:{shard}"


class ShardLeases:
    """The shards this process runs now, under their leases (see the module's notes).

    Args:
        store: where the leases are.
        count: ``DISCORD_SHARD_COUNT``.
        own: the shards this process runs first (``DISCORD_SHARD_IDS``, every shard if unset).
        holder: this process's holder id (the command-sync lease's, so logs name one process).
        ttl: seconds a shard's lease lasts without renewal (``LEASE_TTL_SECONDS``).
        clock: a monotonic clock in seconds.
    """

    def __init__(
        self,
        store: Store,
        count: int,
        own: tuple[int, ...],
        *,
        holder: str,
        ttl: float,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._store = store
        self.count = count
        self.own = frozenset(own)
        self.holder = holder
        self.ttl = ttl
        self._clock = clock
        self.leases = {
            shard: Lease(store, shard_lease_name(count, shard), ttl=ttl, holder=holder)
            for shard in range(count)
        }
        self.running: frozenset[int] = frozenset()
        """The shards whose lease this process holds: the ones its client should run."""
        self._applied: frozenset[int] = frozenset()
        self._changed = asyncio.Event()
        self._applied_changed = asyncio.Event()

    @property
    def adopted(self) -> frozenset[int]:
        """The shards of :attr:`running` that are not this process's own."""
        return self.running - self.own

    @property
    def interval(self) -> float:
        """Seconds between two looks at the leases (their renewal interval)."""
        return self.leases[0].interval

    async def changed(self) -> None:
        """Return once :attr:`running` changed since the last call."""
        await self._changed.wait()
        self._changed.clear()

    def applied(self, shards: frozenset[int]) -> None:
        """The client now runs ``shards`` (empty once it closed)."""
        self._applied = shards
        self._applied_changed.set()

    async def run(self, stop: asyncio.Event) -> None:
        """Take, keep, adopt and hand back shards until ``stop`` is set; then let them go."""
        started = self._clock()
        tasks = [
            asyncio.create_task(self._own(shard, stop), name=f"discord shard {shard}")
            for shard in sorted(self.own)
        ]
        tasks += [
            asyncio.create_task(self._watch(shard, stop, started), name=f"discord shard {shard}")
            for shard in range(self.count)
            if shard not in self.own
        ]
        try:
            await asyncio.gather(*tasks)
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    # --- own shards --------------------------------------------------------------------------

    async def _own(self, shard: int, stop: asyncio.Event) -> None:
        lease = self.leases[shard]

        async def run_shard(ending: asyncio.Event) -> None:
            self._hold(shard)
            try:
                await ending.wait()
            finally:
                await self._let_go(shard)

        asker = asyncio.create_task(self._ask_back(shard, lease, stop))
        try:
            await lease.run(run_shard, stop)
        finally:
            asker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await asker
            with contextlib.suppress(Exception):
                await self._store.run(
                    leases.release_lease(want_lease_name(self.count, shard), self.holder)
                )

    async def _ask_back(self, shard: int, lease: Lease, stop: asyncio.Event) -> None:
        """Hold the shard's want lease while another process runs it instead of this one, and
        take the shard the moment it is given back (not at the lease's next try)."""
        name = want_lease_name(self.count, shard)
        wanting = False
        asked_at = 0.0
        while not stop.is_set():
            try:
                if lease.state is LeaseState.STANDBY:
                    if not wanting:
                        log.info("discord shard %d: asking for it back", shard)
                        asked_at = self._clock()
                    wanting = await self._store.run(
                        leases.acquire_lease(name, self.holder, self.ttl)
                    )
                    if wanting and await self._store.run(leases.lease_holder(lease.name)) is None:
                        lease.wake()
                elif wanting:
                    await self._store.run(leases.release_lease(name, self.holder))
                    wanting = False
            except Exception as error:
                log.warning("discord shard %d: the store did not answer (%s)", shard, error)
            # A hand-back comes within seconds; a shard not given back by then is run by a
            # process that owns it too (a hot standby), and is asked for at the usual pace.
            handing_back = wanting and self._clock() - asked_at < HANDBACK_WINDOW
            await wait_or_set(stop, HANDBACK_POLL if handing_back else self.interval)

    # --- other processes' shards -------------------------------------------------------------

    async def _watch(self, shard: int, stop: asyncio.Event, started: float) -> None:
        """Adopt ``shard`` whenever it is left without a process (see the module's notes)."""
        lease = self.leases[shard]
        name = lease.name
        free_since: float | None = None
        while not stop.is_set():
            await wait_or_set(stop, self.interval)
            if stop.is_set():
                return
            try:
                current = await self._store.run(leases.lease_holder(name))
                if current is not None and surely_gone(current.holder):
                    await self._store.run(leases.release_lease(name, current.holder))
                    current = None
                    free_since = -float("inf")  # its process is dead: no need to wait more
                if current is not None:
                    free_since = None
                    continue
                now = self._clock()
                if free_since is None:
                    free_since = now
                    continue
                if now - free_since < self.interval or now - started < self.ttl:
                    continue
                if not await self._store.run(leases.acquire_lease(name, self.holder, self.ttl)):
                    continue
            except Exception as error:
                log.warning("discord shard %d: the store did not answer (%s)", shard, error)
                continue
            free_since = None
            log.info("discord shard %d: no process runs it; taking it over", shard)
            await lease.run(functools.partial(self._run_adopted, shard), stop)

    async def _run_adopted(self, shard: int, ending: asyncio.Event) -> None:
        self._hold(shard)
        try:
            want = want_lease_name(self.count, shard)
            while not ending.is_set():
                await wait_or_set(ending, min(HANDBACK_POLL, self.interval))
                try:
                    asking = await self._store.run(leases.lease_holder(want))
                except Exception:
                    continue
                if asking is not None and asking.holder != self.holder:
                    log.info("discord shard %d: handing it back to %s", shard, asking.holder)
                    return
        finally:
            await self._let_go(shard)

    # --- the set the client runs ---------------------------------------------------------------

    def _hold(self, shard: int) -> None:
        self.running |= {shard}
        self._changed.set()

    async def _let_go(self, shard: int) -> None:
        """Drop ``shard`` from the set, and return once the client no longer runs it (the
        lease is released after this, so its next process cannot overlap with this one)."""
        self.running -= {shard}
        self._changed.set()
        while shard in self._applied:
            self._applied_changed.clear()
            await self._applied_changed.wait()

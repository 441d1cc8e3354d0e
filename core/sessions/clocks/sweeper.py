"""The sweeper: while this process holds the sweeper lease, it ends the games whose move clock
ran out and deletes the expired ones. One process sweeps at a time (any sweep is safe anyway:
each ending is a compare-and-set, each deletion conditional)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

from core.leases import Held, Lease, wait_or_set
from core.sessions.outages import REFUSED, Outages
from core.sessions.settings import ServiceSettings
from core.store.port import Store

log = logging.getLogger("core.sessions")

SWEEPER_LEASE = "sweeper"
"""The lease whose holder sweeps."""


class Sweeper:
    """Runs ``sweep_clocks`` every ``clock_interval`` and ``sweep_expired`` every
    ``sweep_interval`` seconds while the lease is held, from :meth:`start` to :meth:`close`."""

    def __init__(
        self,
        store: Store,
        settings: ServiceSettings,
        outages: Outages,
        sweep_clocks: Callable[[], Awaitable[int]],
        sweep_expired: Callable[[], Awaitable[int]],
    ) -> None:
        self._settings = settings
        self._outages = outages
        self._sweep_clocks = sweep_clocks
        self._sweep_expired = sweep_expired
        self.lease = Lease(store, SWEEPER_LEASE, ttl=settings.lease_ttl)
        """Held while this process is the one that sweeps (health and metrics read it)."""
        self._held = Held(self.lease, self._while_held, "session-sweeper")

    def start(self) -> None:
        self._held.start()

    async def close(self) -> None:
        await self._held.close()

    async def _while_held(self, ending: asyncio.Event) -> None:
        """Sweep until ``ending`` is set (the lease lost or the service closing). Clocks first,
        and at once: a clock that ran out while no process swept ends its game before the game
        could expire."""
        next_expiry = 0.0
        while not ending.is_set():
            started = self._outages.now()
            try:
                await self._sweep_clocks()
            except REFUSED as error:
                # A stopped or locked database: one line for the whole outage, not one a second.
                self._outages.refused(error, since=started, work="the clock sweep")
            except Exception:
                # A broken database must not end the sweeper: try again next time.
                log.exception("clock sweep failed", extra={"action": "sweep_clocks"})
            if time.monotonic() >= next_expiry:
                next_expiry = time.monotonic() + self._settings.sweep_interval
                await self._expired()
            await wait_or_set(ending, self._settings.clock_interval)

    async def _expired(self) -> None:
        started = time.perf_counter()
        since = self._outages.now()
        try:
            count = await self._sweep_expired()
        except REFUSED as error:
            self._outages.refused(error, since=since, work="the expiry sweep")
            return
        except Exception:
            # A broken database must not end the sweeper: try again next time.
            log.exception("sweep failed", extra={"action": "sweep"})
            return
        if count:
            duration = (time.perf_counter() - started) * 1000
            log.info(
                "action=sweep deleted=%d duration_ms=%.1f",
                count,
                duration,
                extra={"action": "sweep", "duration_ms": duration},
            )

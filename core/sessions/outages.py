"""Outages of the store, as this process sees them: one log line when one starts and one when it
ends, and the time it took given back to every running clock before anything is ended on time.

A fault the player could not act through is not held against him. While the store refuses
writes (PostgreSQL stopped, a SQLite file locked by another program), nobody can move, so
nobody's clock may run: once the store answers again, every live game whose deadline, reminder
or lifetime ran during the outage has it moved by the outage's length, and to a grace of
:attr:`~core.sessions.settings.ServiceSettings.outage_grace` seconds after the store's return at
least (:meth:`Store.pause_clocks`, one statement).

Why this shape, and not a heartbeat in the store ("the store answered at ..." written every
second, and a gap read as an outage): a gap in a heartbeat cannot tell a stopped database from a
stopped bot, and a clock that ran out while the bot was down ends its game at start-up (the
design says a restart never resets a clock). Only a process that tried the store and was refused
knows it was the store; so each process records what it saw:

- Any refusal (:class:`StoreBusy`, :class:`StoreUnavailable`) of a request, a sweep or a pass
  opens an outage here, from the start of the work that was refused.
- Before the clock sweep ends a game, before the expiry sweep deletes one, before a pass and
  before a request, an open outage is settled first: the pause is written (a write: it is also
  the proof that the store takes writes again), and only then does the work run. A refusal
  there leaves the outage open, and the sweeps and the pass are not done (a request goes on: it
  meets the store itself, and /help needs none).
- Several processes agree through the store: the pause remembers the span it paused last, so a
  process that saw the same outage adds only what its own view adds (an earlier start, a later
  end). Their starts differ by the time each took to notice (a second or so where reads fail:
  each process passes over the queue every second, the sweeper sweeps every second): the
  deadlines that fell up to the grace before the start this process saw are paused too, since a
  game whose deadline passed with a working store was ended by the sweep within a second.

What is left:

- A process that never touched the store during an outage does not know of it; a sweeper in
  that process could end a game whose deadline fell in it before the process that saw the
  outage settles it (within a second of the store's return).
- A clock whose deadline was raised to the grace by one process, and paused again by another
  that saw the outage start earlier, gets the earlier part on top of the grace: more time than
  owed, never less (the deadline before the first pause is not kept).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from core.store import StoreBusy, StoreUnavailable, outages
from core.store.port import Store

log = logging.getLogger("core.sessions")

REFUSED = (StoreBusy, StoreUnavailable)
"""What a store that cannot take a write now raises."""


class Outages:
    """The open outage of this process, if any, and its settling (see the module docstring).

    Args:
        store: the store whose outages these are.
        clock: seconds since the epoch (the service's clock, as deadlines are written).
        grace: seconds a player has at least, after the store's return, to move.
    """

    def __init__(self, store: Store, clock: Callable[[], float], grace: float) -> None:
        self._store = store
        self._clock = clock
        self._grace = grace
        self._since: float | None = None
        self._refusals = 0
        self._settling = asyncio.Lock()

    def now(self) -> float:
        """The clock outages are counted by (the start of work that may be refused)."""
        return self._clock()

    @property
    def since(self) -> float | None:
        """When the open outage started, None when the store answers."""
        return self._since

    def refused(self, error: Exception, *, since: float, work: str) -> None:
        """The store refused ``work`` (started at ``since``): an outage starts, or goes on."""
        self._refusals += 1
        if self._since is None:
            self._since = since
            log.warning(
                "database outage: %s was refused (%s); waiting for the database",
                work,
                error,
                extra={"action": "outage"},
            )
        else:
            self._since = min(self._since, since)

    async def settle(self) -> None:
        """Pause the clocks for the open outage, if any; it is then over.

        Raises:
            StoreBusy, StoreUnavailable: the store still refuses (the outage goes on).
        """
        if self._since is None:
            return
        async with self._settling:
            since = self.since
            if since is None:
                return  # settled meanwhile by another task
            back = self._clock()
            refusals = self._refusals
            moved = await self._store.run(outages.pause_clocks(since, back, self._grace))
            if self._refusals != refusals:
                return  # refused again meanwhile: paused so far, and still open
            self._since = None
        log.warning(
            "database outage over after %.1f s; clocks of %d live games paused for it",
            back - since,
            moved,
            extra={"action": "outage", "duration_ms": (back - since) * 1000},
        )

    async def settled(self, work: str) -> bool:
        """:meth:`settle`, for background work: whether the store takes writes now (a refusal
        is recorded, not raised)."""
        started = self.now()
        try:
            await self.settle()
        except REFUSED as error:
            self.refused(error, since=started, work=work)
            return False
        return True

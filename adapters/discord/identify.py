"""Discord's identify rate across every process of a sharded bot.

A bot may send ``max_concurrency`` IDENTIFYs per 5 seconds (1 for every bot below large bot
sharding): the shards fall into buckets ``shard_id % max_concurrency`` and each bucket may
identify once per 5 seconds. discord.py keeps to it within one process (it waits 5 s between
its shards); processes that start or restart together would not. :class:`IdentifyGate` keeps
to it among all of them through the store they share: a shard identifies only once it has
taken the lease ``discord-identify:<bucket>`` for 5 seconds, a lease nobody renews or releases,
so it says "this bucket identified less than 5 s ago" and expires on its own. The lease is one
atomic statement, so of two processes asking at once exactly one goes first.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from typing import TYPE_CHECKING

from core.store import leases

if TYPE_CHECKING:
    from core.store.port import Store

log = logging.getLogger(__name__)

IDENTIFY_INTERVAL = 5.0
"""Seconds between two IDENTIFYs of one bucket (Discord's rule)."""
POLL = 0.05  # seconds after a bucket's lease expires before trying again
MARGIN = 1.0
"""Seconds a turn holds its bucket beyond the interval. Discord counts from the IDENTIFY's
arrival, which leaves after the lease is taken: a busy process may send it late, and the next
process, counting from the lease, would then identify less than an interval after it."""


class IdentifyGate:
    """Waits for a shard's turn to IDENTIFY, among every process sharing ``store``.

    Args:
        store: the store every process of the bot uses.
        holder: this process's holder id (each turn is a holder of its own, see
            :meth:`wait_turn`).
        interval: seconds between two IDENTIFYs of a bucket.
    """

    def __init__(self, store: Store, holder: str, *, interval: float = IDENTIFY_INTERVAL) -> None:
        self._store = store
        self._holder = holder
        self._interval = interval
        self._turns = itertools.count(1)
        self.max_concurrency = 1
        """Shards that may identify at once (``session_start_limit.max_concurrency`` of
        ``GET /gateway/bot``); the bot sets it at start."""

    def bucket(self, shard_id: int) -> str:
        return f"discord-identify:{shard_id % max(1, self.max_concurrency)}"

    async def wait_turn(self, shard_id: int) -> None:
        """Return when ``shard_id`` may IDENTIFY: its bucket's lease is taken for this turn.

        A store that does not answer must not keep a shard away from Discord: then this waits
        one interval (what discord.py does between the shards of a process) and lets it go.
        """
        name = self.bucket(shard_id)
        # Each turn holds the lease under a name of its own: a holder may renew its own lease,
        # and two shards of this process must not pass on one turn.
        holder = f"{self._holder}:identify:{next(self._turns)}"
        while True:
            try:
                if await self._store.run(
                    leases.acquire_lease(name, holder, self._interval + MARGIN)
                ):
                    return
                current = await self._store.run(leases.lease_holder(name))
            except Exception as error:
                log.warning("identify gate: the store did not answer (%s); waiting", error)
                await asyncio.sleep(self._interval)
                return
            wait = POLL if current is None else current.expires_in + POLL
            await asyncio.sleep(min(wait, self._interval))

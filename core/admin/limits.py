"""The rate limit in front of every request: a token bucket per user, per process.

The limits on new games (live games per user and per chat, the cooldown between a user's new
games, boards per minute per chat) are kept by the store, in the transaction that writes the
game (:mod:`core.store.limits`): simultaneous requests cannot all pass them, in one process
or several.

**The rate limit** (discord.py's ``CooldownMapping`` semantics, platform-neutral): each user of
a platform has a bucket of ``burst`` tokens that refills at ``per_minute`` tokens a minute; a
command, a click or a typed move takes one. The request that finds it empty is answered once
("slow down, try again in N s", N the time until the bucket is full again); from then on the
user gets no answer at all until then, so a spammer cannot make the bot spam. A legal move on
your turn in a running game never reaches the limiter (the service lets it through first). A
platform may set its own bucket and no silence (``PlatformStyle.rate_limit``,
``silence_limited``): the console's one person is told why each time.

**Across a restart** a user who was silenced is kept in the store, as a kv row with an expiry
(``limits/rate:<platform>:<user>``, holding the time the silence ends; swept with the rest). A
process reads a user's row the first time it sees them, so a restart (or a second process on
the same PostgreSQL) keeps the silence in force. A partly used bucket is not kept: after a
restart a user who was not blocked starts with a full bucket, at worst ``burst`` more requests
than without the restart, which is what a new user gets anyway.
"""

from __future__ import annotations

import asyncio
import collections
import math
from collections.abc import Callable
from dataclasses import dataclass

from core.store import kv
from core.store.errors import Limited, whole_seconds
from core.store.limits import NAMESPACE
from core.store.port import Store

__all__ = ["NAMESPACE", "Limited", "RateLimiter", "whole_seconds"]

_MAX_TRACKED = 100_000  # users kept in memory; the oldest go first beyond it


@dataclass(slots=True)
class _Bucket:
    tokens: float
    updated: float
    silent_until: float = 0.0  # after the notice: say nothing until then


class RateLimiter:
    """Token buckets per ``(platform, user)``; see the module docstring.

    Args:
        store: where blocks are kept across restarts.
        clock: seconds since the epoch (the service's clock: blocks are stored as times).
    """

    def __init__(self, store: Store, clock: Callable[[], float]) -> None:
        self._store = store
        self._clock = clock
        self._buckets: collections.OrderedDict[tuple[str, str], _Bucket] = collections.OrderedDict()
        self._loading: dict[tuple[str, str], asyncio.Future[None]] = {}

    async def take(
        self, platform: str, user_id: str, burst: int, per_minute: int, *, silence: bool = True
    ) -> float | None:
        """Take a token for one request.

        Args:
            silence: after the one notice, answer nothing until the bucket is full again.
                False: no silence; each request that finds no token is told the seconds
                until the next one (the console's one person).

        Returns:
            None: go ahead. ``0.0``: the user was told already; answer nothing. A positive
            number: the seconds to tell the user to wait (this is the one notice).
        """
        key = (platform, user_id)
        bucket = self._buckets.get(key)
        if bucket is None:
            # Remembered before the read, so that a new user's simultaneous first requests
            # find it (and wait for the read) instead of each making a full bucket of its own.
            bucket = _Bucket(float(burst), self._clock())
            self._remember(key, bucket)
            loading = self._loading[key] = asyncio.get_running_loop().create_future()
            try:
                stored = await self._store.run(kv.kv_get(NAMESPACE, f"rate:{platform}:{user_id}"))
            finally:
                del self._loading[key]
                loading.set_result(None)
            if stored is not None and _time(stored) > bucket.updated:
                bucket.tokens, bucket.updated = 0.0, _time(stored)
                bucket.silent_until = _time(stored)
        else:
            self._buckets.move_to_end(key)
            reading = self._loading.get(key)
            if reading is not None:
                await asyncio.shield(reading)
        now = self._clock()
        if now < bucket.silent_until:
            return 0.0
        rate = per_minute / 60.0
        bucket.tokens = min(float(burst), bucket.tokens + (now - bucket.updated) * rate)
        bucket.updated = now
        if bucket.tokens >= 1.0:
            bucket.tokens -= 1.0
            return None
        if not silence:
            return (1.0 - bucket.tokens) / rate
        # Empty: one notice, then silence until the bucket is full again.
        wait = (burst - bucket.tokens) / rate
        bucket.silent_until = now + wait
        bucket.tokens, bucket.updated = float(burst), now + wait
        await self._store.run(
            kv.kv_set(
                NAMESPACE,
                f"rate:{platform}:{user_id}",
                repr(bucket.silent_until),
                expires_at=bucket.silent_until,
            )
        )
        return wait

    def _remember(self, key: tuple[str, str], bucket: _Bucket) -> None:
        self._buckets[key] = bucket
        if len(self._buckets) > _MAX_TRACKED:
            self._buckets.popitem(last=False)


def _time(text: str) -> float:
    # Written by this module; a damaged row is no block rather than an error on every request.
    try:
        value = float(text)
    except ValueError:
        return 0.0
    return value if math.isfinite(value) else 0.0

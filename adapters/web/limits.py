"""The pages' rate limit: a token bucket per client address, in memory (the idea of
``core.admin.limits``, without its silence kept in the store: a web client is answered 429
with ``Retry-After`` every time, which costs nothing to send)."""

from __future__ import annotations

import collections
import ipaddress
import math
import time
from collections.abc import Callable
from dataclasses import dataclass

_MAX_TRACKED = 100_000  # addresses kept; the least recently seen go first beyond it


@dataclass(slots=True)
class _Bucket:
    tokens: float
    updated: float


class AddressLimiter:
    """``burst`` requests at once per address, refilled at ``per_minute`` a minute.

    Args:
        burst: the bucket's size.
        per_minute: its refill rate.
        clock: seconds, monotonic.
    """

    def __init__(
        self, burst: int = 60, per_minute: int = 120, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._burst = float(burst)
        self._rate = per_minute / 60.0
        self._clock = clock
        self._buckets: collections.OrderedDict[str, _Bucket] = collections.OrderedDict()

    def take(self, address: str) -> int | None:
        """Take a token for one request of ``address``: None to serve it, else the whole
        seconds until a token is back (the ``Retry-After``)."""
        now = self._clock()
        bucket = self._buckets.pop(address, None) or _Bucket(self._burst, now)
        self._buckets[address] = bucket
        if len(self._buckets) > _MAX_TRACKED:
            self._buckets.popitem(last=False)
        bucket.tokens = min(self._burst, bucket.tokens + (now - bucket.updated) * self._rate)
        bucket.updated = now
        if bucket.tokens >= 1.0:
            bucket.tokens -= 1.0
            return None
        return max(1, math.ceil((1.0 - bucket.tokens) / self._rate))


def client_address(peer: str | None, forwarded_for: str | None) -> str:
    """Whose request this is: the peer's address, or, from a proxy on this machine (a loopback
    peer), the address the proxy appended last to ``X-Forwarded-For`` (a client can write the
    header's first entries, never the proxy's)."""
    peer = peer or "?"
    if forwarded_for:
        try:
            loopback = ipaddress.ip_address(peer).is_loopback
        except ValueError:
            loopback = False
        last = forwarded_for.rsplit(",", 1)[-1].strip()
        if loopback and last:
            return last
    return peer

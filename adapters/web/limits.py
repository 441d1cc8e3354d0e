"""The pages' rate limit: a token bucket per client address, in memory (the idea of
``core.admin.limits``, without its silence kept in the store: a web client is answered 429
with ``Retry-After`` every time, which costs nothing to send)."""

from __future__ import annotations

import collections
import ipaddress
import math
import time
from collections.abc import Callable, Sequence
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


Network = ipaddress.IPv4Network | ipaddress.IPv6Network

LOOPBACK: tuple[Network, ...] = (
    ipaddress.ip_network("127.0.0.0/8"),
    ipaddress.ip_network("::1/128"),
)
"""The proxies believed by default: one on this machine (``WEB_TRUSTED_PROXIES``)."""


def proxies(networks: Sequence[str]) -> tuple[Network, ...]:
    """``networks`` as the settings give them (``10.0.0.5/32``, checked there) as networks."""
    return tuple(ipaddress.ip_network(n, strict=False) for n in networks)


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        address = ipaddress.ip_address(text.strip())
    except ValueError:
        return None
    # A dual-stack listener (WEB_HOST=::) sees IPv4 peers as ::ffff:a.b.c.d.
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def client_address(
    peer: str | None, forwarded_for: str | None, trusted: Sequence[Network] = LOOPBACK
) -> str:
    """Whose request this is: the peer's address, or, from a trusted proxy, the address of
    the nearest hop that is not one, read from the right of ``X-Forwarded-For`` (each proxy
    appends the address it was called from; a client can write the entries before them, never
    the proxies' own). An entry that is no address ends the walk at the hop before it."""
    address = _address(peer or "")
    if address is None:
        return peer or "?"
    client = str(address)
    if not forwarded_for or not any(address in net for net in trusted):
        return client
    for entry in reversed(forwarded_for.split(",")):
        hop = _address(entry)
        if hop is None:
            break
        client = str(hop)
        if not any(hop in net for net in trusted):
            break
    return client

"""Trying a homeserver request again: rate limits (429 / ``M_LIMIT_EXCEEDED``) and outages."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

from adapters.matrix.transport import MatrixError

log = logging.getLogger(__name__)

T = TypeVar("T")

Sleep = Callable[[float], Awaitable[None]]


def delay_for(error: MatrixError, attempt: int, *, base: float = 0.5, cap: float = 30.0) -> float:
    """Seconds to wait before try ``attempt + 1``: the server's ``retry_after_ms`` when it gave
    one (plus a little, so the retry lands after the window), else exponential from ``base``."""
    if error.retry_after_ms is not None and error.retry_after_ms > 0:
        return min(error.retry_after_ms / 1000 + 0.05, cap * 4)
    return float(min(cap, base * 2**attempt))


async def with_backoff(
    operation: Callable[[], Awaitable[T]],
    *,
    what: str,
    attempts: int = 6,
    base: float = 0.5,
    cap: float = 30.0,
    sleep: Sleep = asyncio.sleep,
) -> T:
    """Run ``operation``, trying again after transient failures.

    Args:
        operation: makes the request (called once per try).
        what: names the request in the logs.
        attempts: tries in all.
        base, cap: the exponential backoff when the server gives no ``retry_after_ms``.
        sleep: how to wait (tests pass a fake).

    Returns:
        What ``operation`` returned.

    Raises:
        MatrixError: a permanent failure, or the last transient one.
    """
    for attempt in range(attempts):
        try:
            return await operation()
        except MatrixError as error:
            if not error.transient or attempt == attempts - 1:
                raise
            delay = delay_for(error, attempt, base=base, cap=cap)
            log.warning("%s: %s; trying again in %.1f s", what, error, delay)
            await sleep(delay)
    raise AssertionError("unreachable")  # pragma: no cover

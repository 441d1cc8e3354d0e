"""Retries: the server's retry_after_ms first, exponential otherwise, permanent errors at once."""

from __future__ import annotations

import pytest

from adapters.matrix.backoff import delay_for, with_backoff
from adapters.matrix.transport import MatrixError


class Flaky:
    def __init__(self, *errors: MatrixError) -> None:
        self.errors = list(errors)
        self.calls = 0

    async def __call__(self) -> str:
        self.calls += 1
        if self.errors:
            raise self.errors.pop(0)
        return "$event"


async def test_rate_limits_wait_as_long_as_the_server_asks() -> None:
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    limited = MatrixError("send", "slow down", "M_LIMIT_EXCEEDED", retry_after_ms=1500)
    outage = MatrixError("send", "bad gateway", "502")
    operation = Flaky(limited, outage)
    assert await with_backoff(operation, what="send", sleep=sleep, base=0.25) == "$event"
    assert operation.calls == 3
    assert slept == [pytest.approx(1.55), 0.5]  # retry_after (+ a margin), then 0.25 * 2**1


async def test_permanent_errors_are_not_retried() -> None:
    async def sleep(seconds: float) -> None:
        raise AssertionError("no sleeping on a permanent error")

    operation = Flaky(MatrixError("send", "no", "M_FORBIDDEN"))
    with pytest.raises(MatrixError, match="M_FORBIDDEN"):
        await with_backoff(operation, what="send", sleep=sleep)
    assert operation.calls == 1


async def test_gives_up_after_the_attempts() -> None:
    async def sleep(seconds: float) -> None:
        pass

    errors = [MatrixError("send", "later", "M_LIMIT_EXCEEDED") for _ in range(3)]
    operation = Flaky(*errors)
    with pytest.raises(MatrixError):
        await with_backoff(operation, what="send", attempts=3, sleep=sleep)
    assert operation.calls == 3


def test_exponential_delays_are_capped() -> None:
    error = MatrixError("sync", "down")
    assert [delay_for(error, n, base=1, cap=5) for n in range(5)] == [1, 2, 4, 5, 5]

"""Waiting on two things at once: work or a stop, one stop or another."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable
from typing import TypeVar

from adapters.matrix.transport import MatrixError

T = TypeVar("T")


async def until(stop: asyncio.Event, work: Awaitable[T]) -> T | None:
    """``work``'s result, or None when ``stop`` is set first (``work`` is cancelled)."""
    task = asyncio.ensure_future(work)
    stopper = asyncio.ensure_future(stop.wait())
    try:
        await asyncio.wait({task, stopper}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        stopper.cancel()
    if task.done():
        return task.result()
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError, MatrixError):
        await task
    return None


async def either(stop: asyncio.Event, stopped: asyncio.Event, halt: asyncio.Event) -> None:
    """Sets ``halt`` once ``stop`` or ``stopped`` is set."""
    waits = {asyncio.ensure_future(stop.wait()), asyncio.ensure_future(stopped.wait())}
    try:
        await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        halt.set()
    finally:
        for wait in waits:
            wait.cancel()

"""One computation in flight per key, shared by whoever asks for that key meanwhile: visitors
of one page arriving together wait for one read of the store (or one review in the AI's
workers) rather than each starting their own."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class SingleFlight(Generic[K, V]):
    """Computations by key, each run once however many callers wait for it.

    Nothing is kept once a computation ends: its value or its failure reaches every caller who
    waited for it, and the next caller of that key starts a new one (keeping values is the
    caller's choice, and a failure is never kept).
    """

    def __init__(self) -> None:
        self._running: dict[K, asyncio.Future[V]] = {}

    def __len__(self) -> int:
        """Computations in flight now."""
        return len(self._running)

    async def run(self, key: K, compute: Callable[[], Awaitable[V]]) -> V:
        """``compute()``'s value, from the computation in flight for ``key`` if there is one,
        else from a new one (a task of its own: it runs to its end even when every caller
        has left, so that the next one finds its work done or under way).

        Raises:
            Exception: whatever the computation raised, to each of its callers.
        """
        running = self._running.get(key)
        if running is None:
            running = asyncio.ensure_future(compute())
            self._running[key] = running
            running.add_done_callback(lambda done: self._ended(key, done))
        # Shielded: a caller who leaves does not cancel what the others wait for.
        return await asyncio.shield(running)

    def _ended(self, key: K, done: asyncio.Future[V]) -> None:
        if self._running.get(key) is done:
            del self._running[key]

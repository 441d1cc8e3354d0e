"""What callers of the store hold: :class:`Store`, the one way to run any operation, and the
store's lifetime. The operations are generators of the features' modules
(:mod:`core.store.sessions`, :mod:`core.store.kv`, :mod:`core.store.leases`, ...); each is
declared once, there, and run as ``await store.run(kv.kv_get(namespace, key))``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, TypeVar

from core.store.sql import Op

T = TypeVar("T")


class Store(Protocol):
    """Where sessions, results and adapter state live; the single source of truth
    (:class:`~core.store.runner.SqlStore` is it on SQLite and PostgreSQL)."""

    async def run(self, op: Op[T]) -> T:
        """Run ``op`` to its end, in one transaction where it asks for one; its result.

        Raises:
            StoreBusy: the database stayed locked (nothing was written).
            StoreUnavailable: it cannot be written or read now (nothing was written).
        """
        ...

    def time_operations(self, timer: Callable[[str, float], None] | None) -> None:
        """Tell ``timer`` the name and duration of every operation from now on (None: stop)."""
        ...

    async def check(self) -> None:
        """Prove the store can answer and write now (for health).

        Raises:
            StoreUnavailable: it cannot (closed, read-only, full, failing disk).
            StoreBusy: the database stayed locked.
        """
        ...

    async def close(self) -> None:
        """Release the connection; the store is unusable afterwards."""
        ...

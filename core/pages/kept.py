"""Values kept in memory by key, bounded: what a page draws or computes once and many visitors
ask for again (a rendered part, a picture, a review), without growing with every key ever
asked."""

from __future__ import annotations

import collections
from collections.abc import Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Kept(Generic[K, V]):
    """The latest ``size`` values by key; the least recently asked for or kept leaves first.

    Not safe across threads: the pages use it from their event loop only.

    Args:
        size: values kept at most (at least 1).
    """

    __slots__ = ("_kept", "_size")

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError(f"size must be >= 1, got {size!r}")
        self._size = size
        self._kept: collections.OrderedDict[K, V] = collections.OrderedDict()

    def __len__(self) -> int:
        return len(self._kept)

    def __contains__(self, key: object) -> bool:
        return key in self._kept

    def get(self, key: K) -> V | None:
        """The value kept for ``key`` (now the most recently asked for), else None."""
        value = self._kept.get(key)
        if value is not None:
            self._kept.move_to_end(key)
        return value

    def keep(self, key: K, value: V) -> V:
        """Keep ``value`` for ``key`` (the least recently asked for leaves beyond the bound);
        ``value``, for the caller to return."""
        self._kept[key] = value
        self._kept.move_to_end(key)
        if len(self._kept) > self._size:
            self._kept.popitem(last=False)
        return value

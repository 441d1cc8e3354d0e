"""The Connect Four opening book: every 6x7 position with 12 stones and its exact value.

The data is ``book_12ply_distances.dat`` of the MIT-licensed ``bitbully-databases`` package
(Markus Thill), found through :mod:`importlib.resources` and memory-mapped read-only in place:
nothing is copied or converted, and every process that maps it shares the same pages of the
operating system's file cache. The search kernel reads it as bytes (format and value
convention: :mod:`core.ai._book_kernel`).

Without the package (a broken install) the book is simply absent: the solver searches alone,
and one warning says so.
"""

from __future__ import annotations

import logging
import mmap
import threading
import time
from dataclasses import dataclass
from importlib import resources
from typing import Any

from core.ai._book_kernel import BOOK_RECORD
from core.games.rules import CONNECT_FOUR, Rules

__all__ = ["BOOK_PLY", "BOOK_RECORDS", "Book", "applies", "load"]

log = logging.getLogger(__name__)

PACKAGE = "bitbully_databases"
RESOURCE = "assets/book_12ply_distances.dat"
BOOK_PLY = 12  # stones on the board of every position in the book
BOOK_RECORDS = 4_200_899  # records in version 0.0.2; a file of another size is refused


@dataclass(frozen=True, slots=True)
class Book:
    """The mapped book.

    Attributes:
        data: the file's bytes, read-only: a numpy ``uint8`` array for the compiled kernel,
            the ``mmap`` itself for the plain one (its items are Python ints).
        raw: the ``mmap`` (kept open as long as the book lives).
        path: where the file is.
        load_seconds: how long finding and mapping it took.
    """

    data: Any
    raw: mmap.mmap
    path: str
    load_seconds: float

    @property
    def records(self) -> int:
        """Positions in the book."""
        return len(self.raw) // BOOK_RECORD

    def touch(self) -> None:
        """Read every page once, so that no search pays for a page fault (shared pages: once
        per machine, not per process, when another process has read them already)."""
        view = memoryview(self.raw)
        # one byte per page is enough to fault the page in
        sum(view[:: mmap.PAGESIZE])


_lock = threading.Lock()
_state: dict[str, Book | None] = {}


def applies(rules: Rules) -> bool:
    """Whether the book is about ``rules``: standard Connect Four (6 rows, 7 columns, k 4)."""
    return rules == CONNECT_FOUR


def load() -> Book | None:
    """The book, mapped on the first call (under 0.1 s); None when the package is missing or
    its file is unusable, which is logged once as a warning."""
    with _lock:
        if "book" not in _state:
            _state["book"] = _open()
        return _state["book"]


def _open() -> Book | None:
    started = time.perf_counter()
    try:
        resource = resources.files(PACKAGE).joinpath(RESOURCE)
        with resources.as_file(resource) as path, open(path, "rb") as file:
            raw = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)
            name = str(path)
    except (ImportError, OSError, ValueError) as error:
        log.warning(
            "Connect Four opening book unavailable (%s: %s): the bot plays on with its search "
            "alone; install the %r package for perfect play from the first move",
            type(error).__name__,
            error,
            "bitbully-databases",
        )
        return None
    if len(raw) != BOOK_RECORDS * BOOK_RECORD:
        log.warning(
            "Connect Four opening book %s has %d bytes, expected %d: not used",
            name,
            len(raw),
            BOOK_RECORDS * BOOK_RECORD,
        )
        raw.close()
        return None
    try:
        import numpy as np

        data: Any = np.frombuffer(raw, dtype=np.uint8)
    except ImportError:  # pragma: no cover - numpy comes with numba; the plain kernel reads raw
        data = raw
    return Book(data, raw, name, time.perf_counter() - started)


def reset() -> None:
    """Forget the loaded book (tests: the next :func:`load` looks for the package again)."""
    with _lock:
        _state.clear()

"""Whether the database can be used: SQLite's failures sorted into ours, and the open checks.

SQLite says what went wrong by result code; the store turns the codes that mean "the file or
the disk is the problem" into :class:`StoreUnavailable` and "another connection holds the
lock" into :class:`StoreBusy`. Anything else (a constraint, a bug in a statement) stays a
``sqlite3`` error: it is ours to fix, not the operator's.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from core.store.base import StoreBusy, StoreError, StoreUnavailable

# Primary result codes (https://sqlite.org/rescode.html); extended codes carry them in the
# low byte (SQLITE_IOERR_WRITE is 778 = 3 << 8 | 10).
_BUSY = {5: "busy", 6: "locked"}
_UNAVAILABLE = {
    3: "permission denied",
    8: "it cannot be written (read-only file, folder or disk)",
    10: "disk I/O error",
    11: "the file is corrupt",
    13: "the disk is full",
    14: "the file cannot be opened or created (check the permissions of the file and its folder)",
    26: "the file is not a SQLite database",
}


def _code(error: sqlite3.Error) -> int | None:
    code = getattr(error, "sqlite_errorcode", None)
    return code & 0xFF if isinstance(code, int) else None


def is_busy(error: sqlite3.Error) -> bool:
    """True when ``error`` means another connection held the lock past the busy timeout."""
    code = _code(error)
    if code is not None:
        return code in _BUSY
    text = str(error).lower()  # an error raised without a code (by Python's own module)
    return "locked" in text or "busy" in text


def translate(error: sqlite3.Error, path: Path) -> StoreError | None:
    """Our error for a SQLite one: :class:`StoreBusy`, :class:`StoreUnavailable`, or None.

    Args:
        error: what SQLite raised.
        path: the database file, for the message.

    Returns:
        The store error to raise instead, or None when ``error`` is not about the database's
        availability (the caller re-raises it as it is).
    """
    if is_busy(error):
        return StoreBusy(str(error))
    code = _code(error)
    if code in _UNAVAILABLE:
        return StoreUnavailable(path, f"{_UNAVAILABLE[code]} ({error})")
    return None


def unavailable(error: BaseException, path: Path) -> StoreUnavailable:
    """Any failure while opening, as one :class:`StoreUnavailable` line naming the cause."""
    if isinstance(error, StoreUnavailable):
        return error
    if isinstance(error, StoreBusy):
        return StoreUnavailable(path, f"another program holds its lock ({error})")
    if isinstance(error, sqlite3.Error):
        translated = translate(error, path)
        if isinstance(translated, StoreUnavailable):
            return translated
        return StoreUnavailable(path, str(error))
    if isinstance(error, OSError):
        return StoreUnavailable(path, error.strerror or str(error))
    return StoreUnavailable(path, f"{type(error).__name__}: {error}")


def integrity_problem(conn: sqlite3.Connection) -> str | None:
    """What ``PRAGMA quick_check`` found first, or None when the file is sound.

    quick_check reads every page but skips the index-to-table cross-checks of integrity_check:
    it finds damaged pages in milliseconds on a bot-sized database.
    """
    rows = conn.execute("PRAGMA quick_check").fetchall()
    if rows == [("ok",)]:
        return None
    problems = [str(row[0]) for row in rows]
    more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
    return f"{problems[0]}{more}"

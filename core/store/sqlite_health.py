"""Whether the database can be used: SQLite's failures sorted into ours, and the open checks.

SQLite says what went wrong by result code; the store turns the codes that mean "the file or
the disk is the problem" into :class:`StoreUnavailable` and "another connection holds the
lock" into :class:`StoreBusy`. Anything else (a missing table, a constraint, a bug in a
statement) is a :class:`StoreFault`: not temporary, and logged with SQLite's error as its cause.
"""

from __future__ import annotations

import errno
import logging
import os
import shutil
import sqlite3
from pathlib import Path

from core.store.errors import StoreBusy, StoreError, StoreFault, StoreUnavailable

log = logging.getLogger("core.store")

FULL_BELOW = 1 << 20
"""Free bytes under which a failing write is put down to a full disk: SQLite needs room for
its write-ahead log (a page per change) and its 32 KiB shared-memory index."""

_SIDECARS = ("-wal", "-shm")

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


def disk_full(path: Path) -> str | None:
    """The words "the disk is full (...)" when the file system of ``path`` has almost no room.

    SQLite says "disk I/O error" rather than "database or disk is full" when the room runs
    out while it opens its write-ahead log or shared-memory index (a restart on a full disk),
    so the free space, not the code, decides.
    """
    folder = path.parent
    try:
        free = shutil.disk_usage(folder).free
    except OSError:
        return None
    if free >= FULL_BELOW:
        return None
    return f"the disk is full ({free} bytes free for {folder}): free some space"


def translate(error: sqlite3.Error, path: Path) -> StoreError:
    """Our error for a SQLite one.

    Args:
        error: what SQLite raised.
        path: the database file, for the message.

    Returns:
        :class:`StoreBusy` (locked), :class:`StoreUnavailable` (the file or the disk), else
        :class:`StoreFault`; the caller raises it from ``error``.
    """
    if is_busy(error):
        return StoreBusy(str(error), path)
    code = _code(error)
    if code in (10, 13, 14):  # I/O error, full, cannot open: each can be a full disk
        full = disk_full(path)
        if full is not None:
            return StoreUnavailable(path, f"{full} ({error})")
    if code in _UNAVAILABLE:
        return StoreUnavailable(path, f"{_UNAVAILABLE[code]} ({error})")
    return StoreFault(path, error)


def unavailable(error: BaseException, path: Path) -> StoreUnavailable:
    """Any failure while opening, as one :class:`StoreUnavailable` line naming the cause."""
    if isinstance(error, StoreUnavailable):
        return error
    if isinstance(error, sqlite3.Error):
        error = translate(error, path)
    if isinstance(error, StoreBusy):
        return StoreUnavailable(path, f"another program holds its lock ({error.cause})")
    if isinstance(error, StoreFault):
        return StoreUnavailable(path, error.cause)
    if isinstance(error, OSError):
        if error.errno == errno.ENOSPC:
            return StoreUnavailable(path, disk_full(path) or "the disk is full")
        return StoreUnavailable(path, error.strerror or str(error))
    return StoreUnavailable(path, f"{type(error).__name__}: {error}")


def check_files(path: Path) -> None:
    """What SQLite would not say clearly about the files at ``path``, checked before it opens.

    - A directory where the file should be: SQLite would only say "unable to open database
      file".
    - A write-ahead log or shared-memory file (``-wal``, ``-shm``) that cannot be written, such
      as an immutable one (``chattr +i``): SQLite maps the ``-shm`` file into memory, and one it
      cannot write has been seen to end the process with SIGBUS and no log line; otherwise it
      only says the database is read-only, naming the wrong file.
    - An empty file (zero bytes) opens as a new database without a word, and is usually a bad
      copy or restore: a warning says so, and the new database starts.

    Raises:
        StoreUnavailable: the path is a directory, or a ``-wal``/``-shm`` file cannot be
            written (one line naming it and what to do).
    """
    if path.is_dir():
        raise StoreUnavailable(path, "it is a directory, not a file")
    for suffix in _SIDECARS:
        sidecar = path.with_name(path.name + suffix)
        try:
            fd = os.open(sidecar, os.O_RDWR)
        except FileNotFoundError:
            continue
        except OSError as error:
            cause = (
                f"{sidecar} cannot be written ({error.strerror or error}); SQLite must write it:"
                f" check its owner, mode and attributes (ls -l, lsattr; chattr -i {sidecar})"
            )
            raise StoreUnavailable(path, cause) from error
        os.close(fd)
    try:
        empty = path.stat().st_size == 0
    except FileNotFoundError:
        return
    if empty:
        log.warning(
            "the database file %s is empty: starting a new database (an empty file is usually"
            " a failed copy or restore; if it should hold games, stop the bot and restore it)",
            path,
            extra={"action": "open"},
        )


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

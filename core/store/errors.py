"""The store's errors: every failure of a store operation is one of these (or a player's
:class:`Limited`), the driver's own error kept as the ``__cause__``."""

from __future__ import annotations

import math
from pathlib import Path

from core.errors import UserError


class StoreError(Exception):
    """Base of the store's own failures (not the player's)."""


class StoreBusy(StoreError):
    """The database stayed locked by another connection beyond the busy timeout.

    Temporary: nothing was written; the same request may simply be tried again.

    Attributes:
        cause: what the driver said, in words (one line).
        where: the database (a file, a URL without its password); empty when unknown.
    """

    def __init__(self, cause: str, where: str | Path = "") -> None:
        self.cause = " ".join(cause.split())
        self.where = str(where)
        super().__init__(
            f"the database {self.where!r} is busy: {self.cause}" if self.where else self.cause
        )


class StoreUnavailable(StoreError):
    """The database cannot be used: read-only, full, failing disk, corrupt, not a database.

    At open it means "do not start" (the message is one line naming the file and the cause). At
    run time it is temporary from the player's view: nothing of the request was written, so
    "cannot save right now" is the honest answer, and health reports it.

    Attributes:
        path: the database file.
        cause: what is wrong, in words (one line).
    """

    def __init__(self, path: str | Path, cause: str) -> None:
        self.path = str(path)
        self.cause = " ".join(cause.split())  # one line, whatever SQLite or the OS said
        super().__init__(f"cannot use the database {self.path!r}: {self.cause}")


class StoreFault(StoreError):
    """The database refused a statement for a reason that is not its availability: a table or
    column missing (a database changed by hand, or restored from elsewhere), a constraint, a
    statement of ours it does not take. Not temporary: the same request fails again; the
    driver's own error is the ``__cause__``, for the traceback that is logged.

    Attributes:
        path: the database (a file, a URL without its password).
        cause: the driver's error, in words (one line).
    """

    def __init__(self, path: str | Path, error: BaseException) -> None:
        self.path = str(path)
        self.cause = " ".join((str(error) or type(error).__name__).split())
        super().__init__(f"the database {self.path!r} failed: {self.cause}")


class WriteUnknown(StoreUnavailable):
    """The database failed while a write was under way: it may have been stored or not (the
    connection dropped between the commit and its answer). Only reading it back once the
    store answers again tells (:mod:`core.sessions.play.fate`)."""


class SchemaTooNew(StoreUnavailable):
    """The database was written by a newer version of the code; refusing to touch it."""


class AlreadyPlaying(StoreError):
    """A user already has a live game in that chat (one per user per chat).

    Attributes:
        session_id: the game the user is in.
        user_id: who.
    """

    def __init__(self, session_id: str, user_id: str) -> None:
        super().__init__(f"user {user_id!r} already plays session {session_id!r} in this chat")
        self.session_id = session_id
        self.user_id = user_id


class Limited(UserError):
    """A request refused by a limit (``limits.*``, ``error.rate_limited``); counted in
    ``chatbots_rate_limited_total``."""


def whole_seconds(seconds: float) -> int:
    """A wait as people read it: whole seconds, at least 1."""
    return max(1, math.ceil(seconds))

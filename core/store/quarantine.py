"""Sessions read through the quarantine: a stored row that no longer loads (a bug, a hand-edited
row, a newer version's) is moved to the ``quarantine`` table, with the reason, so that it hides
neither the other games nor the player's next start; written once for both databases (see
:mod:`core.store.sessions`)."""

from __future__ import annotations

import logging
from typing import Any

from core.store.errors import StoreError
from core.store.migrations import Dialect
from core.store.models.session import Session
from core.store.rows import PG_SELECT_SESSION, SELECT_SESSION, BadRow, decode_session, row_json
from core.store.sql import ENV, Atomic, Env, Op, count, row

log = logging.getLogger(__name__)

_MAX_QUARANTINES_PER_READ = 100
"""A read that keeps finding damaged rows gives up: something rewrites them as fast as we move
them, and an error is better than a loop."""

# A damaged row's handle (first column of the select) and how to find the row again by it.
_SELECT = {Dialect.SQLITE: SELECT_SESSION, Dialect.POSTGRES: PG_SELECT_SESSION}
_BY_HANDLE = {Dialect.SQLITE: "rowid = $1", Dialect.POSTGRES: "id = $1 FOR UPDATE"}


def load(where: str, *params: Any) -> Op[Session | None]:
    """The first session of ``SELECT ... WHERE <where>``, quarantining rows that do not load.

    A damaged row is moved to the ``quarantine`` table (its players and kv rows go with it) and
    the query runs again, so the caller sees the next valid row, or None.

    Raises:
        StoreError: damaged rows keep coming back (more than a hundred in one read).
    """
    env = yield ENV
    sql = f"{_SELECT[env.dialect]} WHERE {where}"
    for _ in range(_MAX_QUARANTINES_PER_READ):
        found = yield row(sql, *params)
        if found is None:
            return None
        try:
            return decode_session(found)
        except BadRow:
            moved = yield Atomic(_quarantine(env, found[0]))
            # Logged after COMMIT, by the one connection whose transaction moved the row: once.
            if moved is not None:
                log.warning(
                    "session quarantined, it cannot be loaded: session=%s reason=%s", *moved
                )
    raise StoreError(f"more than {_MAX_QUARANTINES_PER_READ} damaged sessions in one read")


def _quarantine(env: Env, handle: Any) -> Op[tuple[str, str] | None]:
    """Move the session row found by ``handle`` to ``quarantine`` if it still does not load.

    Returns:
        ``(session id, reason)`` if this call moved it; None if it is gone or loads now.
    """
    dialect = env.dialect
    found = yield row(f"{_SELECT[dialect]} WHERE {_BY_HANDLE[dialect]}", handle)
    if found is None:
        return None  # someone else moved or deleted it meanwhile
    try:
        decode_session(found)
    except BadRow as bad:
        reason = str(bad)
    else:
        return None  # repaired meanwhile
    session_id = found[1] if isinstance(found[1], str) else None
    yield count(
        "INSERT INTO quarantine (session_id, row, reason, quarantined_at) VALUES ($1, $2, $3, $4)",
        session_id,
        row_json(found, handle=dialect is Dialect.SQLITE),
        reason,
        env.clock(),
    )
    yield count(
        f"DELETE FROM sessions WHERE {_BY_HANDLE[dialect].removesuffix(' FOR UPDATE')}", handle
    )
    return str(session_id), reason

"""The live sessions of chats and servers left (``GameService.abandon_games``), written once for
SQLite and PostgreSQL (see :mod:`core.store.sessions`).

A chat is found by the session's own chat and by a seat's own (an open game shows in two
chats); a Discord server by the server each of those chats stored: the session's
``server_id`` through the partial index ``sessions_server`` (live sessions alone), a seat's
``x_server``/``o_server`` through the seats' chat indexes.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.store.models.session import Session, Status
from core.store.sessions import get
from core.store.sql import Op, rows
from core.store.stats import LIVE

_CHATS_PER_QUERY = 200
"""Chat ids per statement of :func:`live_in_chats` (a server's channels may be many; both
databases bound the number of parameters)."""


def live_in_chats(
    platform: str,
    chat_ids: Sequence[str],
    user_id: str | None = None,
    *,
    server_id: str | None = None,
) -> Op[list[Session]]:
    """The live sessions (games and challenges) shown in ``chat_ids`` and, with ``server_id``,
    in every chat of that server, oldest first: every one, or those ``user_id`` sits at from
    one of those chats, started or was challenged to.

    An open game is in two chats: found from the session's own (where the seat without a chat
    of its own sits) and from a seat's own, and ``user_id`` must sit in the chat it is found
    by (a player leaving the other player's chat, or a server they were in too, leaves none
    of their seats)."""
    theirs = (
        "($1::text IS NULL"
        " OR (x_user = $1 AND x_chat IS NULL) OR (o_user = $1 AND o_chat IS NULL)"
        " OR ((challenger = $1 OR challenged = $1) AND x_chat IS NULL AND o_chat IS NULL))"
    )
    found_at: dict[str, float] = {}  # each once
    if server_id is not None:
        # The session's own chat in that server: the partial index sessions_server (its
        # predicate is stats.LIVE); a seat's own chat there: the seat's chat index.
        found = yield rows(
            f"SELECT id, created_at FROM sessions WHERE platform = $2 AND server_id = $3"
            f" AND {LIVE} AND {theirs}"
            " UNION SELECT id, created_at FROM sessions WHERE x_platform = $2"
            f" AND x_chat IS NOT NULL AND x_server = $3 AND {LIVE}"
            " AND ($1::text IS NULL OR x_user = $1)"
            " UNION SELECT id, created_at FROM sessions WHERE o_platform = $2"
            f" AND o_chat IS NOT NULL AND o_server = $3 AND {LIVE}"
            " AND ($1::text IS NULL OR o_user = $1)",
            user_id,
            platform,
            server_id,
        )
        found_at.update((str(r[0]), float(r[1])) for r in found if r[0] is not None)
    unique = list(dict.fromkeys(chat_ids))
    for start in range(0, len(unique), _CHATS_PER_QUERY):
        chunk = unique[start : start + _CHATS_PER_QUERY]
        chats = ", ".join(f"${n}" for n in range(5, 5 + len(chunk)))
        # Three parts, each served by an index: the sessions' chats, each seat's own chat.
        found = yield rows(
            "SELECT id, created_at FROM sessions WHERE platform = $2 AND status IN ($3, $4)"
            f" AND chat_id IN ({chats}) AND {theirs}"
            " UNION SELECT id, created_at FROM sessions WHERE x_platform = $2"
            f" AND status IN ($3, $4) AND x_chat IN ({chats}) AND ($1::text IS NULL OR x_user = $1)"
            " UNION SELECT id, created_at FROM sessions WHERE o_platform = $2"
            f" AND status IN ($3, $4) AND o_chat IN ({chats})"
            " AND ($1::text IS NULL OR o_user = $1)",
            user_id,
            platform,
            Status.CHALLENGE.value,
            Status.ACTIVE.value,
            *chunk,
        )
        found_at.update((str(r[0]), float(r[1])) for r in found if r[0] is not None)
    ids = sorted(found_at, key=found_at.__getitem__)  # oldest first
    sessions: list[Session] = []
    for session_id in ids:
        # One at a time through the quarantine: a damaged row must not hide the others.
        session = yield from get(session_id)
        if session is not None and session.status in (Status.CHALLENGE, Status.ACTIVE):
            sessions.append(session)
    return sessions

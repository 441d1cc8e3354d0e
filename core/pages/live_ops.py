"""The store operations of the live pages, written once for both databases (see
:mod:`core.store.sql`); :mod:`core.pages.live` runs them.

A spectated game is polled by :func:`live_versions` alone (one indexed read of every watched
game's version); the whole game is read again only when its version moved."""

from __future__ import annotations

from core.admin.scopes import CHAT, SERVER
from core.pages.ops import page_hidden
from core.store.models.session import Session, Status
from core.store.public_play import played_in_public, public_places
from core.store.quarantine import load
from core.store.ratings import identities
from core.store.sql import Op, placeholders, rows

POLLED = 500
"""Public ids one :func:`live_versions` read asks for at most (an ``IN`` list's length)."""


def live_session(public_id: str) -> Op[tuple[Session, frozenset[int]] | None]:
    """The game whose page is ``public_id``, and which of its seats (1, 2) hid themselves from
    the pages (``/hide``); None when there is no such game."""
    session = yield from load("public_id = $1", public_id)
    if session is None:
        return None
    return session, (yield from _hidden_seats(session))


def live_versions(public_ids: tuple[str, ...]) -> Op[dict[str, int]]:
    """The version of each of ``public_ids`` (at most :data:`POLLED`) still stored; a game
    that is gone is not in the answer."""
    if not public_ids:
        return {}
    found = yield rows(
        "SELECT public_id, version FROM sessions"
        f" WHERE public_id IN ({placeholders(1, len(public_ids))})",
        *public_ids,
    )
    return {str(r[0]): int(r[1]) for r in found}


def live_listed(limit: int) -> Op[list[tuple[Session, frozenset[int]]]]:
    """The games being played, latest move first (at most ``limit``), of which every chat made
    its play public: a Discord server, or another platform's chat (a Matrix room), whose admins
    turned ``public_ladder`` on. A Discord DM belongs to no server, so it is never listed;
    nor is a private room unless its admins chose so. Each with its hidden seats."""
    public = yield from public_places()
    servers = [scope.removeprefix(SERVER) for p, scope in public if p == "discord"]
    chats = [(p, scope.removeprefix(CHAT)) for p, scope in public if p != "discord"]
    where: list[str] = []
    args: list[str] = [Status.ACTIVE.value]
    if servers:
        where.append(f"(platform = 'discord' AND server_id IN ({placeholders(2, len(servers))}))")
        args += servers
    for platform, chat in chats:
        where.append(f"(platform = ${len(args) + 1} AND chat_id = ${len(args) + 2})")
        args += [platform, chat]
    if not where:
        return []
    ids = yield rows(
        f"SELECT public_id FROM sessions WHERE status = $1 AND ({' OR '.join(where)})"
        f" ORDER BY updated_at DESC LIMIT {int(limit) * 2}",
        *args,
    )
    listed: list[tuple[Session, frozenset[int]]] = []
    for (public_id,) in ids:
        session = yield from load("public_id = $1", public_id)
        if session is None or session.status is not Status.ACTIVE:
            continue
        # An open game's other chat must have made its play public too.
        if played_in_public(session, public):
            listed.append((session, (yield from _hidden_seats(session))))
        if len(listed) == limit:
            break
    return listed


def _hidden_seats(session: Session) -> Op[frozenset[int]]:
    """The seats (1, 2) whose player hid themselves, by the identity their ratings go by."""
    who: dict[str, int] = {}
    for number, seat in enumerate(session.seats, start=1):
        if seat.user_id is not None:
            platform = session.chat_of(number)[0]
            identity = (yield from identities(platform, (seat.user_id,)))[seat.user_id]
            who[identity] = number
    hidden = yield from page_hidden(tuple(who))
    return frozenset(who[identity] for identity in hidden)

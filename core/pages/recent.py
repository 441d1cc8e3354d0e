"""The store operation behind ``/stats``' links to a player's last games
(:mod:`core.sessions.players.weblinks`)."""

from __future__ import annotations

from core.store.models import Status
from core.store.sessions import _IN_CHAT as IN_CHAT
from core.store.sql import Op, rows


def recent_games(platform: str, chat_id: str, user_id: str, limit: int) -> Op[tuple[str, ...]]:
    """The public ids of the last ``limit`` finished games with moves that ``user_id`` sat at
    in this chat, newest first: games the chat has seen already, so linking them shows its
    members nothing new (a game of a direct chat stays where it was played)."""
    found = yield rows(
        f"SELECT public_id FROM sessions WHERE {IN_CHAT} AND status = $4"
        " AND (x_user = $3 OR o_user = $3) AND moves <> '' AND public_id IS NOT NULL"
        " ORDER BY updated_at DESC LIMIT $5",
        platform,
        chat_id,
        user_id,
        Status.FINISHED.value,
        limit,
    )
    return tuple(str(r[0]) for r in found)

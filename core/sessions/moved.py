"""Live games carried from one chat to another: a Matrix room upgraded to a new room
(``m.room.tombstone``) keeps its games, in the new room."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from core.i18n import Text
from core.replies import Reply
from core.sessions.views import board_reply
from core.store import AlreadyPlaying, Session, SessionStore, Status


async def carry_games_over(
    store: SessionStore, platform: str, old_chat_id: str, new_chat_id: str, users: Sequence[str]
) -> list[Reply]:
    """Move the games being played by ``users`` in ``old_chat_id`` to ``new_chat_id``.

    Each game keeps its id, seats, moves and clock and is shown there as a new board; a player
    with a live game in the new chat already keeps that one, and the old game stays where it was
    (it ends as games do, by moves, ``/final`` or expiry). Open challenges are not carried: they
    expire within minutes and are simply sent again.

    Returns:
        One reply per game carried (its board as a new message, saying where it came from).
    """
    replies: list[Reply] = []
    seen: set[str] = set()
    for user_id in dict.fromkeys(users):
        session = await store.live_game(platform, old_chat_id, user_id)
        if session is None or session.id in seen or session.status is not Status.ACTIVE:
            continue
        seen.add(session.id)
        carried = _moved(session, platform, old_chat_id, new_chat_id)
        try:
            if not await store.swap(session, carried):
                continue  # it moved on meanwhile (a move, an end): left where it is
        except AlreadyPlaying:
            continue
        replies.append(board_reply(carried, new_message=True, text=Text("game.carried_over")))
    return replies


def _moved(session: Session, platform: str, old_chat_id: str, new_chat_id: str) -> Session:
    """``session`` one version later, with whatever was in the old chat in the new one: the
    game's own chat, or only a seat's (an open game's other chat)."""
    here = (session.platform, session.chat_id) == (platform, old_chat_id)
    seats = tuple(
        dataclasses.replace(seat, chat_id=new_chat_id)
        if (seat.platform, seat.chat_id) == (platform, old_chat_id)
        else seat
        for seat in session.seats
    )
    return dataclasses.replace(
        session,
        chat_id=new_chat_id if here else session.chat_id,
        seats=(seats[0], seats[1]),
        version=session.version + 1,
    )

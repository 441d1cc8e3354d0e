"""Live games carried from one chat to another: a Matrix room upgraded to a new room
(``m.room.tombstone``) keeps its games, its open challenges and its bots' games, in the new room."""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable, Sequence

from core.i18n import Text
from core.replies import Actor, Reply
from core.sessions.views import board_reply
from core.store import AlreadyPlaying, Session, Status, sessions
from core.store.port import Store

_TRIES = 3


async def carry_games_over(
    store: Store, platform: str, old_chat_id: str, new_chat_id: str, users: Sequence[str]
) -> list[Session]:
    """Move the live games of ``users`` in ``old_chat_id`` to ``new_chat_id``.

    A live game is a game being played (against a person or the bot), a bots' game someone
    watches, or a challenge someone sent and nobody answered yet. Each keeps its id, seats,
    moves and clock. A player with a live game in the new chat already keeps that one, and the
    old game stays where it was (it ends as games do, by moves, ``/final`` or expiry). Each game
    moves in a transaction of its own: once moved it is no longer found in the old chat, so a
    second call (a crash in between, the same upgrade seen twice) moves only what is left. Of a
    game whose seats sit in two chats (open play), what was in the old chat moves.

    Returns:
        The sessions carried, as stored now (in ``new_chat_id``).
    """
    carried: list[Session] = []
    for user_id in dict.fromkeys(users):
        # A game that changed between the read and the move (a bots' game plays on) is read
        # again; one that keeps changing stays where it is.
        for _ in range(_TRIES):
            session = await store.run(sessions.live_game(platform, old_chat_id, user_id))
            if session is None or session.status not in (Status.ACTIVE, Status.CHALLENGE):
                break
            moved = _moved(session, platform, old_chat_id, new_chat_id)
            try:
                if await store.run(sessions.swap(session, moved)):
                    carried.append(moved)
                    break
            except AlreadyPlaying:
                break
    return carried


async def shown_again(
    session: Session,
    *,
    challenge: Callable[[Actor, Session], Reply],
    watch: Callable[[Actor, Session], Awaitable[list[Reply]]],
) -> list[Reply]:
    """What shows the carried ``session`` in its new chat.

    A game: its board as a new message, saying where it came from. A challenge: the challenge
    again (it mentions the challenged player there; ``challenge`` builds it). A bots' game: its
    board, and the game goes on move by move there (``watch`` starts it again: the old room's
    task stops at its next move, whose version no longer matches).
    """
    starter = session.challenger
    name = next((s.name for s in session.seats if s.user_id == starter), starter or "")
    actor = Actor(session.platform, session.chat_id, starter or "", name)
    if session.status is Status.CHALLENGE and starter is not None:
        return [challenge(actor, session)]
    text = Text("game.carried_over")
    if starter is not None and all(seat.is_bot for seat in session.seats):
        return [
            dataclasses.replace(reply, text=text) if reply.new_message else reply
            for reply in await watch(actor, session)
        ]
    return [board_reply(session, new_message=True, text=text)]


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

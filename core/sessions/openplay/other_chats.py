"""The other chat of an open game (one game shown in two chats,
:mod:`core.sessions.openplay.seeking`):
every change to one (a move, ``/final``, a rematch offer) is answered in the chat it came
from, as any game, and the same replies are shown in the other chat through the
:class:`~core.sessions.openplay.relay.Relay` (through the store's outbox when another process serves
that chat, which then shows the board as it stands). Which open games a request changed is
collected by :mod:`core.sessions.openplay.open_games`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable, Sequence

from core.i18n import Text
from core.replies import Actor, Reply
from core.sessions.context import Context
from core.sessions.openplay.open_games import noted, recording
from core.sessions.openplay.relay import Relay, Shown, reader_of
from core.sessions.views import board_reply
from core.store import Session
from core.store.models import Kind, OutboxItem

# Parameters that are commands to type: the other chat's platform has its own prefix.
_TYPED = ("accept", "decline")


def _with_prefix(reply: Reply, prefix: str) -> Reply:
    """``reply`` with the commands it names written with ``prefix`` (a challenge offered from
    Discord names ``/accept``; its Matrix reader types ``!accept``)."""
    text = reply.text
    if text is None or not any(name in text.params for name in _TYPED):
        return reply
    params = dict(text.params)
    for name in _TYPED:
        if name in params:
            params[name] = f"{prefix}{name}"
    return dataclasses.replace(reply, text=Text(text.key, params))


class OtherChats:
    """Shows every change to an open game in its other chat (see the module docstring).

    Args:
        ctx: the service's shared context (it tells :meth:`followed` of every stored change).
        relay: how replies reach a chat, served here or elsewhere.
    """

    def __init__(self, ctx: Context, relay: Relay) -> None:
        self._ctx = ctx
        self._relay = relay
        ctx.followers.append(self.followed)
        relay.renders(Kind.BOARD, self._board)

    def mirrored(
        self, actor: Actor, work: Callable[[], Awaitable[list[Reply]]]
    ) -> Callable[[], Awaitable[list[Reply]]]:
        """``work`` (one request of ``actor``), after which every open game it changed is shown
        in its other chat as the actor's own chat shows it."""

        async def run() -> list[Reply]:
            with recording(home=(actor.platform, actor.chat_id)) as changed:
                replies = await work()
            if changed:
                self._mirror(actor, changed, replies)
            return replies

        return run

    def followed(self, session: Session) -> None:
        """Told of every stored change (``Context.update``): an open game changed outside a
        request (a player who left) is shown in its seat's other chat here; whoever changed it
        shows it in the game's own chat, as for any game. (A clock's timeout tells both chats
        itself, and records its change as a request does.)"""
        if noted(session) or len(session.chats) < 2:
            return
        home = (session.platform, session.chat_id)
        for number in (1, 2):
            if session.chat_of(number) != home:
                self.publish(session, number, [board_reply(session)])

    def _mirror(self, actor: Actor, changed: list[Session], replies: Sequence[Reply]) -> None:
        latest = {session.id: session for session in changed}
        for session in latest.values():
            shown = [
                dataclasses.replace(reply, private=False, locale=None, theme=None)
                for reply in replies
                if not reply.private
                and not reply.error
                and session.id in (reply.session_id, reply.board and reply.board.session_id)
            ]
            if not shown:
                shown = [board_reply(session)]
            for number in (1, 2):
                if session.chat_of(number) != (actor.platform, actor.chat_id):
                    self.publish(session, number, shown)

    def publish(self, session: Session, seat: int, replies: list[Reply]) -> None:
        """Show ``replies`` in the chat of seat ``seat``, in a task of its own (the request's
        answer does not wait for another platform), through the board item the change left
        there; a process that serves that chat shows the board as it then stands."""
        platform, chat_id = session.chat_of(seat)
        prefix = self._ctx.style(Actor(platform, chat_id, "", "")).prefix
        self._relay.show_board(session, seat, [_with_prefix(r, prefix) for r in replies])

    async def _board(self, item: OutboxItem, session: Session | None) -> Shown | None:
        reader = None if session is None else reader_of(self._ctx, item, session)
        if session is None or reader is None:
            return None
        return reader, [board_reply(session)]

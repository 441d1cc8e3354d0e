"""What the bot does with a room's events: a message or a reaction handed to the game service
with its receipt and its answers shown, a room upgrade followed, an invite accepted or
declined.

Each runs on its room's worker (:mod:`adapters.matrix.rooms`), so a room's events are handled
in order. A failure of the service is answered with a short notice and logged; it never stops
the worker.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from adapters.matrix.backoff import with_backoff
from adapters.matrix.config import MatrixConfig
from adapters.matrix.events import PLATFORM, Incoming, Message, Reaction, command_text
from adapters.matrix.output import Output
from adapters.matrix.power import ADMIN_LEVEL
from adapters.matrix.render import reaction_move
from adapters.matrix.state import MatrixState
from adapters.matrix.transport import Invite, Transport
from adapters.matrix.undecrypted import Undecrypted
from adapters.matrix.upgrade import follow_tombstone
from core.i18n import render
from core.ports import GameServicePort
from core.replies import Actor

log = logging.getLogger(__name__)


class Handlers:
    """Handles one term's events (a new term of syncing gets new ones).

    Args:
        client: the running transport.
        user_id: the bot's user id (known for sure once logged in).
        output: the term's replies to the rooms.
        undecrypted: the term's encrypted events kept until their keys arrive; an event
            handled here is done there.
        sleep: how back-offs wait.
        clock: seconds since the epoch (receipts).
    """

    def __init__(
        self,
        service: GameServicePort,
        config: MatrixConfig,
        state: MatrixState,
        *,
        client: Callable[[], Transport],
        user_id: Callable[[], str],
        output: Output,
        undecrypted: Undecrypted,
        sleep: Callable[[float], Awaitable[None]],
        clock: Callable[[], float],
    ) -> None:
        self._service = service
        self._config = config
        self._state = state
        self._client = client
        self._user_id = user_id
        self._output = output
        self._undecrypted = undecrypted
        self._sleep = sleep
        self._clock = clock

    @property
    def locale(self) -> str:
        return self._config.default_locale

    async def incoming(self, job: Incoming) -> None:
        """A message, a reaction or a room upgrade, handled once."""
        if isinstance(job, Message):
            await self._on_message(job)
        elif isinstance(job, Reaction):
            await self._on_reaction(job)
        else:
            await follow_tombstone(
                job,
                platform=PLATFORM,
                transport=self._client(),
                service=self._service,
                output=self._output,
                state=self._state,
                locale=self.locale,
                sleep=self._sleep,
                clock=self._clock,
            )
        # Not after a failure or a cancellation: the next start tries it again, and its
        # receipt, if written, skips it then.
        if job.event_id in self._undecrypted:
            await self._undecrypted.done(job.event_id)

    async def join(self, invite: Invite) -> None:
        """Join the room ``invite`` is for, or decline it (``MATRIX_INVITES``' policy)."""
        transport = self._client()
        inviter = invite.inviter or ""
        if not self._config.invite_allowed(inviter):
            log.info("matrix: declining an invite to %s from %s", invite.room_id, inviter)
            await with_backoff(
                lambda: transport.leave(invite.room_id), what="leave", sleep=self._sleep
            )
            return
        log.info("matrix: joining %s (invited by %s)", invite.room_id, inviter)
        await with_backoff(lambda: transport.join(invite.room_id), what="join", sleep=self._sleep)

    def _actor(self, event: Incoming) -> Actor:
        """Who sent ``event``; an admin of its room with power level 50 or more at the time,
        or when listed in ``BOT_ADMINS``."""
        room_id, user_id = event.room_id, event.sender
        name = self._client().display_name(room_id, user_id)
        admin = event.sender_level >= ADMIN_LEVEL or user_id in self._config.bot_admins
        # A room of the bot and this one person (invited members count), which nobody else
        # may join uninvited, is a direct chat: open play is on there, and /link gives codes.
        client = self._client()
        direct = set(client.members(room_id)) == {self._user_id(), user_id}
        direct = direct and not client.open_to_join(room_id)
        return Actor(PLATFORM, room_id, user_id, name, self.locale, is_admin=admin, direct=direct)

    async def _on_message(self, message: Message) -> None:
        room_id = message.room_id
        own_names = self._client().own_names(room_id)
        text, addressed = command_text(message, self._user_id(), own_names)
        if not text and not addressed:
            return
        if await self._state.was_handled(room_id, message.event_id):
            return
        actor = self._actor(message)
        receipt = self._state.receipt(message.event_id, self._clock())
        try:
            replies = await self._service.handle_text(
                actor, text, addressed=addressed, receipt=receipt
            )
        except Exception:
            log.exception("matrix: the service failed on a message in %s", room_id)
            self._output.notice(
                room_id, render("matrix.internal_error", self.locale), message.event_id
            )
            return
        await self._output.apply(room_id, replies, reply_to=message.event_id)

    async def _on_reaction(self, reaction: Reaction) -> None:
        move = reaction_move(reaction.key)
        if move is None:
            return  # 👍 and friends are for people
        board = await self._state.board_at(reaction.target, reaction.room_id)
        if board is None or board.room_id != reaction.room_id:
            return
        room_id = reaction.room_id
        if await self._state.was_handled(room_id, reaction.event_id):
            return
        actor = self._actor(reaction)
        receipt = self._state.receipt(reaction.event_id, self._clock())
        try:
            replies = await self._service.handle_move(
                actor, board.session_id, move, receipt=receipt
            )
        except Exception:
            log.exception("matrix: the service failed on a reaction in %s", room_id)
            replies = []
            self._output.notice(
                room_id,
                f"{actor.display_name}: {render('matrix.internal_error', self.locale)}",
                board.event_id,
            )
        # A reaction cannot be replied to in most clients: notices answer on the board,
        # naming the player.
        await self._output.apply(
            room_id, replies, reply_to=board.event_id, addressee=actor.display_name
        )
        # Consumed: take it away, so the same key can be pressed again (Synapse refuses a
        # second identical annotation; needs the power to redact others' events). Not when
        # the key is no longer a move (a taken cell, a full column, a finished game), and not
        # while rate-limited: then a player presses the key again by taking their reaction
        # away and adding it anew, a new event the bot reads as a new press.
        boards = [reply.board for reply in replies if reply.board is not None]
        if not boards or move in boards[-1].playable:
            self._output.redact(room_id, reaction.event_id, "move played")

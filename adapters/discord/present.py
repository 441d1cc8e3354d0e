"""The service's replies shown on Discord: which message each goes to, and how.

One set of rules for every way a reply arrives: as the answer to an interaction (sent through a
:class:`~adapters.discord.responder.Responder`), or later, without one (the moves of a watched
bots' game, sent to the channel through a :class:`ChannelOutlet`).

A board goes where its game is shown: the clicked message if it shows that game, else the
session's remembered board message (edited through the channel), else a new message. Private
replies (mistakes) are ephemeral; where there is no interaction to answer, nobody can be
answered privately and they are only logged.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import discord

from adapters.discord.boards import BoardMessages
from adapters.discord.ids import ActionId, ComponentId
from adapters.discord.layout import MAX_CONTENT, MessageSpec, board_message, text_message
from adapters.discord.picture_layout import edit_kwargs, send_kwargs
from adapters.discord.responder import Responder
from adapters.discord.weblinks import with_links
from core.ports import posting
from core.replies import Reply

log = logging.getLogger(__name__)


class Outlet(Protocol):
    """Where new messages of one answer go."""

    @property
    def channel_id(self) -> int | None:
        """The channel the answer is shown in."""
        ...

    async def send(self, spec: MessageSpec, ephemeral: bool) -> int | None:
        """Show ``spec`` as a new message; its id if it is public."""
        ...


@dataclass(frozen=True, slots=True)
class Clicked:
    """The button (or menu) whose click is being answered, and the message it was on."""

    responder: Responder
    button: ComponentId
    message: discord.Message


class ChannelOutlet:
    """New messages in a channel, outside any interaction (nothing can be ephemeral there).

    Args:
        client: the connected client.
        channel_id: the channel (or DM) to post in.
    """

    def __init__(self, client: discord.Client, channel_id: int) -> None:
        self._client = client
        self._channel_id = channel_id

    @property
    def channel_id(self) -> int:
        """The channel posted in."""
        return self._channel_id

    async def send(self, spec: MessageSpec, ephemeral: bool) -> int | None:
        """Post ``spec``; a private one is dropped (no interaction to show it to). A notice
        shown again after a crash (:func:`core.ports.posting`) edits the message its earlier
        try posted in this place instead, so that it reads as one notice."""
        if ephemeral:
            log.info("a private reply outside an interaction was not shown: %r", spec.content)
            return None
        channel = self._client.get_partial_messageable(self._channel_id)
        current = posting()
        earlier = None if current is None else current.again()
        message_id: int | None = None
        if earlier is not None:
            try:
                await channel.get_partial_message(int(earlier)).edit(**edit_kwargs(spec))
                message_id = int(earlier)
            except discord.NotFound:
                log.info("message %s to show again is gone: posted anew", earlier)
        if message_id is None:
            message_id = (await channel.send(**send_kwargs(spec))).id
        if current is not None:
            current.note(str(message_id))
        return message_id


class Presenter:
    """Shows replies (see the module docstring).

    Args:
        boards: the games' board messages.
    """

    def __init__(self, boards: BoardMessages) -> None:
        self.boards = boards

    async def show(
        self,
        outlet: Outlet,
        replies: Sequence[Reply],
        locale: str,
        *,
        clicked: Clicked | None = None,
        wait_for_board: float = 0.0,
        channel_edits: bool = True,
    ) -> None:
        """Show ``replies`` in order, in ``locale``.

        Args:
            outlet: where new messages go (the interaction's responder, or a channel).
            clicked: the click being answered, if any (its message may be the board).
            wait_for_board: seconds to wait for a game's board message to be remembered
                before posting a new one instead (see :meth:`BoardMessages.where`).
            channel_edits: whether a board shown further up may be edited through the channel;
                where the bot is not a member (a user's install) the board is shown anew in
                the answer instead.
        """
        if clicked is not None and isinstance(clicked.button, ActionId):
            old = clicked.button.session_id
            if any(r.new_message and r.session_id != old for r in replies):
                # An action that opened another game (a rematch): the old message gives one.
                await clicked.responder.disable_source()
        for reply in replies:
            # A language the chat's admins chose wins over the reader's client (Discord has no
            # Catalan locale, so a Catalan chat would otherwise never read Catalan).
            shown_in = reply.locale or locale
            await self._show_one(outlet, reply, shown_in, clicked, wait_for_board, channel_edits)

    async def _show_one(
        self,
        outlet: Outlet,
        reply: Reply,
        locale: str,
        clicked: Clicked | None,
        wait: float,
        channel_edits: bool,
    ) -> None:
        text = reply.text.render(locale) if reply.text is not None else None
        if reply.private or reply.error:
            for part in _messages(text or ""):
                await outlet.send(text_message(part, locale), ephemeral=True)
            return
        session_id = reply.board.session_id if reply.board else reply.session_id
        here = clicked if clicked is not None and clicked.button.session_id == session_id else None
        edits = here is None and not reply.new_message and channel_edits
        if edits and session_id is not None and (reply.board is not None or text):
            await self._before_edit(outlet, session_id)
        if reply.board is None:
            if not text:
                return
            if reply.mention is not None:
                text = f"<@{reply.mention}> {text}"  # a notification: the player may be away
            spec = text_message(
                text,
                locale,
                session_id=reply.session_id,
                version=reply.version,
                actions=reply.actions,
            )
            spec = with_links(spec, reply.links, locale)
            if reply.new_message or session_id is None:
                await self._post(outlet, spec, reply.session_id if reply.actions else None)
            elif here is not None:
                # A declined challenge: its message says so and loses its buttons.
                await here.responder.update_source(spec)
            elif not channel_edits or not await self.boards.edit(
                session_id, spec, wait=wait, channel_id=outlet.channel_id
            ):
                await self._post(outlet, spec, None)
            return
        board = reply.board
        # The words go in the board's message when it is new: a new game's, or one posted
        # anew because there was none to edit (its message gone, or never posted).
        with_words = reply.new_message

        def draw(keep_picture: bool) -> MessageSpec:
            # A message that is a picture board already stays one (Discord keeps the flag).
            spec = board_message(
                board,
                locale,
                actions=reply.actions,
                text=text if with_words else None,
                theme=reply.theme,
                keep_picture=keep_picture,
            )
            return with_links(spec, reply.links, locale)

        if here is not None:
            # The clicked message shows this game: it becomes the new board.
            message = here.message
            spec = draw(message.flags.components_v2)
            await here.responder.update_source(spec)
            await self.boards.remember(
                board.session_id, message.channel.id, message.id, board.version
            )
        elif (
            reply.new_message
            or not channel_edits
            or not await self.boards.edit(
                board.session_id,
                draw,
                version=board.version,
                wait=wait,
                channel_id=outlet.channel_id,
            )
        ):
            if channel_edits:
                with_words = True  # no board to edit: this one is new, and says why
            await self._post(outlet, draw(False), board.session_id, board.version)
        elif isinstance(outlet, Responder):
            # Edited far up the channel: tell the player where the game stands.
            outlet.summary = board.status.render(locale)
        if text and not with_words:
            await outlet.send(text_message(text, locale), ephemeral=False)

    async def _before_edit(self, outlet: Outlet, session_id: str) -> None:
        """An answer about to edit a board that this process is still posting waits for it
        (:meth:`BoardMessages.where`): said "thinking..." first, so that the interaction is
        answered within Discord's three seconds whatever the post takes."""
        if isinstance(outlet, Responder) and self.boards.posting_now(session_id, outlet.channel_id):
            await outlet.defer()

    async def _post(
        self,
        outlet: Outlet,
        spec: MessageSpec,
        session_id: str | None,
        version: int | None = None,
    ) -> None:
        """A new public message; remembered as the session's board when it names one (edits
        of that board meanwhile wait for it: :meth:`BoardMessages.posting`)."""
        channel_id = outlet.channel_id
        if session_id is None:
            await outlet.send(spec, ephemeral=False)
            return
        async with self.boards.posting(session_id, channel_id):
            message_id = await outlet.send(spec, ephemeral=False)
            if message_id is not None and channel_id is not None:
                await self.boards.remember(session_id, channel_id, message_id, version)


def _messages(text: str) -> list[str]:
    """A private text as messages of at most Discord's 2,000 characters: split at its blank
    line (``/help``: the commands, then how options and moves are written) when one message
    would not hold it."""
    if not text:
        return []
    if len(text) <= MAX_CONTENT or "\n\n" not in text:
        return [text]
    return text.split("\n\n", 1)

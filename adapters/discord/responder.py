"""What an interaction shows: its one response, then edits of it and follow-up messages."""

from __future__ import annotations

import discord

from adapters.discord.commands import Interaction
from adapters.discord.layout import MessageSpec
from adapters.discord.picture_layout import edit_kwargs, send_kwargs
from core.i18n import render


class Responder:
    """Sends what an interaction shows, choosing between its response, edits and follow-ups.

    The first thing shown is the interaction's response (Discord requires exactly one); after a
    deferral or a first response, the rest are edits of the original message and follow-ups.
    """

    def __init__(self, interaction: Interaction) -> None:
        self.interaction = interaction
        self.component = interaction.type is discord.InteractionType.component
        self.thinking = False  # a public "thinking..." placeholder waits to be replaced
        self.source_is_original = False  # @original is the clicked message
        self.summary: str | None = None  # the answer when nothing else was shown

    @property
    def responded(self) -> bool:
        """Whether the interaction got its one response already."""
        return self.interaction.response.is_done()

    @property
    def channel_id(self) -> int | None:
        """The channel (or DM) the interaction came from."""
        return self.interaction.channel_id

    async def defer(self) -> None:
        """Acknowledge now, show later: a click keeps its message, a command shows
        "thinking..."."""
        if self.responded:
            return
        if self.component:
            await self.interaction.response.defer()
            self.source_is_original = True
        else:
            await self.interaction.response.defer(thinking=True)
            self.thinking = True

    async def update_source(self, spec: MessageSpec) -> None:
        """Replace the clicked message with ``spec``."""
        if not self.responded:
            await self.interaction.response.edit_message(**edit_kwargs(spec))
            self.source_is_original = True
        elif self.source_is_original:
            await self.interaction.edit_original_response(**edit_kwargs(spec))
        elif self.interaction.message is not None:
            await self.interaction.message.edit(**edit_kwargs(spec))

    async def update_view(self, view: discord.ui.LayoutView) -> None:
        """Replace the clicked message's components with ``view`` (its text and picture
        stay)."""
        if not self.responded:
            await self.interaction.response.edit_message(view=view)
            self.source_is_original = True
        elif self.source_is_original:
            await self.interaction.edit_original_response(view=view)

    async def disable_source(self) -> None:
        """Disable every button of the clicked message, keeping its text."""
        message = self.interaction.message
        if message is None:
            return
        view: discord.ui.View | discord.ui.LayoutView
        if message.flags.components_v2:  # a picture board: its buttons sit in a container
            view = discord.ui.LayoutView.from_message(message, timeout=None)
        else:
            view = discord.ui.View.from_message(message, timeout=None)
        for item in view.walk_children():
            if isinstance(item, discord.ui.Select) or (
                isinstance(item, discord.ui.Button) and item.url is None  # a page stays open
            ):
                item.disabled = True
        if not self.responded:
            await self.interaction.response.edit_message(view=view)
            self.source_is_original = True
        else:
            await message.edit(view=view)

    async def send(self, spec: MessageSpec, ephemeral: bool) -> int | None:
        """Show ``spec`` as a new message; its id if it is public."""
        interaction = self.interaction
        if not self.responded:
            response = await interaction.response.send_message(
                **send_kwargs(spec), ephemeral=ephemeral
            )
            return None if ephemeral or response is None else response.message_id
        if self.thinking:
            self.thinking = False
            if not ephemeral:
                original = await interaction.edit_original_response(**edit_kwargs(spec))
                return original.id
            await interaction.delete_original_response()
        message = await interaction.followup.send(
            **send_kwargs(spec), ephemeral=ephemeral, wait=True
        )
        return None if ephemeral else message.id

    async def acknowledge_quietly(self) -> None:
        """Answer the interaction while showing nothing to anyone (the rate limiter's silence).

        Discord marks an interaction without a response as failed after 3 seconds, so it is
        answered all the same: a click with a deferred update (its message stays as it is), a
        command with an ephemeral "thinking..." that is deleted at once.
        """
        if not self.responded:
            if self.component:
                await self.interaction.response.defer()
                return
            await self.interaction.response.defer(ephemeral=True, thinking=True)
            await self.interaction.delete_original_response()
        elif self.thinking:
            self.thinking = False
            await self.interaction.delete_original_response()

    async def finish(self, locale: str) -> None:
        """Make sure the interaction got an answer."""
        summary = self.summary or render("discord.done", locale)
        if not self.responded:
            if self.component:
                await self.interaction.response.defer()
            else:
                await self.interaction.response.send_message(summary, ephemeral=True)
        elif self.thinking:
            self.thinking = False
            await self.interaction.edit_original_response(content=summary)

"""What the bot can do in the chat of an interaction: post there, or only answer.

A user may add the app to their own account and use its commands in any DM, group DM or server,
even where no admin added the bot (Discord's user install). There the bot is not a member: it
cannot post in the channel, read it, edit its messages through it, or react. It has only the
interaction's response, edits of that response, and follow-ups (an interaction token lasts
15 minutes; a user-installed app gets at most 5 follow-ups per interaction).

Which case applies is read from the interaction itself, never learnt from a failed request:
its ``context`` (0 a server, 1 the bot's own DM, 2 a group DM or a DM between other users) and
its ``authorizing_integration_owners`` (key ``0`` present: the server installed the bot).
"""

from __future__ import annotations

import enum

import discord

from adapters.discord.commands import Interaction
from core.i18n import Text
from core.replies import Reply

USER_INSTALL_HELP = Reply(text=Text("discord.help_user_install"), private=True)
"""Added to ``/help`` where the bot is not a member: what differs there (a message of its own,
as the help text may fill one)."""


class Reach(enum.Enum):
    """How far the bot reaches into a chat."""

    CHANNEL = "channel"
    """A member: it may post in the channel and edit its messages there for good."""
    INTERACTIONS = "interactions"
    """Not a member: interaction responses, their edits and follow-ups only."""


def reach_of(interaction: Interaction) -> Reach:
    """How far the bot reaches into the chat ``interaction`` came from."""
    context = interaction.context
    if context.private_channel:
        # A group DM, or a DM between two other people: the bot is never in it.
        return Reach.INTERACTIONS
    if context.guild and not interaction.is_guild_integration():
        # A server that did not install the bot: the command came through a user's install.
        return Reach.INTERACTIONS
    # The bot's own DM, a server that installed it, or an older payload without a context.
    return Reach.CHANNEL


def shared_chat(interaction: Interaction) -> bool:
    """Whether other people are in this chat (a server, or a group DM), so that one of them
    can be challenged; the bot's own DM has nobody else."""
    context: discord.app_commands.AppCommandContext = interaction.context
    return interaction.guild_id is not None or context.private_channel


def shown_to_the_user_alone(interaction: Interaction) -> bool:
    """Whether Discord shows the answer to its user alone: a server that did not install the
    bot and does not let its members use external apps makes such responses ephemeral."""
    return (
        interaction.guild_id is not None
        and reach_of(interaction) is Reach.INTERACTIONS
        and not interaction.permissions.use_external_apps
    )

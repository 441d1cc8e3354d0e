"""Whether the daily puzzle can be posted in the channel a server's ``daily_puzzle`` names,
checked when an admin sets it (``core/admin/daily.py``: the server's value names the channel).

The bot posts it itself, days later and with nobody's interaction to answer: it must be a member
of the server (not a user's install) with the permissions a board needs in that channel. The
channel it is set from is judged by the interaction's own ``app_permissions``; another channel
named by what the gateway told of the server, and it must be one of this server's.
"""

from __future__ import annotations

import discord

from adapters.discord.commands import Interaction
from adapters.discord.options import channel_link, channel_written
from adapters.discord.reach import Reach, reach_of
from core.commands import Settings
from core.errors import UserError
from core.replies import Actor

# The setting's words as core.admin names them (adapters do not import core.admin).
DAILY, HERE, OFF = "daily_puzzle", "here", ("none", "off")
NEEDED = discord.Permissions(view_channel=True, send_messages=True, attach_files=True)
"""What the post needs: a board is a message with buttons, or a picture (15x15 on Sundays)."""


def check_daily_channel(interaction: Interaction, actor: Actor, command: Settings) -> None:
    """Nothing where ``command`` does not set a server's daily post, or the bot can post there.

    Raises:
        UserError: ``puzzle.daily_no_post`` (not a member, or missing a permission there) or
            ``puzzle.daily_not_here`` (a channel of no server the bot sees as this one).
    """
    if command.key != DAILY or command.value is None or command.reset:
        return
    words = command.value.split()
    if interaction.guild_id is None or not 1 <= len(words) <= 2 or words[0].lower() in OFF:
        return
    here = str(interaction.channel_id)
    named = here
    if len(words) == 2 and words[1].lower() != HERE:
        named = channel_written(actor, words[1])
    link = channel_link(named)
    if reach_of(interaction) is Reach.INTERACTIONS:
        raise UserError("puzzle.daily_no_post", channel=link)
    if named == here:
        permissions = interaction.app_permissions
    else:
        # The bot's own member is kept from GUILD_CREATE even without the members cache.
        guild = interaction.guild
        channel = guild.get_channel(int(named)) if guild and named.isdigit() else None
        if guild is None or channel is None:
            raise UserError("puzzle.daily_not_here", channel=link)
        permissions = channel.permissions_for(guild.me)
    if not permissions >= NEEDED:
        raise UserError("puzzle.daily_no_post", channel=link)

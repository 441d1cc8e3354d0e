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

import collections
import enum

import discord

from adapters.discord.boards import KV_NAMESPACE
from adapters.discord.commands import Interaction
from core.i18n import Text
from core.ports import Store
from core.replies import Reply
from core.store import kv

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


_RECENT = 10_000  # chats whose reach is kept in memory


def _key(chat_id: int) -> str:
    return f"reach:{chat_id}"


class ChatReaches:
    """How far the bot reaches into each chat, for what it says there later, without an
    interaction (a reminder, a timeout, a watched game's move): where it is not a member, every
    channel request would be refused (403 Missing Access), and Discord counts each one toward
    its 10,000 invalid requests per 10 minutes, past which it blocks the address. Such notices
    wait for the next click, which shows the board as it stands.

    Learnt from the interactions themselves (:func:`reach_of`) and kept in the store, so that
    a restart, or another process, knows it: one row (``discord`` / ``reach:<chat>``) per chat
    reached through interactions alone. A chat whose server installs the bot later loses its
    row at its first interaction seen by a process that knew it; until then its notices wait
    for a click, as they would have.

    Args:
        store: the key-value part of the store.
    """

    def __init__(self, store: Store) -> None:
        self._store = store
        self._known: collections.OrderedDict[int, Reach] = collections.OrderedDict()

    async def seen(self, interaction: Interaction) -> None:
        """Remember the reach of ``interaction``'s chat (a store write only when it changed)."""
        chat = interaction.channel_id
        if chat is None:
            return
        reach = reach_of(interaction)
        known = self._known.get(chat)
        if known is reach:
            return
        if reach is Reach.INTERACTIONS:
            await self._store.run(kv.kv_set(KV_NAMESPACE, _key(chat), reach.value))
        elif known is not None:
            await self._store.run(kv.kv_delete(KV_NAMESPACE, _key(chat)))
        self._keep(chat, reach)

    async def of(self, chat_id: int) -> Reach:
        """How far the bot reaches into ``chat_id``, as its interactions said."""
        known = self._known.get(chat_id)
        if known is None:
            value = await self._store.run(kv.kv_get(KV_NAMESPACE, _key(chat_id)))
            known = Reach.INTERACTIONS if value == Reach.INTERACTIONS.value else Reach.CHANNEL
            self._keep(chat_id, known)
        return known

    def _keep(self, chat_id: int, reach: Reach) -> None:
        self._known[chat_id] = reach
        self._known.move_to_end(chat_id)
        while len(self._known) > _RECENT:
            self._known.popitem(last=False)

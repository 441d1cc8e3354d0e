"""Gateway events that end games as abandoned: the bot left a server, a channel or thread was
deleted, a member left a server.

Each hands the chats concerned to :meth:`core.ports.GameServicePort.abandon_games`:

- GUILD_DELETE without ``unavailable`` (the bot was removed, or the server deleted; an outage
  sends ``unavailable`` and ends nothing): every game of the server, found by the server each
  game stored (``server_id``): discord.py's cache knows the active threads alone, not the
  archived ones, where a slow game may well be; and every channel and thread the cache knows
  (a game stored without its server);
- CHANNEL_DELETE and THREAD_DELETE: that chat (THREAD_DELETE is read raw, so a thread
  discord.py does not keep counts too). Discord sends no THREAD_DELETE for the threads of a
  deleted channel: discord.py makes one for each thread it keeps, the active ones; the
  server's other chats with live games (archived threads) are each asked of the REST API, and
  those gone with the channel end too;
- GUILD_MEMBER_REMOVE (a member left, or was kicked or banned): that member's games in the
  server, found as above (read raw too: a server missing from the cache is no reason to keep
  them), and the players who stayed are told there. Discord sends it only with the
  privileged GUILD_MEMBERS intent, which the bot asks for only when ``DISCORD_MEMBER_EVENTS`` is
  on (it must be enabled in the Developer Portal first, or Discord refuses the connection).

Without that intent the bot learns of a departure when it matters: when the player who stayed
finds their game waiting on the one who left (a click out of turn, a new game they start while
the old one holds them), the service asks :meth:`DepartureEvents.in_chat`, one REST lookup of
the member that needs no privileged intent, and ends the game then. Otherwise the move clock
ends it: the one who left times out.

The first three need only the GUILDS intent the bot always has.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING

import discord

from adapters.discord.serving import PLATFORM
from core.ports import GameServicePort
from core.replies import Actor

log = logging.getLogger(__name__)


def server_chats(guild: discord.Guild) -> list[str]:
    """Every chat of ``guild`` the client knows: its channels and its active threads."""
    return [str(c.id) for c in guild.channels] + [str(t.id) for t in guild.threads]


class DepartureEvents:
    """discord.py's handlers of the events above, mixed into the bot's client."""

    service: GameServicePort

    if TYPE_CHECKING:  # discord.Client's, which the bot inherits first

        def get_guild(self, id: int, /) -> discord.Guild | None: ...

        async def fetch_channel(
            self, channel_id: int, /
        ) -> discord.abc.GuildChannel | discord.abc.PrivateChannel | discord.Thread: ...

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        # discord.py has no raw GUILD_DELETE: it drops one for a server it never knew, which
        # with the GUILDS intent is none the bot was in.
        await self._abandon(server_chats(guild), None, guild.id)

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        # Its active threads follow as raw_thread_delete events: discord.py sends one for each.
        await self._abandon([str(channel.id)], None)
        if gone := await self._gone_with(channel):
            await self._abandon(gone, None)

    async def _gone_with(self, channel: discord.abc.GuildChannel) -> list[str]:
        """The chats of ``channel``'s server with live games that discord.py does not know
        (archived threads) and that went with ``channel``: Discord finds no such channel any
        more, or names ``channel`` its parent. One REST lookup each; where it fails, the game
        ends by its clock or its expiry."""
        known = {str(channel.id), *server_chats(channel.guild)}
        try:
            live = await self.service.live_chats(PLATFORM, str(channel.guild.id))
        except Exception:
            log.exception("could not look up the games of server %s", channel.guild.id)
            return []
        gone = []
        for chat in live:
            if chat in known or not chat.isdigit():
                continue
            try:
                found = await self.fetch_channel(int(chat))
            except discord.NotFound:
                gone.append(chat)
            except discord.DiscordException as error:  # refused, failed, or a new type
                log.warning("could not look channel %s up: %s", chat, error)
            else:
                if isinstance(found, discord.Thread) and found.parent_id == channel.id:
                    gone.append(chat)
        return gone

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self._abandon([str(payload.thread_id)], None)

    async def on_raw_member_remove(self, payload: discord.RawMemberRemoveEvent) -> None:
        guild = self.get_guild(payload.guild_id)
        chats = [] if guild is None else server_chats(guild)
        await self._abandon(chats, str(payload.user.id), payload.guild_id)

    async def in_chat(self, actor: Actor, user_id: str) -> bool | None:
        """Whether ``user_id`` is still a member of ``actor``'s server (the platform's
        ``PlatformStyle.in_chat``): asked of the REST API, which needs no privileged intent,
        only when a player finds their game waiting on that user. None where the bot cannot
        tell: a DM or group DM (nobody leaves one that the bot would hear of), a server it is
        not in, a failed request."""
        guild = None if actor.server_id is None else self.get_guild(int(actor.server_id))
        if guild is None or not user_id.isdigit():
            return None
        try:
            await guild.fetch_member(int(user_id))
        except discord.NotFound:
            return False
        except discord.HTTPException as error:
            log.warning("could not look member %s up: %s", user_id, error)
            return None
        return True

    async def _abandon(
        self, chats: Sequence[str], user_id: str | None, server_id: int | None = None
    ) -> None:
        server = None if server_id is None else str(server_id)
        try:
            await self.service.abandon_games(PLATFORM, chats, user_id, server_id=server)
        except Exception:
            # The games stay as they are, and end by their clock or their expiry.
            log.exception("could not end the games of a chat left (user %s)", user_id)

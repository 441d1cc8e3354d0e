"""The Discord adapter as the application runs it: ``await DiscordAdapter(...).run(stop)``."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterator
from typing import TYPE_CHECKING

import discord
import discord.gateway
import discord.http
import yarl

from adapters.discord.bot import GameBot
from adapters.discord.config import DiscordConfig
from adapters.discord.shards import ShardedGameBot, client_for
from core.ports import SHUTDOWN, GameServicePort

if TYPE_CHECKING:
    from adapters.discord.identify import IdentifyGate
    from core.leases import Lease

log = logging.getLogger(__name__)


# discord.py reads its endpoints from class attributes: one set per process. Adapters running
# at once in one process (tests) share them; the first sets them, the last restores them.
_endpoint_users: list[DiscordConfig] = []
_saved_endpoints: list[tuple[str, yarl.URL]] = []


@contextlib.contextmanager
def discord_endpoints(config: DiscordConfig) -> Iterator[None]:
    """Point discord.py at the configured REST base and gateway while the block runs.

    discord.py reads both from class attributes (``Route.BASE``,
    ``DiscordWebSocket.DEFAULT_GATEWAY``); they are restored when the last block using them
    ends.
    """
    route = discord.http.Route
    socket = discord.gateway.DiscordWebSocket
    if not _endpoint_users:
        _saved_endpoints[:] = [(route.BASE, socket.DEFAULT_GATEWAY)]
    _endpoint_users.append(config)
    route.BASE = config.api_base_url.rstrip("/")
    socket.DEFAULT_GATEWAY = yarl.URL(config.gateway_url)
    try:
        yield
    finally:
        _endpoint_users.remove(config)
        if not _endpoint_users:
            route.BASE, socket.DEFAULT_GATEWAY = _saved_endpoints.pop()


class DiscordAdapter:
    """Runs the bot on Discord until asked to stop.

    Args:
        service: the game service, started, with its store open (so a click that arrives right
            after the gateway connects is served).
        config: token, guilds, endpoints, and the shards this process runs.
        sync_lease: the lease of the one process that syncs the slash commands (see
            :meth:`GameBot._sync_while_held`); None: this process syncs at every start.
        identify_gate: paces the shards' IDENTIFYs among every process of the bot (sharded
            only); None: discord.py's pacing within this process.
    """

    name = "discord"

    def __init__(
        self,
        service: GameServicePort,
        config: DiscordConfig,
        *,
        sync_lease: Lease | None = None,
        identify_gate: IdentifyGate | None = None,
    ) -> None:
        self.service = service
        self.config = config
        self.lease = sync_lease  # health and metrics show who holds it
        self.identify_gate = identify_gate
        self.bot: GameBot | None = None

    @property
    def connected(self) -> bool:
        """The gateway is up: the client is ready, not closed, and its websocket open
        (discord.py keeps ``is_ready()`` true while it reconnects, so the socket is asked too)."""
        bot = self.bot
        if bot is None or bot.is_closed() or not bot.is_ready():
            return False
        # Sharded: up when every shard of this process is. A socket is None before it connects.
        sockets = bot.shard_sockets() if isinstance(bot, ShardedGameBot) else [bot.ws]
        return bool(sockets) and all(socket is not None and socket.open for socket in sockets)

    async def run(self, stop: asyncio.Event) -> None:
        """Log in, sync the commands, serve interactions until ``stop`` is set; then stop
        taking input, let the interactions in flight finish and close the connection.

        Raises:
            discord.LoginFailure: the token was refused.
            discord.DiscordException: the connection failed for good.
        """
        with discord_endpoints(self.config):
            bot = client_for(
                self.service,
                self.config,
                sync_lease=self.lease,
                identify_gate=self.identify_gate,
            )
            self.bot = bot
            async with bot:
                client = asyncio.create_task(bot.start(self.config.token), name="discord-client")
                stopping = asyncio.create_task(stop.wait(), name="discord-stop")
                try:
                    await asyncio.wait({client, stopping}, return_when=asyncio.FIRST_COMPLETED)
                finally:
                    stopping.cancel()
                if client.done():
                    await bot.stop_command_sync()
                    client.result()  # a failure to log in or connect
                    return
                log.info("discord: stopping")
                await bot.shutdown(SHUTDOWN.drain)
                with contextlib.suppress(asyncio.CancelledError):
                    await client

"""The Discord adapter as the application runs it: ``await DiscordAdapter(...).run(stop)``."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterator
from dataclasses import replace
from typing import TYPE_CHECKING

import discord
import discord.gateway
import discord.http
import yarl

from adapters.discord.bot import GameBot
from adapters.discord.config import DiscordConfig
from adapters.discord.shards import ShardedGameBot, client_for
from adapters.discord.takeover import ShardLeases
from core.errors import OperatorError
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
        shard_leases: which shards this process runs, under their leases, adopting those of a
            dead process and handing them back (sharded only; :mod:`adapters.discord.takeover`);
            None: exactly the configured shards.
    """

    name = "discord"

    def __init__(
        self,
        service: GameServicePort,
        config: DiscordConfig,
        *,
        sync_lease: Lease | None = None,
        identify_gate: IdentifyGate | None = None,
        shard_leases: ShardLeases | None = None,
    ) -> None:
        self.service = service
        self.config = config
        self.lease = sync_lease  # health and metrics show who holds it
        self.identify_gate = identify_gate
        self.shard_leases = shard_leases
        self.bot: GameBot | None = None

    @property
    def connected(self) -> bool:
        """The gateway is up: the client is ready, not closed, and its websocket open
        (discord.py keeps ``is_ready()`` true while it reconnects, so the socket is asked too)."""
        if self.shard_leases is not None and not self.shard_leases.running:
            return True  # standing by: other processes run every shard this one could
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
            OperatorError: the token was refused (:data:`TOKEN_REFUSED`).
            discord.DiscordException: the connection failed for good.
        """
        with discord_endpoints(self.config):
            if self.shard_leases is None:
                await self._serve(self.config, stop)
            else:
                await self._serve_leased(self.shard_leases, stop)

    async def _serve_leased(self, leases: ShardLeases, stop: asyncio.Event) -> None:
        """Run the client on the shards whose leases this process holds, restarted whenever
        they change (a shard adopted or handed back); none: stand by."""
        leases_stop = asyncio.Event()
        keeper = asyncio.create_task(leases.run(leases_stop), name="discord-shard-leases")
        try:
            while not stop.is_set():
                shards = leases.running
                if not shards:
                    # Standing by: every shard this process could run runs elsewhere.
                    waits = [asyncio.create_task(e) for e in (stop.wait(), leases.changed())]
                    try:
                        await asyncio.wait([*waits, keeper], return_when=asyncio.FIRST_COMPLETED)
                    finally:
                        for task in waits:
                            task.cancel()
                    if keeper.done():
                        keeper.result()  # the lease keeper failed: say why
                        return
                    continue
                restart = asyncio.Event()
                watcher = asyncio.create_task(_set_on_change(leases, shards, restart))
                leases.applied(shards)
                log.info("discord: running shards %s", ",".join(map(str, sorted(shards))))
                try:
                    config = replace(self.config, shard_ids=tuple(sorted(shards)))
                    await self._serve(config, stop, restart)
                finally:
                    leases.applied(frozenset())
                    watcher.cancel()
                if keeper.done():
                    keeper.result()
                    return
        finally:
            leases_stop.set()
            leases.applied(frozenset())
            with contextlib.suppress(Exception):
                await keeper

    async def _serve(self, config: DiscordConfig, *until: asyncio.Event) -> None:
        """One client on ``config``'s shards, until any of ``until`` is set."""
        bot = client_for(
            self.service, config, sync_lease=self.lease, identify_gate=self.identify_gate
        )
        self.bot = bot
        async with bot:
            client = asyncio.create_task(bot.start(config.token), name="discord-client")
            stopping = [asyncio.create_task(event.wait()) for event in until]
            try:
                await asyncio.wait({client, *stopping}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for task in stopping:
                    task.cancel()
            if client.done():
                await bot.stop_command_sync()
                _raise_refused_token(client)  # a failure to log in or connect
                return
            log.info("discord: stopping")
            await bot.shutdown(SHUTDOWN.drain)
            # A shard still connecting when the client closed retries for ever on the closed
            # session (discord.py's launch loop does not look at is_closed()): cut it short.
            await asyncio.wait({client}, timeout=SHUTDOWN.adapters - SHUTDOWN.drain)
            if client.done() and not client.cancelled():
                # A restart for a newly leased shard can come while the gateway refuses the
                # token (4004): said as a refused token, not as a crash.
                _raise_refused_token(client)
            else:
                client.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await client


TOKEN_REFUSED = (
    "discord: the token was refused (DISCORD_TOKEN): get a new one in the Developer Portal"
    " (https://discord.com/developers/applications -> your application -> Bot -> Reset Token)"
    " and set it as DISCORD_TOKEN"
)
"""What an operator reads when Discord refuses the token: one line, where to get a new one."""

MEMBERS_INTENT_REFUSED = (
    "discord: the Server Members intent is not enabled for this bot, and DISCORD_MEMBER_EVENTS"
    " asks for it: enable it in the Developer Portal (your application -> Bot -> Privileged"
    " Gateway Intents -> Server Members Intent), or set DISCORD_MEMBER_EVENTS=off"
)
"""What an operator reads when Discord refuses the privileged intent (close code 4014)."""

# Close code of the gateway for a token it does not accept ("Authentication failed").
_AUTHENTICATION_FAILED = 4004


def _raise_refused_token(client: asyncio.Task[None]) -> None:
    """The client's failure, if any; a refused token (401 at login, or 4004 from the gateway
    when a token stops being valid between the two) or a privileged intent the bot may not have
    (4014) as an :class:`OperatorError`."""
    try:
        client.result()
    except discord.LoginFailure as error:
        raise OperatorError(TOKEN_REFUSED) from error
    except discord.PrivilegedIntentsRequired as error:
        raise OperatorError(MEMBERS_INTENT_REFUSED) from error
    except discord.ConnectionClosed as error:
        if error.code == _AUTHENTICATION_FAILED:
            raise OperatorError(TOKEN_REFUSED) from error
        raise


# A change seldom comes alone (two shards adopted at once): one restart for them all.
_SETTLE_SECONDS = 0.5


async def _set_on_change(
    leases: ShardLeases, shards: frozenset[int], restart: asyncio.Event
) -> None:
    while True:
        await leases.changed()
        await asyncio.sleep(_SETTLE_SECONDS)
        if leases.running != shards:
            restart.set()
            return

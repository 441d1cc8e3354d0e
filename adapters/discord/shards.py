"""The bot on some shards of a sharded bot: ``DISCORD_SHARD_COUNT`` shards in all, this process
running ``DISCORD_SHARD_IDS`` of them (docs/scaling.md)."""

from __future__ import annotations

import contextlib
import logging
from typing import TYPE_CHECKING

import discord
import discord.gateway

from adapters.discord.bot import GameBot, pin_gateway
from adapters.discord.config import DiscordConfig
from core.ports import GameServicePort

if TYPE_CHECKING:
    from adapters.discord.identify import IdentifyGate
    from core.leases import Lease

log = logging.getLogger(__name__)


class ShardedGameBot(GameBot, discord.AutoShardedClient):
    """The bot on some shards of a sharded bot (``DISCORD_SHARD_COUNT``, ``DISCORD_SHARD_IDS``).

    Discord sends a server's events, its commands and button clicks included, only on the
    shard ``(guild_id >> 22) % shard_count`` (direct messages on shard 0), so this process
    serves the servers of its shards; every game is in the shared store, so whichever process
    runs a shard serves its boards, whoever posted them.
    """

    def __init__(
        self,
        service: GameServicePort,
        config: DiscordConfig,
        *,
        sync_lease: Lease | None = None,
        identify_gate: IdentifyGate | None = None,
    ) -> None:
        if config.shard_count is None:
            raise ValueError("ShardedGameBot needs DISCORD_SHARD_COUNT")
        super().__init__(
            service,
            config,
            sync_lease=sync_lease,
            shard_count=config.shard_count,
            shard_ids=list(config.shards),
        )
        self._identify_gate = identify_gate

    async def setup_hook(self) -> None:
        if self._identify_gate is not None:
            try:
                limits = await self.fetch_session_start_limits()
            except discord.DiscordException as error:
                log.warning("no session start limits (%s): one IDENTIFY per 5 s", error)
            else:
                self._identify_gate.max_concurrency = limits.max_concurrency
        await super().setup_hook()

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        # Without a gate, discord.py's pacing: 5 s between the shards of this process only.
        if self._identify_gate is None:
            await super().before_identify_hook(shard_id, initial=initial)
        else:
            await self._identify_gate.wait_turn(shard_id or 0)

    async def on_shard_connect(self, shard_id: int) -> None:
        self._pin_shard(shard_id)

    async def on_shard_resumed(self, shard_id: int) -> None:
        self._pin_shard(shard_id)

    def _pin_shard(self, shard_id: int) -> None:
        with contextlib.suppress(KeyError):  # the shard closed meanwhile
            pin_gateway(self._get_websocket(shard_id=shard_id), self.config)

    def shard_sockets(self) -> list[discord.gateway.DiscordWebSocket | None]:
        """The gateway socket of every configured shard (None for one not connected yet)."""
        sockets: list[discord.gateway.DiscordWebSocket | None] = []
        for shard_id in self.config.shards:
            try:
                sockets.append(self._get_websocket(shard_id=shard_id))
            except KeyError:
                sockets.append(None)
        return sockets


def client_for(
    service: GameServicePort,
    config: DiscordConfig,
    *,
    sync_lease: Lease | None = None,
    identify_gate: IdentifyGate | None = None,
) -> GameBot:
    """The bot as configured: sharded when ``DISCORD_SHARD_COUNT`` is set (its IDENTIFYs paced
    by ``identify_gate`` among all processes), else one plain connection (exactly the client
    of a bot that never heard of shards)."""
    if config.sharded:
        return ShardedGameBot(service, config, sync_lease=sync_lease, identify_gate=identify_gate)
    return GameBot(service, config, sync_lease=sync_lease)

"""Settings of the Discord adapter."""

from __future__ import annotations

from dataclasses import dataclass, field

DEFAULT_API_BASE_URL = "https://discord.com/api/v10"
DEFAULT_GATEWAY_URL = "wss://gateway.discord.gg/"


@dataclass(frozen=True, slots=True)
class DiscordConfig:
    """How to reach Discord.

    Attributes:
        token: the bot token (``DISCORD_TOKEN``); never shown in ``repr`` or logs.
        guild_ids: servers to sync the slash commands to, for instant updates while testing
            (``DISCORD_GUILD_IDS``); empty syncs them globally.
        api_base_url: the REST API base, version included (``DISCORD_API_BASE_URL``).
        gateway_url: the gateway websocket, used as given (``DISCORD_GATEWAY_URL``).
        shard_count: how many shards the bot has in all (``DISCORD_SHARD_COUNT``); None runs
            one unsharded connection, as before sharding existed.
        shard_ids: the shards this process runs (``DISCORD_SHARD_IDS``); empty runs every
            shard of ``shard_count`` here.
        member_events: ask for the privileged GUILD_MEMBERS intent (``DISCORD_MEMBER_EVENTS``),
            so that a member who leaves a server ends their games there at once; it must be
            enabled in the Developer Portal first.

    Raises:
        ValueError: a value is unusable; the message names its setting.
    """

    token: str = field(repr=False)
    guild_ids: tuple[int, ...] = ()
    api_base_url: str = DEFAULT_API_BASE_URL
    gateway_url: str = DEFAULT_GATEWAY_URL
    shard_count: int | None = None
    shard_ids: tuple[int, ...] = ()
    member_events: bool = False

    def __post_init__(self) -> None:
        if not self.token.strip():
            raise ValueError("DISCORD_TOKEN is empty")
        if any(not isinstance(g, int) or isinstance(g, bool) or g <= 0 for g in self.guild_ids):
            raise ValueError(f"DISCORD_GUILD_IDS must be positive numbers, got {self.guild_ids!r}")
        if not self.api_base_url.startswith(("https://", "http://")):
            raise ValueError(
                f"DISCORD_API_BASE_URL must start with https:// or http://,"
                f" got {self.api_base_url!r}"
            )
        if not self.gateway_url.startswith(("wss://", "ws://")):
            raise ValueError(
                f"DISCORD_GATEWAY_URL must start with wss:// or ws://, got {self.gateway_url!r}"
            )
        if self.shard_count is None:
            if self.shard_ids:
                raise ValueError("DISCORD_SHARD_IDS needs DISCORD_SHARD_COUNT")
        elif self.shard_count < 1:
            raise ValueError(f"DISCORD_SHARD_COUNT must be 1 or more, got {self.shard_count}")
        elif len(set(self.shard_ids)) != len(self.shard_ids) or not all(
            0 <= shard < self.shard_count for shard in self.shard_ids
        ):
            raise ValueError(
                f"DISCORD_SHARD_IDS must be distinct numbers from 0 to {self.shard_count - 1},"
                f" got {self.shard_ids!r}"
            )

    @property
    def sharded(self) -> bool:
        """Whether the bot runs discord.py's sharded client."""
        return self.shard_count is not None

    @property
    def shards(self) -> tuple[int, ...]:
        """The shards this process runs (every one of the count when none are named)."""
        if self.shard_count is None:
            return ()
        return self.shard_ids or tuple(range(self.shard_count))

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

    Raises:
        ValueError: a value is unusable; the message names its setting.
    """

    token: str = field(repr=False)
    guild_ids: tuple[int, ...] = ()
    api_base_url: str = DEFAULT_API_BASE_URL
    gateway_url: str = DEFAULT_GATEWAY_URL

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

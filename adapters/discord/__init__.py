"""Discord: slash commands, buttons that survive restarts, boards rendered from neutral replies.

The application builds ``DiscordAdapter(service, DiscordConfig(token=...))`` and awaits
``run(stop)``; see :mod:`adapters.discord.adapter`.
"""

from adapters.discord.adapter import DiscordAdapter
from adapters.discord.config import DiscordConfig

__all__ = ["DiscordAdapter", "DiscordConfig"]

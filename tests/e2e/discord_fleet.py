"""Several real bot processes (``chatbots run``) on one PostgreSQL, each on its own Discord
shards, behind the loopback double: what the multi-process test and the shard benchmark drive.

Each :class:`ShardProcess` is one slot of the fleet: its shard ids, a working folder, and the
lives of the processes that ran them (see :class:`benchmarks.soak.bot.BotProcess`). A life is up
once the application logged ``started`` and every shard of the slot identified on the double.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from adapters.discord.ids import MoveId, parse_custom_id
from benchmarks.soak.bot import BotProcess, Life
from tests.e2e.discord_double import TOKEN, DiscordDouble, Json, buttons


def bot_settings(
    double: DiscordDouble, database_url: str, shards: tuple[int, ...], **more: str
) -> dict[str, str]:
    """The environment of a bot process on ``shards`` of the double's shard count."""
    return {
        "DISCORD_TOKEN": TOKEN,
        "DISCORD_API_BASE_URL": double.api_base_url,
        "DISCORD_GATEWAY_URL": double.gateway_url,
        "DISCORD_SHARD_COUNT": str(double.shard_count),
        "DISCORD_SHARD_IDS": ",".join(map(str, shards)),
        "DATABASE_URL": database_url,
        "AI_WORKERS": "0",  # EASY games: the moves are the store's and the gateway's work
        "LOG_LEVEL": "INFO",
    } | more


class ShardProcess:
    """One process slot of the fleet, on fixed shards; :meth:`start` runs a new process."""

    def __init__(
        self,
        double: DiscordDouble,
        folder: Path,
        database_url: str,
        shards: tuple[int, ...],
        **more: str,
    ) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.double = double
        self.shards = shards
        self.process = BotProcess(
            folder, bot_settings(double, database_url, shards, **more), self._identified
        )

    def _identified(self) -> int:
        # The life is up when every shard of the slot identified once more than before.
        return min(
            sum(1 for shard, _ in self.double.identified if shard == wanted)
            for wanted in self.shards
        )

    async def start(self) -> Life:
        return await self.process.start()

    async def kill(self) -> float:
        """SIGKILL the running process; returns ``time.monotonic()`` when the signal went."""
        killed_at = time.monotonic()
        await self.process.stop("KILL")
        return killed_at

    async def stop(self) -> Life:
        return await self.process.stop("TERM")


@dataclass
class Game:
    """One player's game against EASY on one board, as the player saw it."""

    player: str
    board_id: int
    clicks: list[int]  # the moves the player made that the bot acknowledged, in order

    def free(self, double: DiscordDouble) -> list[str]:
        return free_cells(double.messages[self.board_id])


def free_cells(message: Json) -> list[str]:
    """The custom ids of the cells that can be played now."""
    return [
        b["custom_id"]
        for b in buttons(message)
        if ":move:" in b["custom_id"] and not b.get("disabled")
    ]


def move_of(custom_id: str) -> int:
    button = parse_custom_id(custom_id)
    assert isinstance(button, MoveId), custom_id
    return button.move

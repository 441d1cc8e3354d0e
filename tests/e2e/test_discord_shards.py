"""Discord shards in one process: the real discord.py AutoShardedClient against the double.

The double routes as Discord does: a guild's commands and clicks on the shard
``(guild_id >> 22) % count``, direct messages on shard 0. The bot on shards 0 and 1 of 2 plays in
a guild of each; a process holding shard 1 alone never hears a guild of shard 0. Two processes on
one database are tested in ``test_discord_processes.py``.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from aiohttp import ClientSession, WSMsgType

from adapters.discord.bot import GameBot
from adapters.discord.shards import ShardedGameBot
from tests.e2e.discord_double import TOKEN, DiscordDouble, Json, Sent, buttons
from tests.e2e.discord_harness import Harness


def free_cells(message: Json) -> list[str]:
    return [
        b["custom_id"]
        for b in buttons(message)
        if ":move:" in b["custom_id"] and not b.get("disabled")
    ]


def answered(sent: Sent) -> bool:
    return sent.delivered and sent.answered.is_set() and not sent.ephemeral()


async def test_one_process_serves_the_guilds_of_both_its_shards(tmp_path: Path) -> None:
    async with DiscordDouble(shards=2) as double:
        guilds = [double.add_guild("zero", shard=0), double.add_guild("one", shard=1)]
        assert [double.shard_of(g.id) for g in guilds] == [0, 1]
        harness = Harness(double, tmp_path / "bot.sqlite3")
        await harness.start(shard_count=2)
        try:
            assert isinstance(harness.bot, ShardedGameBot)
            assert sorted(double.identified) == [(0, 2), (1, 2)]
            adapter = harness.adapter
            assert adapter is not None
            # Ready (for the health check) once every shard's guilds arrived.
            await asyncio.wait_for(harness.bot.wait_until_ready(), 10)
            assert adapter.connected
            for guild, player in zip(guilds, ["alice", "bob"], strict=True):
                start = await double.slash("tres", {"level": "easy"}, user=player, guild=guild)
                assert start.shard == double.shard_of(guild.id) and answered(start)
                board = double.messages[start.original_id or 0]
                assert board["channel_id"] == guild.channel_id
                click = await double.click(int(board["id"]), free_cells(board)[0], user=player)
                assert click.shard == start.shard and answered(click)
                assert len(free_cells(double.messages[int(board["id"])])) == 7  # both moves
            dm = await double.slash("tres", {"level": "easy"}, user="carol", dm=True)
            assert dm.shard == 0 and answered(dm)
            await double.ask_reconnect(shard=1)  # a shard resumes alone, on its session
            await double.wait_for(lambda: double.resume_count == 1)
            again = await double.slash("tres", user="dave", guild=guilds[1])
            assert again.shard == 1 and answered(again)
        finally:
            await harness.stop()


async def test_a_process_hears_only_the_guilds_of_its_shards(tmp_path: Path) -> None:
    async with DiscordDouble(shards=2) as double:
        theirs = double.add_guild("theirs", shard=0)
        ours = double.add_guild("ours", shard=1)
        harness = Harness(double, tmp_path / "bot.sqlite3")
        await harness.start(shard_count=2, shard_ids=(1,))
        try:
            assert double.identified == [(1, 2)]
            assert answered(await double.slash("tres", user="alice", guild=ours))
            lost = await double.slash("tres", user="bob", guild=theirs, wait=False)
            assert not lost.delivered and not lost.requests  # Discord: "interaction failed"
        finally:
            await harness.stop()


async def test_unsharded_the_bot_identifies_as_before(tmp_path: Path) -> None:
    async with DiscordDouble() as double:
        harness = Harness(double, tmp_path / "bot.sqlite3")
        await harness.start()
        try:
            assert type(harness.bot) is GameBot
            assert double.identified == [(0, 1)]
            assert answered(await double.slash("tres", user="alice"))
        finally:
            await harness.stop()


async def test_the_double_makes_distinct_guilds_on_the_shard_asked_for() -> None:
    async with DiscordDouble(shards=3) as double:
        made = [double.add_guild(f"g{n}", shard=n % 3, channels=2, roles=2) for n in range(30)]
        assert len({guild.id for guild in made}) == 30
        assert [double.shard_of(guild.id) for guild in made] == [n % 3 for n in range(30)]
        assert all(double.guild_of_channel(guild.channel_id) is guild for guild in made)


async def test_the_double_closes_an_identify_for_a_shard_beyond_the_count() -> None:
    async with DiscordDouble(shards=2) as double, ClientSession() as http:
        async with http.ws_connect(double.gateway_url) as ws:
            hello = json.loads((await ws.receive()).data)
            assert hello["op"] == 10
            await ws.send_str(json.dumps({"op": 2, "d": {"token": TOKEN, "shard": [2, 2]}}))
            closed = await ws.receive()
            assert closed.type is WSMsgType.CLOSE and closed.data == 4010
        assert double.identified == []


async def test_one_process_syncs_the_commands_and_the_next_takes_over(tmp_path: Path) -> None:
    async with DiscordDouble(shards=2) as double:
        first = Harness(double, tmp_path / "bot.sqlite3")
        second = Harness(double, tmp_path / "bot.sqlite3")
        await first.start(shard_count=2, shard_ids=(0,))
        await second.start(shard_count=2, shard_ids=(1,), syncs=False)
        try:
            assert double.command_syncs == 1  # the second waits on the lease
            assert sorted(double.identified) == [(0, 2), (1, 2)]
            await first.stop()  # a clean stop gives the lease up: the second syncs
            await double.wait_for(lambda: double.command_syncs == 2, within=10.0)
        finally:
            await second.stop()
            await first.stop()

"""A token Discord refuses ends ``chatbots run`` with one line that says so and where to get a
new one, not a traceback (issue 21): at the gateway (close code 4004, "Authentication failed")
and at the REST login (401), both through the Discord double and a real bot process, with one
client and with the sharded one."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from chatbots.app import EXIT_CONFIG
from tests.e2e.bot_processes import start_bot
from tests.e2e.discord_double import DiscordDouble

REFUSED = "MTIwMDAwMDAwMDA.refused.token"


@pytest.mark.parametrize("where", ["gateway", "gateway, sharded", "rest"])
async def test_a_refused_token_is_one_line_naming_where_to_get_a_new_one(
    tmp_path: Path, where: str
) -> None:
    sharded = {"DISCORD_SHARD_COUNT": "2"} if "sharded" in where else {}
    async with DiscordDouble(check_rest_token=where == "rest", shards=2) as double:
        bot = await start_bot(
            tmp_path,
            "bot",
            {
                "DISCORD_TOKEN": REFUSED,
                "DISCORD_API_BASE_URL": double.api_base_url,
                "DISCORD_GATEWAY_URL": double.gateway_url,
                "DATABASE_PATH": str(tmp_path / "games.sqlite3"),
                **sharded,
            },
        )
        try:
            code = await asyncio.wait_for(bot.process.wait(), 30)
        finally:
            await bot.kill()
        refusals = [r for r in double.requests if r.status == 401]
        assert bool(refusals) == (where == "rest"), double.requests
        assert double.identify_count == 0
    log = bot.log_text()
    assert code == EXIT_CONFIG, log
    assert "Traceback" not in log
    [line] = [line for line in log.splitlines() if " ERROR " in line]
    assert "discord: the token was refused (DISCORD_TOKEN)" in line, line
    assert "Developer Portal" in line and "Bot" in line and "Reset Token" in line, line
    assert REFUSED not in log
    # The sharded client's path was taken; which of its shards it held first (0, 1 or both) is
    # up to how the leases came in, and the refusal ends the run there.
    assert ("discord: running shards " in log) == bool(sharded)

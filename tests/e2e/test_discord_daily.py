"""End to end on Discord: a server's daily puzzle is set from the channel that gets it, and
is refused where the bot could not post it (issue 35), through the real client and service
against the loopback double."""

from __future__ import annotations

import discord

from core.i18n import render
from core.sessions import GameService
from core.store import settings as stored
from tests.e2e.discord_double import DiscordDouble, buttons, text_of
from tests.e2e.discord_harness import Harness, clock, double, harness

__all__ = ["clock", "double", "harness"]  # fixtures


async def set_daily(
    double: DiscordDouble, value: str, channel: str, *, user_install: bool = False
) -> list[str]:
    sent = await double.slash(
        "settings",
        {"key": "daily_puzzle", "value": value},
        user="bob",
        channel=channel,
        user_install=user_install,
        granted=user_install,  # Discord hides /settings there; a stale client sends it
    )
    assert sent.public() == [], sent.public()
    return sent.ephemeral()


async def daily_value(harness: Harness, double: DiscordDouble) -> str | None:
    rows = await harness.bot.service.store.run(
        stored.settings_rows("discord", [f"server:{double.guild_id}"])
    )
    return next((row.value for row in rows if row.key == "daily_puzzle"), None)


async def test_the_channel_it_is_set_from_gets_the_post_where_the_bot_may_post(
    harness: Harness, double: DiscordDouble
) -> None:
    double.grant("bob")  # Manage Server
    channels = double.guilds[double.guild_id].channels
    games, general = channels["games"], channels["general"]

    said, when = await set_daily(double, "9", "games")
    assert said == f"daily_puzzle is now 9 <#{games}> for this server.", said
    assert when.startswith(f"The daily puzzle will be posted in <#{games}> every day at 09:00 UTC")
    assert await daily_value(harness, double) == f"9 {games}"

    # Without Send Messages in #general: said so, nothing changed.
    allowed = discord.Permissions(2248473465835073)
    allowed.send_messages = False
    double.app_permissions[general] = allowed.value
    [refused] = await set_daily(double, "10", "general")
    assert refused == render("puzzle.daily_no_post", "en", channel=f"<#{general}>"), refused
    assert await daily_value(harness, double) == f"9 {games}"

    # Another channel of the server may be named; one the server does not have may not.
    said, when = await set_daily(double, f"10 <#{general}>", "games")
    assert said == f"daily_puzzle is now 10 <#{general}> for this server.", said
    [refused] = await set_daily(double, "8 <#12345>", "games")
    assert refused == render("puzzle.daily_not_here", "en", channel="<#12345>"), refused

    # A server that did not install the bot (a user's install): nothing could post there.
    [refused] = await set_daily(double, "9", "games", user_install=True)
    assert refused == render("puzzle.daily_no_post", "en", channel=f"<#{games}>"), refused
    assert await daily_value(harness, double) == f"10 {general}"

    # Its hour has come (the double's clock is 22:13 UTC): the post is the bot's own message in
    # #general, the day's board under its line, and nothing in #games.
    service = harness.bot.service
    assert isinstance(service, GameService)
    assert await service.post_daily_puzzles() == 1
    await service.open_games_idle()
    posted = [m for m in double.messages.values() if "puzzle of the day" in text_of(m)]
    assert [str(m["channel_id"]) for m in posted] == [general]
    assert text_of(posted[0]).startswith("The puzzle of the day, 2023-11-14")
    assert buttons(posted[0])

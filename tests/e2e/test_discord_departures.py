"""End to end on the Discord double: a member who leaves the server, the bot removed from a
server, a deleted channel or thread: the games there end as abandoned, as the gateway says."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from chatbots.app import EXIT_CONFIG
from core.games import Outcome, Termination
from core.i18n import render
from core.store import Session, Status, departures, sessions
from core.store import stats as store_stats
from tests.e2e.bot_processes import start_bot
from tests.e2e.discord_double import TOKEN, DiscordDouble, Json, button_ids, buttons
from tests.e2e.discord_harness import Harness, double

__all__ = ["double"]  # the fixture


@pytest.fixture
async def members_harness(double: DiscordDouble, tmp_path: Path) -> AsyncIterator[Harness]:
    """A bot that asked for the GUILD_MEMBERS intent (``DISCORD_MEMBER_EVENTS=on``)."""
    running = Harness(double, tmp_path / "bot.sqlite3")
    await running.start(member_events=True)
    try:
        yield running
    finally:
        await running.stop()


@pytest.fixture
async def harness(double: DiscordDouble, tmp_path: Path) -> AsyncIterator[Harness]:
    running = Harness(double, tmp_path / "bot.sqlite3")
    await running.start()
    try:
        yield running
    finally:
        await running.stop()


async def game(double: DiscordDouble, alice: str, bob: str, channel: str = "games") -> int:
    """``alice`` challenges ``bob`` in ``channel``, he accepts, each plays once; the board's
    message id."""
    challenge = await double.slash("tres", {"opponent": bob}, user=alice, channel=channel)
    assert challenge.original_id is not None
    message_id = challenge.original_id
    accept = next(c for c in button_ids(double.messages[message_id]) if c.endswith(":accept"))
    await double.click(message_id, accept, user=bob)
    for player, cell in ((alice, 0), (bob, 4)):
        move = next(c for c in button_ids(double.messages[message_id]) if c.endswith(f":{cell}"))
        await double.click(message_id, move, user=player)
    return message_id


async def stored(harness: Harness, message: Json) -> Session:
    session_id = button_ids(message)[0].split(":")[2]
    session = await harness.service.store.run(sessions.get(session_id))
    assert session is not None
    return session


async def until_ended(harness: Harness, message: Json, within: float = 10.0) -> Session:
    """The game of ``message`` once it is finished (the gateway event is handled in its own
    time)."""
    deadline = time.monotonic() + within
    while (session := await stored(harness, message)).status is not Status.FINISHED:
        assert time.monotonic() < deadline, "the game did not end"
        await asyncio.sleep(0.02)
    return session


async def test_a_member_who_leaves_loses_the_game_and_the_other_plays_again(
    members_harness: Harness, double: DiscordDouble
) -> None:
    board_id = await game(double, "alice", "bob")
    assert await double.member_leaves("bob")
    said = render("game.abandoned", "en", player="Bob", winner="Alice")
    await double.wait_for(lambda: said in double.messages[board_id]["content"])
    # ...and said in the channel, a message of its own, where Alice sees it come.
    await double.wait_for(
        lambda: any(m["content"] == said for i, m in double.messages.items() if i != board_id)
    )
    board = double.messages[board_id]
    cells = [b for b in buttons(board) if ":move:" in b["custom_id"]]
    assert cells and all(b.get("disabled") for b in cells)
    assert (await stored(members_harness, board)).outcome == Outcome(Termination.ABANDONED, 1)
    # No loss for Alice, who is free at once.
    stats = await double.slash("stats", user="alice")
    assert stats.public() == [
        render(
            "stats.player", "en", player="Alice", wins=1, losses=0, draws=0,
            chat_wins=1, chat_losses=0, chat_draws=0,
        )
    ]  # fmt: skip
    again = await double.slash("tres", {"opponent": "carol"}, user="alice")
    assert again.public() and "Carol" in again.public()[0]
    # Carol leaves too: Alice's challenge is off, and its message says so, without buttons.
    challenge_id = again.original_id
    assert challenge_id is not None
    assert await double.member_leaves("carol")
    off = render("game.challenge_left", "en", player="Carol")
    await double.wait_for(lambda: double.messages[challenge_id]["content"] == off)
    assert buttons(double.messages[challenge_id]) == []


async def test_without_the_members_intent_a_departure_is_found_when_the_stayer_is_held(
    harness: Harness, double: DiscordDouble
) -> None:
    board_id = await game(double, "alice", "bob")
    click = await double.click(board_id, cell(double, board_id, 8), user="alice")
    assert not click.ephemeral()  # Alice's move; Bob to move
    # Discord sends no member events to a session without the intent.
    assert not await double.member_leaves("bob")
    session = await stored(harness, double.messages[board_id])
    assert session.status is Status.ACTIVE
    # Alice presses a cell while waiting: Bob is looked up, found gone, and the game ends,
    # in the click's own answer (the board updated, the result in a message of its own).
    waiting = await double.click(board_id, cell(double, board_id, 2), user="alice")
    said = render("game.abandoned", "en", player="Bob", winner="Alice")
    assert waiting.callback["type"] == 7 and said in double.messages[board_id]["content"]
    assert said in waiting.public()
    assert [r.kind for r in double.requests].count("member_get") == 1  # one lookup
    ended = await stored(harness, double.messages[board_id])
    assert ended.outcome == Outcome(Termination.ABANDONED, 1)

    # Carol's challenge to Dave, who left before answering: her next game frees her.
    challenge = await double.slash("tres", {"opponent": "dave"}, user="carol")
    assert challenge.original_id is not None
    assert not await double.member_leaves("dave")
    again = await double.slash("tres", {"level": "easy"}, user="carol")
    assert again.original_id is not None and not again.ephemeral()
    off = render("game.challenge_left", "en", player="Dave")
    await double.wait_for(lambda: double.messages[challenge.original_id or 0]["content"] == off)


def cell(double: DiscordDouble, board_id: int, n: int) -> str:
    return next(c for c in button_ids(double.messages[board_id]) if c.endswith(f":{n}"))


async def test_the_bot_removed_from_a_server_ends_every_game_there(
    harness: Harness, double: DiscordDouble
) -> None:
    here = double.guilds[double.guild_id]
    first = await game(double, "alice", "bob")
    second = await game(double, "carol", "dave", channel="general")
    await double.slash("tres", {"opponent": "gina"}, user="hank", channel="general")
    # A game in a direct message is no game of that server.
    other = await double.slash("tres", {"level": "easy"}, user="alice", dm=True)
    assert other.original_id is not None
    requests_before = len(double.requests)
    await double.remove_guild(here)
    for board_id in (first, second):
        ended = await until_ended(harness, double.messages[board_id])
        assert ended.outcome == Outcome(Termination.ABANDONED)  # nobody claims it
    chats = list(here.channels.values())
    assert await harness.service.store.run(departures.live_in_chats("discord", chats)) == []
    assert (await stored(harness, double.messages[other.original_id])).status is Status.ACTIVE
    # The bot cannot write there any more, and does not try.
    assert not [r for r in double.requests[requests_before:] if r.kind.startswith("channel")]
    # Nobody has a loss, or a draw, from it.
    for name in ("alice", "bob", "carol", "dave"):
        stats = await harness.service.store.run(
            store_stats.player_stats("discord", double.user(name)["id"])
        )
        assert stats is None


async def test_a_deleted_thread_or_channel_ends_its_games(
    harness: Harness, double: DiscordDouble
) -> None:
    guild = double.guilds[double.guild_id]
    await double.create_thread(guild, "rematch-night")
    in_thread = await game(double, "alice", "bob", channel="rematch-night")
    in_general = await game(double, "carol", "dave", channel="general")
    in_games = await game(double, "erin", "frank")
    thread_message = double.messages[in_thread]
    general_message = double.messages[in_general]
    await double.delete_thread(guild.channels["rematch-night"])
    assert (await until_ended(harness, thread_message)).outcome == Outcome(Termination.ABANDONED)
    await double.delete_channel(guild.channels["general"])
    assert (await until_ended(harness, general_message)).outcome == Outcome(Termination.ABANDONED)
    assert (await stored(harness, double.messages[in_games])).status is Status.ACTIVE


async def test_a_deleted_channel_takes_the_games_of_its_threads_along(
    harness: Harness, double: DiscordDouble
) -> None:
    guild = double.guilds[double.guild_id]
    await double.create_thread(guild, "side-room", parent="general")
    message = double.messages[await game(double, "alice", "bob", channel="side-room")]
    await double.delete_channel(guild.channels["general"])
    assert (await until_ended(harness, message)).outcome == Outcome(Termination.ABANDONED)


async def test_games_in_archived_threads_end_when_a_player_or_the_bot_leaves(
    members_harness: Harness, double: DiscordDouble
) -> None:
    """discord.py keeps active threads alone: a game in an archived thread is found by the
    server it stored."""
    guild = double.guilds[double.guild_id]
    threads = [await double.create_thread(guild, name) for name in ("slow-1", "slow-2")]
    left = await game(double, "alice", "bob", channel="slow-1")
    kept = await game(double, "carol", "dave", channel="slow-2")
    for thread in threads:
        await double.archive_thread(thread)
    assert await double.member_leaves("bob")
    ended = await until_ended(members_harness, double.messages[left])
    assert ended.outcome == Outcome(Termination.ABANDONED, 1)
    said = render("game.abandoned", "en", player="Bob", winner="Alice")
    await double.wait_for(lambda: said in double.messages[left]["content"])
    assert (await stored(members_harness, double.messages[kept])).status is Status.ACTIVE
    await double.remove_guild(guild)
    ended = await until_ended(members_harness, double.messages[kept])
    assert ended.outcome == Outcome(Termination.ABANDONED)


async def test_a_deleted_archived_thread_ends_its_game(
    harness: Harness, double: DiscordDouble
) -> None:
    guild = double.guilds[double.guild_id]
    thread = await double.create_thread(guild, "quiet", parent="general")
    message = double.messages[await game(double, "alice", "bob", channel="quiet")]
    await double.archive_thread(thread)
    await double.delete_thread(thread)
    assert (await until_ended(harness, message)).outcome == Outcome(Termination.ABANDONED)


async def test_a_deleted_channel_takes_the_games_of_its_archived_threads_along(
    harness: Harness, double: DiscordDouble
) -> None:
    """Discord sends no THREAD_DELETE for a deleted channel's threads, and discord.py keeps no
    archived one: the server's other chats with games are asked of the REST API."""
    guild = double.guilds[double.guild_id]
    under_general = await double.create_thread(guild, "old-game", parent="general")
    under_games = await double.create_thread(guild, "other-game")
    gone = double.messages[await game(double, "alice", "bob", channel="old-game")]
    kept = double.messages[await game(double, "carol", "dave", channel="other-game")]
    for thread in (under_general, under_games):
        await double.archive_thread(thread)
    await double.delete_channel(guild.channels["general"])
    assert (await until_ended(harness, gone)).outcome == Outcome(Termination.ABANDONED)
    fetched = {r.path for r in double.requests if r.kind == "channel_fetch"}
    assert fetched == {f"/channels/{under_general}", f"/channels/{under_games}"}
    assert (await stored(harness, kept)).status is Status.ACTIVE


async def test_member_events_without_the_intent_enabled_is_one_line_saying_so(
    tmp_path: Path,
) -> None:
    async with DiscordDouble(members_intent=False) as refusing:
        bot = await start_bot(
            tmp_path,
            "bot",
            {
                "DISCORD_TOKEN": TOKEN,
                "DISCORD_API_BASE_URL": refusing.api_base_url,
                "DISCORD_GATEWAY_URL": refusing.gateway_url,
                "DISCORD_MEMBER_EVENTS": "on",
                "DATABASE_PATH": str(tmp_path / "games.sqlite3"),
            },
        )
        try:
            code = await asyncio.wait_for(bot.process.wait(), 30)
        finally:
            await bot.kill()
        assert refusing.identify_count == 0
    log = bot.log_text()
    assert code == EXIT_CONFIG, log
    assert "Traceback" not in log
    [line] = [line for line in log.splitlines() if " ERROR " in line]
    assert "Server Members intent" in line and "DISCORD_MEMBER_EVENTS=off" in line, line

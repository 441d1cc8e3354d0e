"""End to end: the app used through a person's own install, where the bot is not a member.

The double holds the bot to what Discord allows there: interactions in context 2 (a group DM)
authorized by the user's install alone (no guild, no member), and every channel endpoint
answering 403 Missing Access. A whole game must be played by buttons on interaction responses
and their update responses (type 7), without a single channel request, and without a single
request that Discord counts against the bot (401, 403, 429).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from core.i18n import render
from core.sessions import ServiceSettings
from tests.e2e.discord_double import DiscordDouble, Json, Sent, button_ids, buttons
from tests.e2e.discord_harness import Harness, ManualClock, clock, double, harness

__all__ = ["clock", "double", "harness"]  # fixtures

X_MARK, O_MARK = "❌", "⭕"
USER_INSTALL_CONTEXTS = [0, 1, 2]


def answered_without_the_channel(double: DiscordDouble, sent: Sent) -> None:
    callbacks = [r for r in sent.requests if r.kind == "callback"]
    assert len(callbacks) == 1 and callbacks[0].status == 200, sent.requests
    assert all(r.status < 300 for r in sent.requests), sent.requests
    assert not [r for r in double.requests if r.path.startswith("/channels/")], double.requests
    assert double.invalid_requests == 0  # none counted toward Discord's limit


def cells(message: Json) -> list[Json]:
    return [b for b in buttons(message) if ":move:" in b["custom_id"]]


def cell_id(message: Json, move: int) -> str:
    return next(
        str(b["custom_id"]) for b in cells(message) if str(b["custom_id"]).endswith(f":{move}")
    )


async def challenge_accepted(double: DiscordDouble, group: str, command: str) -> int:
    challenge = await double.slash(command, {"opponent": "bob"}, user="alice", group=group)
    answered_without_the_channel(double, challenge)
    assert challenge.original_id is not None and not challenge.ephemeral()
    message_id = challenge.original_id
    accept = next(c for c in button_ids(double.messages[message_id]) if c.endswith(":accept"))
    accepted = await double.click(message_id, accept, user="bob")
    answered_without_the_channel(double, accepted)
    assert accepted.callback["type"] == 7
    return message_id


async def test_every_command_but_settings_is_registered_for_user_installs(
    harness: Harness, double: DiscordDouble
) -> None:
    for command in double.global_commands:
        if command["name"] == "settings":
            assert command["integration_types"] == [0] and command["contexts"] == [0]
        else:
            assert sorted(command["integration_types"]) == [0, 1], command["name"]
            assert sorted(command["contexts"]) == USER_INSTALL_CONTEXTS, command["name"]


async def test_tictactoe_in_a_group_dm_by_buttons_alone(
    harness: Harness, double: DiscordDouble
) -> None:
    group = double.group_dm("alice", "bob", "carol")
    board_id = await challenge_accepted(double, group, "tres")

    wrong = await double.click(
        board_id, cell_id(double.messages[board_id], 4), user="carol"
    )  # in the chat, not in the game: still refused on the server's side
    assert wrong.ephemeral() == [render("error.not_your_game", "en")]

    for player, move in [("alice", 0), ("bob", 3), ("alice", 1), ("bob", 4), ("alice", 2)]:
        click = await double.click(board_id, cell_id(double.messages[board_id], move), user=player)
        answered_without_the_channel(double, click)
        assert click.callback["type"] == 7 and not click.ephemeral()
    board = double.messages[board_id]
    assert render("game.won", "en", player="Alice", mark="X") in board["content"]
    assert all(b.get("disabled") for b in cells(board))


async def test_connect_four_in_a_group_dm_survives_a_restart(
    harness: Harness, double: DiscordDouble
) -> None:
    group = double.group_dm("alice", "bob")
    board_id = await challenge_accepted(double, group, "quatre")
    # Alice stacks column 1 while Bob plays column 2: four in a column wins on her fourth.
    moves = [("alice", 0), ("bob", 1), ("alice", 0), ("bob", 1)]
    for player, column in moves:
        click = await double.click(
            board_id, cell_id(double.messages[board_id], column), user=player
        )
        answered_without_the_channel(double, click)

    await harness.stop()
    await harness.start()

    for player, column in [("alice", 0), ("bob", 1), ("alice", 0)]:
        click = await double.click(
            board_id, cell_id(double.messages[board_id], column), user=player
        )
        answered_without_the_channel(double, click)
    board = double.messages[board_id]
    assert render("game.won", "en", player="Alice", mark="X") in board["content"]


async def test_typed_commands_in_a_group_dm_answer_with_a_new_board(
    harness: Harness, double: DiscordDouble
) -> None:
    group = double.group_dm("alice", "bob")
    board_id = await challenge_accepted(double, group, "tres")
    final = await double.slash("final", user="alice", group=group)
    # The old board cannot be edited from outside the chat: the answer shows the result.
    answered_without_the_channel(double, final)
    assert final.original_id is not None and final.original_id != board_id
    assert render("game.ended", "en", player="Alice", game="tic-tac-toe") in final.public()


async def test_bots_games_and_settings_are_refused_clearly(
    harness: Harness, double: DiscordDouble
) -> None:
    group = double.group_dm("alice", "bob")
    watch = await double.slash("tres", {"watch": True}, user="alice", group=group)
    assert watch.ephemeral() == [render("discord.bots_need_the_bot", "en")]
    seek = await double.slash("seek", {"game": "quatre"}, user="alice", group=group)
    assert seek.ephemeral() == [render("discord.open_play_needs_the_bot", "en")]
    # A tournament posts its games and standings in the chats that take part.
    event = await double.slash(
        "tournament", {"action": "join", "event": "abc"}, user="alice", group=group
    )
    assert event.ephemeral() == [render("event.no_post", "en")]
    settings = await double.slash(
        "settings", {"key": "games", "value": "none"}, user="alice", group=group, granted=True
    )
    assert len(settings.ephemeral()) == 1
    assert not [r for r in double.requests if r.path.startswith("/channels/")]


async def test_a_server_without_external_apps_gets_no_half_visible_game(
    harness: Harness, double: DiscordDouble
) -> None:
    double.external_apps = False
    challenge = await double.slash("tres", {"opponent": "bob"}, user="alice", user_install=True)
    assert challenge.ephemeral() == [render("discord.external_apps_off", "en")]
    assert not challenge.public()
    # Nothing was left waiting: Alice may start a game at once where the bot is installed.
    double.external_apps = True
    start = await double.slash("tres", {"level": "easy"}, user="alice")
    assert start.original_id is not None and not start.ephemeral()


@pytest.mark.parametrize("installed", [True, False])
async def test_a_server_that_did_not_install_the_bot_plays_through_interactions(
    harness: Harness, double: DiscordDouble, installed: bool
) -> None:
    # Installed by the server too, or only by its users: there the double refuses every
    # channel request, and counts it.
    theirs = (
        double.guilds[double.guild_id] if installed else double.add_guild("theirs", installed=False)
    )
    challenge = await double.slash(
        "tres", {"opponent": "bob"}, user="alice", user_install=True, guild=theirs
    )
    answered_without_the_channel(double, challenge)
    message_id = challenge.original_id
    assert message_id is not None
    accept = next(c for c in button_ids(double.messages[message_id]) if c.endswith(":accept"))
    accepted = await double.click(message_id, accept, user="bob")
    answered_without_the_channel(double, accepted)
    assert accepted.callback["type"] == 7
    assert accepted.payload["authorizing_integration_owners"] == {"1": double.user("alice")["id"]}
    final = await double.slash("final", user="alice", user_install=True, guild=theirs)
    answered_without_the_channel(double, final)


async def test_clicks_after_the_first_tokens_fifteen_minutes_still_play(
    harness: Harness, double: DiscordDouble
) -> None:
    group = double.group_dm("alice", "bob")
    board_id = await challenge_accepted(double, group, "tres")
    first = await double.click(board_id, cell_id(double.messages[board_id], 4), user="alice")
    answered_without_the_channel(double, first)

    double.expire_tokens()  # a quarter of an hour later: every token so far is dead
    for player, move in [("bob", 0), ("alice", 2), ("bob", 1), ("alice", 6)]:
        click = await double.click(board_id, cell_id(double.messages[board_id], move), user=player)
        answered_without_the_channel(double, click)
        assert click.callback["type"] == 7
    board = double.messages[board_id]
    assert render("game.won", "en", player="Alice", mark="X") in board["content"]
    assert not [r for r in double.requests if r.status == 401]


async def test_a_click_on_a_board_whose_game_ended_meanwhile_shows_the_result(
    harness: Harness, double: DiscordDouble
) -> None:
    group = double.group_dm("alice", "bob")
    board_id = await challenge_accepted(double, group, "tres")
    for player, move in [("alice", 4), ("bob", 0)]:
        await double.click(board_id, cell_id(double.messages[board_id], move), user=player)
    # Bob resigns by a typed command: its answer is a board of its own, the first board is
    # left as it was (nothing reaches it from outside the chat).
    await double.slash("final", user="bob", group=group)
    stale = double.messages[board_id]
    assert not all(b.get("disabled") for b in cells(stale))

    click = await double.click(board_id, cell_id(stale, 8), user="alice")
    answered_without_the_channel(double, click)
    assert click.callback["type"] == 7  # the board itself, brought up to its end
    board = double.messages[board_id]
    resigned = render("game.resigned", "en", player="Bob", winner="Alice")
    assert resigned in board["content"], board["content"]
    assert all(b.get("disabled") for b in cells(board))
    assert click.ephemeral() == [render("error.board_changed", "en")]  # and why, to Alice


async def test_help_says_what_differs_where_the_bot_is_not_a_member(
    harness: Harness, double: DiscordDouble
) -> None:
    note = render("discord.help_user_install", "en")
    group = double.group_dm("alice", "bob")
    here = await double.slash("help", user="alice", group=group)
    answered_without_the_channel(double, here)
    # The help itself first (one message: it fits Discord's 2,000 characters), then the note.
    help_messages = len((await double.slash("help", user="alice")).ephemeral())
    assert help_messages == 1
    assert len(here.ephemeral()) == help_messages + 1 and here.ephemeral()[-1] == note
    assert "/tres" in here.ephemeral()[0]
    elsewhere = await double.slash("help", user="alice", user_install=True)
    assert elsewhere.ephemeral()[-1] == note
    # Where the bot is a member (a server that added it, its own DM) nothing differs.
    for installed in (
        await double.slash("help", user="alice"),
        await double.slash("help", user="alice", dm=True),
    ):
        assert len(installed.ephemeral()) == help_messages and note not in installed.ephemeral()


async def test_a_timed_game_that_ran_out_in_a_group_dm_shows_it_at_the_next_click(
    double: DiscordDouble, tmp_path: Path, clock: ManualClock
) -> None:
    # Due clocks are swept by hand (the loop's own sweep waits an hour), the clock moved by hand.
    settings = ServiceSettings(
        ai_workers=0, ai_warm_up=False, ai_budget=0.3, sweep_interval=3600.0, clock_interval=3600
    )
    running = Harness(double, tmp_path / "timed.sqlite3", clock=clock, settings=settings)
    await running.start()
    try:
        group = double.group_dm("alice", "bob")
        challenge = await double.slash(
            "tres", {"opponent": "bob", "clock": "1m"}, user="alice", group=group
        )
        board_id = challenge.original_id
        assert board_id is not None
        accept = next(c for c in button_ids(double.messages[board_id]) if c.endswith(":accept"))
        await double.click(board_id, accept, user="bob")
        stale = double.snapshot(board_id)
        assert "<t:" in stale["content"]  # the deadline, counted down by Discord
        # A restart: what the interactions said of the chat is kept in the store.
        await running.stop()
        await running.start()

        # Neither the reminder nor the timeout is told in the group DM: Discord would refuse
        # it (403), and count the refusal against the bot, so the bot does not try.
        clock.advance(50)  # past the reminder, due when a fifth of Alice's minute is left
        assert await running.service.sweep_clocks() == 0
        await running.service.clocks_idle()
        assert not [r for r in double.requests if r.path.startswith("/channels/")]
        clock.advance(15)  # Alice, who starts, lets her time run out
        assert await running.service.sweep_clocks() == 1
        await running.service.clocks_idle()
        assert not [r for r in double.requests if r.path.startswith("/channels/")]
        assert double.invalid_requests == 0
        assert double.messages[board_id] == stale  # unchanged so far

        click = await double.click(board_id, cell_id(stale, 4), user="bob")
        assert click.callback["type"] == 7  # the board itself, brought to its end
        board = double.messages[board_id]
        timeout = render("game.timeout", "en", player="Alice", winner="Bob")
        assert timeout in board["content"] and "<t:" not in board["content"]
        assert all(b.get("disabled") for b in cells(board))
    finally:
        await running.stop()

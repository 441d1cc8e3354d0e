"""Slash-command option values -> neutral commands: resolved users, one validation path."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from adapters.discord.commands import WATCH
from adapters.discord.options import channel_written, command_from_options, move_from_text
from core.ai import Level
from core.commands import (
    COMMANDS,
    Block,
    BotVsBot,
    CommandError,
    CommandSpec,
    MoveText,
    Settings,
    SettingsScope,
    Stats,
    VsBot,
    VsUser,
    find_command,
    parse,
    start_from_options,
)
from core.errors import UserError
from core.replies import Actor

BOT_ID = 900


def user(user_id: int, name: str, *, bot: bool = False) -> discord.User:
    """A user as discord.py builds it from an interaction's resolved data."""
    data: Any = {
        "id": str(user_id),
        "username": name.lower(),
        "global_name": name,
        "discriminator": "0",
        "avatar": None,
        "bot": bot,
    }
    return discord.User(state=None, data=data)  # type: ignore[arg-type]


def row(name: str) -> CommandSpec:
    spec = find_command(name)
    assert spec is not None
    return spec


def convert(name: str, *, in_guild: bool = True, **options: Any) -> Any:
    return command_from_options(row(name), options, bot_id=BOT_ID, in_guild=in_guild)


def test_a_picked_user_is_a_resolved_opponent() -> None:
    start = convert("tres", opponent=user(5, "Bob"), first="opponent")
    assert start == start_from_options(
        row("tres").kind,  # type: ignore[arg-type]
        opponent=VsUser("5", "Bob"),
        first="opponent",
    )
    assert start.opponent == VsUser("5", "Bob")


def test_the_bot_itself_is_a_game_against_it_at_the_level_chosen() -> None:
    assert convert("tres", opponent=user(BOT_ID, "C4 Bot", bot=True), level="hard").opponent == (
        VsBot(Level.HARD)
    )


def test_watch_is_a_bots_game() -> None:
    assert convert("quatre", **{WATCH: True}) == parse("/quatre bot")
    assert convert("tres", level="easy", **{WATCH: True}).opponent == BotVsBot(
        Level.EASY, Level.EASY
    )
    assert convert("tres", **{WATCH: False}) == parse("/tres")


@pytest.mark.parametrize(
    ("options", "key"),
    [
        ({"opponent": user(7, "Robo", bot=True)}, "discord.opponent_is_bot"),
        ({"opponent": user(5, "Bob"), "level": "hard"}, "parse.twice.opponent"),
        ({"opponent": user(5, "Bob"), WATCH: True}, "parse.twice.opponent"),
        ({"size": "six by seven"}, "parse.bad_size"),
        ({"size": "6x7", "level": "godlike"}, "parse.bad_option"),
    ],
)
def test_bad_values_are_the_players_mistakes(options: dict[str, Any], key: str) -> None:
    with pytest.raises(UserError) as caught:
        convert("quatre", **options)
    assert caught.value.key == key


def test_no_challenge_in_direct_messages() -> None:
    with pytest.raises(UserError) as caught:
        convert("tres", in_guild=False, opponent=user(5, "Bob"))
    assert caught.value.key == "discord.challenge_in_dm"
    assert convert("tres", in_guild=False, level="easy").opponent == VsBot(Level.EASY)


def test_stats_of_a_picked_player_carry_the_id_and_the_name() -> None:
    assert convert("stats", player=user(5, "Bob")) == Stats("5", "Bob")
    assert convert("stats", player=None) == Stats()


def test_block_names_a_picked_player_or_a_recent_opponent() -> None:
    assert convert("block", player=user(5, "Bob")) == Block("5", "Bob")
    # A Matrix opponent has no Discord user to pick: the name their board showed, or none.
    named = command_from_options(row("block"), {"name": " Bo Smith "}, bot_id=BOT_ID, in_guild=True)
    assert named == Block(None, "Bo Smith")
    assert convert("block") == Block() == parse("/block")


def test_every_table_row_converts() -> None:
    # A row without options needs no adapter code: the table's builder makes its command.
    for spec in COMMANDS:
        if spec.kind is None and not spec.options:
            assert command_from_options(spec, {}, bot_id=None, in_guild=True) == parse(
                f"/{spec.name}"
            )


def test_move_text_is_parsed_once() -> None:
    assert move_from_text("b2") == MoveText("b2", coord=(1, 1))
    assert move_from_text(" 5 ") == MoveText("5", number=5)
    for text in ("hello", "/help"):
        with pytest.raises(UserError) as caught:
            move_from_text(text)
        assert caught.value.key == "discord.not_a_move"
    with pytest.raises(CommandError) as bad:
        move_from_text("b0")
    assert bad.value.key == "parse.bad_move"


def test_settings_options_are_the_settings_command() -> None:
    assert convert("settings") == Settings()
    assert convert("settings", key="level", value="hard", scope="channel") == Settings(
        "level", "hard", scope=SettingsScope.CHANNEL
    )
    assert convert("settings", key="cooldown", value="reset") == Settings("cooldown", reset=True)
    with pytest.raises(CommandError):
        convert("settings", value="hard")  # a value for no key


def test_a_channel_written_in_a_setting_is_its_id() -> None:
    actor = Actor("discord", "7", "1", "Alice", server_id="9", is_admin=True)
    assert channel_written(actor, "<#123>") == "123"
    assert channel_written(actor, " <#123> ") == "123"
    assert channel_written(actor, "123") == "123"
    assert channel_written(actor, "<#12a>") == "<#12a>"  # not a mention: left for core to refuse
    assert channel_written(actor, "<@123>") == "<@123>"


def test_the_tournament_name_option_is_the_events_name() -> None:
    options = {"action": "swiss", "game": "tres", "start": "18:30", "name": " Friday  blitz "}
    made = command_from_options(row("tournament"), options, bot_id=BOT_ID, in_guild=True)
    assert made == parse("/tournament swiss tres 18:30 name Friday blitz")

"""DISCORD_MEMBER_EVENTS: off unless switched on; anything else is one problem naming the key."""

from __future__ import annotations

import pytest

from chatbots.settings import SettingsError, load_settings

TOKEN = "MTA5.discord-token.value_1"


def member_events(**environ: str) -> bool:
    settings = load_settings({"DISCORD_TOKEN": TOKEN, **environ}, None)
    assert settings.discord is not None
    return settings.discord.member_events


def test_off_unless_switched_on() -> None:
    assert member_events() is False
    assert member_events(DISCORD_MEMBER_EVENTS="off") is False
    assert member_events(DISCORD_MEMBER_EVENTS="On") is True
    assert member_events(DISCORD_MEMBER_EVENTS=" true ") is True


def test_a_bad_value_names_the_key_and_the_choices() -> None:
    with pytest.raises(SettingsError) as caught:
        load_settings({"DISCORD_TOKEN": TOKEN, "DISCORD_MEMBER_EVENTS": "sometimes"}, None)
    (line,) = caught.value.problems
    assert line.startswith("DISCORD_MEMBER_EVENTS:") and "on nor off" in line

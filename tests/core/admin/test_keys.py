"""The settings' key table: every value round-trips through the text that is shown and stored,
bad values get a clear error naming the key, and the command parses every form."""

from __future__ import annotations

import zoneinfo
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.admin.daily import DailyAt
from core.admin.keys import BY_NAME, KEYS, SETTING_NAMES, Effective, check_defaults
from core.ai.levels import Level
from core.commands import (
    CommandError,
    Settings,
    SettingsScope,
    format_command,
    parse,
    settings_from_options,
)
from core.errors import UserError
from core.games.kinds import STARTERS
from core.i18n import LOCALES, render
from core.pictures import THEMES
from core.sessions import ServiceSettings

_SECONDS = {"game_ttl": (60, 2_592_000), "challenge_ttl": (10, 86400), "cooldown": (0, 86400)}
_WHOLE = {"rate_burst": (1, 1000), "rate_per_minute": (1, 6000), "boards_per_minute": (1, 600)}
_CHAT = st.text(
    st.characters(min_codepoint=0x21, max_codepoint=0x7E, exclude_characters=","),
    min_size=1,
    max_size=30,
).filter(lambda word: word.lower() != "none")

VALUES: dict[str, st.SearchStrategy[Any]] = {
    "games": st.frozensets(st.sampled_from(STARTERS)),
    "max_board": st.tuples(st.integers(3, 25), st.integers(3, 25)),
    "pvp": st.booleans(),
    "bot_vs_bot": st.booleans(),
    "rated": st.booleans(),
    "open_play": st.booleans(),
    "public_ladder": st.booleans(),
    "web_links": st.booleans(),
    "puzzles": st.booleans(),
    "daily_puzzle": st.none()
    | st.builds(DailyAt, st.integers(0, 23), st.none() | _CHAT.filter(str.isalnum)),
    "timezone": st.sampled_from(sorted(zoneinfo.available_timezones())),
    "level": st.sampled_from(list(Level)),
    "language": st.sampled_from(LOCALES),
    "theme": st.sampled_from(["auto", *THEMES]),
    "board_style": st.sampled_from(["text", "picture"]),
    **{
        name: st.floats(low, high, allow_nan=False, allow_infinity=False)
        for name, (low, high) in _SECONDS.items()
    },
    "max_games_per_user": st.none() | st.integers(1, 1000),
    "max_games_per_chat": st.none() | st.integers(1, 1000),
    "allowed_chats": st.frozensets(_CHAT, max_size=10),
    "clock": st.sampled_from(["auto", None]) | st.floats(10, 7 * 86400, allow_nan=False),
    "max_clock": st.floats(10, 7 * 86400, allow_nan=False),
    **{name: st.integers(low, high) for name, (low, high) in _WHOLE.items()},
}


def test_every_key_is_named_after_its_attribute_and_read_as_one() -> None:
    assert set(VALUES) == set(SETTING_NAMES)
    chat = Effective({key.name: data for key, data in zip(KEYS, range(len(KEYS)), strict=True)}, {})
    for index, key in enumerate(KEYS):
        assert getattr(Effective, key.name) is key
        assert getattr(chat, key.name) == index


def test_every_key_is_described_in_every_language() -> None:
    from core.i18n import catalogue

    for key in KEYS:
        assert set(catalogue()[key.description.key]) == set(LOCALES), key.name


def test_the_command_takes_every_key_and_offers_it_on_discord() -> None:
    from core.commands import COMMANDS

    (row,) = [spec for spec in COMMANDS if spec.name == "settings"]
    (key_option,) = [option for option in row.options if option.name == "key"]
    assert key_option.choices == SETTING_NAMES
    for name in SETTING_NAMES:
        assert parse(f"/settings {name}") == Settings(name)


@given(st.data())
def test_every_value_round_trips_through_its_text(data: st.DataObject) -> None:
    key = BY_NAME[data.draw(st.sampled_from(SETTING_NAMES))]
    value = data.draw(VALUES[key.name])
    shown = key.show(value)
    assert key.parse(shown) == value
    assert key.show(key.parse(shown)) == shown


def test_defaults_are_valid_values() -> None:
    check_defaults({key.name: key.default for key in KEYS})
    for key in KEYS:
        assert key.parse(key.show(key.default)) == key.default


@pytest.mark.parametrize(
    ("defaults", "message"),
    [
        ({"colour": "red"}, "'colour' is not a chat setting"),
        ({"game_ttl": 0}, "game_ttl: 0 is not a number of seconds from 60 to 2592000"),
        ({"level": "hard"}, "level: 'hard' is not a value of this setting"),  # not a Level
        ({"pvp": "on"}, "pvp: 'on' is not a value of this setting"),
    ],
)
def test_defaults_given_by_name_are_checked_by_the_keys(
    defaults: dict[str, Any], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        check_defaults(defaults)
    with pytest.raises(ValueError, match=message):
        ServiceSettings(chat_defaults=defaults)


def bad(name: str, text: str) -> str:
    with pytest.raises(UserError) as caught:
        BY_NAME[name].parse(text)
    assert caught.value.key == "settings.bad_value"
    assert caught.value.params["setting"] == name
    return caught.value.english()


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        ("game_ttl", "-5", "game_ttl: '-5' is not a number of seconds from 60 to 2592000."),
        ("challenge_ttl", "inf", "from 10 to 86400"),
        ("cooldown", "nan", "cooldown: 'nan' is not"),
        ("games", "chess", "games: 'chess' is not a list of games from tres, quatre, ratlla"),
        ("games", "tres chess", "tres, quatre, ratlla"),
        ("level", "expert", "level: 'expert' is not one of easy, medium, hard."),
        ("language", "fr", "language: 'fr' is not one of en, ca, es, pt, ru."),
        ("max_board", "2x9", "from 3x3 to 25x25"),
        ("max_board", "big", "max_board: 'big' is not a board size"),
        ("pvp", "perhaps", "pvp: 'perhaps' is not on or off."),
        ("max_games_per_user", "0", "a whole number from 1 to 1000, or none"),
        ("max_games_per_chat", "1e3", "max_games_per_chat: '1e3'"),
        ("rate_burst", "none", "a whole number from 1 to 1000."),
        ("rate_per_minute", "9" * 50, "rate_per_minute"),
        ("boards_per_minute", "", "boards_per_minute: '' is not"),
        ("allowed_chats", "", "allowed_chats: '' is not a list of channels or rooms"),
    ],
)
def test_bad_values_get_a_clear_error_naming_the_key(name: str, text: str, expected: str) -> None:
    assert expected in bad(name, text)


@given(st.sampled_from(SETTING_NAMES), st.text(max_size=40))
def test_any_text_parses_or_is_refused_with_the_key(name: str, text: str) -> None:
    key = BY_NAME[name]
    try:
        value = key.parse(text)
    except UserError as error:
        assert error.key == "settings.bad_value"
        assert error.params["setting"] == name
        for locale in LOCALES:
            assert name in render(error.key, locale, **error.params)
    else:
        assert key.parse(key.show(value)) == value


@pytest.mark.parametrize(
    ("text", "command"),
    [
        ("/settings", Settings()),
        ("!settings level", Settings("level")),
        ("/settings LEVEL Hard", Settings("level", "Hard")),
        (
            "/settings channel level reset",
            Settings("level", reset=True, scope=SettingsScope.CHANNEL),
        ),
        (
            "/settings server allowed_chats here <#12>",
            Settings("allowed_chats", "here <#12>", scope=SettingsScope.CHAT),
        ),
        ("/settings games none", Settings("games", "none")),
        ("/settings channel", Settings(scope=SettingsScope.CHANNEL)),
    ],
)
def test_the_command_parses_and_formats_back(text: str, command: Settings) -> None:
    assert parse(text) == command
    assert parse(format_command(command)) == command


def test_slash_options_make_the_same_command() -> None:
    assert settings_from_options() == Settings()
    assert settings_from_options(key="level", value="hard", scope="channel") == Settings(
        "level", "hard", scope=SettingsScope.CHANNEL
    )
    assert settings_from_options(key="level", value="reset") == Settings("level", reset=True)
    with pytest.raises(CommandError) as caught:
        settings_from_options(value="hard")
    assert caught.value.key == "parse.settings_value_without_key"
    with pytest.raises(CommandError) as caught:
        settings_from_options(key="colour")
    assert caught.value.key == "parse.bad_setting"
    with pytest.raises(CommandError):
        settings_from_options(key="level", scope="planet")

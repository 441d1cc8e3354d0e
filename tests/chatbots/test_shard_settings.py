"""DISCORD_SHARD_COUNT and DISCORD_SHARD_IDS: parsed, checked against each other, each problem
one line naming its key; unset, the bot is not sharded."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from adapters.discord import DiscordConfig
from chatbots.settings import LIMITS, SettingsError, load_settings

TOKEN = "MTA5.discord-token.value_1"


def discord(**environ: str) -> DiscordConfig:
    settings = load_settings({"DISCORD_TOKEN": TOKEN, **environ}, None)
    assert settings.discord is not None
    d = settings.discord
    return DiscordConfig(token=d.token.value, shard_count=d.shard_count, shard_ids=d.shard_ids)


def problem(**environ: str) -> str:
    with pytest.raises(SettingsError) as caught:
        load_settings({"DISCORD_TOKEN": TOKEN, **environ}, None)
    (line,) = caught.value.problems
    assert line.isprintable() and len(line) < 300, line
    return line


def test_unset_the_bot_is_not_sharded() -> None:
    config = discord()
    assert config.shard_count is None and config.shard_ids == ()
    assert not config.sharded and config.shards == ()


def test_a_count_and_the_ids_of_this_process() -> None:
    config = discord(DISCORD_SHARD_COUNT="4", DISCORD_SHARD_IDS="2, 3")
    assert config.sharded and config.shard_count == 4 and config.shards == (2, 3)


def test_a_count_alone_runs_every_shard_here() -> None:
    config = discord(DISCORD_SHARD_COUNT="3")
    assert config.shard_ids == () and config.shards == (0, 1, 2)


@pytest.mark.parametrize(
    ("environ", "says"),
    [
        ({"DISCORD_SHARD_IDS": "0,1"}, "DISCORD_SHARD_IDS: set, but DISCORD_SHARD_COUNT is not"),
        (
            {"DISCORD_SHARD_COUNT": "2", "DISCORD_SHARD_IDS": "1,2"},
            "DISCORD_SHARD_IDS: shard 2 does not exist with DISCORD_SHARD_COUNT=2"
            " (shards are numbered from 0 to 1)",
        ),
        (
            {"DISCORD_SHARD_COUNT": "4", "DISCORD_SHARD_IDS": "0,1,0"},
            "DISCORD_SHARD_IDS: shard 0 is listed twice",
        ),
        (
            {"DISCORD_SHARD_COUNT": "4", "DISCORD_SHARD_IDS": "0,one"},
            "DISCORD_SHARD_IDS: '0,one' is not a list of shard numbers",
        ),
        (
            {"DISCORD_SHARD_COUNT": "4", "DISCORD_SHARD_IDS": "-1"},
            "DISCORD_SHARD_IDS: '-1' is not a list of shard numbers",
        ),
        ({"DISCORD_SHARD_COUNT": "0"}, "DISCORD_SHARD_COUNT: '0' is not a whole number from 1"),
        ({"DISCORD_SHARD_COUNT": "4097"}, "DISCORD_SHARD_COUNT: '4097' is not a whole number"),
        ({"DISCORD_SHARD_COUNT": "two"}, "DISCORD_SHARD_COUNT: 'two' is not a whole number"),
        # A bad count is named once; the ids are not blamed for it.
        (
            {"DISCORD_SHARD_COUNT": "1.5", "DISCORD_SHARD_IDS": "0"},
            "DISCORD_SHARD_COUNT: '1.5' is not a whole number",
        ),
    ],
)
def test_bad_shards_are_named(environ: dict[str, str], says: str) -> None:
    assert problem(**environ).startswith(says)


def test_shards_without_a_token_name_the_token() -> None:
    with pytest.raises(SettingsError) as caught:
        load_settings({"DISCORD_SHARD_COUNT": "2"}, None)
    assert str(caught.value).startswith("DISCORD_TOKEN: missing, but DISCORD_SHARD_COUNT is set")


@given(
    count=st.integers(-2, int(LIMITS["DISCORD_SHARD_COUNT"][1]) + 2),
    ids=st.lists(st.integers(-1, 20), max_size=6),
)
def test_any_count_and_ids_are_taken_only_when_they_make_sense(count: int, ids: list[int]) -> None:
    environ = {"DISCORD_SHARD_COUNT": str(count), "DISCORD_SHARD_IDS": ",".join(map(str, ids))}
    low, high = LIMITS["DISCORD_SHARD_COUNT"]
    distinct = len(set(ids)) == len(ids)
    sensible = low <= count <= high and distinct and all(0 <= i < count for i in ids)
    if sensible:
        config = discord(**environ)
        assert config.shard_count == count and config.shard_ids == tuple(ids)
    else:  # one line per bad key (a bad count and repeated ids are two)
        with pytest.raises(SettingsError) as caught:
            load_settings({"DISCORD_TOKEN": TOKEN, **environ}, None)
        lines = caught.value.problems
        assert 1 <= len(lines) <= 2
        assert all(
            line.startswith(("DISCORD_SHARD_COUNT: ", "DISCORD_SHARD_IDS: ")) for line in lines
        )


@pytest.mark.parametrize(
    ("count", "ids", "says"),
    [
        (None, (0,), "DISCORD_SHARD_IDS needs DISCORD_SHARD_COUNT"),
        (0, (), "DISCORD_SHARD_COUNT must be 1 or more"),
        (2, (0, 2), "DISCORD_SHARD_IDS must be distinct numbers from 0 to 1"),
        (2, (1, 1), "DISCORD_SHARD_IDS must be distinct numbers from 0 to 1"),
    ],
)
def test_the_adapter_config_refuses_shards_that_cannot_run(
    count: int | None, ids: tuple[int, ...], says: str
) -> None:
    with pytest.raises(ValueError, match=says):
        DiscordConfig(token="t", shard_count=count, shard_ids=ids)

"""Effective settings: the most specific scope wins, a stored value that no longer parses is
skipped, and the cache sees another process's change within its time bound."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.admin.effective import CACHE_SECONDS, SettingsCache, resolve, write
from core.admin.scopes import Place, Source, parse_scope
from core.ai.levels import Level
from core.errors import UserError
from core.replies import Actor
from core.store import SettingRow, SqliteStore

CHANNEL = Actor("discord", "c1", "u", "U", server_id="g1")
PLACE = Place.of(CHANNEL)


def row(scope: str, key: str, value: str) -> SettingRow:
    return SettingRow("discord", scope, key, value, 0.0, "test")


def test_the_most_specific_scope_wins_and_says_so() -> None:
    rows = [
        row("server:g1", "level", "hard"),
        row("channel:c1", "level", "easy"),
        row("server:g1", "pvp", "off"),
        row("channel:other", "cooldown", "5"),
    ]
    effective = resolve(rows, PLACE, {"game_ttl": 600})
    assert effective.level is Level.EASY and effective.sources["level"] is Source.CHANNEL
    assert effective.pvp is False and effective.sources["pvp"] is Source.SERVER
    assert effective.cooldown == 0 and effective.sources["cooldown"] is Source.DEFAULT
    assert effective.game_ttl == 600  # the .env default


def test_a_stored_value_that_no_longer_parses_is_skipped(caplog: pytest.LogCaptureFixture) -> None:
    rows = [row("channel:c1", "level", "legendary"), row("server:g1", "level", "hard")]
    effective = resolve(rows, PLACE, {})
    assert effective.level is Level.HARD
    assert "does not parse" in caplog.text


async def test_the_cache_sees_another_process_within_its_bound(tmp_path: Path) -> None:
    now = [0.0]
    async with SqliteStore.open(tmp_path / "db.sqlite3") as store:
        cache = SettingsCache(store, {}, clock=lambda: now[0])
        assert (await cache.get(PLACE)).level is Level.MEDIUM
        # Another process (the CLI, a second bot on PostgreSQL) writes to the same database.
        await write(store, "discord", "server:g1", "level", "hard", by="cli:op", now=1.0)
        assert (await cache.get(PLACE)).level is Level.MEDIUM  # cached
        now[0] += CACHE_SECONDS
        assert (await cache.get(PLACE)).level is Level.HARD
        await write(store, "discord", "server:g1", "level", "easy", by="cli:op", now=2.0)
        cache.invalidate()  # what a change in this process does
        assert (await cache.get(PLACE)).level is Level.EASY
        with pytest.raises(UserError) as caught:
            await write(store, "discord", "server:g1", "level", "x", by="cli:op", now=3.0)
        assert caught.value.key == "settings.bad_value"


@pytest.mark.parametrize(
    ("text", "place"),
    [
        ("discord:server:123", Place("discord", ("server:123",))),
        ("discord:channel:456", Place("discord", ("channel:456",))),
        ("matrix:!room:example.org", Place("matrix", ("chat:!room:example.org",))),
        ("console:console", Place("console", ("chat:console",))),
        ("discord:player:789", Place.player("discord", "789")),
    ],
)
def test_scopes_as_the_cli_writes_them(text: str, place: Place) -> None:
    assert parse_scope(text) == place


@pytest.mark.parametrize(
    "text", ["", "discord", "discord:", ":x", "discord:server:", "discord:player:", "1a:x"]
)
def test_bad_scopes_say_what_is_expected(text: str) -> None:
    with pytest.raises(ValueError, match="PLATFORM:server:ID"):
        parse_scope(text)

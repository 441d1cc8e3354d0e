"""Where and when the daily post comes (issue 35): a Discord server's ``daily_puzzle`` names
the channel it was set from (or the one named), its hour is read in the chat's ``timezone``
across the nights clocks change, and a room names no other chat. On both stores."""

from __future__ import annotations

import datetime
import random
from collections.abc import Sequence

import pytest

from core.admin.daily import post_due
from core.i18n import Text
from core.ports import PlatformStyle
from core.replies import Actor, Reply
from core.sessions import GameService, ServiceSettings
from core.sessions.puzzles.daily import posted_in
from core.store import SettingRow, puzzles, settings
from tests.backends import AnyStore, Backend


def utc(year: int, month: int, day: int, hour: int, minute: int = 0) -> float:
    return datetime.datetime(year, month, day, hour, minute, tzinfo=datetime.UTC).timestamp()


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


class Shown:
    def __init__(self) -> None:
        self.chats: list[str] = []
        self.locales: list[str | None] = []

    async def publish(self, actor: Actor, replies: Sequence[Reply]) -> None:
        self.chats.extend(actor.chat_id for reply in replies if reply.board is not None)
        self.locales.extend(reply.locale for reply in replies if reply.board is not None)


def service(store: AnyStore, clock: Clock, shown: Shown) -> GameService:
    svc = GameService(
        store, settings=ServiceSettings(ai_workers=0), clock=clock, rng=random.Random(1)
    )
    svc.register_platform(
        PlatformStyle(
            "test",
            publish=shown.publish,
            chat_id=lambda actor, written: written.removeprefix("#"),
            chat_link=lambda chat: f"#{chat}",
        )
    )
    return svc


def admin(chat: str, server: str | None = "guild") -> Actor:
    return Actor("test", chat, "boss", "Boss", server_id=server, is_admin=True)


def texts(replies: Sequence[Reply]) -> list[str]:
    return [reply.text.render("en") for reply in replies if isinstance(reply.text, Text)]


async def test_a_server_value_posts_in_the_channel_it_was_set_from_at_its_zones_hour(
    backend: Backend,
) -> None:
    clock = Clock(utc(2024, 1, 10, 7))
    async with backend.open() as store:
        shown = Shown()
        svc = service(store, clock, shown)
        await svc.handle_text(admin("general"), "/settings timezone Europe/Madrid")
        await svc.handle_text(admin("general"), "/settings language es")
        said = texts(await svc.handle_text(admin("puzzles"), "/settings daily_puzzle 9"))
        assert said[0] == "daily_puzzle is now 9 #puzzles for this server."
        assert said[1].startswith("The daily puzzle will be posted in #puzzles every day at 09:00")
        assert "Europe/Madrid" in said[1]
        stored = await store.run(settings.settings_rows("test", ["server:guild"]))
        assert {row.key: row.value for row in stored}["daily_puzzle"] == "9 puzzles"
        # listed in any channel of the server, with the channel it goes to
        listed = texts(await svc.handle_text(admin("general"), "/settings daily_puzzle"))
        assert listed[0].startswith("daily_puzzle = 9 #puzzles (set for the server)")
        clock.now = utc(2024, 1, 10, 7, 59)  # 08:59 in Madrid
        assert await svc.post_daily_puzzles() == 0
        clock.now = utc(2024, 1, 10, 8)  # 09:00 in Madrid (UTC+1)
        assert await svc.post_daily_puzzles() == 1
        await svc.open_games_idle()
        assert shown.chats == ["puzzles"]
        assert shown.locales == ["es"]  # the server's language
        today = datetime.date(2024, 1, 10)
        assert await store.run(puzzles.posted_on_day(today)) == {("test", "puzzles")}
        assert await store.run(puzzles.posted_on_day(today + datetime.timedelta(days=1))) == set()


async def test_a_named_channel_gets_the_post_and_a_channels_own_value_wins(
    backend: Backend,
) -> None:
    clock = Clock(utc(2024, 1, 10, 12))
    async with backend.open() as store:
        shown = Shown()
        svc = service(store, clock, shown)
        said = texts(await svc.handle_text(admin("general"), "/settings daily_puzzle 10 #daily"))
        assert said[1].startswith("The daily puzzle will be posted in #daily every day at 10:00")
        assert "UTC" in said[1]
        # a channel-scope value written by the operator: that channel's own, over the server's
        row = SettingRow("test", "channel:daily", "daily_puzzle", "none", 0.0, "operator")
        await store.run(settings.setting_put(row))
        assert await svc.post_daily_puzzles() == 0
        # reset where it is named, the channel's own value goes; the server's posts again
        await svc.handle_text(admin("daily"), "/settings channel daily_puzzle reset")
        assert await svc.post_daily_puzzles() == 1
        await svc.open_games_idle()
        assert shown.chats == ["daily"]
        # reset for the server (from any of its channels): no post tomorrow
        await svc.handle_text(admin("general"), "/settings daily_puzzle reset")
        assert await store.run(settings.settings_of_keys(["daily_puzzle"])) == []


async def test_a_room_names_no_other_chat(backend: Backend) -> None:
    async with backend.open() as store:
        svc = service(store, Clock(utc(2024, 1, 10, 12)), Shown())
        refused = await svc.handle_text(admin("room", None), "/settings daily_puzzle 9 #other")
        assert refused[0].error
        assert "the puzzle is posted in this chat" in texts(refused)[0]
        said = texts(await svc.handle_text(admin("room", None), "/settings daily_puzzle 9 here"))
        assert said[0] == "daily_puzzle is now 9 for this room."
        assert said[1].startswith("The daily puzzle will be posted in #room every day at 09:00")


def row(scope: str, key: str, value: str) -> SettingRow:
    return SettingRow("test", scope, key, value, 0.0, "test")


def test_where_each_stored_value_posts() -> None:
    rows = [
        row("server:g", "daily_puzzle", "9 c1"),
        row("server:g", "timezone", "Asia/Tokyo"),
        row("channel:c1", "timezone", "Europe/Madrid"),  # the channel's zone over its server's
        row("server:h", "daily_puzzle", "9"),  # names no channel: posted nowhere
        row("server:h", "timezone", "Asia/Tokyo"),
        row("channel:c2", "daily_puzzle", "7"),  # its server unknown: its own zone, else UTC
        row("chat:room", "daily_puzzle", "8"),
        row("chat:room", "timezone", "America/New_York"),
        row("chat:quiet", "daily_puzzle", "none"),
        row("chat:zone-only", "timezone", "Asia/Tokyo"),
    ]
    assert sorted(posted_in(rows, {})) == [
        ("test", "c1", 9, "Europe/Madrid", "g"),
        ("test", "c2", 7, "UTC", None),
        ("test", "room", 8, "America/New_York", None),
    ]
    defaults = {"timezone": "Europe/Lisbon"}
    assert posted_in(rows[:2], defaults) == [("test", "c1", 9, "Asia/Tokyo", "g")]
    assert posted_in(rows[6:7], defaults) == [("test", "room", 8, "Europe/Lisbon", None)]


@pytest.mark.parametrize(
    ("zone", "hour", "before", "at"),
    [
        # Europe/Madrid moves from UTC+1 to UTC+2 at 01:00 UTC on 31 March 2024
        ("Europe/Madrid", 9, utc(2024, 3, 30, 7, 59), utc(2024, 3, 30, 8)),
        ("Europe/Madrid", 9, utc(2024, 3, 31, 6, 59), utc(2024, 3, 31, 7)),
        # 02:00 is skipped that night: the post comes at 03:00 CEST, the instant 02:00 would be
        ("Europe/Madrid", 2, utc(2024, 3, 31, 0, 59), utc(2024, 3, 31, 1)),
        ("Europe/Madrid", 9, utc(2024, 10, 27, 7, 59), utc(2024, 10, 27, 8)),
        # New York: 02:00 skipped on 10 March (03:00 EDT, 07:00 UTC) ...
        ("America/New_York", 2, utc(2024, 3, 10, 6, 59), utc(2024, 3, 10, 7)),
        # ... and 01:00 twice on 3 November (EDT 05:00 UTC, then EST 06:00 UTC): the first posts
        ("America/New_York", 1, utc(2024, 11, 3, 4, 59), utc(2024, 11, 3, 5)),
    ],
)
def test_the_hour_is_read_in_the_zone_across_a_change_of_clocks(
    zone: str, hour: int, before: float, at: float
) -> None:
    assert not post_due(before, hour, zone)
    assert post_due(at, hour, zone)


async def test_one_post_a_day_across_the_night_summer_time_starts(backend: Backend) -> None:
    clock = Clock(utc(2024, 3, 30, 12))
    async with backend.open() as store:
        shown = Shown()
        svc = service(store, clock, shown)
        await svc.handle_text(admin("room", None), "/settings timezone Europe/Madrid")
        await svc.handle_text(admin("room", None), "/settings daily_puzzle 9")
        posted = []
        for day in (30, 31):
            for hour in range(24):
                clock.now = utc(2024, 3, day, hour, 30)
                if await svc.post_daily_puzzles():
                    posted.append((day, hour))
        # 09:00 CET is 08:00 UTC; 09:00 CEST is 07:00 UTC
        assert posted == [(30, 8), (31, 7)]

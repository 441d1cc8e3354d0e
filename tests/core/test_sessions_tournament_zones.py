"""A chat's ``timezone`` setting and a tournament's start: the setting's names (any case, a
clear refusal of anything else), an ``HH:MM`` start read as the next such time in the chat's
zone and shown with the zone's name, through the service on both stores with a fake clock; and
the nights the clocks change (a skipped time moved on by the jump, a repeated one its first
pass still ahead)."""

from __future__ import annotations

import datetime
import zoneinfo

import pytest

from core.admin.keys import Effective
from core.admin.zones import next_time_of_day, time_in_zone
from core.errors import UserError
from core.store import events
from tests.backends import AnyStore
from tests.core.test_sessions import NOW, Clock, store
from tests.core.test_sessions_seek import open_service
from tests.core.test_sessions_tournament import ADMIN, CID

__all__ = ["store"]  # the fixture


def _utc(text: str) -> float:
    return datetime.datetime.fromisoformat(f"{text}+00:00").timestamp()


def test_a_zone_is_taken_in_any_case_and_kept_in_its_own() -> None:
    assert Effective.timezone.default == "UTC"
    assert Effective.timezone.parse("europe/madrid") == "Europe/Madrid"
    assert Effective.timezone.parse(" America/New_York ") == "America/New_York"
    assert Effective.timezone.parse("utc") == "UTC"
    assert Effective.timezone.show("Europe/Madrid") == "Europe/Madrid"


@pytest.mark.parametrize(
    "garbage", ["Mars/Olympus_Mons", "+02:00", "../../etc/passwd", "Europe", "CEST", "x" * 300]
)
def test_anything_but_a_zones_name_is_refused_with_what_is_expected(garbage: str) -> None:
    with pytest.raises(UserError) as refused:
        Effective.timezone.parse(garbage)
    said = refused.value.english()
    assert said.startswith("timezone: "), said
    assert "is not a time zone by its IANA name, such as Europe/Madrid" in said


def test_every_zone_the_setting_names_is_one_zoneinfo_reads() -> None:
    # The system's zone data or the tzdata package: either way, the well-known names are there.
    for name in ("Europe/Madrid", "America/Sao_Paulo", "Asia/Kolkata", "UTC"):
        assert str(zoneinfo.ZoneInfo(Effective.timezone.parse(name))) == name


async def test_a_start_is_read_and_shown_in_the_chats_zone(store: AnyStore) -> None:
    clock = Clock()  # NOW is 22:13:20 UTC, 23:13:20 in Madrid (winter, UTC+1)
    svc, _ = open_service(store, clock)
    [bad] = await svc.handle_text(ADMIN, "/settings timezone Mars/Olympus_Mons")
    assert bad.text is not None and bad.text.key == "settings.bad_value"
    assert "is not a time zone by its IANA name" in bad.text.render("en")
    await svc.handle_text(ADMIN, "/settings timezone europe/madrid")
    [made] = await svc.handle_text(ADMIN, "/tournament swiss tictactoe 2 23:30")
    assert made.text is not None and made.text.key == "event.created_at"
    assert "Starts at 23:30 Europe/Madrid, in 17 minutes." in made.text.render("en")
    [event] = await store.run(events.chat_events(ADMIN.platform, ADMIN.chat_id))
    assert event.starts_at == _utc("2023-11-14T22:30:00") == NOW + 1000
    # the standings before the start: in the zone of the chat that asks, UTC where unset
    [here] = await svc.handle_text(ADMIN, "/tournament")
    assert here.text is not None
    assert "Starts at 23:30 Europe/Madrid, in 17 minutes;" in here.text.render("en")
    [there] = await svc.handle_text(CID, f"/tournament {event.id}")
    assert there.text is not None
    assert "Starts at 22:30 UTC, in 17 minutes;" in there.text.render("en")


async def test_a_time_past_today_in_the_zone_is_tomorrows(store: AnyStore) -> None:
    clock = Clock()
    svc, _ = open_service(store, clock)
    await svc.handle_text(ADMIN, "/settings timezone Asia/Tokyo")  # 07:13:20 the next day
    [made] = await svc.handle_text(ADMIN, "/tournament roundrobin tictactoe 07:00")
    assert made.text is not None
    assert "Starts at 07:00 Asia/Tokyo, in 1427 minutes." in made.text.render("en")
    [event] = await store.run(events.chat_events(ADMIN.platform, ADMIN.chat_id))
    assert event.starts_at == _utc("2023-11-15T22:00:00")


async def test_a_time_the_clocks_skip_is_moved_on_by_the_jump_and_said_so(
    store: AnyStore,
) -> None:
    # 31 March 2024: Madrid's clocks go from 02:00 to 03:00; 02:30 is never read there.
    clock = Clock(_utc("2024-03-30T22:00:00"))
    svc, _ = open_service(store, clock)
    await svc.handle_text(ADMIN, "/settings timezone Europe/Madrid")
    [made] = await svc.handle_text(ADMIN, "/tournament arena tictactoe 02:30")
    assert made.text is not None
    assert "Starts at 03:30 Europe/Madrid, in 210 minutes." in made.text.render("en")
    [event] = await store.run(events.chat_events(ADMIN.platform, ADMIN.chat_id))
    assert event.starts_at == _utc("2024-03-31T01:30:00")


def test_a_time_the_clocks_pass_twice_is_its_first_pass_still_ahead() -> None:
    # 27 October 2024: Madrid reads 02:00 to 03:00 twice, at 00:00-01:00 and 01:00-02:00 UTC.
    madrid = "Europe/Madrid"
    assert next_time_of_day(_utc("2024-10-26T20:00:00"), 2, 30, madrid) == _utc(
        "2024-10-27T00:30:00"
    )
    between = _utc("2024-10-27T00:45:00")  # 02:45 summer time: the first 02:30 is past
    assert next_time_of_day(between, 2, 30, madrid) == _utc("2024-10-27T01:30:00")
    after = _utc("2024-10-27T01:45:00")
    assert next_time_of_day(after, 2, 30, madrid) == _utc("2024-10-28T01:30:00")
    # The two passes read alike: each is written with its offset.
    assert time_in_zone(_utc("2024-10-27T00:30:00"), madrid) == "02:30 Europe/Madrid (UTC+02:00)"
    assert time_in_zone(_utc("2024-10-27T01:30:00"), madrid) == "02:30 Europe/Madrid (UTC+01:00)"
    # The hours around them are read once: no offset.
    assert time_in_zone(_utc("2024-10-26T23:59:00"), madrid) == "01:59 Europe/Madrid"
    assert time_in_zone(_utc("2024-10-27T02:00:00"), madrid) == "03:00 Europe/Madrid"
    # West of UTC, with minutes: Newfoundland's clocks go back from 02:00 (-02:30) to 01:00
    # (-03:30); 04:45 UTC is the second 01:15.
    assert time_in_zone(_utc("2024-11-03T04:45:00"), "America/St_Johns") == (
        "01:15 America/St_Johns (UTC-03:30)"
    )


@pytest.mark.parametrize(
    ("now", "offset", "minutes"),
    [("2024-10-26T20:00:00", "+02:00", 270), ("2024-10-27T00:45:00", "+01:00", 45)],
)
async def test_a_start_on_a_repeated_hour_is_said_with_its_offset(
    store: AnyStore, now: str, offset: str, minutes: int
) -> None:
    # 27 October 2024 in Madrid: "02:30" asked late on the 26th is the first pass, summer time;
    # asked between the two passes, the second, winter time. Each answer says which.
    svc, _ = open_service(store, Clock(_utc(now)))
    await svc.handle_text(ADMIN, "/settings timezone Europe/Madrid")
    [made] = await svc.handle_text(ADMIN, "/tournament arena tictactoe 02:30")
    assert made.text is not None
    said = made.text.render("en")
    assert f"Starts at 02:30 Europe/Madrid (UTC{offset}), in {minutes} minutes." in said, said
    [shown] = await svc.handle_text(ADMIN, "/tournament")
    assert shown.text is not None
    said = shown.text.render("en")
    assert f"Starts at 02:30 Europe/Madrid (UTC{offset}), in {minutes} minutes;" in said, said


def test_the_start_is_strictly_after_now() -> None:
    on_the_minute = _utc("2023-11-14T22:30:00")
    assert next_time_of_day(on_the_minute, 22, 30, "UTC") == on_the_minute + 86400
    assert next_time_of_day(on_the_minute, 4, 1, "Asia/Kolkata") == on_the_minute + 60

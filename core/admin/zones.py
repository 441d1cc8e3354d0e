"""A chat's time zone (the ``timezone`` setting): IANA names as ``zoneinfo`` knows them (the
system's zone data, else the ``tzdata`` package's), a time of day read in a zone, and an instant
written in one.

A time of day names the next instant whose wall clock in the zone reads it. Two times need a
rule where clocks change:

- a time the clocks skip (02:30 on the night summer time starts in Europe) is moved forward by
  the jump: 03:30, the instant 02:30 would be had the clocks not moved;
- a time the clocks pass twice (02:30 on the night summer time ends) is the first of the two
  still ahead.

An instant whose wall clock the zone reads twice is written with its offset from UTC, which
tells the two apart: ``02:30 Europe/Madrid (UTC+01:00)``.
"""

from __future__ import annotations

import datetime
import functools
import zoneinfo
from collections.abc import Mapping

UTC = "UTC"


@functools.cache
def _zones() -> Mapping[str, str]:
    # Read once: available_timezones() walks the zone data on disk. Keyed in lower case so
    # "europe/madrid" is taken as typed on a phone.
    return {name.lower(): name for name in zoneinfo.available_timezones() | {UTC}}


def zone_named(text: str) -> str | None:
    """The IANA name ``text`` spells, in its own case (``Europe/Madrid``); None if no zone has
    it. Only names of the zone data are looked up, never a path."""
    return _zones().get(text.strip().lower())


def _zone(name: str) -> zoneinfo.ZoneInfo:
    return zoneinfo.ZoneInfo(name)


def next_time_of_day(now: float, hour: int, minute: int, zone: str) -> float:
    """The first instant after ``now`` whose wall clock in ``zone`` reads ``hour:minute`` (see
    the module docstring for the nights the clocks change)."""
    tz = _zone(zone)
    today = datetime.datetime.fromtimestamp(now, tz).date()
    found: list[float] = []
    for days in range(3):  # today's may be past, tomorrow's skipped by the clocks
        wall = datetime.datetime.combine(
            today + datetime.timedelta(days=days), datetime.time(hour, minute), tzinfo=tz
        )
        # fold=0 reads a skipped time with the offset before the jump (so later by the jump)
        # and a repeated time as its first pass; fold=1 is its second pass, or in a gap a time
        # before the jump, which the rule does not want.
        instants = [wall.timestamp()]
        if _wall(wall.timestamp(), tz) == (hour, minute):
            instants.append(wall.replace(fold=1).timestamp())
        found += [at for at in instants if at > now]
    return min(found)


def _wall(at: float, tz: zoneinfo.ZoneInfo) -> tuple[int, int]:
    shown = datetime.datetime.fromtimestamp(at, tz)
    return shown.hour, shown.minute


def time_in_zone(at: float, zone: str) -> str:
    """``at`` as the wall clock in ``zone`` reads it, with the zone's name: ``19:00
    Europe/Madrid``; with its offset from UTC where the clocks read that time twice (the night
    they go back): ``02:30 Europe/Madrid (UTC+01:00)``."""
    shown = datetime.datetime.fromtimestamp(at, _zone(zone))
    said = f"{shown.hour:02}:{shown.minute:02} {zone}"
    # An instant that exists is never in a gap, so the other fold reading differently means
    # the wall time is repeated.
    offset = shown.utcoffset()
    if offset is None or shown.replace(fold=1 - shown.fold).utcoffset() == offset:
        return said
    sign = "-" if offset < datetime.timedelta(0) else "+"
    minutes = abs(offset) // datetime.timedelta(minutes=1)
    return f"{said} (UTC{sign}{minutes // 60:02}:{minutes % 60:02})"

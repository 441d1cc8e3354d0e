"""Streaks: the days in a row (UTC) on which a player solved a puzzle. Pure: the store keeps
the streak, its best and the day last counted; these say what a solve makes of them and what
a player sees."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

_EPOCH = datetime.date(1970, 1, 1)


def day_number(day: datetime.date) -> int:
    """A UTC date as the days since 1970-01-01 (what the store keeps)."""
    return (day - _EPOCH).days


def utc_day(now: float) -> datetime.date:
    """The UTC date at ``now`` (seconds since the epoch)."""
    return datetime.datetime.fromtimestamp(now, datetime.UTC).date()


@dataclass(frozen=True, slots=True)
class Streak:
    days: int = 0  # solved on each of the last ``days`` days, ending on ``last_day``
    best: int = 0
    last_day: int | None = None  # a day number (:func:`day_number`)

    def solved(self, day: int) -> Streak:
        """The streak after a puzzle solved on ``day``: one more on the day after the last,
        unchanged on the same day, a new one of 1 after a gap."""
        if self.last_day == day:
            return self
        days = self.days + 1 if self.last_day == day - 1 else 1
        return Streak(days, max(self.best, days), day)

    def current(self, today: int) -> int:
        """The streak as of ``today``: still alive until a whole day passes without a solve."""
        if self.last_day is None or self.last_day < today - 1:
            return 0
        return self.days

    def joined(self, other: Streak) -> Streak:
        """One person's streak from two accounts' (a link): their runs of days as one where
        they overlap or touch, else the later run."""
        best = max(self.best, other.best)
        if self.last_day is None or other.last_day is None or not self.days or not other.days:
            later = self if other.last_day is None else other
            return Streak(later.days, best, later.last_day)
        first = (self.last_day - self.days + 1, self.last_day)
        second = (other.last_day - other.days + 1, other.last_day)
        if first[0] <= second[1] + 1 and second[0] <= first[1] + 1:
            start, end = min(first[0], second[0]), max(first[1], second[1])
            return Streak(end - start + 1, max(best, end - start + 1), end)
        later = max((self, other), key=lambda s: s.last_day or 0)
        return Streak(later.days, best, later.last_day)

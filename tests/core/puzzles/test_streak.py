"""Streaks by UTC day: extended the day after, kept the same day, broken by a gap; alive
until a whole day passes; two accounts' runs joined as one person's."""

from __future__ import annotations

import datetime

from core.puzzles.streak import Streak, day_number, utc_day


def test_a_streak_grows_day_by_day_and_restarts_after_a_gap() -> None:
    streak = Streak().solved(10)
    assert streak == Streak(1, 1, 10)
    assert streak.solved(10) == streak
    assert streak.solved(11).solved(12) == Streak(3, 3, 12)
    assert streak.solved(11).solved(13) == Streak(1, 2, 13)


def test_a_streak_stays_alive_through_the_next_day_only() -> None:
    streak = Streak(3, 3, 10)
    assert [streak.current(today) for today in (10, 11, 12)] == [3, 3, 0]
    assert Streak().current(10) == 0


def test_the_utc_day_turns_at_midnight_utc() -> None:
    midnight = datetime.datetime(2026, 11, 28, tzinfo=datetime.UTC).timestamp()
    assert utc_day(midnight - 0.001) == datetime.date(2026, 11, 27)
    assert utc_day(midnight) == datetime.date(2026, 11, 28)
    assert day_number(datetime.date(1970, 1, 2)) == 1


def test_two_accounts_runs_join_where_they_touch() -> None:
    assert Streak(3, 3, 12).joined(Streak(1, 1, 13)) == Streak(4, 4, 13)
    assert Streak(3, 3, 12).joined(Streak(2, 2, 12)) == Streak(3, 3, 12)
    assert Streak(2, 5, 12).joined(Streak(1, 1, 20)) == Streak(1, 5, 20)
    assert Streak().joined(Streak(2, 2, 12)) == Streak(2, 2, 12)
    assert Streak(2, 2, 12).joined(Streak()) == Streak(2, 2, 12)

"""Who a ladder lists: settled ratings with a rated game in the last 30 days."""

from __future__ import annotations

import pytest

from core.ratings import ACTIVE_SECONDS, NEW, PROVISIONAL_GAMES, Rating, is_listed

NOW = 1_800_000_000.0
SETTLED = Rating(1700, 90, PROVISIONAL_GAMES)


@pytest.mark.parametrize(
    ("rating", "ago", "listed"),
    [
        (SETTLED, 0, True),
        (SETTLED, ACTIVE_SECONDS, True),
        (SETTLED, ACTIVE_SECONDS + 1, False),
        (Rating(2400, 300, PROVISIONAL_GAMES - 1), 0, False),  # one lucky streak is not a rank
        (NEW, 0, False),
    ],
)
def test_settled_and_recently_active(rating: Rating, ago: float, listed: bool) -> None:
    assert is_listed(rating, NOW - ago, NOW) is listed
    assert ACTIVE_SECONDS == 30 * 24 * 3600

"""Who a ladder lists: players with a settled rating and a recent rated game.

So a ladder cannot be filled with brand-new accounts (one lucky win) or with players who
stopped long ago. The store answers ladders with an index, never by sorting in Python: the rule
is written here once, and the store's query keeps to it (``games >= PROVISIONAL_GAMES AND
last_rated_at >= now - ACTIVE_SECONDS``, ordered by rating).
"""

from __future__ import annotations

from core.ratings.rating import Rating

ACTIVE_SECONDS = 30 * 24 * 3600
"""A player stays on the ladders for 30 days after their last rated game in the pool."""


def is_listed(rating: Rating, last_rated_at: float, now: float) -> bool:
    """Whether a ladder lists this rating.

    Args:
        rating: the player's rating in the ladder's pool.
        last_rated_at: when their last rated game in that pool ended, seconds since the epoch.
        now: the service's clock, seconds since the epoch.
    """
    return not rating.provisional and now - last_rated_at <= ACTIVE_SECONDS

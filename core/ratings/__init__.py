"""Ratings: one per player per pool (tic-tac-toe, Connect Four, free boards), from OpenSkill's
Weng-Lin model. Pure: no I/O and no store; the service and the store call it.

- :mod:`core.ratings.rating`: ``Rating`` (rating, deviation, games; provisional, "1500?"),
  ``rate`` (both players' change after a game), why this library.
- :mod:`core.ratings.policy`: ``is_rated``, which games count and why the others do not.
- :mod:`core.ratings.pools`: ``pool_of``, which rating a game's rules count for.
- :mod:`core.ratings.ladder`: ``is_listed``, who a ladder shows (settled and recently active).
- :mod:`core.ratings.rebuild`: ``rebuild``, every rating recomputed from the stored results.
"""

from core.ratings.ladder import ACTIVE_SECONDS, is_listed
from core.ratings.policy import PAIR_LIMIT, Unrated, Verdict, is_rated, pair_key
from core.ratings.pools import pool_of
from core.ratings.rating import (
    NEW,
    PROVISIONAL_GAMES,
    Rating,
    RatingChange,
    format_delta,
    rate,
)
from core.ratings.rebuild import Merge, RatedResult, apply, merged, rebuild, record, replay

__all__ = [
    "ACTIVE_SECONDS",
    "NEW",
    "PAIR_LIMIT",
    "PROVISIONAL_GAMES",
    "Merge",
    "RatedResult",
    "Rating",
    "RatingChange",
    "Unrated",
    "Verdict",
    "apply",
    "format_delta",
    "is_listed",
    "is_rated",
    "merged",
    "pair_key",
    "pool_of",
    "rate",
    "rebuild",
    "record",
    "replay",
]

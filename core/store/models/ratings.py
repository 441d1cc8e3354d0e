"""What the ratings and links of the store answer (:mod:`core.store.ratings`,
:mod:`core.store.links`); the rules are in :mod:`core.ratings`."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from core.ratings import Rating


@dataclass(frozen=True, slots=True)
class LadderRow:
    """One listed player: their display name and platform (the latest they played under), and
    their rating in the ladder's pool."""

    identity: str
    name: str
    platform: str
    rating: Rating


@dataclass(frozen=True, slots=True)
class PoolRating:
    """A player's rating in one pool, and when their last rated game there ended."""

    pool: str
    rating: Rating
    last_rated_at: float


@dataclass(frozen=True, slots=True)
class RatingChangeRow:
    """One rated game of a player, as ``/stats`` shows it: the pool, when, the seat's result
    (1 won, 0 lost, None drew) and the rating before and after."""

    pool: str
    at: float
    won: bool | None
    before: float
    after: float


class Linked(enum.Enum):
    """What ``/link CODE`` did."""

    LINKED = "linked"
    WRONG = "wrong"  # no such code
    EXPIRED = "expired"
    USED = "used"  # the code was redeemed already
    SAME_PLATFORM = "same_platform"  # the code was made on this platform: use the other one
    ALREADY = "already"  # both accounts are one identity already
    LINKED_ELSEWHERE = "linked_elsewhere"  # this account is linked: /unlink first

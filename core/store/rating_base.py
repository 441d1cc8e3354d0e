"""What the ratings and links of the store answer (:class:`RatingStore`, part of
``SessionStore``); the operations are in :mod:`core.store.rating_ops` and
:mod:`core.store.link_ops`, the rules in :mod:`core.ratings`. Ratings are written with each
rated result, by ``update`` and ``create``, in the transaction that writes the result."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from core.ratings import Merge, RatedResult, Rating, RatingChange
    from core.store.link_ops import Linked
    from core.store.rating_ops import LadderRow, PoolRating, RatingChangeRow


class RatingStore(Protocol):
    """Ladders, ratings, their log, and the ``/link`` codes of the store."""

    async def ladder(
        self, place: str | None, pool: str, now: float, limit: int = 10
    ) -> list[LadderRow]:
        """The listed players of ``pool`` (settled, a rated game in the last 30 days), best
        first: everyone's (``place`` None), a chat's or a Discord server's (see
        ``core.store.rating_ops.place_of_chat`` and ``place_of_server``)."""
        ...

    async def player_ratings(self, platform: str, user_id: str) -> tuple[str, list[PoolRating]]:
        """The account's identity (linked or its own) and its rating in every pool it played
        rated games in, most games first."""
        ...

    async def rating_of(self, platform: str, user_id: str, pool: str) -> Rating:
        """The account's rating in ``pool`` (a new player's when it has none)."""
        ...

    async def rating_rank(self, pool: str, rating: float, now: float) -> int:
        """The place ``rating`` holds on the pool's global ladder (1: the best)."""
        ...

    async def rating_changes(self, identity: str, limit: int = 5) -> list[RatingChangeRow]:
        """The identity's last rated games, newest first."""
        ...

    async def rating_change_of(self, session_id: str) -> RatingChange | None:
        """Both players' ratings before and after the rated game ``session_id`` (seat
        order), or None if it was not rated."""
        ...

    async def rating_log(self) -> list[RatedResult | Merge]:
        """Every rated game and merge of linked accounts, in the order they were applied."""
        ...

    async def stored_ratings(self) -> dict[tuple[str, str], Rating]:
        """Every rating with a rated game, by (pool, identity)."""
        ...

    async def rating_totals(self) -> tuple[int, int, int]:
        """Ratings with a rated game, rated games, and linked accounts."""
        ...

    async def link_code(self, code: str, platform: str, user_id: str, expires_at: float) -> None:
        """Store a one-time ``/link`` code of the account, valid until ``expires_at``."""
        ...

    async def link(self, code: str, platform: str, user_id: str, now: float) -> Linked:
        """Redeem a ``/link`` code: the account joins the identity of the code's owner."""
        ...

    async def unlink(self, platform: str, user_id: str) -> int:
        """Take the account out of its shared identity (from the first account: every other
        one); how many accounts left it (0: not linked)."""
        ...

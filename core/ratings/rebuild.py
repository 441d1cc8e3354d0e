"""Every rating recomputed from the stored results: a pure fold, the same one the live updates
make one game at a time (``chatbots ratings rebuild`` compares the two).

In one process the replay equals the live ratings exactly. Compared with ratings another
process stored, allow a relative 1e-9: the library ships both compiled and pure-Python wheels,
and an upgrade may round the last bits differently; games and the order of results must match
exactly.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from core.ratings.rating import NEW, Rating, RatingChange, rate

Key = tuple[str, str]
"""(pool, player identity): whose rating, in which pool."""


@dataclass(frozen=True, slots=True)
class RatedResult:
    """One rated game as the store keeps it.

    Args:
        pool: its rating pool (:func:`core.ratings.pools.pool_of`).
        first: the identity in seat 1.
        second: the identity in seat 2.
        winner: 1, 2 or None for a draw (a resignation or a timeout: the other seat).
    """

    pool: str
    first: str
    second: str
    winner: int | None


def apply(ratings: Mapping[Key, Rating], result: RatedResult) -> RatingChange:
    """The change ``result`` makes to the ratings as they stand (a new player starts at
    :data:`core.ratings.rating.NEW`); the live update and the rebuild both use it."""
    return rate(
        ratings.get((result.pool, result.first), NEW),
        ratings.get((result.pool, result.second), NEW),
        result.winner,
    )


def replay(results: Iterable[RatedResult]) -> Iterator[tuple[RatedResult, RatingChange]]:
    """Each rated result with the change it makes, in the order given.

    ``results`` must be rated games only, in the order they were recorded (the ratings depend
    on it: sort by the finishing time and then the row's id, never by time alone).
    """
    ratings: dict[Key, Rating] = {}
    for result in results:
        change = apply(ratings, result)
        record(ratings, result, change)
        yield result, change


def record(ratings: dict[Key, Rating], result: RatedResult, change: RatingChange) -> None:
    """Keep both players' new ratings from ``change`` in ``ratings``."""
    ratings[(result.pool, result.first)] = change.after[0]
    ratings[(result.pool, result.second)] = change.after[1]


def rebuild(results: Iterable[RatedResult]) -> dict[Key, Rating]:
    """Every player's rating in every pool after ``results`` (see :func:`replay`)."""
    ratings: dict[Key, Rating] = {}
    for result in results:
        record(ratings, result, apply(ratings, result))
    return ratings

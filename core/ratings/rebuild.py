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


@dataclass(frozen=True, slots=True)
class Merge:
    """Two identities became one person's (``/link``): ``source``'s rating in ``pool`` went into
    ``into``'s, as :func:`merged` decides.

    Args:
        pool: the rating pool.
        source: the identity that joined (it has no rating of its own afterwards).
        into: the identity both accounts now share.
    """

    pool: str
    source: str
    into: str


def merged(source: Rating | None, into: Rating | None) -> Rating:
    """The one rating two linked accounts share in a pool: the one of the account with more
    rated games there, whole (rating, deviation and games; on a tie, ``into``'s).

    Not a blend: two ratings of one person are two estimates of the same strength, and the one
    from more games is the better one. Not a sum of games either: one person with two accounts
    must not look more settled than they are (a provisional pair stays provisional).
    """
    if source is None:
        return into if into is not None else NEW
    if into is None or source.games > into.games:
        return source
    return into


def rebuild(results: Iterable[RatedResult | Merge]) -> dict[Key, Rating]:
    """Every player's rating in every pool after ``results`` (see :func:`replay`), with the
    merges of linked accounts where they happened in the log."""
    ratings: dict[Key, Rating] = {}
    for result in results:
        if isinstance(result, Merge):
            source = ratings.pop((result.pool, result.source), None)
            ratings[(result.pool, result.into)] = merged(
                source, ratings.get((result.pool, result.into))
            )
        else:
            record(ratings, result, apply(ratings, result))
    return ratings

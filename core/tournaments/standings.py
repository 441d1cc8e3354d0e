"""An event's standings, pure (no I/O): points, then tie-breaks, for every format.

Swiss and round robin (:func:`standings`): a win is 1 point, a draw 1/2, a loss 0; a bye counts
its points (1, or what the event gives) and no opponent. Ties are broken, in order, by:

- Buchholz: the sum of the points of the player's opponents, as they stand;
- Sonneborn-Berger: the points of the opponents he beat, and half those of the ones he drew;
- then the player's id, so that the order is total and the same in every process.

Unplayed games count for neither tie-break: FIDE's tie-break regulations (C.07, 2023) give a
bye a virtual opponent instead; ours is the simpler older reading, said here so it is not mistaken
for theirs.

Arena (:func:`arena_standings`): the sheet's total, then (as lichess) the performance in the
event: the mean rating of his opponents plus 500 times (wins - losses) over games.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple


class Played(NamedTuple):
    """A finished game of an event: ``white`` is the first player, ``score`` his points.

    :func:`standings` takes plain ``(white, black, score)`` tuples too: built by the thousand at
    each ask, a plain tuple of strings and a number leaves the cyclic collector's care at its
    first pass (a tuple subclass, this one included, never does), so it is never carried into
    the old generation, whose growth sets off full passes over the whole process."""

    white: str
    black: str
    score: float  # 1, 0.5 or 0


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int
    player: str
    points: float
    buchholz: float
    sonneborn_berger: float


def standings(
    players: Iterable[str],
    games: Iterable[tuple[str, str, float]],
    byes: Mapping[str, float] | None = None,
) -> list[Standing]:
    """The table of a Swiss or round-robin event: best first.

    Args:
        players: every player, those without a game included.
        games: each finished game as a :class:`Played` or a plain ``(white, black, score)``.
        byes: each player's points from byes.
    """
    # Flat dicts of floats and sorts by float keys: a table of 1,000 players after 9 rounds
    # allocated some 12,000 containers (a tuple per game and side, a list per player, a key
    # per row), enough to set off the collector's full passes over the whole process in one
    # call of ten. What is left to collect is the table itself.
    games = games if isinstance(games, Sequence) else list(games)
    points: dict[str, float] = dict.fromkeys(players, 0.0)
    for white, black, score in games:
        points[white] = points.get(white, 0.0) + score
        points[black] = points.get(black, 0.0) + 1 - score
    for player, bye in (byes or {}).items():
        points[player] = points.get(player, 0.0) + bye
    buchholz = dict.fromkeys(points, 0.0)
    berger = dict.fromkeys(points, 0.0)
    for white, black, score in games:
        theirs, mine = points[black], points[white]
        buchholz[white] += theirs
        buchholz[black] += mine
        berger[white] += theirs * score
        berger[black] += mine * (1 - score)
    # Stable sorts from the last key to the first: the order of one sort by the tuple of keys.
    order = sorted(points)
    order.sort(key=berger.__getitem__, reverse=True)
    order.sort(key=buchholz.__getitem__, reverse=True)
    order.sort(key=points.__getitem__, reverse=True)
    return [
        Standing(rank, player, points[player], buchholz[player], berger[player])
        for rank, player in enumerate(order, start=1)
    ]


@dataclass(frozen=True, slots=True)
class ArenaStanding:
    rank: int
    player: str
    points: int
    performance: float


@dataclass(frozen=True, slots=True)
class ArenaRecord:
    """One arena player: his sheet's total and what his performance is made of: the sum of his
    opponents' ratings, his wins less his losses, and the games he played.

    Sums rather than a list of games: an arena of 1,000 players plays tens of thousands of
    games, and a pair per game made the table's cost and its garbage grow with them."""

    player: str
    points: int
    opponents: float = 0.0
    balance: int = 0
    played: int = 0

    @classmethod
    def of_games(
        cls, player: str, points: int, games: Iterable[tuple[float, float]]
    ) -> ArenaRecord:
        """The record of ``games``: per game, the opponent's rating and the player's result
        (1 win, 0.5 draw, 0 loss)."""
        opponents, balance, played = 0.0, 0, 0
        for rating, score in games:
            opponents += rating
            balance += result(score)
            played += 1
        return cls(player, points, opponents, balance, played)


def result(score: float) -> int:
    """A game's part in the balance of wins and losses: 1 a win, 0 a draw, -1 a loss."""
    return (score > 0.5) - (score < 0.5)


def arena_standings(records: Iterable[ArenaRecord]) -> list[ArenaStanding]:
    """The table of an arena: most points first, then the better performance: the mean rating
    of his opponents plus 500 times his wins less his losses, over his games (0 with none)."""
    records = list(records)
    performance = {
        r.player: (r.opponents + 500 * r.balance) / r.played if r.played else 0.0 for r in records
    }
    # As in standings: stable sorts from the last key to the first, no key tuple per row.
    records.sort(key=lambda record: record.player)
    records.sort(key=lambda record: performance[record.player], reverse=True)
    records.sort(key=lambda record: record.points, reverse=True)
    return [
        ArenaStanding(rank, record.player, record.points, performance[record.player])
        for rank, record in enumerate(records, start=1)
    ]

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

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Played:
    """A finished game of an event: ``white`` is the first player, ``score`` his points."""

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
    players: Iterable[str], games: Iterable[Played], byes: Mapping[str, float] | None = None
) -> list[Standing]:
    """The table of a Swiss or round-robin event: best first."""
    points: dict[str, float] = dict.fromkeys(players, 0.0)
    met: dict[str, list[tuple[str, float]]] = defaultdict(list)
    for game in games:
        white, black, score = game.white, game.black, game.score
        points[white] = points.get(white, 0.0) + score
        points[black] = points.get(black, 0.0) + 1 - score
        met[white].append((black, score))
        met[black].append((white, 1 - score))
    for player, bye in (byes or {}).items():
        points[player] = points.get(player, 0.0) + bye
    rows = []
    for player, own in points.items():
        buchholz = berger = 0.0
        for opponent, scored in met.get(player, ()):
            theirs = points[opponent]
            buchholz += theirs
            berger += theirs * scored
        rows.append((player, own, buchholz, berger))
    rows.sort(key=lambda row: (-row[1], -row[2], -row[3], row[0]))
    return [Standing(i + 1, *row) for i, row in enumerate(rows)]


@dataclass(frozen=True, slots=True)
class ArenaStanding:
    rank: int
    player: str
    points: int
    performance: float


@dataclass(frozen=True, slots=True)
class ArenaRecord:
    """One arena player: his sheet's total and, per game, the opponent's rating and his result
    (1 win, 0.5 draw, 0 loss)."""

    player: str
    points: int
    games: Sequence[tuple[float, float]]


def arena_standings(records: Iterable[ArenaRecord]) -> list[ArenaStanding]:
    """The table of an arena: most points first, then the better performance."""
    rows = []
    for record in records:
        played = len(record.games)
        if played:
            ratings = sum(rating for rating, _ in record.games)
            balance = sum((score > 0.5) - (score < 0.5) for _, score in record.games)
            performance = (ratings + 500 * balance) / played
        else:
            performance = 0.0
        rows.append((record.player, record.points, performance))
    rows.sort(key=lambda row: (-row[1], -row[2], row[0]))
    return [ArenaStanding(i + 1, *row) for i, row in enumerate(rows)]

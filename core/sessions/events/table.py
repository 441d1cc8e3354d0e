"""An event's standings from what the store keeps, by the pure rules of
:mod:`core.tournaments.standings`: one function for ``/tournament`` and the final post."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from core.store.models.events import Event, EventBye, EventGame, EventPlayer, Format
from core.tournaments.standings import ArenaRecord, arena_standings, result, standings


@dataclass(frozen=True, slots=True)
class Row:
    """One line of the table: ``tiebreak`` is Buchholz (Swiss, round robin) or the
    performance (arena); ``second`` Sonneborn-Berger (Swiss, round robin; 0 in an arena)."""

    rank: int
    player: EventPlayer
    points: float
    tiebreak: float
    second: float = 0.0
    berserk: int = 0
    """An arena's: the games he went berserk in."""


def table(
    event: Event,
    players: Sequence[EventPlayer],
    games: Sequence[EventGame],
    byes: Sequence[EventBye],
) -> list[Row]:
    """The event's standings, best first."""
    by_id = {p.player: p for p in players}
    done = [g for g in games if g.played]
    if event.format is Format.ARENA:
        # One pass over the games, each given to its two players: a 1,000-player arena plays
        # tens of thousands of games, too many to scan once per player.
        rating = {p.player: p.rating for p in players}
        opponents = dict.fromkeys(rating, 0.0)
        balance = dict.fromkeys(rating, 0)
        count = dict.fromkeys(rating, 0)
        berserk = dict.fromkeys(rating, 0)
        for g in done:
            x, o = g.x, g.o
            x_rating, o_rating = rating.get(x), rating.get(o)
            # A game against someone no longer listed counts his rating as one's own.
            if x_rating is not None:
                opponents[x] += x_rating if o_rating is None else o_rating
                balance[x] += result(g.x_score or 0.0)
                count[x] += 1
                berserk[x] += g.berserk & 1
            if o_rating is not None:
                opponents[o] += o_rating if x_rating is None else x_rating
                balance[o] += result(g.o_score or 0.0)
                count[o] += 1
                berserk[o] += g.berserk >> 1 & 1
        records = [
            ArenaRecord(
                p.player, int(p.score), opponents[p.player], balance[p.player], count[p.player]
            )
            for p in players
        ]
        rows = arena_standings(records)
        return [
            Row(
                r.rank,
                by_id[r.player],
                float(r.points),
                r.performance,
                0.0,
                berserk.get(r.player, 0),
            )
            for r in rows
        ]
    # Plain tuples, not Played: see its docstring.
    played = [(g.x, g.o, float(g.x_score or 0.0)) for g in done]
    bye_points: dict[str, float] = {}
    for bye in byes:
        bye_points[bye.player] = bye_points.get(bye.player, 0.0) + bye.points
    return [
        Row(s.rank, by_id[s.player], s.points, s.buchholz, s.sonneborn_berger)
        for s in standings(by_id, played, bye_points)
        if s.player in by_id
    ]

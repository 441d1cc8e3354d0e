"""An event's standings from what the store keeps, by the pure rules of
:mod:`core.tournaments.standings`: one function for ``/tournament`` and the final post."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from core.store.models.events import Event, EventBye, EventGame, EventPlayer, Format
from core.tournaments.standings import ArenaRecord, Played, arena_standings, standings


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
        records = []
        berserk: dict[str, int] = {}
        for p in players:
            mine = []
            for g in done:
                if p.player in (g.x, g.o):
                    other = g.o if g.x == p.player else g.x
                    score = g.x_score if g.x == p.player else g.o_score
                    rating = by_id[other].rating if other in by_id else p.rating
                    mine.append((rating, float(score or 0.0)))
                    seat_bit = 1 if g.x == p.player else 2
                    berserk[p.player] = berserk.get(p.player, 0) + bool(g.berserk & seat_bit)
            records.append(ArenaRecord(p.player, int(p.score), mine))
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
    played = [Played(g.x, g.o, float(g.x_score or 0.0)) for g in done]
    bye_points: dict[str, float] = {}
    for bye in byes:
        bye_points[bye.player] = bye_points.get(bye.player, 0.0) + bye.points
    return [
        Row(s.rank, by_id[s.player], s.points, s.buchholz, s.sonneborn_berger)
        for s in standings(by_id, played, bye_points)
        if s.player in by_id
    ]

"""An arena player's sheet: the points each of his games scored, by lichess's rules.

The rules are those of lila's ``modules/tournament/src/main/arena/ArenaSheet.scala`` (the
``Sheet.addResult`` of the Scala 3 version, draw-streak rule "V2" of 21 April 2020), with
the thresholds of its ``Pairing.scala``; our code, not a port:

- a win scores 2, a draw 1, a loss 0;
- *on fire*: when the player's two previous games were both wins, a win scores 4 and a draw
  scores 2 (lichess's ``Flag.Double`` applies to draws too). Any game that is not a win ends the
  fire: a draw while on fire still scores 2, and the next win scores 2 again;
- a draw after a draw (losses in between do not count, a win does) scores 0 unless the game was
  long (``isDrawStreak``; lichess: 60 plies in standard chess), so that two players cannot farm
  points with quick draws; a draw while on fire is exempt (the double wins first, as in lila);
- a draw shorter than ``quick_draw_plies`` scores 0 (lichess's ``quickDraw``: 20 plies), and a
  berserk win adds 1 only when the game lasted ``berserk_min_plies`` (``notSoQuickFinish``: 14);
- an event may turn streaks off (lichess's ``streakable``): then wins always score 2.

Lichess's ply thresholds are chess's: our games are much shorter (a tic-tac-toe game has at most
9 plies), so :class:`ArenaRules` takes them per event and defaults to none of them
(:data:`LICHESS_CHESS` holds lichess's own).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum


class Outcome(Enum):
    """A finished game's result for one of its players."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"


@dataclass(frozen=True, slots=True)
class ArenaGame:
    """One finished arena game, seen by one of its players."""

    outcome: Outcome
    plies: int
    berserk: bool = False


@dataclass(frozen=True, slots=True)
class ArenaRules:
    """An event's scoring options. The ply thresholds are off (0) by default."""

    streaks: bool = True
    quick_draw_plies: int = 0
    """A draw of fewer plies scores 0."""
    berserk_min_plies: int = 0
    """A berserk win of fewer plies earns no bonus."""
    long_game_plies: int = 0
    """A draw after a draw scores 0 unless it lasted this many plies (0: the rule is off)."""


LICHESS_CHESS = ArenaRules(quick_draw_plies=20, berserk_min_plies=14, long_game_plies=60)
"""Lichess's thresholds for standard chess (``Pairing.scala``)."""


@dataclass(frozen=True, slots=True)
class Score:
    """What one game scored, and why: ``doubled`` when the player was on fire."""

    outcome: Outcome
    points: int
    doubled: bool
    berserk_bonus: bool


@dataclass(frozen=True, slots=True)
class Sheet:
    """A player's games in order, their scores and his total."""

    scores: tuple[Score, ...]

    @property
    def total(self) -> int:
        return sum(score.points for score in self.scores)

    @property
    def on_fire(self) -> bool:
        """Whether his next win would score double: his last two games were wins."""
        return _on_fire(self.scores)

    def add(self, game: ArenaGame, rules: ArenaRules = ArenaRules()) -> Sheet:
        return Sheet((*self.scores, _score(self.scores, game, rules)))


EMPTY = Sheet(())


def sheet(games: Iterable[ArenaGame], rules: ArenaRules = ArenaRules()) -> Sheet:
    """The sheet of a player's finished games, oldest first."""
    scores: list[Score] = []
    for game in games:
        scores.append(_score(scores, game, rules))
    return Sheet(tuple(scores))


def _on_fire(scores: tuple[Score, ...] | list[Score]) -> bool:
    return len(scores) >= 2 and all(s.outcome is Outcome.WIN for s in scores[-2:])


def _after_a_draw(scores: tuple[Score, ...] | list[Score]) -> bool:
    """lila's ``isDrawStreak``: the last game that was not a loss was a draw."""
    for score in reversed(scores):
        if score.outcome is not Outcome.LOSS:
            return score.outcome is Outcome.DRAW
    return False


def _score(scores: tuple[Score, ...] | list[Score], game: ArenaGame, rules: ArenaRules) -> Score:
    doubled = rules.streaks and _on_fire(scores)
    if game.outcome is Outcome.LOSS:
        return Score(Outcome.LOSS, 0, doubled=False, berserk_bonus=False)
    if game.outcome is Outcome.DRAW:
        if game.plies < rules.quick_draw_plies:
            return Score(Outcome.DRAW, 0, doubled=False, berserk_bonus=False)
        if doubled:
            return Score(Outcome.DRAW, 2, doubled=True, berserk_bonus=False)
        farmed = game.plies < rules.long_game_plies and _after_a_draw(scores)
        points = 0 if farmed else 1
        return Score(Outcome.DRAW, points, doubled=False, berserk_bonus=False)
    bonus = game.berserk and game.plies >= rules.berserk_min_plies
    return Score(Outcome.WIN, (4 if doubled else 2) + bonus, doubled=doubled, berserk_bonus=bonus)

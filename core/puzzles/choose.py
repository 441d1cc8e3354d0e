"""Which puzzle ``/puzzle next`` gives: one the player has not tried, near their puzzle
rating. Pure."""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence

from core.puzzles.puzzle import Puzzle
from core.ratings import Rating

NEAREST = 12
"""The choice is random among this many untried puzzles nearest the player's rating, so two
players of one rating do not walk the set in the same order."""


def near(
    puzzles: Sequence[Puzzle],
    ratings: Mapping[str, Rating],
    tried: Collection[str],
    rating: float,
    rng: random.Random,
) -> Puzzle | None:
    """An untried puzzle whose rating (``ratings``, else its difficulty) is near ``rating``;
    None when every puzzle was tried."""
    untried = [puzzle for puzzle in puzzles if puzzle.id not in tried]
    if not untried:
        return None

    def distance(puzzle: Puzzle) -> float:
        known = ratings.get(puzzle.id)
        return abs((known.rating if known else puzzle.difficulty) - rating)

    untried.sort(key=lambda puzzle: (distance(puzzle), puzzle.id))
    return rng.choice(untried[:NEAREST])

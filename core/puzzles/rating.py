"""A puzzle's rating and the player's after an attempt: OpenSkill, the player against the puzzle,
as lichess rates its puzzles with Glicko (the game ratings' model, :mod:`core.ratings.rating`)."""

from __future__ import annotations

from core.puzzles.puzzle import Puzzle
from core.ratings.rating import START_DEVIATION, Rating, RatingChange, rate


def starting(puzzle: Puzzle) -> Rating:
    """A puzzle's rating before anyone tried it: its difficulty, as uncertain as a new player."""
    return of_difficulty(puzzle.difficulty)


def of_difficulty(difficulty: int) -> Rating:
    """The rating a puzzle of ``difficulty`` starts with."""
    return Rating(float(difficulty), START_DEVIATION, 0)


def after_attempt(player: Rating, puzzle: Rating, solved: bool) -> RatingChange:
    """Both ratings after one rated attempt: the player (first) won when the puzzle was solved."""
    return rate(player, puzzle, 1 if solved else 2)

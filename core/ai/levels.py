"""Strength levels of the bot."""

from __future__ import annotations

import enum


class Level(enum.Enum):
    """How well the bot plays: EASY random, MEDIUM a person's rules, HARD the best it can."""

    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"

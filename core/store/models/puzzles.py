"""What the puzzles' store operations answer (:mod:`core.store.puzzles`)."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from core.puzzles.streak import Streak
from core.ratings import Rating


class AttemptStatus(enum.Enum):
    GOING = "going"
    SOLVED = "solved"
    FAILED = "failed"


@dataclass(frozen=True, slots=True)
class StoredAttempt:
    """A person's try at one puzzle: where it was last shown, the moves played since the
    puzzle's start (both sides'), and how it stands. ``version`` grows with each answer."""

    id: str
    identity: str
    puzzle_id: str
    platform: str
    chat_id: str
    user_id: str
    played: tuple[int, ...]
    status: AttemptStatus
    version: int
    started_at: float

    @property
    def finished(self) -> bool:
        return self.status is not AttemptStatus.GOING


@dataclass(frozen=True, slots=True)
class PuzzlePlayer:
    """A person's puzzle rating (``games``: puzzles tried), count solved and streak."""

    identity: str
    rating: Rating
    solved: int
    streak: Streak
    name: str = ""
    platform: str = ""


@dataclass(frozen=True, slots=True)
class PuzzleResult:
    """A finished attempt as written: the player's rating before and after, the streak after."""

    before: Rating
    after: Rating
    streak: Streak

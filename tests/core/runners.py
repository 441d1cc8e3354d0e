"""What the fake AI runners of the service tests share (``core.workers.runner.AiRunner``)."""

from __future__ import annotations

from collections.abc import Sequence

from core.ai.review import GameReview, MoveReview
from core.games import Rules
from core.puzzles.answer import Answer, Attempt
from core.workers.runner import RunnerLoad
from core.workers.tasks import puzzle_answer


class StubRunner:
    """The parts of a runner that most tests do not look at: no workers, nothing queued."""

    saturated = False

    async def start(self) -> None:
        pass

    async def close(self) -> None:
        pass

    def load(self, budget: float = 1.0) -> RunnerLoad:
        return RunnerLoad(workers=0, running=0, queued=0, budget=budget)

    async def review(
        self,
        rules: Rules,
        moves: Sequence[int],
        *,
        seconds: float,
        known: Sequence[MoveReview] = (),
        background: bool = False,
        every_best: bool = False,
    ) -> GameReview | None:
        """No review: the tests that look at reviews give their runner its own."""
        return None

    async def answer_puzzle(self, attempt: Attempt, move: int) -> Answer:
        """The real check, inline: puzzles are what these tests look at, not the workers."""
        attempt.position.play(move)
        return puzzle_answer(attempt, move)

"""What the fake AI runners of the service tests share (``core.workers.runner.AiRunner``)."""

from __future__ import annotations

from core.workers.runner import RunnerLoad


class StubRunner:
    """The parts of a runner that most tests do not look at: no workers, nothing queued."""

    saturated = False

    async def start(self) -> None:
        pass

    async def close(self) -> None:
        pass

    def load(self, budget: float = 1.0) -> RunnerLoad:
        return RunnerLoad(workers=0, running=0, queued=0, budget=budget)

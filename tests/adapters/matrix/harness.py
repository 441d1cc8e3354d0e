"""What the Matrix adapter tests share: the adapter run against :mod:`tests.adapters.matrix.fakes`
on the real service and a real SQLite file, and predicates over what it sent."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

from adapters.matrix import MatrixAdapter, MatrixConfig
from adapters.matrix.state import MatrixState
from adapters.matrix.transport import MatrixError
from core.sessions import GameService, ServiceSettings
from core.store import SqliteStore
from core.store.port import Store
from tests.adapters.matrix.fakes import BOT, FakeTransport, Sent

ALICE = "@alice:example.org"
BOB = "@bob:example.org"
CAROL = "@carol:example.org"
ROOM = "!games:example.org"
# Exempt, as an operator who followed docs/matrix.md says: the bot cleans up and seeds keycaps
# from the start (tests/adapters/matrix/test_limits.py runs a bot that is not).
CONFIG = MatrixConfig("https://matrix.example.org", BOT, password="pw", exempt=True)
FAST = ServiceSettings(ai_workers=0, ai_warm_up=False)


@asynccontextmanager
async def serving(
    path: Path, *, store: Store | None = None, settings: ServiceSettings = FAST
) -> AsyncIterator[GameService]:
    """The real service on the SQLite file ``path`` (or on ``store``, closed afterwards)."""
    opened = store if store is not None else await SqliteStore.open(path)
    service = GameService(opened, settings=settings, rng=random.Random(7))
    await service.start()
    try:
        yield service
    finally:
        await service.close()
        await opened.close()


class Sleeps:
    """A sleep that returns at once and remembers how long it was asked to wait."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)
        await asyncio.sleep(0)


@asynccontextmanager
async def running(
    service: GameService,
    fake: FakeTransport,
    config: MatrixConfig = CONFIG,
    sleep: Sleeps | None = None,
    clock: Callable[[], float] = time.time,
) -> AsyncIterator[MatrixAdapter]:
    """The adapter running until the block ends (then stopped as on a signal)."""
    adapter = MatrixAdapter(
        service, config, transport=fake, add_keycaps=False, sleep=sleep or Sleeps(), clock=clock
    )
    stop = asyncio.Event()
    task = asyncio.create_task(adapter.run(stop))
    try:
        yield adapter
    finally:
        stop.set()
        await asyncio.wait_for(task, 10)


async def no_relogin(error: MatrixError, started: float) -> None:
    """A sender's relogin where no token expires."""
    raise AssertionError(f"no token expires here: {error}")


def state(service: GameService) -> MatrixState:
    return MatrixState(service.store, BOT)


def notice_to(event_id: str) -> Callable[[Sent], bool]:
    def check(sent: Sent) -> bool:
        relates = sent.content.get("m.relates_to", {})
        return sent.content.get("msgtype") == "m.notice" and relates.get("m.in_reply_to") == {
            "event_id": event_id
        }

    return check


def is_board(sent: Sent) -> bool:
    return "<pre>" in str(sent.content.get("formatted_body", "")) and (
        "m.relates_to" not in sent.content
    )


def edit_of(event_id: str) -> Callable[[Sent], bool]:
    def check(sent: Sent) -> bool:
        relates = sent.content.get("m.relates_to", {})
        return bool(relates == {"rel_type": "m.replace", "event_id": event_id})

    return check

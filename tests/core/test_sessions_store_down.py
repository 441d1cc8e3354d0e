"""The database stops while the bot searches its answer: the player's move is already stored,
so the answer says so ("your move is saved; my answer will come when the database is back"),
and the bot's move follows on the board, through the platform's publish, once the store
answers again, without a new command. On both stores.

The database cannot be stopped on demand in the middle of one search here, so the real store
sits behind a switch that makes every call fail as a stopped database does (StoreUnavailable);
the AI runner is a hand-written fake held mid-thought."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Sequence
from typing import Any, cast

import pytest

from core.ai import Level
from core.games import Position
from core.ports import PlatformStyle
from core.replies import Actor, Reply
from core.sessions import GameService, ServiceSettings
from core.store import StoreUnavailable, sessions
from core.store.port import Store
from tests.backends import AnyStore, Backend
from tests.core.runners import StubRunner

ALICE = Actor("test", "room", "alice", "Alice")


class Switched:
    """The real store; while ``down``, every call fails as a stopped database does."""

    def __init__(self, store: AnyStore) -> None:
        self._store = store
        self.down = False

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(self._store, name)
        if not callable(attribute):
            return attribute

        async def call(*args: Any, **kwargs: Any) -> Any:
            if self.down:
                raise StoreUnavailable("test database", "the server is stopped")
            return await attribute(*args, **kwargs)

        return call


class Held(StubRunner):
    """Takes the lowest legal move once :attr:`release` is set; :attr:`thinking` is set while
    it waits."""

    def __init__(self) -> None:
        self.release = asyncio.Event()
        self.thinking = asyncio.Event()

    async def choose(
        self, position: Position, level: Level, *, budget: float, interactive: bool = True
    ) -> int:
        self.thinking.set()
        await self.release.wait()
        return position.legal_moves()[0]


@pytest.fixture
async def store(backend: Backend) -> AsyncIterator[AnyStore]:
    async with backend.open() as opened:
        yield opened


async def test_a_move_saved_before_the_database_stopped_is_answered_when_it_is_back(
    store: AnyStore,
) -> None:
    switched = Switched(store)
    runner = Held()
    svc = GameService(
        cast(Store, switched),
        settings=ServiceSettings(ai_workers=0),
        rng=random.Random(2),
        runner=runner,
    )
    published: list[Reply] = []
    answered = asyncio.Event()

    async def publish(actor: Actor, replies: Sequence[Reply]) -> None:
        published.extend(replies)
        answered.set()

    svc.register_platform(PlatformStyle("test", publish=publish))
    try:
        started = await svc.handle_text(ALICE, "/tres easy first")
        assert started[0].board is not None
        session_id = started[0].board.session_id
        move = asyncio.create_task(svc.handle_text(ALICE, "5"))
        await runner.thinking.wait()
        switched.down = True  # the database stops while the bot thinks
        runner.release.set()
        replies = await move
        assert [r.text.key for r in replies if r.text is not None] == ["game.move_saved"]
        assert not any(r.error for r in replies)
        board = replies[0].board
        assert board is not None and [c.index for c in board.cells if c.mark] == [4]
        switched.down = False  # the database is back
        async with asyncio.timeout(60):
            await answered.wait()
        last = published[-1].board
        assert last is not None and [c.index for c in last.cells if c.mark] == [0, 4]
        stored = await store.run(sessions.get(session_id))
        assert stored is not None and stored.moves == (4, 0)
        assert last.version == stored.version
    finally:
        await svc.close()

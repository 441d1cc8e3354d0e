"""One load and one check per move: a typed move reads its game once, and the check that lets a
playable move past the rate limit is the one the move is played by. On both stores; the store
is the real one, behind a wrapper that counts the calls (it changes nothing)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import AsyncIterator
from typing import Any, TypeVar, cast

import pytest

from core.replies import Actor
from core.sessions import GameService, ServiceSettings
from core.store.port import Store
from core.store.sql import Op, name_of
from tests.backends import AnyStore, Backend

ALICE = Actor("test", "room", "alice", "Alice")
BOB = Actor("test", "room", "bob", "Bob")

T = TypeVar("T")


class CountingStore:
    """The real store, with a count of each session operation called."""

    def __init__(self, store: AnyStore) -> None:
        self._store = store
        self.calls: Counter[str] = Counter()

    async def run(self, op: Op[T]) -> T:
        name = name_of(op)
        if name in ("get", "live_game", "update"):
            self.calls[name] += 1
        return await self._store.run(op)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)


@pytest.fixture
async def store(backend: Backend) -> AsyncIterator[AnyStore]:
    async with backend.open() as opened:
        yield opened


async def test_a_typed_move_reads_its_game_once_and_writes_once(store: AnyStore) -> None:
    counting = CountingStore(store)
    svc = GameService(
        cast(Store, counting),
        settings=ServiceSettings(ai_workers=0, limits=True),
        clock=lambda: 1_700_000_000.0,
        rng=random.Random(5),
    )
    await svc.handle_text(ALICE, "/tres @bob first")
    await svc.handle_text(BOB, "/accept")
    counting.calls.clear()
    replies = await svc.handle_text(ALICE, "5")
    assert replies and replies[0].board is not None
    assert [c.mark for c in replies[0].board.cells if c.mark] == [1]
    assert counting.calls == Counter({"live_game": 1, "update": 1})
    # A refused move (an occupied cell) is read once too, then passes the rate limit.
    counting.calls.clear()
    refused = await svc.handle_text(BOB, "5")
    assert refused[-1].error and refused[-1].text is not None
    assert refused[-1].text.key == "error.occupied"
    assert counting.calls == Counter({"live_game": 1})


async def test_a_click_loads_its_game_once(store: AnyStore) -> None:
    counting = CountingStore(store)
    svc = GameService(
        cast(Store, counting),
        settings=ServiceSettings(ai_workers=0, limits=True),
        clock=lambda: 1_700_000_000.0,
        rng=random.Random(5),
    )
    await svc.handle_text(ALICE, "/tres @bob first")
    accepted = await svc.handle_text(BOB, "/accept")
    board = accepted[0].board
    assert board is not None
    counting.calls.clear()
    await svc.handle_move(ALICE, board.session_id, 4, board.version)
    assert counting.calls == Counter({"get": 1, "update": 1})

"""After a restart, a typed move is not discarded: when the bot's move was lost (the process
died after storing the player's move, before the bot's), the first typed move lets the bot play
first and is then played too if it is still legal. On both stores; the AI runner is a
hand-written fake that always takes the lowest legal move, so the test knows which cell the
bot takes."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Sequence
from dataclasses import replace

import pytest

from core.ai import Level
from core.games import Position
from core.replies import Actor, Reply
from core.sessions import GameService, ServiceSettings
from core.store import Session, sessions
from tests.backends import AnyStore, Backend
from tests.core.runners import StubRunner

ALICE = Actor("test", "room", "alice", "Alice")


class Lowest(StubRunner):
    """The bot takes the lowest legal move."""

    async def choose(
        self, position: Position, level: Level, *, budget: float, interactive: bool = True
    ) -> int:
        return position.legal_moves()[0]


@pytest.fixture
async def store(backend: Backend) -> AsyncIterator[AnyStore]:
    async with backend.open() as opened:
        yield opened


async def interrupted(store: AnyStore) -> tuple[GameService, Session]:
    """Alice's game against the bot, her move 5 stored and the bot's move lost."""
    svc = GameService(
        store,
        settings=ServiceSettings(ai_workers=0),
        clock=lambda: 1_700_000_000.0,
        rng=random.Random(1),
        runner=Lowest(),
    )
    replies = await svc.handle_text(ALICE, "/tres easy first")
    assert replies[0].board is not None
    session = await store.run(sessions.get(replies[0].board.session_id))
    assert session is not None
    mid = replace(session, moves=(4,), version=session.version + 1)
    assert await store.run(sessions.update(mid, expected_version=session.version))
    return svc, mid


def errors(replies: Sequence[Reply]) -> list[str]:
    return [r.text.key for r in replies if r.error and r.text is not None]


async def test_a_typed_move_waits_for_the_bots_lost_move_and_is_played(store: AnyStore) -> None:
    svc, mid = await interrupted(store)
    replies = await svc.handle_text(ALICE, "9")
    assert errors(replies) == []
    after = await store.run(sessions.get(mid.id))
    # The bot's lost move (cell 1), Alice's typed move (cell 9), the bot's answer (cell 2).
    assert after is not None and after.moves == (4, 0, 8, 1)
    assert replies[-1].board is not None and replies[-1].board.version == after.version


async def test_a_typed_move_the_bots_lost_move_took_is_refused(store: AnyStore) -> None:
    svc, mid = await interrupted(store)
    replies = await svc.handle_text(ALICE, "1")  # cell 0: the bot takes it first
    assert errors(replies) == ["error.board_changed"]
    after = await store.run(sessions.get(mid.id))
    assert after is not None and after.moves == (4, 0)


async def test_a_click_on_the_board_before_the_bots_lost_move_is_not_played(
    store: AnyStore,
) -> None:
    svc, mid = await interrupted(store)
    replies = await svc.handle_move(ALICE, mid.id, 8, mid.version)
    assert errors(replies) == ["error.board_changed"]
    after = await store.run(sessions.get(mid.id))
    assert after is not None and after.moves == (4, 0)

"""``handle_pick``: a first step towards a move (a picture board's column menu) is answered as
the move would be, without playing anything; on a real SQLite file."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from core.replies import Actor
from core.sessions import GameService, ServiceSettings
from core.store import SqliteStore

ALICE = Actor("discord", "games", "alice", "Alice", server_id="g1")
BOB = Actor("discord", "games", "bob", "Bob", server_id="g1")


@pytest.fixture
async def svc(tmp_path: Path) -> AsyncIterator[GameService]:
    async with SqliteStore.open(tmp_path / "db.sqlite3") as store:
        yield GameService(
            store,
            settings=ServiceSettings(ai_workers=0, ai_budget=0.05),
            clock=lambda: 1_700_000_000.0,
            rng=random.Random(1),
        )


async def test_a_pick_is_answered_as_a_move_without_playing_anything(svc: GameService) -> None:
    [start] = await svc.handle_text(ALICE, "/ratlla 9x9 5 easy")
    assert start.board is not None
    game, version = start.board.session_id, start.board.version
    assert await svc.handle_pick(ALICE, game, version) is None
    refused = await svc.handle_pick(BOB, game, version)
    assert refused is not None and [r.text.key for r in refused if r.text] == [
        "error.not_your_game"
    ]
    stale = await svc.handle_pick(ALICE, game, version - 1)
    assert stale is not None and any(
        r.text is not None and r.text.key == "error.board_changed" for r in stale
    )
    [after] = await svc.handle_move(ALICE, game, 40, version)  # nothing was played meanwhile
    assert after.board is not None and after.board.version > version

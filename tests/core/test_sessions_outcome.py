"""How a game ended is one stored value, announced once: every way a game ends stores its
``Outcome`` with the session (read back as stored, on both stores), the stats count it
(a resignation is a loss), and the observer hears of the end exactly once, with the variant."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Sequence

import pytest

from core.games import Outcome, Termination
from core.ports import NullObserver, PlatformStyle
from core.replies import Actor, Reply
from core.sessions import GameService, ServiceSettings
from core.store import Session, Status, sessions, stats
from tests.backends import AnyStore, Backend

NOW = 1_700_000_000.0
ALICE = Actor("test", "room", "alice", "Alice")
BOB = Actor("test", "room", "bob", "Bob")


class Recording(NullObserver):
    """Every game start and end the service reports."""

    def __init__(self) -> None:
        self.started: list[tuple[str, str]] = []
        self.finished: list[tuple[str, str]] = []

    def game_started(self, platform: str, game: str) -> None:
        self.started.append((platform, game))

    def game_finished(self, platform: str, game: str) -> None:
        self.finished.append((platform, game))


@pytest.fixture
async def store(backend: Backend) -> AsyncIterator[AnyStore]:
    async with backend.open() as opened:
        yield opened


def make(store: AnyStore, observer: Recording, watch_move_interval: float = 1.0) -> GameService:
    settings = ServiceSettings(
        ai_workers=0, ai_budget=0.05, limits=False, watch_move_interval=watch_move_interval
    )
    return GameService(
        store,
        settings=settings,
        clock=lambda: NOW,
        rng=random.Random(3),
        observer=observer,
    )


def session_of(replies: Sequence[Reply]) -> str:
    ids = {reply.session_id for reply in replies if reply.session_id is not None}
    assert len(ids) == 1
    return ids.pop()


async def stored(store: AnyStore, session_id: str) -> Session:
    session = await store.run(sessions.get(session_id))
    assert session is not None
    return session


async def pvp(svc: GameService) -> str:
    await svc.handle_text(ALICE, "/tres @bob first")
    return session_of(await svc.handle_text(BOB, "/accept"))


async def test_a_win_is_stored_and_announced_once(store: AnyStore) -> None:
    observer = Recording()
    svc = make(store, observer)
    session_id = await pvp(svc)
    for who, move in ((ALICE, "1"), (BOB, "4"), (ALICE, "2"), (BOB, "5"), (ALICE, "3")):
        await svc.handle_text(who, move)
    ended = await stored(store, session_id)
    assert ended.status is Status.FINISHED
    assert ended.outcome == Outcome(Termination.WIN, 1)
    assert observer.started == [("test", "tictactoe")]
    assert observer.finished == [("test", "tictactoe")]


async def test_a_resignation_is_stored_counted_as_a_loss_and_announced_once(
    store: AnyStore,
) -> None:
    observer = Recording()
    svc = make(store, observer)
    session_id = await pvp(svc)
    await svc.handle_text(ALICE, "5")
    replies = await svc.handle_text(BOB, "/final")
    assert replies[0].text is not None and replies[0].text.key == "game.resigned"
    ended = await stored(store, session_id)
    assert ended.outcome == Outcome(Termination.RESIGNATION, 1)
    assert replies[0].board is not None and replies[0].board.status.key == "game.resigned"
    bob = await store.run(stats.player_stats("test", "bob"))
    alice = await store.run(stats.player_stats("test", "alice"))
    assert bob is not None and (bob.wins, bob.losses, bob.draws) == (0, 1, 0)
    assert alice is not None and (alice.wins, alice.losses, alice.draws) == (1, 0, 0)
    assert observer.finished == [("test", "tictactoe")]


async def test_a_game_ended_before_any_move_is_no_result(store: AnyStore) -> None:
    observer = Recording()
    svc = make(store, observer)
    session_id = await pvp(svc)
    replies = await svc.handle_text(ALICE, "/final")
    assert replies[0].text is not None and replies[0].text.key == "game.ended"
    # The deletion was a change: the board shown is one version on, so old buttons are stale.
    assert replies[0].board is not None and replies[0].board.version == 3
    assert await store.run(sessions.get(session_id)) is None
    assert observer.finished == []


async def test_a_stopped_bots_game_is_stored_as_stopped_and_announced_once(
    store: AnyStore,
) -> None:
    observer = Recording()
    # A long pause between the bots' moves: the watcher stops the game during the first one.
    svc = make(store, observer, watch_move_interval=3600.0)
    first_move = asyncio.Event()

    async def publish(actor: Actor, replies: Sequence[Reply]) -> None:
        first_move.set()

    svc.register_platform(PlatformStyle("test", publish=publish))
    try:
        session_id = session_of(await svc.handle_text(ALICE, "/quatre bot easy easy"))
        await first_move.wait()
        replies = await svc.handle_text(ALICE, "/final")
        assert replies[0].text is not None and replies[0].text.key == "game.watch_stopped"
        ended = await stored(store, session_id)
        assert ended.outcome == Outcome(Termination.STOPPED)
        assert ended.status is Status.FINISHED and len(ended.moves) == 1
        assert observer.started == [("test", "connect4")]
        assert observer.finished == [("test", "connect4")]
        # Bots keep no stats.
        assert await store.run(stats.top("test", "room")) == []
    finally:
        await svc.close()

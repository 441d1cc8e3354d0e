"""A move whose write's answer was lost (the connection dropped as it committed) is read back
before the player is answered: saved, with the bot's answer; not saved, saying so; or, while
the store stays down, "not known yet", and the board follows through the platform's publish
once it is back. Never "nothing changed" for a move that was stored. On both stores.

The drop is a fault injected at the driver's edge (tests.core.faults.DropAtCommit): the
statement commits (or not), then the driver raises its connection error; everything above it
is the real code. The AI runner is a hand-written fake that takes the lowest legal column."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence
from typing import cast

import pytest

from core.ports import PlatformStyle
from core.replies import Actor, Reply
from core.sessions import GameService, ServiceSettings
from core.store import Status, sessions
from core.store.port import Store
from tests.backends import AnyStore, Backend
from tests.core.faults import DropAtCommit
from tests.core.test_sessions import ALICE, BOB, store
from tests.core.test_sessions import keys as texts
from tests.core.test_sessions_restart import Lowest
from tests.core.test_sessions_store_down import Switched

__all__ = ["store"]  # the fixture, imported for the tests here


def stones(reply: Reply) -> list[int]:
    assert reply.board is not None
    return [cell.index for cell in reply.board.cells if cell.mark]


async def started(svc: GameService) -> str:
    (board, *_) = await svc.handle_text(ALICE, "/quatre easy first")
    assert board.board is not None
    return board.board.session_id


def service(store: object, fate_wait: float = 5.0) -> GameService:
    return GameService(
        cast(Store, store),
        settings=ServiceSettings(ai_workers=0, fate_wait=fate_wait),
        rng=random.Random(3),
        runner=Lowest(),
    )


def down_at_commit(
    backend: Backend, store: AnyStore, monkeypatch: pytest.MonkeyPatch
) -> tuple[DropAtCommit, Switched, GameService]:
    """A service whose database stops as the next armed write commits, and stays down (until
    the test sets ``down`` back)."""
    drop = DropAtCommit(backend.kind, monkeypatch)
    switched = Switched(store)

    def stop() -> None:
        switched.down = True

    drop.after = stop
    return drop, switched, service(switched, fate_wait=0.2)


async def test_a_move_stored_as_the_connection_dropped_is_answered_as_saved(
    backend: Backend, store: AnyStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    drop = DropAtCommit(backend.kind, monkeypatch)
    svc = service(store)
    try:
        session_id = await started(svc)
        drop.arm(committed=True)
        replies = await svc.handle_text(ALICE, "4")
        assert drop.fired == 1
        # Found stored: the bot answered it (column 1, the lowest), as for any move.
        assert texts(replies) == [] and not any(r.error for r in replies)
        (board,) = replies
        assert sorted(stones(board)) == [35, 38]
        stored = await store.run(sessions.get(session_id))
        assert stored is not None and stored.moves == (3, 0)
        # Told the truth, the player plays on: his next move follows the bot's answer.
        again = await svc.handle_text(ALICE, "4")
        stored = await store.run(sessions.get(session_id))
        assert stored is not None and stored.moves == (3, 0, 3, 0), texts(again)
    finally:
        await svc.close()


async def test_a_move_lost_with_the_connection_is_answered_as_not_saved_once_read_back(
    backend: Backend, store: AnyStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    drop = DropAtCommit(backend.kind, monkeypatch)
    svc = service(store)
    try:
        session_id = await started(svc)
        drop.arm(committed=False)
        replies = await svc.handle_text(ALICE, "4")
        assert drop.fired == 1
        assert texts(replies) == ["error.store_unavailable"]  # the truth: nothing changed
        stored = await store.run(sessions.get(session_id))
        assert stored is not None and stored.moves == ()
        # Played again, it is played once.
        await svc.handle_text(ALICE, "4")
        stored = await store.run(sessions.get(session_id))
        assert stored is not None and stored.moves == (3, 0)
    finally:
        await svc.close()


async def test_a_move_whose_fate_is_unknown_until_the_store_is_back_is_told_then(
    backend: Backend, store: AnyStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    drop, switched, svc = down_at_commit(backend, store, monkeypatch)
    published: list[Reply] = []
    answered = asyncio.Event()

    async def publish(actor: Actor, replies: Sequence[Reply]) -> None:
        published.extend(replies)
        answered.set()

    svc.register_platform(PlatformStyle("test", publish=publish))
    try:
        session_id = await started(svc)
        drop.arm(committed=True)
        replies = await svc.handle_text(ALICE, "4")
        assert texts(replies) == ["game.move_unknown"]
        assert not answered.is_set()
        switched.down = False
        async with asyncio.timeout(30):
            await answered.wait()
        (board,) = published
        assert sorted(stones(board)) == [35, 38] and texts(published) == []
        stored = await store.run(sessions.get(session_id))
        assert stored is not None and stored.moves == (3, 0)
        assert board.board is not None and board.board.version == stored.version
    finally:
        await svc.close()


# --- the other writes of a game: a challenge made, accepted, declined; /final ----------------

# Each: what sets it up (lines of (player, text)), the line whose write drops, the answer when
# it was stored, and the game's status then (None: gone).
WRITES = {
    "challenge": ([], (ALICE, "/tres @bob"), "game.challenge", Status.CHALLENGE),
    "accept": ([(ALICE, "/tres @bob")], (BOB, "/accept"), "game.accepted", Status.ACTIVE),
    "decline": ([(ALICE, "/tres @bob")], (BOB, "/decline"), "game.declined", None),
    "final": (
        [(ALICE, "/tres @bob"), (BOB, "/accept"), (ALICE, "5")],
        (ALICE, "/final"),
        "game.resigned",
        Status.FINISHED,
    ),
}


async def _set_up(svc: GameService, write: str) -> tuple[Actor, str]:
    lines, (who, line), _, _ = WRITES[write]
    for player, text in lines:
        assert not any(r.error for r in await svc.handle_text(player, text)), text
    return who, line


async def _status(store: AnyStore) -> Status | None:
    """The status of Alice's game in the room (live, else the last finished); None: none."""
    live = await store.run(sessions.live_game("test", "room", "alice"))
    found = live or await store.run(sessions.last_finished("test", "room", "alice"))
    return None if found is None else found.status


@pytest.mark.parametrize("committed", [True, False], ids=["stored", "lost"])
@pytest.mark.parametrize("write", list(WRITES))
async def test_a_write_whose_connection_dropped_is_answered_as_read_back(
    backend: Backend, store: AnyStore, monkeypatch: pytest.MonkeyPatch, write: str, committed: bool
) -> None:
    drop = DropAtCommit(backend.kind, monkeypatch)
    svc = service(store)
    _, _, done, after = WRITES[write]
    try:
        who, line = await _set_up(svc, write)
        before = await _status(store)
        drop.arm(committed=committed)
        replies = await svc.handle_text(who, line)
        assert drop.fired == 1
        if committed:
            # Read back, found stored: answered as done, never "nothing changed".
            assert texts(replies) == [done] and not any(r.error for r in replies)
            assert await _status(store) is after
            return
        assert texts(replies) == ["error.store_unavailable"]  # the truth: nothing changed
        assert await _status(store) is before
        # Sent again, it is done once.
        assert texts(await svc.handle_text(who, line)) == [done]
        assert await _status(store) is after
    finally:
        await svc.close()


async def test_a_write_whose_fate_is_unknown_while_the_store_is_down_says_so(
    backend: Backend, store: AnyStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    drop, switched, svc = down_at_commit(backend, store, monkeypatch)
    try:
        who, line = await _set_up(svc, "accept")
        drop.arm(committed=True)
        assert texts(await svc.handle_text(who, line)) == ["error.change_unknown"]
        switched.down = False
        assert await _status(store) is Status.ACTIVE
    finally:
        await svc.close()

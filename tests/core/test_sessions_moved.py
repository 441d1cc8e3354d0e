"""Live games carried to another chat (a Matrix room upgrade), on both stores."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence

from core.ports import PlatformStyle
from core.replies import ActionKind, Actor, Reply
from core.sessions import GameService, ServiceSettings
from core.store import Status, sessions
from tests.backends import AnyStore
from tests.core.test_sessions import (
    ALICE,
    BOB,
    actor,
    pvp,
    service,
    session_of,
    store,
    stored,
)

__all__ = ["store"]  # the fixture


async def test_a_game_carried_over_goes_on_in_the_new_chat_and_nowhere_else(
    store: AnyStore,
) -> None:
    svc = service(store)
    session_id = await pvp(svc)
    await svc.handle_text(ALICE, "5")
    [carried] = await svc.carry_games_over("test", "room", "new room", ["alice", "bob", "x"])
    assert carried.session_id == session_id and carried.new_message and carried.board is not None
    assert carried.text is not None and carried.text.key == "game.carried_over"
    moved = await stored(store, session_id)
    assert moved.chat_id == "new room" and len(moved.moves) == 1
    # The old room has no game of theirs any more; the new one has, and it plays on.
    assert await store.run(sessions.live_game("test", "room", "bob")) is None
    replies = await svc.handle_text(actor("bob", chat="new room"), "1")
    assert session_of(replies) == session_id
    assert len((await stored(store, session_id)).moves) == 2
    # Carried once: a second upgrade notice finds nothing left in the old room.
    assert await svc.carry_games_over("test", "room", "new room", ["alice", "bob"]) == []


async def test_a_player_already_playing_in_the_new_chat_keeps_both_where_they_are(
    store: AnyStore,
) -> None:
    svc = service(store)
    old = session_of(await svc.handle_text(ALICE, "/tres easy"))
    new = session_of(await svc.handle_text(actor("alice", chat="new room"), "/tres easy"))
    assert await svc.carry_games_over("test", "room", "new room", ["alice", BOB.user_id]) == []
    assert (await stored(store, old)).chat_id == "room"
    assert (await stored(store, new)).chat_id == "new room"


async def test_an_open_challenge_is_carried_and_sent_again_to_the_challenged(
    store: AnyStore,
) -> None:
    svc = service(store)
    challenge = session_of(await svc.handle_text(ALICE, "/tres @bob"))
    [again] = await svc.carry_games_over("test", "room", "new room", ["bob", "alice"])
    assert again.session_id == challenge and again.mention == "bob"
    assert again.text is not None and again.text.key == "game.challenge"
    assert again.actions == (ActionKind.ACCEPT, ActionKind.DECLINE)
    # Answered in the new room; the old room has no challenge left.
    assert await store.run(sessions.challenge_for("test", "room", "bob")) is None
    accepted = await svc.handle_text(actor("bob", chat="new room"), "/accept")
    assert session_of(accepted) == challenge and accepted[0].board is not None


class Gate:
    """A platform that shows replies later; what it shows for ``held_chat`` waits for
    :attr:`opened` (the old room's bots' game is held mid-move while the room is upgraded)."""

    def __init__(self, held_chat: str) -> None:
        self.held_chat = held_chat
        self.opened = asyncio.Event()
        self.held = asyncio.Event()
        self.shown: list[tuple[str, Reply]] = []
        self.changed = asyncio.Condition()

    async def publish(self, who: Actor, replies: Sequence[Reply]) -> None:
        if who.chat_id == self.held_chat:
            self.held.set()
            await self.opened.wait()
        async with self.changed:
            self.shown += [(who.chat_id, reply) for reply in replies]
            self.changed.notify_all()

    async def until(self, condition: Callable[[], bool]) -> None:
        async with self.changed:
            await asyncio.wait_for(self.changed.wait_for(condition), 10)


async def test_a_bots_game_is_carried_and_played_on_in_the_new_room_only(
    store: AnyStore,
) -> None:
    svc = GameService(
        store,
        settings=ServiceSettings(ai_workers=0, watch_move_interval=0.01, bot_vs_bot_budget=0.01),
    )
    gate = Gate("room")
    svc.register_platform(PlatformStyle("test", publish=gate.publish))
    try:
        session_id = session_of(await svc.handle_text(ALICE, "/tres bot easy"))
        await asyncio.wait_for(gate.held.wait(), 10)  # its first move, stored, not shown yet
        [carried] = await svc.carry_games_over("test", "room", "new room", ["alice"])
        assert carried.session_id == session_id and carried.new_message
        assert carried.text is not None and carried.text.key == "game.carried_over"

        def finished() -> bool:
            return any(r.board is not None and r.board.finished for _, r in gate.shown)

        await gate.until(finished)
        # The old room's task, let go: its next move finds the game moved on, and it ends.
        games = [t for t in asyncio.all_tasks() if t.get_name() == f"watch-{session_id}"]
        gate.opened.set()
        await asyncio.wait_for(asyncio.gather(*games), 10)
        assert [c for c, _ in gate.shown].count("room") == 1  # the move it held, no other
        ended = await stored(store, session_id)
        assert ended.chat_id == "new room" and ended.status is Status.FINISHED
        assert [c for c, _ in gate.shown].count("new room") == len(ended.moves) - 1
    finally:
        await svc.close()

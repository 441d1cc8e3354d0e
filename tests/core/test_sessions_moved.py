"""Live games carried to another chat (a Matrix room upgrade), on both stores."""

from __future__ import annotations

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
    assert await store.live_game("test", "room", "bob") is None
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

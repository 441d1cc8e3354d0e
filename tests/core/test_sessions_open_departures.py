"""Departures from an open game (one game, two chats, maybe two platforms), on both stores: the
game ends as abandoned when either player leaves their own chat, or the bot leaves either
chat; a departure from a chat of the other platform that has the same id, or from the other
player's chat, ends nothing."""

from __future__ import annotations

import pytest

from core.games import Termination
from core.ports import PlatformStyle
from core.replies import Actor
from core.sessions import GameService
from core.store import Session, Status, sessions
from tests.backends import AnyStore
from tests.core.test_sessions import error_key, keys, store
from tests.core.test_sessions_seek import ALICE, BOB, CAROL, Chats, open_service, paired

__all__ = ["store"]  # the fixture


async def started(svc: GameService, chats: Chats, store: AnyStore) -> Session:
    """Alice (Discord) and Bob (Matrix) paired, the first move played."""
    session_id = await paired(svc, chats)
    game = await store.run(sessions.get(session_id))
    assert game is not None
    first = ALICE if game.seats[0].user_id == ALICE.user_id else BOB
    assert error_key(await svc.handle_text(first, "1")) is None
    await svc.open_games_idle()
    game = await store.run(sessions.get(session_id))
    assert game is not None and game.status is Status.ACTIVE
    return game


def seat_of(game: Session, who: Actor) -> int:
    seat = game.seat_in(who.platform, who.chat_id, who.user_id)
    assert seat is not None
    return seat


@pytest.mark.parametrize("leaver", ["alice", "bob"])
async def test_either_player_leaving_their_chat_ends_the_open_game(
    store: AnyStore, leaver: str
) -> None:
    svc, chats = open_service(store)
    game = await started(svc, chats, store)
    gone, stayer = (ALICE, BOB) if leaver == "alice" else (BOB, ALICE)
    assert await svc.abandon_games(gone.platform, [gone.chat_id], gone.user_id) == 1
    ended = await store.run(sessions.get(game.id))
    assert ended is not None and ended.status is Status.FINISHED
    assert ended.outcome is not None and ended.outcome.termination is Termination.ABANDONED
    # The one who stayed wins (a move was played), wherever they sit.
    assert ended.winner == seat_of(game, stayer)
    await svc.open_games_idle()
    # Both chats see the ended board, and are told in a message of its own (a Matrix notice)
    # that the game ended and why, whichever chat was left.
    for who in (ALICE, BOB):
        last = chats.boards(who)[-1].board
        assert last is not None and last.session_id == game.id and last.finished
        told = [r for r in chats.shown[(who.platform, who.chat_id)] if r.board is None]
        assert told and told[-1].text == last.status
    # Free at once: the one who stayed may seek again.
    assert keys(await svc.handle_text(stayer, "/seek tres")) == ["seek.queued"]


async def test_a_chat_of_the_other_platform_with_the_same_id_ends_nothing(
    store: AnyStore,
) -> None:
    svc, chats = open_service(store)
    game = await started(svc, chats, store)
    # Bob's room id on Discord, Alice's channel id on Matrix: other chats altogether.
    assert await svc.abandon_games(ALICE.platform, [BOB.chat_id], BOB.user_id) == 0
    assert await svc.abandon_games(BOB.platform, [ALICE.chat_id], ALICE.user_id) == 0
    assert await svc.abandon_games(ALICE.platform, [BOB.chat_id]) == 0
    assert await svc.abandon_games(BOB.platform, [ALICE.chat_id]) == 0
    # A player leaving the other player's chat (never theirs in this game) ends nothing.
    assert await svc.abandon_games(ALICE.platform, [ALICE.chat_id], BOB.user_id) == 0
    assert await svc.abandon_games(BOB.platform, [BOB.chat_id], ALICE.user_id) == 0
    still = await store.run(sessions.get(game.id))
    assert still is not None and still.status is Status.ACTIVE and still == game


@pytest.mark.parametrize("left", ["alice's chat", "bob's room"])
async def test_the_bot_leaving_either_chat_ends_the_open_game(store: AnyStore, left: str) -> None:
    svc, chats = open_service(store)
    game = await started(svc, chats, store)
    where = ALICE if left == "alice's chat" else BOB
    assert await svc.abandon_games(where.platform, [where.chat_id]) == 1
    ended = await store.run(sessions.get(game.id))
    assert (
        ended is not None
        and ended.outcome is not None
        and ended.outcome.termination is Termination.ABANDONED
    )
    assert ended.winner is None  # nobody left to claim it where the bot is gone
    # The chat the bot is still in is told; the one it left cannot be.
    await svc.open_games_idle()
    stays = BOB if where is ALICE else ALICE
    last = chats.boards(stays)[-1].board
    assert last is not None and last.finished
    assert not any(r.board and r.board.finished for r in chats.boards(where))


async def test_a_player_leaving_a_server_ends_only_the_games_they_sit_at_there(
    store: AnyStore,
) -> None:
    # Alice and Carol, both on Discord, in two servers' channels: Carol leaving Alice's server
    # (where she may have been a member too) is no departure from her own chat.
    svc, _ = open_service(store)
    assert keys(await svc.handle_text(ALICE, "/seek tres")) == ["seek.queued"]
    [board] = await svc.handle_text(CAROL, "/seek tres")
    assert board.board is not None
    server = [ALICE.chat_id, "guild-1-other-channel"]
    assert await svc.abandon_games(CAROL.platform, server, CAROL.user_id) == 0
    assert await svc.abandon_games(CAROL.platform, [CAROL.chat_id], CAROL.user_id) == 1
    ended = await store.run(sessions.get(board.board.session_id))
    assert (
        ended is not None
        and ended.outcome is not None
        and ended.outcome.termination is Termination.ABANDONED
    )


async def test_a_click_out_of_turn_does_not_ask_the_wrong_server_for_the_opponent(
    store: AnyStore,
) -> None:
    # Without member events Discord asks, on a click out of turn, whether the opponent is
    # still a member of the clicker's server. An open game's opponent sits in another chat
    # (another server, or Matrix): not being a member here is no departure.
    svc, chats = open_service(store)
    members = {ALICE.chat_id: {ALICE.user_id}, CAROL.chat_id: {CAROL.user_id}}

    async def in_chat(actor: Actor, user_id: str) -> bool | None:
        return user_id in members.get(actor.chat_id, set())

    svc.register_platform(PlatformStyle("disc", publish=chats.publish, in_chat=in_chat))
    assert keys(await svc.handle_text(ALICE, "/seek tres")) == ["seek.queued"]
    [board] = await svc.handle_text(CAROL, "/seek tres")
    assert board.board is not None
    game = await store.run(sessions.get(board.board.session_id))
    assert game is not None
    waiting = ALICE if game.seats[1].user_id == ALICE.user_id else CAROL
    assert error_key(await svc.handle_text(waiting, "5")) == "error.not_your_turn"
    still = await store.run(sessions.get(game.id))
    assert still is not None and still.status is Status.ACTIVE

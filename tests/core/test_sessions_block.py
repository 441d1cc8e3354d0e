"""``/block`` across platforms, on both stores: the opponent of an open game may be a player of
the other platform, whom no ``@mention`` of the blocker's platform can name. ``/block`` alone
blocks the latest opponent of an open game played from this chat, ``/block NAME`` the recent one
whose board name that is; unclear or unknown names get answers that say what to type."""

from __future__ import annotations

from core.i18n import Text
from core.replies import Actor, Reply
from core.sessions import GameService
from tests.backends import AnyStore
from tests.core.test_sessions import Clock, error_key, keys, store
from tests.core.test_sessions_seek import ALICE, BOB, CAROL, open_service

__all__ = ["store"]  # the fixture

# Another Matrix player whose display name is Bob too.
DAVE = Actor("mx", "!room-d:hs", "dave", "Bob", direct=True)


async def play_and_end(svc: GameService, clock: Clock, first: Actor, second: Actor) -> None:
    """``first`` and ``second`` seek tic-tac-toe, are paired, one move is played (a game
    ended before any move is not kept), and ``first`` resigns."""
    clock.advance(60)  # a minute later: the rate limits are not what this is about
    assert keys(await svc.handle_text(first, "/seek tres")) == ["seek.queued"]
    [paired] = await svc.handle_text(second, "!seek tres")
    assert paired.board is not None
    mover = first if paired.board.players[0].user_id == first.user_id else second
    assert error_key(await svc.handle_text(mover, "1")) is None
    assert keys(await svc.handle_text(first, "/final")) == ["game.resigned"]
    await svc.open_games_idle()


def blocked_player(replies: list[Reply]) -> object:
    [reply] = replies
    assert reply.private and reply.text is not None
    return reply.text.params["player"]


async def never_paired(svc: GameService, clock: Clock, first: Actor, second: Actor) -> None:
    clock.advance(60)  # a minute later: the rate limits are not what this is about
    assert keys(await svc.handle_text(first, "/seek tres")) == ["seek.queued"]
    assert keys(await svc.handle_text(second, "!seek tres")) == ["seek.queued"]
    assert await svc.match_waiting() == 0
    for player in (first, second):
        assert keys(await svc.handle_text(player, "/seek cancel")) == ["seek.cancelled"]


async def test_block_names_a_recent_opponent_of_the_other_platform(store: AnyStore) -> None:
    clock = Clock()
    svc, _ = open_service(store, clock)
    replies = await svc.handle_text(ALICE, "/block")
    assert error_key(replies) == "error.block_no_opponent"
    assert replies[0].text is not None and replies[0].text.params["block"] == "/block"
    await play_and_end(svc, clock, ALICE, BOB)
    await play_and_end(svc, clock, ALICE, DAVE)
    # Two recent opponents are called Bob (either case): which one is not guessed.
    assert error_key(await svc.handle_text(ALICE, "/block BOB")) == "error.block_ambiguous"
    unknown = await svc.handle_text(ALICE, "/block Robert")
    assert error_key(unknown) == "error.block_unknown"
    assert unknown[0].text is not None and unknown[0].text.params["player"] == "Robert"
    # Only games played from this chat count: Alice's DM with the bot has none.
    elsewhere = Actor(ALICE.platform, "alice-dm", ALICE.user_id, ALICE.display_name)
    assert error_key(await svc.handle_text(elsewhere, "/block")) == "error.block_no_opponent"
    # Alone: the latest opponent (Dave), named with his platform.
    latest = await svc.handle_text(ALICE, "/block")
    assert keys(latest) == ["block.done"]
    assert blocked_player(latest) == Text("block.opponent", {"name": "Bob", "platform": "Mx"})
    assert keys(await svc.handle_text(ALICE, "/block")) == ["block.already"]
    await never_paired(svc, clock, ALICE, DAVE)
    # Bob was not blocked: Alice and he still meet.
    await play_and_end(svc, clock, BOB, ALICE)
    # Bob, on Matrix, blocks Alice of Discord by the name his board showed.
    named = await svc.handle_text(BOB, "!block alice")
    assert keys(named) == ["block.done"]
    assert blocked_player(named) == Text("block.opponent", {"name": "Alice", "platform": "Disc"})
    await never_paired(svc, clock, ALICE, BOB)


async def test_a_mention_still_blocks_a_player_of_the_blockers_platform(
    store: AnyStore,
) -> None:
    clock = Clock()
    svc, _ = open_service(store, clock)
    await play_and_end(svc, clock, ALICE, BOB)
    # A mention is a player of this platform, never a recent opponent of the same name.
    assert keys(await svc.handle_text(ALICE, "/block @carol")) == ["block.done"]
    assert keys(await svc.handle_text(CAROL, "/seek tres")) == ["seek.queued"]
    assert keys(await svc.handle_text(BOB, "!seek tres")) == ["seek.paired"]


async def test_unblock_lets_the_two_meet_again_and_says_when_there_was_no_block(
    store: AnyStore,
) -> None:
    clock = Clock()
    svc, _ = open_service(store, clock)
    not_blocked = await svc.handle_text(ALICE, "/unblock @carol")
    assert keys(not_blocked) == ["unblock.not_blocked"]
    assert blocked_player(not_blocked) == "@carol"
    assert error_key(await svc.handle_text(ALICE, "/unblock @alice")) == "error.unblock_self"
    assert keys(await svc.handle_text(ALICE, "/block @carol")) == ["block.done"]
    await never_paired(svc, clock, ALICE, CAROL)
    assert keys(await svc.handle_text(ALICE, "/unblock @carol")) == ["unblock.done"]
    assert keys(await svc.handle_text(ALICE, "/unblock @carol")) == ["unblock.not_blocked"]
    clock.advance(60)
    assert keys(await svc.handle_text(ALICE, "/seek tres")) == ["seek.queued"]
    [paired] = await svc.handle_text(CAROL, "/seek tres")
    assert paired.board is not None
    assert {p.user_id for p in paired.board.players} == {"alice", "carol"}


async def test_unblock_names_a_recent_opponent_of_the_other_platform(store: AnyStore) -> None:
    clock = Clock()
    svc, _ = open_service(store, clock)
    replies = await svc.handle_text(ALICE, "/unblock")
    assert error_key(replies) == "error.unblock_no_opponent"
    assert replies[0].text is not None and replies[0].text.params["block"] == "/unblock"
    await play_and_end(svc, clock, ALICE, BOB)
    await play_and_end(svc, clock, ALICE, DAVE)
    assert error_key(await svc.handle_text(ALICE, "/unblock bob")) == "error.unblock_ambiguous"
    assert error_key(await svc.handle_text(ALICE, "/unblock Robert")) == "error.unblock_unknown"
    # Bob, on Matrix, blocks Alice of Discord by her board name, and takes it back the same way.
    assert keys(await svc.handle_text(BOB, "!block alice")) == ["block.done"]
    await never_paired(svc, clock, ALICE, BOB)
    undone = await svc.handle_text(BOB, "!unblock Alice")
    assert keys(undone) == ["unblock.done"]
    assert blocked_player(undone) == Text("block.opponent", {"name": "Alice", "platform": "Disc"})
    await play_and_end(svc, clock, BOB, ALICE)

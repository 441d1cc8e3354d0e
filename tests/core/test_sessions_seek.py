"""Matchmaking through the service, on both stores: /seek pairs players of two chats on two
platforms into one open game, each plays in their own chat and both boards follow every move;
bad input and abuse get clear answers (seeking twice, while in a game, where open play is off,
a blocked player, an expired seek, a chat that disallows the game)."""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Sequence

from core.i18n import Text
from core.ports import PlatformStyle
from core.replies import ActionKind, Actor, Reply
from core.sessions import GameService
from core.sessions.play.model import resigned
from core.store import Status, ratings, seeks, sessions, stats
from tests.backends import AnyStore
from tests.core.test_sessions import Clock, error_key, keys, service, store

__all__ = ["store"]  # the fixture

ALICE = Actor("disc", "guild-chan-1", "alice", "Alice", direct=True)
BOB = Actor("mx", "!room-b:hs", "bob", "Bob", direct=True)
CAROL = Actor("disc", "guild-chan-2", "carol", "Carol", direct=True)


class Chats:
    """What each chat was shown later (through ``publish``), by (platform, chat)."""

    def __init__(self) -> None:
        self.shown: dict[tuple[str, str], list[Reply]] = defaultdict(list)

    async def publish(self, actor: Actor, replies: Sequence[Reply]) -> None:
        self.shown[(actor.platform, actor.chat_id)].extend(replies)

    def boards(self, who: Actor) -> list[Reply]:
        return [r for r in self.shown[(who.platform, who.chat_id)] if r.board is not None]


def open_service(store: AnyStore, clock: Clock | None = None) -> tuple[GameService, Chats]:
    svc = service(store, clock)
    chats = Chats()
    for platform in ("disc", "mx"):
        svc.register_platform(PlatformStyle(platform, publish=chats.publish))
    return svc, chats


def texts(value: object) -> list[str]:
    """Every string inside a reply (texts, parameters, names), to look for leaks."""
    found: list[str] = []
    if isinstance(value, str):
        found.append(value)
    elif isinstance(value, Text):
        found.append(value.key)
        for param in value.params.values():
            found += texts(param)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            found += texts(getattr(value, field.name))
    elif isinstance(value, tuple | list):
        for item in value:
            found += texts(item)
    return found


async def paired(svc: GameService, chats: Chats) -> str:
    """Alice (Discord) and Bob (Matrix) seek Connect Four and are paired; the game's id."""
    assert keys(await svc.handle_text(ALICE, "/seek connect4")) == ["seek.queued"]
    replies = await svc.handle_text(BOB, "!seek connect4")
    assert keys(replies) == ["seek.paired"]
    [board] = replies
    assert board.new_message and board.board is not None
    await svc.open_games_idle()
    [shown] = chats.boards(ALICE)
    assert shown.new_message and shown.board == board.board
    return board.board.session_id


async def test_a_discord_and_a_matrix_player_play_one_game_on_two_boards(
    store: AnyStore,
) -> None:
    svc, chats = open_service(store)
    session_id = await paired(svc, chats)
    game = await store.run(sessions.get(session_id))
    assert game is not None and game.chats == (
        (game.platform, game.chat_id),
        next(c for c in game.chats if c != (game.platform, game.chat_id)),
    )
    first = ALICE if game.seats[0].user_id == "alice" else BOB
    second = BOB if first is ALICE else ALICE
    # Columns: the first player fills the bottom row's left four, the second stacks on 7.
    for n, (player, column) in enumerate(
        [(first, 1), (second, 7), (first, 2), (second, 7), (first, 3), (second, 7), (first, 4)]
    ):
        replies = await svc.handle_text(player, str(column))
        assert error_key(replies) is None, replies
        await svc.open_games_idle()
        other = second if player is first else first
        mine = [r.board for r in replies if r.board is not None][-1]
        theirs = chats.boards(other)[-1].board
        assert mine == theirs and mine is not None and len(mine.cells) == 42
        assert sum(1 for c in mine.cells if c.mark) == n + 1
    final = await store.run(sessions.get(session_id))
    assert final is not None and final.status is Status.FINISHED and final.winner == 1
    # The result counts once for each player, in their own chat.
    winner = await store.run(stats.player_stats(first.platform, first.user_id, first.chat_id))
    loser = await store.run(stats.player_stats(second.platform, second.user_id, second.chat_id))
    assert winner is not None and (winner.wins, winner.games) == (1, 1)
    assert loser is not None and (loser.losses, loser.games) == (1, 1)
    # Only the game crossed: neither chat was shown the other's id.
    for me, them in ((ALICE, BOB), (BOB, ALICE)):
        seen = texts(chats.shown[(me.platform, me.chat_id)])
        assert not any(them.chat_id in text for text in seen)


async def test_final_and_rematch_from_either_chat_act_on_the_one_game(store: AnyStore) -> None:
    svc, chats = open_service(store)
    session_id = await paired(svc, chats)
    game = await store.run(sessions.get(session_id))
    assert game is not None
    first = ALICE if game.seats[0].user_id == "alice" else BOB
    second = BOB if first is ALICE else ALICE
    assert error_key(await svc.handle_text(first, "4")) is None
    # The player away from the game's own chat resigns from theirs.
    ended = await svc.handle_text(second, "/final")
    assert keys(ended) == ["game.resigned"]
    await svc.open_games_idle()
    assert chats.boards(first)[-1].text == ended[0].text
    # A rematch offered from one chat is answered from the other, by its button.
    offer = await svc.handle_action(second, session_id, ActionKind.REMATCH)
    assert keys(offer) == ["game.challenge"]
    await svc.open_games_idle()
    shown = chats.shown[(first.platform, first.chat_id)][-1]
    assert shown.actions == (ActionKind.ACCEPT, ActionKind.DECLINE)
    assert shown.session_id is not None
    # Typed in the other chat, /accept finds the offer made from the first one.
    accepted = await svc.handle_text(first, "!accept" if first is BOB else "/accept")
    assert keys(accepted) == ["game.accepted"]
    rematch = await store.run(sessions.get(shown.session_id))
    assert rematch is not None and rematch.status is Status.ACTIVE
    assert set(rematch.chats) == {(ALICE.platform, ALICE.chat_id), (BOB.platform, BOB.chat_id)}
    # Both play it from their own chats: typed moves find it there.
    mover = first if rematch.seats[0].user_id == first.user_id else second
    assert error_key(await svc.handle_text(mover, "1")) is None


async def test_seeking_twice_in_a_game_and_cancelling(store: AnyStore) -> None:
    svc, _ = open_service(store)
    assert keys(await svc.handle_text(ALICE, "/seek tres casual 1m")) == ["seek.queued"]
    assert error_key(await svc.handle_text(ALICE, "/seek connect4")) == "error.seek_twice"
    elsewhere = dataclasses.replace(ALICE, chat_id="another")
    assert error_key(await svc.handle_text(elsewhere, "/seek")) is None
    assert error_key(await svc.handle_text(elsewhere, "/seek tres")) == "error.seek_twice"
    listing = await svc.handle_text(CAROL, "/seek")
    assert keys(listing) == ["seek.list"] and listing[0].private
    assert keys(await svc.handle_text(ALICE, "/seek cancel")) == ["seek.cancelled"]
    assert error_key(await svc.handle_text(ALICE, "/seek cancel")) == "error.seek_none"
    assert keys(await svc.handle_text(CAROL, "/seek")) == ["seek.list_empty"]
    # In a game here: no seek from this chat.
    await svc.handle_text(CAROL, "/tres easy")
    assert error_key(await svc.handle_text(CAROL, "/seek")) is None
    assert error_key(await svc.handle_text(CAROL, "/seek tres")) == "error.already_playing"
    # Bad words get their own answers.
    assert error_key(await svc.handle_text(ALICE, "/seek 99y")) == "parse.bad_clock"
    assert error_key(await svc.handle_text(ALICE, "/seek 8d")) == "parse.clock_range"
    assert error_key(await svc.handle_text(ALICE, "/seek 2 minutes")) == "parse.bad_option"
    assert error_key(await svc.handle_text(ALICE, "/seek chess")) == "parse.bad_option"


async def test_open_play_is_off_in_servers_until_an_admin_turns_it_on(store: AnyStore) -> None:
    svc, _ = open_service(store)
    member = dataclasses.replace(ALICE, direct=False)
    assert error_key(await svc.handle_text(member, "/seek")) is None  # looking is fine
    assert error_key(await svc.handle_text(member, "/seek tres")) == "limits.open_play_off"
    admin = dataclasses.replace(member, user_id="root", is_admin=True)
    assert error_key(await svc.handle_text(admin, "/settings open_play on")) is None
    assert keys(await svc.handle_text(member, "/seek tres")) == ["seek.queued"]
    # A direct chat where it was turned off.
    direct_admin = dataclasses.replace(BOB, is_admin=True)
    assert error_key(await svc.handle_text(direct_admin, "/settings open_play off")) is None
    assert error_key(await svc.handle_text(BOB, "/seek tres")) == "limits.open_play_off"


async def test_a_chat_that_disallows_the_game_refuses_the_seek(store: AnyStore) -> None:
    svc, _ = open_service(store)
    admin = dataclasses.replace(ALICE, is_admin=True)
    assert error_key(await svc.handle_text(admin, "/settings games tres")) is None
    assert error_key(await svc.handle_text(ALICE, "/seek connect4")) == "limits.game_disabled"
    assert keys(await svc.handle_text(ALICE, "/seek tres")) == ["seek.queued"]


async def test_a_blocked_player_is_never_met(store: AnyStore) -> None:
    clock = Clock()
    svc, _ = open_service(store, clock)
    assert error_key(await svc.handle_text(ALICE, "/block @alice")) == "error.block_self"
    assert keys(await svc.handle_text(ALICE, "/block @carol")) == ["block.done"]
    assert keys(await svc.handle_text(ALICE, "/block @carol")) == ["block.already"]
    assert keys(await svc.handle_text(ALICE, "/seek tres")) == ["seek.queued"]
    clock.now += 1
    assert keys(await svc.handle_text(CAROL, "/seek tres")) == ["seek.queued"]
    assert await svc.match_waiting() == 0
    # Bob is not blocked: he meets the one who waited longest.
    replies = await svc.handle_text(BOB, "!seek tres")
    assert keys(replies) == ["seek.paired"]
    board = replies[0].board
    assert board is not None and {p.user_id for p in board.players} == {"alice", "bob"}


async def test_a_seek_expires_after_ten_minutes_with_a_notice(store: AnyStore) -> None:
    clock = Clock()
    svc, chats = open_service(store, clock)
    assert keys(await svc.handle_text(ALICE, "/seek tres")) == ["seek.queued"]
    clock.now += 599
    assert await svc.match_waiting() == 0
    await svc.open_games_idle()
    assert chats.shown[(ALICE.platform, ALICE.chat_id)] == []
    clock.now += 2
    await svc.match_waiting()
    await svc.open_games_idle()
    [notice] = chats.shown[(ALICE.platform, ALICE.chat_id)]
    assert notice.text is not None and notice.text.key == "seek.expired"
    await svc.match_waiting()
    await svc.open_games_idle()
    assert len(chats.shown[(ALICE.platform, ALICE.chat_id)]) == 1  # told once
    assert error_key(await svc.handle_text(ALICE, "/seek cancel")) == "error.seek_none"


async def test_rated_seeks_meet_rated_ones_only(store: AnyStore) -> None:
    clock = Clock()
    svc, _ = open_service(store, clock)
    # Same rating (everyone starts at 1500 until the ratings are read): paired at once in a
    # pass too, with no second seek needed to arrive.
    await svc.handle_text(ALICE, "/seek tres rated")
    await svc.handle_text(BOB, "!seek tres casual")  # casual never meets rated
    assert await svc.match_waiting() == 0
    replies = await svc.handle_text(CAROL, "/seek tres rated")
    assert keys(replies) == ["seek.paired"]
    text = replies[0].text
    assert text is not None and text.params["mode"] == Text("seek.rated")


async def test_names_crossing_to_the_other_chat_mention_nobody(store: AnyStore) -> None:
    svc, _ = open_service(store)
    sly = dataclasses.replace(ALICE, display_name="<@123> @everyone")
    await svc.handle_text(sly, "/seek tres")
    replies = await svc.handle_text(BOB, "!seek tres")
    board = replies[0].board
    assert board is not None
    names = [p.name for p in board.players]
    assert all("@" not in name and "<" not in name for name in names)


async def test_a_board_due_in_a_chat_another_process_serves_is_shown_there(
    store: AnyStore,
) -> None:
    # Two processes on one store: the first serves Discord only, the second also serves the
    # Matrix account (its sync lease), so the first leaves Matrix boards in the store.
    first, first_chats = open_service(store)
    serving = {"now": False}
    first.register_platform(
        PlatformStyle("mx", publish=first_chats.publish, serves=lambda chat: serving["now"])
    )
    second, second_chats = open_service(store)
    second.register_platform(
        PlatformStyle("mx", publish=second_chats.publish, serves=lambda chat: True)
    )
    await second.handle_text(BOB, "!seek tres")
    replies = await first.handle_text(ALICE, "/seek tres")
    assert keys(replies) == ["seek.paired"]
    await first.open_games_idle()
    assert first_chats.boards(BOB) == []
    game = await store.run(sessions.live_game(ALICE.platform, ALICE.chat_id, ALICE.user_id))
    assert game is not None
    if game.seats[0].user_id == ALICE.user_id:
        assert error_key(await first.handle_text(ALICE, "5")) is None
        await first.open_games_idle()
    latest = await store.run(sessions.get(game.id))
    assert latest is not None
    # The process that serves the room shows the newest board there, once.
    await second.match_waiting()
    await second.open_games_idle()
    [shown] = second_chats.boards(BOB)
    assert shown.board is not None and shown.board.version == latest.version
    await second.match_waiting()
    await second.open_games_idle()
    assert len(second_chats.boards(BOB)) == 1
    assert first_chats.boards(BOB) == []


async def test_the_live_game_cap_counts_open_games(store: AnyStore) -> None:
    svc, _ = open_service(store)
    elsewhere = dataclasses.replace(ALICE, chat_id="elsewhere")
    for chat in (ALICE, elsewhere):
        admin = dataclasses.replace(chat, is_admin=True)
        assert error_key(await svc.handle_text(admin, "/settings max_games_per_user 1")) is None
    await svc.handle_text(elsewhere, "/tres easy")
    assert error_key(await svc.handle_text(ALICE, "/seek tres")) == "limits.user_games"
    assert error_key(await svc.handle_text(elsewhere, "/final")) is None
    assert keys(await svc.handle_text(ALICE, "/seek tres")) == ["seek.queued"]
    assert keys(await svc.handle_text(BOB, "!seek tres")) == ["seek.paired"]
    # The open game counts now: no second game for Alice on Discord.
    assert error_key(await svc.handle_text(elsewhere, "/tres easy")) == "limits.user_games"


async def test_a_room_upgrade_carries_only_the_seat_that_sat_there(store: AnyStore) -> None:
    svc, _ = open_service(store)
    await svc.handle_text(ALICE, "/seek tres")
    replies = await svc.handle_text(BOB, "!seek tres")
    session_id = replies[0].session_id
    assert session_id is not None
    [carried] = await svc.carry_games_over("mx", BOB.chat_id, "!new:hs", [BOB.user_id])
    assert carried.session_id == session_id
    moved = await store.run(sessions.get(session_id))
    assert moved is not None
    assert set(moved.chats) == {(ALICE.platform, ALICE.chat_id), ("mx", "!new:hs")}
    assert await store.run(sessions.live_game("mx", "!new:hs", BOB.user_id)) is not None
    assert (
        await store.run(sessions.live_game(ALICE.platform, ALICE.chat_id, ALICE.user_id))
        is not None
    )


async def test_an_open_game_changed_outside_a_request_is_shown_in_the_other_chat(
    store: AnyStore,
) -> None:
    svc, chats = open_service(store)
    await svc.handle_text(ALICE, "/seek tres")
    replies = await svc.handle_text(BOB, "!seek tres")
    await svc.open_games_idle()
    game = await store.run(sessions.get(str(replies[0].session_id)))
    assert game is not None
    home = ALICE if (ALICE.platform, ALICE.chat_id) == (game.platform, game.chat_id) else BOB
    away = BOB if home is ALICE else ALICE
    before_home = len(chats.boards(home))
    before_away = len(chats.boards(away))
    # As a clock's sweep ends a game (issue 22): a change through the service's context, in
    # no request; the sweep shows the game's own chat, the other chat is shown here.
    ended = resigned(game, 1, now=game.updated_at + 1, ttl=60)
    assert await svc._ctx.update(ended, expected_version=game.version)
    await svc.open_games_idle()
    assert len(chats.boards(home)) == before_home
    [shown] = chats.boards(away)[before_away:]
    assert shown.board is not None and shown.board.finished


async def test_block_from_the_finished_boards_button(store: AnyStore) -> None:
    svc, chats = open_service(store)
    session_id = await paired(svc, chats)
    game = await store.run(sessions.get(session_id))
    assert game is not None
    first = ALICE if game.seats[0].user_id == "alice" else BOB
    second = BOB if first is ALICE else ALICE
    assert error_key(await svc.handle_text(first, "1")) is None
    ended = await svc.handle_text(second, "/final")
    assert ended[0].actions == (ActionKind.REMATCH, ActionKind.REVIEW, ActionKind.BLOCK)
    await svc.open_games_idle()
    assert chats.boards(first)[-1].actions[-1] is ActionKind.BLOCK
    assert error_key(await svc.handle_action(CAROL, session_id, ActionKind.BLOCK)) == (
        "error.no_such_game"
    )
    blocked = await svc.handle_action(first, session_id, ActionKind.BLOCK)
    assert keys(blocked) == ["block.done"] and blocked[0].private
    # They never meet again: both wait.
    assert keys(await svc.handle_text(first, "/seek tres")) == ["seek.queued"]
    assert keys(await svc.handle_text(second, "!seek tres")) == ["seek.queued"]
    assert await svc.match_waiting() == 0


async def test_a_rematch_offer_names_the_commands_as_the_other_platform_types_them(
    store: AnyStore,
) -> None:
    svc, chats = open_service(store)
    svc.register_platform(PlatformStyle("mx", prefix="!", publish=chats.publish))
    session_id = await paired(svc, chats)
    game = await store.run(sessions.get(session_id))
    assert game is not None
    first = ALICE if game.seats[0].user_id == "alice" else BOB
    assert error_key(await svc.handle_text(first, "1")) is None
    assert keys(await svc.handle_text(first, "/final")) == ["game.resigned"]
    offer = await svc.handle_action(ALICE, session_id, ActionKind.REMATCH)
    assert keys(offer) == ["game.challenge"]
    await svc.open_games_idle()
    shown = chats.shown[(BOB.platform, BOB.chat_id)][-1]
    assert shown.text is not None and shown.text.params["accept"] == "!accept"
    assert offer[0].text is not None and offer[0].text.params["accept"] == "/accept"


async def test_a_board_for_a_platform_this_process_does_not_run_waits_for_one_that_does(
    store: AnyStore,
) -> None:
    # Discord in one process, Matrix in another, one store.
    discord_only = service(store)
    on_discord = Chats()
    discord_only.register_platform(PlatformStyle("disc", publish=on_discord.publish))
    matrix_only = service(store)
    on_matrix = Chats()
    matrix_only.register_platform(PlatformStyle("mx", publish=on_matrix.publish))
    await matrix_only.handle_text(BOB, "!seek tres")
    await discord_only.handle_text(ALICE, "/seek tres")
    await discord_only.open_games_idle()
    await matrix_only.match_waiting()
    await matrix_only.open_games_idle()
    [board] = on_matrix.boards(BOB)
    assert board.board is not None
    # A move on Matrix: the Discord process shows it on its next pass.
    game = await store.run(sessions.get(board.board.session_id))
    assert game is not None
    mover, svc = (BOB, matrix_only) if game.seats[0].user_id == "bob" else (ALICE, discord_only)
    moved = await svc.handle_text(mover, "5")
    assert error_key(moved) is None and moved[0].board is not None
    await svc.open_games_idle()
    for other in (discord_only, matrix_only):
        await other.match_waiting()
        await other.open_games_idle()
    assert on_discord.boards(BOB) == [] and on_matrix.boards(ALICE) == []
    watcher = on_discord.boards(ALICE) if mover is BOB else on_matrix.boards(BOB)
    assert watcher[-1].board == moved[0].board


async def test_an_open_game_runs_on_its_clock_reminds_and_times_out_in_both_chats(
    store: AnyStore,
) -> None:
    clock = Clock()
    svc, chats = open_service(store, clock)
    await svc.handle_text(ALICE, "/seek tres 2m")
    clock.now += 1
    replies = await svc.handle_text(BOB, "!seek tres 1m")
    assert keys(replies) == ["seek.paired"]
    await svc.open_games_idle()
    game = await store.run(sessions.get(str(replies[0].session_id)))
    assert game is not None and game.clock == 120.0  # who waited longer chose
    assert game.deadline == clock.now + 120.0
    first = ALICE if game.seats[0].user_id == "alice" else BOB
    second = BOB if first is ALICE else ALICE
    # The reminder reaches the player to move in their own chat, and nowhere else.
    clock.now += 100
    await svc.sweep_clocks()
    await svc.clocks_idle()
    mine = [r for r in chats.shown[(first.platform, first.chat_id)] if r.text is not None]
    assert [r.text.key for r in mine if r.text is not None][-1] == "game.clock_reminder"
    theirs = chats.shown[(second.platform, second.chat_id)]
    assert all(r.text is None or r.text.key != "game.clock_reminder" for r in theirs)
    # Time runs out: the player to move loses, and both chats' boards show it.
    clock.now += 30
    await svc.sweep_clocks()
    await svc.clocks_idle()
    await svc.open_games_idle()
    ended = await store.run(sessions.get(game.id))
    assert ended is not None and ended.status is Status.FINISHED and ended.winner == 2
    for player in (first, second):
        last = chats.boards(player)[-1].board
        assert last is not None and last.finished


async def test_a_seeks_clock_keeps_to_the_chats_cap(store: AnyStore) -> None:
    svc, _ = open_service(store)
    admin = dataclasses.replace(ALICE, is_admin=True)
    assert error_key(await svc.handle_text(admin, "/settings max_clock 1m")) is None
    assert error_key(await svc.handle_text(ALICE, "/seek tres 5m")) == "limits.clock_range"
    assert keys(await svc.handle_text(ALICE, "/seek tres")) == ["seek.queued"]
    waiting = await store.run(seeks.seek_of("disc:alice"))
    assert waiting is not None and waiting.clock == 60.0  # open play's 2 minutes, capped


async def test_a_rated_open_game_rates_each_player_on_their_own_platform(
    store: AnyStore,
) -> None:
    svc, chats = open_service(store)
    session_id = await paired(svc, chats)
    game = await store.run(sessions.get(session_id))
    assert game is not None and not game.casual
    first = ALICE if game.seats[0].user_id == "alice" else BOB
    second = BOB if first is ALICE else ALICE
    for player, column in [(first, 1), (second, 7), (first, 2), (second, 7), (first, 3)]:
        assert error_key(await svc.handle_text(player, str(column))) is None
    assert error_key(await svc.handle_text(second, "7")) is None
    assert error_key(await svc.handle_text(first, "4")) is None
    pool = "connect4"
    winner = await store.run(ratings.rating_of(first.platform, first.user_id, pool))
    loser = await store.run(ratings.rating_of(second.platform, second.user_id, pool))
    assert (winner.games, loser.games) == (1, 1) and winner.rating > loser.rating
    # Nobody was rated under the other's platform.
    assert (await store.run(ratings.rating_of(second.platform, first.user_id, pool))).games == 0


async def test_a_board_shown_again_is_marked_for_the_chat_it_is_shown_in(store: AnyStore) -> None:
    # An adapter edits again, after a restart, a board it could not update before (Matrix's
    # unshown edits): in the second player's chat it must keep that chat's language.
    svc, chats = open_service(store)
    session_id = await paired(svc, chats)
    game = await store.run(sessions.get(session_id))
    assert game is not None
    own, away = (
        (ALICE, BOB) if (game.platform, game.chat_id) == ("disc", ALICE.chat_id) else (BOB, ALICE)
    )
    admin = dataclasses.replace(away, is_admin=True)
    assert error_key(await svc.handle_text(admin, "/settings language es")) is None
    assert error_key(await svc.handle_text(own, "4")) is None
    await svc.open_games_idle()
    assert chats.boards(away)[-1].locale == "es"

    here = await svc.current_board(session_id)
    there = await svc.current_board(session_id, platform=away.platform, chat_id=away.chat_id)
    assert here is not None and there is not None
    assert here.locale is None and there.locale == "es"
    assert here.board == there.board == chats.boards(away)[-1].board

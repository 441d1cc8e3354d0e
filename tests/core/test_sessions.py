"""GameService end to end on real SQLite files: games, challenges, expiry, stats, failures."""

from __future__ import annotations

import logging
import random
import re
import sqlite3
from collections.abc import AsyncIterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TypeVar

import pytest

from core.ai import Level
from core.commands import BotVsBot, First, GameKind, Start, VsBot, help_text
from core.errors import UserError
from core.games import CONNECT_FOUR, TICTACTOE, Outcome, Position, Termination
from core.i18n import LOCALES, Text, catalogue, placeholders
from core.i18n.messages.errors import MESSAGES as ERROR_MESSAGES
from core.i18n.messages.game import MESSAGES
from core.ports import PlatformStyle
from core.replies import ActionKind, Actor, Reply
from core.sessions import GameService, ServiceSettings, board_view
from core.store import Session, SqliteStore, Status, sessions
from core.store import stats as store_stats
from core.store.sql import Op, name_of
from tests.backends import AnyStore, Backend

T = TypeVar("T")

NOW = 1_700_000_000.0


class Clock:
    """An injected clock: expiry without sleeping."""

    def __init__(self, now: float = NOW) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def actor(user: str, chat: str = "room", locale: str = "en", platform: str = "test") -> Actor:
    return Actor(platform, chat, user, user.title(), locale)


ALICE, BOB, CAROL = actor("alice"), actor("bob"), actor("carol")


def service(
    store: AnyStore, clock: Clock | None = None, seed: int = 7, *, limits: bool = True
) -> GameService:
    return GameService(
        store,
        settings=ServiceSettings(ai_workers=0, ai_budget=0.05, limits=limits),
        clock=clock or Clock(),
        rng=random.Random(seed),
    )


@pytest.fixture
async def store(backend: Backend) -> AsyncIterator[AnyStore]:
    """A fresh store of each kind in turn (SQLite, PostgreSQL)."""
    async with backend.open() as opened:
        yield opened


def keys(replies: Sequence[Reply]) -> list[str]:
    return [reply.text.key for reply in replies if reply.text is not None]


def error_key(replies: Sequence[Reply]) -> str | None:
    errors = [reply for reply in replies if reply.error]
    assert len(errors) <= 1
    if not errors:
        return None
    assert errors[0].private and errors[0].text is not None
    return errors[0].text.key


def session_of(replies: Sequence[Reply]) -> str:
    ids = {reply.session_id for reply in replies if reply.session_id}
    assert len(ids) == 1, replies
    return ids.pop()


async def stored(store: AnyStore, session_id: str) -> Session:
    session = await store.run(sessions.get(session_id))
    assert session is not None
    return session


async def pvp(svc: GameService, first: str = "first") -> str:
    """Alice challenges Bob, Bob accepts; the session id."""
    challenge = await svc.handle_text(ALICE, f"/tres @bob {first}")
    assert keys(challenge) == ["game.challenge"]
    assert challenge[0].actions == (ActionKind.ACCEPT, ActionKind.DECLINE)
    assert challenge[0].mention == "bob"
    accepted = await svc.handle_text(BOB, "/accept")
    assert keys(accepted) == ["game.accepted"] and accepted[0].new_message
    return session_of(accepted)


# --- games against the bot ----------------------------------------------------------------


async def test_game_against_the_bot_to_the_end(store: AnyStore) -> None:
    svc = service(store)
    started = await svc.handle_text(ALICE, "/tres easy")
    assert len(started) == 1 and started[0].new_message and started[0].board is not None
    board = started[0].board
    assert board.to_move == 1 and board.players[1].level == "easy"
    assert board.status.key == "game.turn" and board.status.params["player"] == "Alice"
    assert all(cell.clickable for cell in board.cells)
    session_id = board.session_id
    replies: list[Reply] = []
    while True:
        session = await stored(store, session_id)
        if session.status is Status.FINISHED:
            break
        move = session.position().legal_moves()[0]
        replies = await svc.handle_move(ALICE, session_id, move, session.version)
        assert error_key(replies) is None
        # The bot answered in the same call: it is Alice's turn again, or the game is over.
        view = replies[-1].board
        assert view is not None
        assert view.to_move in (1, None)
    last = replies[-1]
    # Tic-tac-toe can be solved exactly, so a finished game offers its review too.
    assert last.actions == (ActionKind.REMATCH, ActionKind.REVIEW)
    assert last.text is not None and last.text.key in ("game.won", "game.draw")
    assert last.board is not None and last.board.finished and not last.board.playable
    assert not any(cell.clickable for cell in last.board.cells)
    position = session.position()
    if position.winner:
        assert {c.index for c in last.board.cells if c.winning} == set(position.winning_line)
    stats = await store.run(store_stats.player_stats("test", "alice"))
    assert stats is not None and stats.games == 1


async def test_bot_starts_when_asked(store: AnyStore) -> None:
    svc = service(store)
    replies = await svc.handle_text(ALICE, "/quatre easy second")
    board = replies[0].board
    assert board is not None and board.players[0].level == "easy"
    assert sum(1 for cell in board.cells if cell.mark) == 1  # the bot's first stone
    assert next(cell for cell in board.cells if cell.last).mark == 1
    assert not any(cell.clickable for cell in board.cells)  # gravity: columns, not cells
    assert board.playable == tuple(range(7)) and board.to_move == 2


async def test_typed_moves_and_mistakes(store: AnyStore) -> None:
    svc = service(store)
    await svc.handle_text(ALICE, "/tres easy")
    assert error_key(await svc.handle_text(ALICE, "5")) is None
    session = await store.run(sessions.live_game("test", "room", "alice"))
    assert session is not None and session.moves[0] == 4
    assert error_key(await svc.handle_text(ALICE, "b2")) == "error.occupied"
    assert error_key(await svc.handle_text(ALICE, "10")) == "parse.cell_range"
    assert error_key(await svc.handle_move(ALICE, session.id, 42)) == "error.off_board_cell"
    assert error_key(await svc.handle_move(BOB, session.id, 0)) == "error.not_your_game"
    # Bob has no game: "5" without prefix is chatter; with a prefix, or addressed, a hint.
    assert await svc.handle_text(BOB, "5") == []
    assert error_key(await svc.handle_text(BOB, "!5")) == "error.no_game"
    assert error_key(await svc.handle_text(BOB, "5", addressed=True)) == "error.no_game"
    assert await svc.handle_text(BOB, "hello there") == []
    assert await svc.handle_text(BOB, "12x") == []
    assert error_key(await svc.handle_text(ALICE, "12x")) == "parse.bad_move"
    assert error_key(await svc.handle_text(BOB, "hello", addressed=True)) == "parse.not_command"
    assert error_key(await svc.handle_text(BOB, "/nonsense")) is not None


async def test_full_column_and_off_board(store: AnyStore) -> None:
    svc = service(store)
    replies = await svc.handle_text(ALICE, "/quatre 4x4 medium")
    session_id = session_of(replies)
    session = await stored(store, session_id)
    # Fill column 1 by force (the store is the truth), then try it.
    full = replace(session, moves=(0, 0, 0, 0), version=9)
    assert await store.run(sessions.update(full, expected_version=session.version))
    assert error_key(await svc.handle_text(ALICE, "1")) == "error.column_full"
    assert error_key(await svc.handle_move(ALICE, session_id, 7)) == "error.off_board_column"


async def test_one_game_per_user_per_chat(store: AnyStore) -> None:
    svc = service(store)
    await svc.handle_text(ALICE, "/tres easy")
    again = await svc.handle_text(ALICE, "/quatre hard")
    assert error_key(again) == "error.already_playing"
    assert again[0].text is not None
    assert again[0].text.params["game"] == Text("game.name.tictactoe")
    assert "final" in again[0].text.render("en")
    # Another chat, and other people in the same chat, are fine.
    assert error_key(await svc.handle_text(actor("alice", chat="other"), "/tres")) is None
    assert error_key(await svc.handle_text(BOB, "/tres easy")) is None
    assert error_key(await svc.handle_text(CAROL, "/tres @dave")) is None
    # /final ends Alice's game; then she may start again.
    ended = await svc.handle_text(ALICE, "/final")
    assert keys(ended) == ["game.ended"] and ended[0].board is not None
    assert ended[0].board.finished and not ended[0].board.playable
    assert await store.run(sessions.live_game("test", "room", "alice")) is None
    assert error_key(await svc.handle_text(ALICE, "/final")) == "error.nothing_to_end"
    assert error_key(await svc.handle_text(ALICE, "/tres")) is None


async def test_restart_mid_game(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    clock = Clock()
    async with SqliteStore.open(path) as store:
        svc = service(store, clock)
        await svc.start()
        session_id = session_of(await svc.handle_text(ALICE, "/tres easy"))
        await svc.handle_text(ALICE, "1")
        await svc.close()
    clock.advance(3600)  # an hour later, well within the game's life
    async with SqliteStore.open(path) as store:
        svc = service(store, clock, seed=99)
        session = await stored(store, session_id)
        assert len(session.moves) == 2
        await _finish(svc, store, session_id, ALICE)
        final = await stored(store, session_id)
        assert final.status is Status.FINISHED
        Position.from_moves(final.rules, final.moves)  # a legal history
        await svc.close()


async def test_bot_move_lost_in_a_restart_is_played_on_next_access(store: AnyStore) -> None:
    svc = service(store)
    session_id = session_of(await svc.handle_text(ALICE, "/tres easy"))
    session = await stored(store, session_id)
    # As if the process died after storing Alice's move, before the bot's.
    mid = replace(session, moves=(4,), version=session.version + 1)
    assert await store.run(sessions.update(mid, expected_version=session.version))
    # A click names the board it was made on: the bot's move comes first, the click is refused.
    replies = await svc.handle_move(ALICE, session_id, 0, mid.version)
    assert error_key(replies) == "error.board_changed"
    assert replies[0].board is not None and replies[0].board.to_move == 1
    assert len((await stored(store, session_id)).moves) == 2


# --- player against player ------------------------------------------------------------------


async def test_challenge_accept_and_play(store: AnyStore) -> None:
    svc = service(store)
    challenge = await svc.handle_text(ALICE, "/tres @bob")
    session_id = session_of(challenge)
    assert challenge[0].board is None and challenge[0].new_message
    text = challenge[0].text
    assert text is not None and text.params["challenged"] == "@bob"
    assert error_key(await svc.handle_text(ALICE, "5")) == "error.challenge_pending"
    # Only Bob may answer.
    assert error_key(await svc.handle_action(CAROL, session_id, ActionKind.ACCEPT)) == (
        "error.not_challenged"
    )
    assert error_key(await svc.handle_action(ALICE, session_id, ActionKind.ACCEPT)) == (
        "error.not_challenged"
    )
    assert error_key(await svc.handle_text(CAROL, "/accept")) == "error.no_challenge"
    accepted = await svc.handle_action(BOB, session_id, ActionKind.ACCEPT, version=1)
    assert accepted[0].new_message and accepted[0].board is not None
    assert [p.name for p in accepted[0].board.players] == ["Alice", "Bob"]  # real name now
    assert error_key(await svc.handle_action(BOB, session_id, ActionKind.ACCEPT)) is not None
    # Turns.
    assert error_key(await svc.handle_text(BOB, "5")) == "error.not_your_turn"
    assert error_key(await svc.handle_text(CAROL, "!5")) == "error.no_game"
    assert error_key(await svc.handle_move(CAROL, session_id, 4)) == "error.not_your_game"
    for player, cell in ((ALICE, "1"), (BOB, "4"), (ALICE, "2"), (BOB, "5")):
        assert error_key(await svc.handle_text(player, cell)) is None
    won = await svc.handle_text(ALICE, "3")
    # A rated game: the result, then the new ratings (tests/core/test_sessions_ratings.py).
    assert won[0].text is not None and won[0].text.key == "ratings.game_result"
    result = won[0].text.params["result"]
    assert isinstance(result, Text) and result.key == "game.won"
    assert result.params == {"player": "Alice", "mark": "X"}
    assert error_key(await svc.handle_move(BOB, session_id, 8)) == "error.game_over"
    alice = await store.run(store_stats.player_stats("test", "alice"))
    bob = await store.run(store_stats.player_stats("test", "bob"))
    assert alice is not None and alice.wins == 1 and bob is not None and bob.losses == 1


async def test_challenged_player_may_start(store: AnyStore) -> None:
    svc = service(store)
    session_id = await pvp(svc, first="second")
    session = await stored(store, session_id)
    assert session.seats[0].user_id == "bob"
    assert error_key(await svc.handle_text(ALICE, "5")) == "error.not_your_turn"
    assert error_key(await svc.handle_text(BOB, "5")) is None


async def test_decline_and_withdraw(store: AnyStore) -> None:
    svc = service(store)
    session_id = session_of(await svc.handle_text(ALICE, "/quatre @bob"))
    assert keys(await svc.handle_text(BOB, "/decline")) == ["game.declined"]
    assert await store.run(sessions.get(session_id)) is None
    assert error_key(await svc.handle_action(BOB, session_id, ActionKind.ACCEPT)) == (
        "error.no_such_game"
    )
    session_id = session_of(await svc.handle_text(ALICE, "/quatre @bob"))
    assert keys(await svc.handle_text(ALICE, "/final")) == ["game.withdrawn"]
    assert await store.run(sessions.get(session_id)) is None
    assert error_key(await svc.handle_text(ALICE, "/tres @alice")) == "error.self_challenge"


async def test_accepting_while_playing_elsewhere_in_the_chat(store: AnyStore) -> None:
    svc = service(store)
    await svc.handle_text(BOB, "/tres easy")
    session_id = session_of(await svc.handle_text(ALICE, "/tres @bob"))
    assert error_key(await svc.handle_text(BOB, "/accept")) == "error.already_playing"
    assert (await stored(store, session_id)).status is Status.CHALLENGE


async def test_mentions_and_prefixes_come_from_the_platform_style(store: AnyStore) -> None:
    svc = service(store)
    style = PlatformStyle("test", prefix="!", user_id=lambda actor, text: f"id:{text.strip()}")
    svc.register_platform(style)
    session_id = session_of(await svc.handle_text(ALICE, "/tres @bob"))
    assert (await stored(store, session_id)).challenged == "id:@bob"
    await svc.handle_text(ALICE, "/final")
    replies = await svc.handle_text(ALICE, "/final")
    assert error_key(replies) == "error.nothing_to_end"
    assert replies[0].text is not None and replies[0].text.params["prefix"] == "!"
    # A challenge to the bot itself is a game against it, at the default level.
    svc.register_platform(replace(style, bot_user_id="id:@bot"))
    replies = await svc.handle_text(ALICE, "/tres @bot")
    board = replies[0].board
    assert board is not None and board.players[1].level == "medium"
    await svc.handle_text(ALICE, "/final")
    # Unregistered platforms: "@bob" is the user "bob", and the prefix is "/".
    other = Actor("elsewhere", "room", "ann", "Ann")
    session_id = session_of(await svc.handle_text(other, "/tres @bob"))
    assert (await stored(store, session_id)).challenged == "bob"


# --- expiry ---------------------------------------------------------------------------------


async def test_game_expires_before_a_move(store: AnyStore) -> None:
    clock = Clock()
    svc = service(store, clock)
    session_id = session_of(await svc.handle_text(ALICE, "/tres easy"))
    clock.advance(86_000)
    assert error_key(await svc.handle_text(ALICE, "1")) is None  # pushes expiry forward
    clock.advance(86_000)
    session = await stored(store, session_id)
    assert (
        error_key(await svc.handle_move(ALICE, session_id, session.position().legal_moves()[0]))
        is None
    )
    session = await stored(store, session_id)
    assert session.expires_at == clock.now + 86_400
    clock.now = session.expires_at
    replies = await svc.handle_move(ALICE, session_id, session.position().legal_moves()[0])
    assert error_key(replies) == "error.expired"
    assert await store.run(sessions.get(session_id)) is None
    assert error_key(await svc.handle_move(ALICE, session_id, 0)) == "error.no_such_game"
    # An expired game does not block a new one.
    assert error_key(await svc.handle_text(ALICE, "/tres")) is None


async def test_expired_game_blocks_nothing_and_typed_move_says_expired(
    store: AnyStore,
) -> None:
    clock = Clock()
    svc = service(store, clock)
    await svc.handle_text(ALICE, "/tres easy")
    clock.advance(86_401)
    assert error_key(await svc.handle_text(ALICE, "9")) == "error.expired"
    await svc.handle_text(BOB, "/tres easy")
    clock.advance(86_401)
    assert error_key(await svc.handle_text(BOB, "/quatre")) is None


async def test_challenge_expires(store: AnyStore) -> None:
    clock = Clock()
    svc = service(store, clock)
    session_id = session_of(await svc.handle_text(ALICE, "/tres @bob"))
    clock.advance(119)
    assert (await stored(store, session_id)).status is Status.CHALLENGE
    clock.advance(2)
    replies = await svc.handle_action(BOB, session_id, ActionKind.ACCEPT)
    assert error_key(replies) == "error.challenge_expired"
    assert await store.run(sessions.get(session_id)) is None
    # By text too.
    await svc.handle_text(ALICE, "/tres @bob")
    clock.advance(121)
    assert error_key(await svc.handle_text(BOB, "/accept")) == "error.challenge_expired"


async def test_sweep(store: AnyStore) -> None:
    clock = Clock()
    svc = service(store, clock)
    await svc.handle_text(ALICE, "/tres @bob")  # expires in 2 minutes
    await svc.handle_text(CAROL, "/tres easy")  # in 24 hours
    clock.advance(200)
    assert await svc.sweep() == 1
    clock.advance(86_400)
    assert await svc.sweep() == 1
    assert await store.run(store_stats.count_sessions()) == 0


async def test_periodic_sweeper_runs(store: AnyStore) -> None:
    import asyncio

    clock = Clock()
    svc = GameService(
        store,
        settings=ServiceSettings(
            ai_workers=0, sweep_interval=0.01, chat_defaults={"challenge_ttl": 10}
        ),
        clock=clock,
    )
    await svc.start()
    try:
        await svc.handle_text(ALICE, "/tres @bob")
        clock.advance(11)
        for _ in range(200):
            if await store.run(store_stats.count_sessions()) == 0:
                break
            await asyncio.sleep(0.01)
        assert await store.run(store_stats.count_sessions()) == 0
    finally:
        await svc.close()
    assert error_key(await svc.handle_text(ALICE, "/tres")) == "error.shutting_down"


# --- bot vs bot, rematch, stats -------------------------------------------------------------


async def test_bot_against_bot(store: AnyStore) -> None:
    svc = service(store)
    replies = await svc.handle_text(ALICE, "/tres bot easy medium")
    assert replies[0].new_message and keys(replies[:1]) == ["game.watch"]
    boards = [reply.board for reply in replies]
    assert all(board is not None for board in boards)
    versions = [board.version for board in boards if board is not None]
    assert versions == sorted(versions) and len(set(versions)) == len(versions)
    assert all(not reply.new_message for reply in replies[1:])
    last = replies[-1]
    assert last.board is not None and last.board.finished
    assert last.actions == (ActionKind.REMATCH, ActionKind.REVIEW)
    stones = [sum(1 for c in b.cells if c.mark) for b in boards if b is not None]
    assert stones == list(range(len(stones)))
    # Nobody's stats change, and Alice is free to play.
    assert await store.run(store_stats.top("test", "room")) == []
    assert error_key(await svc.handle_text(ALICE, "/tres")) is None
    # Only who started a bots' game may ask for its rematch (which replaces the finished game):
    # another's press is answered privately, and the game stays for its owner's /review.
    session_id = last.board.session_id
    refused = await svc.handle_action(CAROL, session_id, ActionKind.REMATCH)
    assert error_key(refused) == "error.not_your_rematch" and refused[0].private
    assert await store.run(sessions.get(session_id)) is not None
    # Her game against the bot runs: the review says it is of the last finished one.
    assert keys(await svc.handle_text(ALICE, "/review")) == ["review.previous", "review.text"]
    # Its owner may (once her own game here has ended); once.
    assert keys(await svc.handle_text(ALICE, "/final")) == ["game.ended"]
    again = await svc.handle_action(ALICE, session_id, ActionKind.REMATCH)
    assert again[0].board is not None and again[0].board.players[0].level == "medium"
    assert error_key(await svc.handle_action(ALICE, session_id, ActionKind.REMATCH)) == (
        "error.no_such_game"
    )


async def test_bot_against_bot_by_command(store: AnyStore) -> None:
    svc = service(store)
    command = Start(GameKind.QUATRE, CONNECT_FOUR, BotVsBot(Level.EASY, Level.EASY), First.ME)
    replies = await svc.handle_command(ALICE, command)
    assert replies[-1].board is not None and replies[-1].board.finished


async def test_rematch_against_the_bot_swaps_sides(store: AnyStore) -> None:
    svc = service(store)
    assert error_key(await svc.handle_text(ALICE, "/rematch")) == "error.no_rematch"
    session_id = session_of(await svc.handle_text(ALICE, "/tres easy"))
    assert error_key(await svc.handle_action(ALICE, session_id, ActionKind.REMATCH)) == (
        "error.not_finished"
    )
    await _finish(svc, store, session_id, ALICE)
    assert error_key(await svc.handle_action(BOB, session_id, ActionKind.REMATCH)) == (
        "error.not_your_game"
    )
    replies = await svc.handle_text(ALICE, "/rematch")
    assert keys(replies) == ["game.rematch"] and replies[0].new_message
    board = replies[0].board
    assert board is not None and board.players[0].level == "easy"
    assert board.players[1].user_id == "alice" and board.to_move == 2


async def test_rematch_between_players_is_a_new_challenge(store: AnyStore) -> None:
    svc = service(store)
    session_id = await pvp(svc)
    for player, cell in ((ALICE, "1"), (BOB, "4"), (ALICE, "2"), (BOB, "5"), (ALICE, "3")):
        await svc.handle_text(player, cell)
    replies = await svc.handle_action(BOB, session_id, ActionKind.REMATCH)
    assert keys(replies) == ["game.challenge"]
    assert replies[0].mention == "alice"  # meant for the challenged player, who must hear it
    assert error_key(await svc.handle_text(BOB, "/accept")) == "error.no_challenge"
    accepted = await svc.handle_text(ALICE, "/accept")
    board = accepted[0].board
    assert board is not None and [p.user_id for p in board.players] == ["bob", "alice"]


async def _finish(svc: GameService, store: AnyStore, session_id: str, who: Actor) -> None:
    session = await stored(store, session_id)
    while session.status is Status.ACTIVE:
        await svc.handle_move(who, session_id, session.position().legal_moves()[0])
        session = await stored(store, session_id)


async def test_stats_and_top(store: AnyStore) -> None:
    svc = service(store)
    assert keys(await svc.handle_text(ALICE, "/stats")) == ["stats.none"]
    assert keys(await svc.handle_text(ALICE, "/top")) == ["ratings.top_empty"]
    await pvp(svc)
    for player, cell in ((ALICE, "1"), (BOB, "4"), (ALICE, "2"), (BOB, "5"), (ALICE, "3")):
        await svc.handle_text(player, cell)
    mine = await svc.handle_text(ALICE, "/stats")
    # The results, then the ratings: the game was rated (tests/core/test_sessions_ratings.py).
    assert mine[0].text is not None and mine[0].text.key == "ratings.stats"
    results = mine[0].text.params["results"]
    assert isinstance(results, Text) and results.key == "stats.player"
    assert results.params["wins"] == 1 and results.params["chat_wins"] == 1
    bobs = await svc.handle_text(CAROL, "/stats @bob")
    assert bobs[0].text is not None
    results = bobs[0].text.params["results"]
    assert isinstance(results, Text) and results.params["losses"] == 1
    assert results.params["player"] == "Bob"
    # One rated game is not enough for a ladder.
    assert keys(await svc.handle_text(CAROL, "/top tres")) == ["ratings.top_empty"]


async def test_help_is_localized(store: AnyStore) -> None:
    svc = service(store)
    english = await svc.handle_text(ALICE, "/help")
    catalan = await svc.handle_text(actor("anna", locale="ca-ES"), "/help")
    svc.register_platform(PlatformStyle("matrix", prefix="!"))
    matrix = await svc.handle_text(actor("m", platform="matrix"), "!help")
    texts = [r[0].text.render("en") for r in (english, catalan, matrix) if r[0].text]
    assert len(texts) == 3 and texts[0] != texts[1]
    assert "/tres" in texts[0] and "!tres" in texts[2]


async def test_help_topic_as_text_is_that_topic_and_an_unknown_one_names_the_topics(
    store: AnyStore,
) -> None:
    svc = service(store)
    svc.register_platform(PlatformStyle("matrix", prefix="!"))
    bob = actor("m", platform="matrix", locale="es")
    seek = await svc.handle_text(bob, "!help seek")
    assert len(seek) == 1 and seek[0].private and seek[0].text is not None
    assert seek[0].text.render("es") == help_text("es", "!", "seek")
    unknown = await svc.handle_text(bob, "!help chess")
    assert keys(unknown) == ["parse.unknown_topic"]
    assert unknown[0].text is not None and "seek" in unknown[0].text.render("es")


# --- concurrency ----------------------------------------------------------------------------

_RACE_ANSWERS = {
    "error.board_changed",
    "error.not_your_turn",
    "error.not_your_game",
    "error.occupied",
    "error.game_over",
}


async def _race(services: Sequence[GameService], store: AnyStore, session_id: str) -> None:
    """200 attempts per round from many tasks, until the game ends.

    Even rounds are clicks that all carry the round's version: exactly one applies. Odd rounds
    mix in typed moves (no version), which legitimately apply to whatever turn is current, so
    several may land in one round, but never two on the same turn: every applied move made
    exactly one new version. Every other attempt gets a clear answer.
    """
    import asyncio

    rng = random.Random(3)
    people = (ALICE, BOB, CAROL)
    rounds = 0
    while True:
        session = await stored(store, session_id)
        if session.status is Status.FINISHED:
            break
        clicks_only = rounds % 2 == 0

        async def attempt(
            i: int,
            version: int = session.version,
            legal: tuple[int, ...] = session.position().legal_moves(),
            clicks_only: bool = clicks_only,
        ) -> list[Reply]:
            svc = services[i % len(services)]
            who = people[rng.randrange(3)]
            move = rng.choice(legal)
            typed = not clicks_only and i % 2 == 0
            return await svc.handle_move(who, session_id, move, None if typed else version)

        results = await asyncio.gather(*(attempt(i) for i in range(200)))
        applied = [r for r in results if error_key(r) is None]
        answers = {error_key(r) for r in results if error_key(r) is not None}
        assert answers <= _RACE_ANSWERS, answers
        after = await stored(store, session_id)
        new_versions = sorted(r[-1].version or 0 for r in applied)
        assert new_versions == list(range(session.version + 1, after.version + 1))
        assert after.moves[: len(session.moves)] == session.moves
        assert len(after.moves) == len(session.moves) + len(applied)
        if clicks_only:
            assert len(applied) == 1, sorted(map(str, answers))
        rounds += 1
    # A clicks-only round, then a mixed one: with PostgreSQL's truly parallel writers, one mixed
    # round of typed moves may well play the rest of a tic-tac-toe game.
    assert rounds >= 2
    Position.from_moves(TICTACTOE, (await stored(store, session_id)).moves)


async def test_200_concurrent_moves_one_store(store: AnyStore) -> None:
    svc = service(store, limits=False)  # 200 clicks at once from three people: a flood
    await _race([svc], store, await pvp(svc))


async def test_200_concurrent_moves_two_stores(backend: Backend) -> None:
    async with backend.open() as one, backend.open() as two:
        first, second = service(one, limits=False), service(two, seed=8, limits=False)
        await _race([first, second], one, await pvp(first))


# --- failures -------------------------------------------------------------------------------


async def test_locked_database_gives_a_temporary_error(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    async with SqliteStore.open(path, busy_timeout_ms=50) as store:
        svc = service(store)
        session_id = session_of(await svc.handle_text(ALICE, "/tres easy"))
        before = await stored(store, session_id)
        blocker = sqlite3.connect(path, isolation_level=None)
        try:
            blocker.execute("BEGIN IMMEDIATE")
            replies = await svc.handle_text(ALICE, "5")
            assert error_key(replies) == "error.busy"
            assert error_key(await svc.handle_text(BOB, "/tres")) == "error.busy"
        finally:
            blocker.execute("ROLLBACK")
            blocker.close()
        assert await stored(store, session_id) == before  # nothing half-done
        assert error_key(await svc.handle_text(ALICE, "5")) is None  # and it goes on
        assert len((await stored(store, session_id)).moves) == 2


class BrokenStore(SqliteStore):
    """A store whose ``get`` fails unexpectedly (a bug, a disk error...)."""

    async def run(self, op: Op[T]) -> T:
        if name_of(op) == "get":
            op.close()
            raise RuntimeError("disk on fire")
        return await super().run(op)


async def test_unexpected_errors_are_logged_and_apologised_for(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store = await SqliteStore.open(tmp_path / "db.sqlite3")
    broken = BrokenStore(store._db, store.path)
    svc = service(broken)
    with caplog.at_level(logging.INFO, logger="core.sessions"):
        replies = await svc.handle_move(ALICE, "abc123", 0, 1)
    assert error_key(replies) == "error.internal"
    failure = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert failure and failure[0].exc_info is not None
    assert "session=abc123" in failure[0].getMessage()
    assert any("duration_ms=" in r.getMessage() for r in caplog.records)
    await store.close()


async def test_hard_in_a_thread_and_in_the_process_pool(tmp_path: Path) -> None:
    async with SqliteStore.open(tmp_path / "db.sqlite3") as store:
        svc = GameService(
            store, settings=ServiceSettings(ai_workers=1, ai_budget=0.1), clock=Clock()
        )
        await svc.start()
        try:
            assert svc.runner.load().workers == 1
            replies = await svc.handle_command(
                ALICE, Start(GameKind.TRES, TICTACTOE, VsBot(Level.HARD), First.ME)
            )
            assert error_key(replies) is None
            # HARD never loses tic-tac-toe: after the corner, it takes the centre.
            replies = await svc.handle_text(ALICE, "1")
            board = replies[0].board
            assert board is not None and board.cells[4].mark == 2
        finally:
            await svc.close()


class SlowStore(SqliteStore):
    """Writes take a while, so a request is still in flight when the service closes."""

    async def run(self, op: Op[T]) -> T:
        import asyncio

        if name_of(op) == "update":
            await asyncio.sleep(0.1)
        return await super().run(op)


async def test_close_finishes_moves_in_flight(tmp_path: Path) -> None:
    import asyncio

    store = await SqliteStore.open(tmp_path / "db.sqlite3")
    slow = SlowStore(store._db, store.path)
    svc = service(slow)
    session_id = session_of(await svc.handle_text(ALICE, "/tres easy"))
    move = asyncio.create_task(svc.handle_text(ALICE, "5"))
    await asyncio.sleep(0.01)  # the move is now waiting on its write
    await svc.close()
    assert move.done() and error_key(move.result()) is None
    assert len((await stored(store, session_id)).moves) == 2
    assert error_key(await svc.handle_text(ALICE, "1")) == "error.shutting_down"
    await store.close()


async def test_a_click_from_another_chat_finds_nothing(store: AnyStore) -> None:
    svc = service(store)
    session_id = session_of(await svc.handle_text(ALICE, "/tres easy"))
    elsewhere = actor("alice", chat="elsewhere")
    assert error_key(await svc.handle_move(elsewhere, session_id, 0)) == "error.no_such_game"
    other_platform = actor("alice", platform="discord")
    replies = await svc.handle_action(other_platform, session_id, ActionKind.REMATCH)
    assert error_key(replies) == "error.no_such_game"


# --- views and texts ------------------------------------------------------------------------


async def test_board_view_of_a_won_game(store: AnyStore) -> None:
    svc = service(store)
    session_id = await pvp(svc)
    session = await stored(store, session_id)
    won = replace(
        session,
        moves=(0, 3, 1, 4, 2),
        status=Status.FINISHED,
        outcome=Outcome(Termination.WIN, 1),
    )
    view = board_view(won)
    assert [c.index for c in view.cells if c.winning] == [0, 1, 2]
    assert [c.index for c in view.cells if c.last] == [2]
    assert view.finished and view.to_move is None and view.playable == ()
    assert view.status.key == "game.won"
    assert len(view.rows) == 3 and view.rows[1][0].mark == 2


def test_game_catalogue_complete() -> None:
    for key, templates in {**MESSAGES, **ERROR_MESSAGES}.items():
        assert key.split(".")[0] in {"game", "error", "stats"}, key
        assert set(templates) == set(LOCALES), key
        expected = placeholders(templates["en"])
        for locale, template in templates.items():
            assert placeholders(template) == expected, (key, locale)
            assert template.strip(), (key, locale)


def test_every_key_the_service_uses_exists() -> None:
    package = Path(__file__).parents[2] / "core" / "sessions"
    source = "\n".join(path.read_text() for path in sorted(package.glob("*.py")))
    used = set(re.findall(r"\"((?:game|error|stats)\.[a-z_]+)\"", source))
    assert used and used <= set(catalogue()), used - set(catalogue())


def test_settings_are_validated() -> None:
    with pytest.raises(ValueError, match="game_ttl"):
        ServiceSettings(chat_defaults={"game_ttl": 0})
    with pytest.raises(ValueError, match="ai_workers"):
        ServiceSettings(ai_workers=-1)
    assert ServiceSettings(ai_workers=None).workers >= 1


def test_user_error_english() -> None:
    assert "Bob" in str(UserError("error.not_your_turn", player="Bob"))

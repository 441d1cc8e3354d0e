"""A notice that follows a stored change is left in the outbox in the change's transaction, so a
process killed (``SIGKILL``) between the commit and the send loses none: on both stores, a
process pairs two seeks (or expires one, sweeps a clock, ends the games of a player who left,
moves in an open game) and kills itself in its ``publish``, the first moment it would hand the
notice to the platform; two other processes serving the same account (the chat's) then show
it, once."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
from collections.abc import Sequence

from core.ports import PlatformStyle
from core.replies import Actor, Reply
from core.sessions.openplay.relay import CLAIM
from core.store import outbox, seeks
from core.store.postgres import PostgresStore
from core.store.sqlite import SqliteStore
from tests.backends import AnyStore, Backend
from tests.core.test_sessions import ALICE, BOB, Clock, error_key, keys, service
from tests.core.test_sessions_relay import ANN, BEN, passes, process, timed_game

PLATFORMS = ("disc", "mx", "test")


def _killed_at_publish(kind: str, where: str, now: float, line: str) -> None:
    """A process serving every platform that handles Ann's ``line`` (or, for ``pass``, passes
    over the queue once; for ``sweep``, sweeps the clocks) at ``now`` and kills itself the
    moment it publishes anything: after the store committed, before the platform took the
    message."""

    async def publish(actor: Actor, replies: Sequence[Reply]) -> None:
        os.kill(os.getpid(), signal.SIGKILL)

    async def run() -> None:
        opening = SqliteStore.open(where) if kind == "sqlite" else PostgresStore.open(where)
        async with opening as store:
            svc = service(store, Clock(now))
            for platform in PLATFORMS:
                svc.register_platform(PlatformStyle(platform, publish=publish))
            if line == "sweep":
                assert await svc.sweep_clocks() == 1
                await svc.clocks_idle()
            elif line == "pass":
                await svc.match_waiting()
            elif line.startswith("left "):
                platform, chat_id, user_id = line.split()[1:]
                assert await svc.abandon_games(platform, [chat_id], user_id) == 1
            elif line.startswith("move "):
                player, session_id, cell = line.split()[1:]
                who = ANN if player == ANN.user_id else BEN
                assert error_key(await svc.handle_move(who, session_id, int(cell))) is None
            else:
                assert keys(await svc.handle_text(ANN, line)) == ["seek.paired"]
            await svc.open_games_idle()

    asyncio.run(run())


async def _killed(backend: Backend, now: float, line: str) -> None:
    context = multiprocessing.get_context("spawn")
    proc = context.Process(target=_killed_at_publish, args=(backend.kind, backend.where, now, line))
    proc.start()
    await asyncio.to_thread(proc.join, 120)
    # It reached its publish: the notice was on its way when it died.
    assert proc.exitcode == -signal.SIGKILL


async def _shown_once(store: AnyStore, clock: Clock, chat: str = BEN.chat_id) -> list[Reply]:
    """What two processes serving the account show in ``chat`` (Ben's) once the dead
    process's claim (if it took one) has lapsed: each of their passes, twice."""
    return (await _shown_in(store, clock, {chat}))[chat]


async def _shown_in(store: AnyStore, clock: Clock, where: set[str]) -> dict[str, list[Reply]]:
    """:func:`_shown_once` in every chat of ``where``, which are all the chats shown anything."""
    serving, chats = process(store, clock, serves=True, platforms=PLATFORMS)
    other, others = process(store, clock, serves=True, platforms=PLATFORMS)
    clock.advance(CLAIM)
    await passes(serving, other)
    await passes(serving, other)
    assert set(chats.shown) | set(others.shown) == where
    for platform in PLATFORMS:
        assert await store.run(outbox.outbox_due(platform, clock() + CLAIM)) == []
    return {chat: chats.shown[chat] + others.shown[chat] for chat in where}


async def test_a_pairing_notice_survives_a_kill_after_the_commit(
    backend: Backend,
) -> None:
    clock = Clock()
    async with backend.open() as store:
        serving, _ = process(store, clock, serves=True, platforms=PLATFORMS)
        assert keys(await serving.handle_text(BEN, "!seek tres")) == ["seek.queued"]
    await _killed(backend, clock(), "/seek tres")
    async with backend.open() as store:
        [(game_id,)] = await backend.sql("SELECT id FROM sessions")
        [shown] = await _shown_once(store, clock)
        # The new game's board under its pairing line, as the dead process would have shown it.
        assert shown.text is not None and shown.text.key == "seek.paired"
        assert shown.new_message and shown.session_id == game_id


async def test_an_expired_seeks_notice_survives_a_kill_after_the_commit(
    backend: Backend,
) -> None:
    clock = Clock()
    async with backend.open() as store:
        serving, _ = process(store, clock, serves=True, platforms=PLATFORMS)
        assert keys(await serving.handle_text(BEN, "!seek tres")) == ["seek.queued"]
    clock.advance(601)
    await _killed(backend, clock(), "pass")
    async with backend.open() as store:
        assert await store.run(seeks.waiting_seeks(0)) == []
        [notice] = await _shown_once(store, clock)
        assert notice.text is not None and notice.text.key == "seek.expired"
        assert notice.text.render("en").startswith("Ben, nobody")


async def test_a_timeout_survives_a_kill_after_the_commit(backend: Backend) -> None:
    clock = Clock()
    async with backend.open() as store:
        serving, _ = process(store, clock, serves=True, platforms=PLATFORMS)
        session_id = await timed_game(serving, "1m")
        await serving.handle_move(ALICE, session_id, 4)
        await serving.handle_move(BOB, session_id, 0)
    clock.advance(60)
    await _killed(backend, clock(), "sweep")
    async with backend.open() as store:
        board, result = await _shown_once(store, clock, "room")
        assert board.board is not None and board.board.finished
        assert result.text is not None and result.text.key == "ratings.game_result"
        assert result.text.render("en").startswith("Alice ran out of time. Bob wins.")


async def test_a_departures_notice_survives_a_kill_after_the_commit(backend: Backend) -> None:
    clock = Clock()
    async with backend.open() as store:
        serving, _ = process(store, clock, serves=True, platforms=PLATFORMS)
        session_id = await timed_game(serving, "1m")
        await serving.handle_move(ALICE, session_id, 4)
    await _killed(backend, clock(), f"left {BOB.platform} {BOB.chat_id} {BOB.user_id}")
    async with backend.open() as store:
        # The board edited to its end, and why it ended in a message of its own.
        board, told = await _shown_once(store, clock, "room")
        assert board.board is not None and board.board.finished and board.session_id == session_id
        assert told.text is not None and told.text == board.board.status
        assert told.text.render("en").startswith("Bob left")


async def test_a_withdrawn_challenges_notice_survives_a_kill_after_the_commit(
    backend: Backend,
) -> None:
    clock = Clock()
    async with backend.open() as store:
        serving, _ = process(store, clock, serves=True, platforms=PLATFORMS)
        assert keys(await serving.handle_text(ALICE, "/tres @bob")) == ["game.challenge"]
    await _killed(backend, clock(), f"left {BOB.platform} {BOB.chat_id} {BOB.user_id}")
    async with backend.open() as store:
        assert await backend.sql("SELECT id FROM sessions") == []
        [told] = await _shown_once(store, clock, "room")
        assert told.text is not None and told.text.key == "game.challenge_left"
        assert told.text.render("en") == "@bob left: the challenge is off."


async def _open_game(backend: Backend, clock: Clock) -> tuple[str, Actor]:
    """Ann (Discord) and Ben (Matrix) paired, their notices shown; the game and who moves."""
    async with backend.open() as store:
        serving, chats = process(store, clock, serves=True, platforms=PLATFORMS)
        assert keys(await serving.handle_text(BEN, "!seek tres")) == ["seek.queued"]
        assert keys(await serving.handle_text(ANN, "/seek tres")) == ["seek.paired"]
        await serving.open_games_idle()
        assert set(chats.shown) == {BEN.chat_id}
        [(game_id, first)] = await backend.sql("SELECT id, x_user FROM sessions")
    return str(game_id), ANN if first == ANN.user_id else BEN


async def test_an_open_games_board_in_its_other_chat_survives_a_kill_after_the_commit(
    backend: Backend,
) -> None:
    clock = Clock()
    game_id, first = await _open_game(backend, clock)
    await _killed(backend, clock(), f"move {first.user_id} {game_id} 4")
    other = BEN if first is ANN else ANN
    async with backend.open() as store:
        # The other chat's board, as it stands after the move: shown once.
        [board] = await _shown_once(store, clock, other.chat_id)
        [(version,)] = await backend.sql("SELECT version FROM sessions")
        assert board.board is not None and board.board.session_id == game_id
        assert board.board.version == version and board.board.cells[4].mark != 0


async def test_an_open_games_departure_survives_a_kill_after_the_commit(
    backend: Backend,
) -> None:
    clock = Clock()
    game_id, _ = await _open_game(backend, clock)
    await _killed(backend, clock(), f"left {ANN.platform} {ANN.chat_id} {ANN.user_id}")
    async with backend.open() as store:
        shown = await _shown_in(store, clock, {ANN.chat_id, BEN.chat_id})
        # Both chats (the bot is still in Ann's) see the end, once each.
        for chat in (ANN.chat_id, BEN.chat_id):
            board, told = shown[chat]
            assert board.board is not None and board.board.session_id == game_id
            assert board.board.finished and told.text == board.board.status

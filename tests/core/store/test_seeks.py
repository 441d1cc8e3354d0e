"""The matchmaking queue in the store, on both stores: a seek pairs or waits, each seek is taken
once, blocks and one's own seeks are never paired, expiry returns each seek once, the open
game's seats keep their own chats; on PostgreSQL, processes pairing at once take each seek once,
and a process killed in the middle of a pairing loses no seek and leaves no game."""

from __future__ import annotations

import asyncio
import dataclasses
import multiprocessing
import multiprocessing.synchronize
import os
import signal
from collections import Counter
from typing import Any

import pytest

from core.games import CONNECT_FOUR, TICTACTOE, Rules
from core.pairing.seeks import SEEK_TTL, Seek
from core.ratings import NEW
from core.store import Seat, Session, Status, new_session_id, seeks, sessions, stats
from core.store.models import AlreadySeeking, Paired, Queued
from core.store.ratings import own_identity
from core.store.seeks import SEEK_COLUMNS, decode_seek, seek_row
from core.store.sqlite import SqliteStore
from tests.backends import Backend
from tests.core.store.helpers import NOW, make_session, played


def make_seek(
    user: str,
    *,
    chat: str = "c1",
    platform: str = "test",
    rules: Rules = CONNECT_FOUR,
    rated: bool = False,
    rating: float = 1500.0,
    clock: float = 120.0,
    at: float = NOW,
) -> Seek:
    return Seek(
        id=new_session_id(),
        player=own_identity(platform, user),
        platform=platform,
        chat_id=chat,
        user_id=user,
        name=user.title(),
        rules=rules,
        rated=rated,
        clock=clock,
        rating=rating,
        created_at=at,
        expires_at=at + SEEK_TTL,
    )


async def queue(backend: Backend, s: Seek) -> None:
    """Put a seek in the queue as it is, without pairing it (as a seek that arrived in the same
    instant as its partner, in another process)."""
    values = ", ".join(f"${n}" for n in range(1, len(SEEK_COLUMNS) + 1))
    await backend.sql(
        f"INSERT INTO seeks ({', '.join(SEEK_COLUMNS)}) VALUES ({values})", *seek_row(s)
    )


def open_game(first: Seek, second: Seek) -> Session:
    """The game two seeks make: the first seeker's chat is the session's, the second's seat
    sits in its own chat when that is another."""
    away = (first.platform, first.chat_id) != (second.platform, second.chat_id)
    return Session(
        id=new_session_id(),
        platform=first.platform,
        chat_id=first.chat_id,
        seats=(
            Seat.person(first.user_id, first.name),
            Seat(
                second.name,
                second.user_id,
                platform=second.platform if away else None,
                chat_id=second.chat_id if away else None,
            ),
        ),
        rules=first.rules,
        moves=(),
        status=Status.ACTIVE,
        version=1,
        created_at=max(first.created_at, second.created_at),
        updated_at=max(first.created_at, second.created_at),
        expires_at=max(first.created_at, second.created_at) + 3600,
        challenger=first.user_id,
    )


async def test_a_seek_waits_then_the_next_compatible_one_pairs_it(backend: Backend) -> None:
    async with backend.open() as store:
        alice = make_seek("alice", chat="c1")
        assert await store.run(seeks.seek(alice, open_game)) == Queued(alice)
        assert await store.run(seeks.seek_of(alice.player)) == alice
        bob = make_seek("bob", chat="m1", platform="other", at=NOW + 5)
        paired = await store.run(seeks.seek(bob, open_game))
        assert isinstance(paired, Paired) and paired.seeks == (alice, bob)
        game = paired.session
        assert await store.run(sessions.get(game.id)) == game
        assert await store.run(seeks.waiting_seeks(NOW + 5)) == []
        # Each player finds the game in the chat they sought from, and only there.
        found = await store.run(sessions.live_game("test", "c1", "alice"))
        assert found is not None and found.id == game.id
        found = await store.run(sessions.live_game("other", "m1", "bob"))
        assert found is not None and found.id == game.id
        assert await store.run(sessions.live_game("test", "c1", "bob")) is None
        assert game.chats == (("test", "c1"), ("other", "m1"))
        assert game.seat_in("other", "m1", "bob") == 2
        assert game.seat_in("test", "c1", "bob") is None


async def test_an_open_games_result_is_counted_in_each_players_own_chat(
    backend: Backend,
) -> None:
    async with backend.open() as store:
        await store.run(seeks.seek(make_seek("alice", chat="c1"), open_game))
        paired = await store.run(seeks.seek(make_seek("bob", chat="c2"), open_game))
        assert isinstance(paired, Paired)
        game = paired.session
        finished = played(game, 0, 6, 1, 6, 2, 6, 3)
        assert await store.run(sessions.update(finished, expected_version=game.version))
        alice = await store.run(stats.player_stats("test", "alice", "c1"))
        bob = await store.run(stats.player_stats("test", "bob", "c2"))
        assert alice is not None and bob is not None
        assert (alice.wins, bob.losses) == (1, 1)
        assert await store.run(stats.player_stats("test", "bob", "c1")) is None
        assert await backend.sql("SELECT count(*) FROM players") == [(0,)]


async def test_seeks_that_do_not_fit_are_never_paired(backend: Backend) -> None:
    async with backend.open() as store:
        alice = make_seek("alice", rated=True, rating=1500)
        assert isinstance(await store.run(seeks.seek(alice, open_game)), Queued)
        misfits = [
            make_seek("alice", chat="c9"),  # herself, from another chat: already seeking
            make_seek("bob", rules=TICTACTOE, rated=True),  # another game
            make_seek("carol", rated=False),  # casual
            make_seek("dave", rated=True, clock=600.0),  # a clock out of range
            make_seek("erin", rated=True, rating=2200),  # too far for a fresh window
        ]
        results = [await store.run(seeks.seek(s, open_game)) for s in misfits]
        assert results[0] == AlreadySeeking(alice)
        assert all(isinstance(r, Queued) for r in results[1:])
        assert await backend.sql("SELECT count(*) FROM sessions") == [(0,)]
        # A blocked player is not paired either way.
        assert await store.run(seeks.block(own_identity("test", "frank"), alice.player, NOW))
        assert not await store.run(seeks.block(own_identity("test", "frank"), alice.player, NOW))
        assert await store.run(seeks.blocked(alice.player, own_identity("test", "frank")))
        assert isinstance(
            await store.run(seeks.seek(make_seek("frank", rated=True), open_game)), Queued
        )
        assert len(await store.run(seeks.waiting_seeks(NOW))) == 6


async def test_an_unblock_removes_the_block_in_every_form_and_the_two_meet_again(
    backend: Backend,
) -> None:
    async with backend.open() as store:
        alice, frank = own_identity("test", "alice"), own_identity("test", "frank")
        # Frank's account is linked to another identity; a block of his own form is left too
        # (an /unlink copies blocks there), and one from Alice's own form.
        linked = own_identity("other", "frank")
        for player, blocked in ((frank, alice), (linked, alice), (frank, "test:carol")):
            assert await store.run(seeks.block(player, blocked, NOW))
        assert await store.run(seeks.block(alice, frank, NOW))
        assert await store.run(seeks.unblock((linked, frank), (alice,)))
        assert not await store.run(seeks.blocked(alice, linked))
        # Only Frank's blocks of Alice: hers of him and his of Carol stay.
        assert await backend.sql("SELECT player, blocked FROM blocks ORDER BY player") == [
            (alice, frank),
            (frank, "test:carol"),
        ]
        assert not await store.run(seeks.unblock((frank,), (alice, linked)))  # none left
        assert await store.run(seeks.unblock((alice,), (frank,)))
        assert isinstance(await store.run(seeks.seek(make_seek("alice"), open_game)), Queued)
        assert isinstance(await store.run(seeks.seek(make_seek("frank"), open_game)), Paired)
        assert not await store.run(seeks.unblock((), (alice,)))


async def test_the_rating_window_widens_while_seeks_wait(backend: Backend) -> None:
    async with backend.open() as store:
        await store.run(seeks.seek(make_seek("alice", rated=True, rating=1500), open_game))
        await store.run(
            seeks.seek(make_seek("bob", rated=True, rating=1900, at=NOW + 1), open_game)
        )
        assert await store.run(seeks.pair_waiting(NOW + 2, open_game)) == []
        made = await store.run(seeks.pair_waiting(NOW + 60, open_game))
        assert [tuple(s.user_id for s in p.seeks) for p in made] == [("alice", "bob")]
        assert await store.run(seeks.pair_waiting(NOW + 61, open_game)) == []


async def test_a_pass_pairs_each_waiting_seek_once(backend: Backend) -> None:
    async with backend.open() as store:
        # Queued without a partner each (as two processes may at one instant): a pass pairs.
        for n in range(21):
            await queue(backend, make_seek(f"p{n}", chat=f"c{n % 7}", at=NOW + n))
        made = await store.run(seeks.pair_waiting(NOW + 30, open_game))
        assert len(made) == 10
        users = Counter(s.user_id for p in made for s in p.seeks)
        assert set(users.values()) == {1}
        left = await store.run(seeks.waiting_seeks(NOW + 30))
        assert [s.user_id for s in left] == ["p20"]


async def test_a_seeker_busy_in_their_chat_is_left_waiting(backend: Backend) -> None:
    async with backend.open() as store:
        alice = make_seek("alice", chat="c1")
        await store.run(seeks.seek(alice, open_game))
        # Alice started a game in her chat after seeking: nobody is paired with her there.
        await store.run(sessions.create(make_session(alice="alice", bob="zed", chat="c1")))
        assert isinstance(
            await store.run(seeks.seek(make_seek("bob", chat="c2"), open_game)), Queued
        )
        assert await store.run(seeks.pair_waiting(NOW + 10, open_game)) == []
        assert len(await store.run(seeks.waiting_seeks(NOW + 10))) == 2


async def test_expired_seeks_are_returned_once_and_cancel_takes_a_seek_out(
    backend: Backend,
) -> None:
    async with backend.open() as store:
        old = make_seek("alice", at=NOW - SEEK_TTL - 1)
        await store.run(seeks.seek(old, open_game))
        await store.run(seeks.seek(make_seek("bob", rules=TICTACTOE), open_game))
        # The expired seek is not a partner any more.
        assert isinstance(await store.run(seeks.seek(make_seek("carol"), open_game)), Queued)
        gone = await asyncio.gather(*(store.run(seeks.expire_seeks(NOW)) for _ in range(3)))
        assert [s.user_id for batch in gone for s in batch] == ["alice"]
        cancelled = await store.run(seeks.cancel_seek(own_identity("test", "bob")))
        assert cancelled is not None and cancelled.user_id == "bob"
        assert await store.run(seeks.cancel_seek(own_identity("test", "bob"))) is None
        assert [s.user_id for s in await store.run(seeks.waiting_seeks(NOW))] == ["carol"]


async def test_a_damaged_seek_row_is_left_out(backend: Backend) -> None:
    async with backend.open() as store:
        await backend.sql(
            f"INSERT INTO seeks ({', '.join(SEEK_COLUMNS[:15])}) VALUES ('test:x', 'bad',"
            " 'test', 'c', 'x', 'X', 0, 7, 4, 1, 0, 120, 1500, $1, $2)",
            NOW,
            NOW + SEEK_TTL,
        )
        assert await store.run(seeks.waiting_seeks(NOW)) == []
        assert isinstance(
            await store.run(seeks.seek(make_seek("bob", chat="c2"), open_game)), Queued
        )


def test_a_seek_keeps_its_server_and_whole_rating_and_older_rows_still_decode() -> None:
    seek = dataclasses.replace(
        make_seek("ana"), server_id="server-1", deviation=80.5, games=12, rating=1620.0
    )
    assert decode_seek(seek_row(seek)) == seek
    # A row written before the open seats step (queued, or in an outbox item): no server, a
    # new player's deviation and games.
    older = decode_seek(seek_row(seek)[:15])
    assert older == dataclasses.replace(seek, server_id=None, deviation=NEW.deviation, games=0)


# --- processes on one PostgreSQL ---------------------------------------------------------------

PROCESSES = 2
SEEKS = 200


def _seeker(
    where: str, number: int, start: multiprocessing.synchronize.Barrier, results: Any
) -> None:
    """One process: its half of the seeks (many chats, two platforms, two games) sent at once,
    then passes over the queue until nothing is left to pair."""
    from core.store.postgres import PostgresStore

    async def run() -> None:
        async with PostgresStore.open(where) as store:
            mine = [
                make_seek(
                    f"u{n}",
                    chat=f"chat{n % 37}",
                    platform=("discord", "matrix")[n % 2],
                    rules=(CONNECT_FOUR, TICTACTOE)[(n // 2) % 2],
                    at=NOW + n / 100,
                )
                for n in range(number, SEEKS, PROCESSES)
            ]
            start.wait(60)
            made = await asyncio.gather(*(store.run(seeks.seek(s, open_game)) for s in mine))
            ids = [r.session.id for r in made if isinstance(r, Paired)]
            deadline = asyncio.get_running_loop().time() + 60
            while await store.run(seeks.waiting_seeks(NOW + 10)) and (
                asyncio.get_running_loop().time() < deadline
            ):
                ids += [
                    p.session.id for p in await store.run(seeks.pair_waiting(NOW + 10, open_game))
                ]
            results.put(ids)

    asyncio.run(run())


@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
async def test_processes_pair_200_seeks_exactly_once(backend: Backend) -> None:
    async with backend.open():
        pass  # migrated once, before the processes race
    context = multiprocessing.get_context("spawn")
    start = context.Barrier(PROCESSES)
    results = context.Queue()
    procs = [
        context.Process(target=_seeker, args=(backend.where, n, start, results))
        for n in range(PROCESSES)
    ]
    for proc in procs:
        proc.start()
    made = [results.get(timeout=120) for _ in procs]
    for proc in procs:
        proc.join(60)
        assert proc.exitcode == 0
    ids = [i for batch in made for i in batch]
    assert len(ids) == len(set(ids)) == SEEKS // 2
    assert all(made), "one process paired nothing: no race"
    assert await backend.sql("SELECT count(*) FROM seeks") == [(0,)]
    seats = await backend.sql("SELECT x_user, o_user FROM sessions")
    assert len(seats) == SEEKS // 2
    assert all(x != o for x, o in seats)
    players = Counter(u for pair in seats for u in pair)
    assert sorted(players) == sorted(f"u{n}" for n in range(SEEKS))
    assert set(players.values()) == {1}


def _killed_while_pairing(kind: str, where: str, inside: multiprocessing.synchronize.Event) -> None:
    """Pairs the queue, and stops for good inside the transaction, after the seeks were
    deleted and while the game is being made: the parent kills it there."""
    from core.store.postgres import PostgresStore

    def stuck(first: Seek, second: Seek) -> Session:
        inside.set()
        while True:
            signal.pause()

    async def run() -> None:
        opening = SqliteStore.open(where) if kind == "sqlite" else PostgresStore.open(where)
        async with opening as store:
            await store.run(seeks.pair_waiting(NOW + 10, stuck))

    asyncio.run(run())


async def test_a_process_killed_mid_pairing_loses_no_seek_and_leaves_no_game(
    backend: Backend,
) -> None:
    async with backend.open():
        for n in range(6):
            await queue(backend, make_seek(f"u{n}", chat=f"c{n}", at=NOW + n))
    before = await backend.sql("SELECT player FROM seeks ORDER BY player")
    context = multiprocessing.get_context("spawn")
    inside = context.Event()
    proc = context.Process(target=_killed_while_pairing, args=(backend.kind, backend.where, inside))
    proc.start()
    assert await asyncio.to_thread(inside.wait, 60)
    assert proc.pid is not None
    os.kill(proc.pid, signal.SIGKILL)
    await asyncio.to_thread(proc.join, 60)
    assert await backend.sql("SELECT count(*) FROM sessions") == [(0,)]
    assert await backend.sql("SELECT count(*) FROM players") == [(0,)]
    async with backend.open() as store:
        assert await backend.sql("SELECT player FROM seeks ORDER BY player") == before
        made = await store.run(seeks.pair_waiting(NOW + 10, open_game))
        assert made and all(isinstance(p, Paired) for p in made)


async def test_one_players_simultaneous_seeks_from_many_chats_queue_one(
    backend: Backend,
) -> None:
    async with backend.open() as store:
        burst = [make_seek("alice", chat=f"c{n}", rules=TICTACTOE) for n in range(20)]
        results = await asyncio.gather(*(store.run(seeks.seek(s, open_game)) for s in burst))
        queued = [r for r in results if isinstance(r, Queued)]
        assert len(queued) == 1
        assert all(r == AlreadySeeking(queued[0].seek) for r in results if r not in queued)
        assert len(await store.run(seeks.waiting_seeks(NOW))) == 1


async def test_a_burst_of_seeks_pairs_everyone_once(backend: Backend) -> None:
    async with backend.open() as store:
        burst = [make_seek(f"p{n}", chat=f"c{n}", rules=TICTACTOE) for n in range(40)]
        results = await asyncio.gather(*(store.run(seeks.seek(s, open_game)) for s in burst))
        made = [r for r in results if isinstance(r, Paired)]
        made += await store.run(seeks.pair_waiting(NOW + 1, open_game))
        players = Counter(s.user_id for p in made for s in p.seeks)
        assert len(made) == 20 and set(players.values()) == {1}
        assert await store.run(seeks.waiting_seeks(NOW + 1)) == []


async def test_misfits_at_the_head_of_the_queue_never_block_younger_seeks(
    backend: Backend,
) -> None:
    async with backend.open() as store:
        # Twelve rated seeks, each 1000 points from the next: nobody's window reaches another.
        for n in range(12):
            misfit = make_seek(f"m{n}", rated=True, rating=1000.0 * n, at=NOW + n)
            await queue(backend, misfit)
        for name in ("ann", "bo"):
            await queue(backend, make_seek(name, rated=True, rating=1500.0, at=NOW + 20))
        made = await store.run(seeks.pair_waiting(NOW + 30, open_game, batch=5))
        assert [sorted(s.user_id for s in p.seeks) for p in made] == [["ann", "bo"]]
        assert len(await store.run(seeks.waiting_seeks(NOW + 30))) == 12

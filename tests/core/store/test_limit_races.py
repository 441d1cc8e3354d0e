"""The admins' limits under bursts of simultaneous requests, on both stores: each limit set to 1,
40 requests at once (``asyncio.gather``), and the limit holds exactly, also when the requests
are spread over several services, each with a store of its own (as several processes are).

Every limit on new games is kept by the store in the transaction that writes the game; the
rate limit stays per process (docs/admins.md), and a new user's first burst is one bucket
however many of their requests arrive together.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import multiprocessing.synchronize
from collections.abc import AsyncIterator

import pytest

from core.replies import Actor, Reply
from core.sessions import GameService
from core.store import Status
from tests.backends import AnyStore, Backend
from tests.core.test_sessions_admin import ADMIN, Clock, Counting, make, member, settings

BURST = 40
"""Simultaneous requests in each burst."""


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def stores(backend: Backend) -> AsyncIterator[list[AnyStore]]:
    """Three stores on one database: one connection (or pool) each, as three processes have."""
    async with contextlib.AsyncExitStack() as stack:
        yield [await stack.enter_async_context(backend.open()) for _ in range(3)]


def services(
    stores: list[AnyStore], clock: Clock, observer: Counting | None = None
) -> list[GameService]:
    return [make(store, clock, observer) for store in stores]


async def configure(svc: GameService, *lines: str) -> None:
    # The flood below must meet the limit under test, not the rate limit.
    for line in ("rate_burst 1000", "rate_per_minute 1000", *lines):
        await settings(svc, ADMIN, line)


async def burst(requests: list[tuple[GameService, Actor, str]]) -> list[list[Reply]]:
    return list(await asyncio.gather(*(svc.handle_text(a, text) for svc, a, text in requests)))


def keys(answers: list[list[Reply]]) -> list[str]:
    """Each answer's error key, or ``ok``."""
    found = []
    for replies in answers:
        errors = [r.text.key for r in replies if r.error and r.text is not None]
        found.append(errors[0] if errors else "ok")
    return found


def one_through(answers: list[list[Reply]], refusal: str) -> None:
    """Exactly one request went through; every other was refused by ``refusal``."""
    found = keys(answers)
    assert found.count("ok") == 1, found
    assert set(found) == {"ok", refusal}


async def live(store: AnyStore, backend: Backend) -> int:
    rows = await backend.sql(
        "SELECT count(*) FROM sessions WHERE status IN ('challenge', 'active')"
    )
    return int(rows[0][0])


def spread(
    svcs: list[GameService], actors: list[Actor], text: str
) -> list[tuple[GameService, Actor, str]]:
    return [(svcs[n % len(svcs)], actor, text) for n, actor in enumerate(actors)]


async def test_a_users_live_games_cap_holds_under_a_burst_in_40_chats(
    stores: list[AnyStore], backend: Backend, clock: Clock
) -> None:
    svcs = services(stores, clock)
    await configure(svcs[0], "max_games_per_user 1")
    for round_ in range(2):  # the burst, repeated
        chats = [member("alice", f"room{round_}-{n}") for n in range(BURST)]
        answers = keys(await burst(spread(svcs, chats, "/tres easy")))
        assert answers.count("ok") == (1 if round_ == 0 else 0), answers
        assert set(answers) <= {"ok", "limits.user_games"}
        assert await live(stores[0], backend) == 1


async def test_challenges_across_40_chats_keep_the_users_cap(
    stores: list[AnyStore], backend: Backend, clock: Clock
) -> None:
    svcs = services(stores, clock)
    await configure(svcs[0], "max_games_per_user 1")
    chats = [member("alice", f"room{n}") for n in range(BURST)]
    one_through(await burst(spread(svcs, chats, "/tres @bob")), "limits.user_games")
    assert await live(stores[0], backend) == 1


async def test_a_chats_live_games_cap_holds_under_a_burst_of_40_players(
    stores: list[AnyStore], backend: Backend, clock: Clock
) -> None:
    svcs = services(stores, clock)
    await configure(svcs[0], "max_games_per_chat 1")
    players = [member(f"player{n}") for n in range(BURST)]
    one_through(await burst(spread(svcs, players, "/tres easy")), "limits.chat_games")
    assert await live(stores[0], backend) == 1


async def test_a_one_hour_cooldown_lets_one_game_through_a_burst(
    stores: list[AnyStore], backend: Backend, clock: Clock
) -> None:
    svcs = services(stores, clock)
    await configure(svcs[0], "cooldown 3600")
    chats = [member("alice", f"room{n}") for n in range(BURST)]
    one_through(await burst(spread(svcs, chats, "/tres easy")), "limits.cooldown")
    clock.now += 3599
    others = [member("alice", f"other{n}") for n in range(BURST)]
    assert set(keys(await burst(spread(svcs, others, "/tres easy")))) == {"limits.cooldown"}
    clock.now += 1
    assert keys(await burst(spread(svcs, others, "/tres easy"))).count("ok") == 1
    assert await live(stores[0], backend) == 2


async def test_boards_per_minute_allow_no_extra_board_in_a_burst(
    stores: list[AnyStore], backend: Backend, clock: Clock
) -> None:
    observer = Counting()
    svcs = services(stores, clock, observer)
    await configure(svcs[0], "boards_per_minute 1")
    players = [member(f"player{n}") for n in range(BURST)]
    one_through(await burst(spread(svcs, players, "/tres easy")), "limits.boards")
    assert observer.limited == BURST - 1
    assert await live(stores[0], backend) == 1
    clock.now += 59  # still the same minute, for every process
    later = [member(f"late{n}") for n in range(BURST)]
    assert set(keys(await burst(spread(svcs, later, "/tres easy")))) == {"limits.boards"}
    clock.now += 1
    assert keys(await burst(spread(svcs, later, "/tres easy"))).count("ok") == 1


async def test_a_new_users_first_burst_is_one_bucket(backend: Backend) -> None:
    async with backend.open() as store:
        clock = Clock()
        svc = make(store, clock)
        await settings(svc, ADMIN, "rate_burst 3")
        for round_ in range(2):  # two never-seen users, one after the other
            newcomer = member(f"new{round_}")
            answers = await asyncio.gather(
                *(svc.handle_text(newcomer, "/help") for _ in range(BURST))
            )
            answered = [a for a in answers if a and not any(r.error for r in a)]
            notices = [a for a in answers if any(r.error for r in a)]
            assert len(answered) == 3
            assert len(notices) == 1
            assert sum(1 for a in answers if a == []) == BURST - 4


async def test_100_new_users_with_20_commands_each_get_their_bursts_only(backend: Backend) -> None:
    async with backend.open() as store:
        svc = make(store, Clock())
        users = [member(f"user{n}") for n in range(100)]
        answers = await asyncio.gather(
            *(svc.handle_text(user, "/help") for user in users for _ in range(20))
        )
        # The default burst of 10 each, and one "slow down" each.
        assert sum(1 for a in answers if a) == 100 * (10 + 1)


async def test_the_live_game_count_is_right_after_the_races(
    stores: list[AnyStore], backend: Backend, clock: Clock
) -> None:
    """A refusal writes nothing: no players rows, no sessions, only the winner's."""
    svcs = services(stores, clock)
    await configure(svcs[0], "max_games_per_user 1", "max_games_per_chat 1", "cooldown 60")
    players = [member("alice", f"room{n}") for n in range(BURST)]
    await burst(spread(svcs, players, "/tres easy"))
    assert await backend.sql("SELECT count(*) FROM players") == [(1,)]
    rows = await backend.sql("SELECT status FROM sessions")
    assert rows == [(Status.ACTIVE.value,)]


PROCESSES = 4


def _flood(kind: str, where: str, number: int, start: multiprocessing.synchronize.Barrier) -> None:
    """One process: a service of its own asks for ``BURST // PROCESSES`` games of Alice's at
    once, in rooms of its own, once every process is ready."""
    from core.store import SqliteStore
    from core.store.postgres import PostgresStore

    async def flood() -> None:
        opening = SqliteStore.open(where) if kind == "sqlite" else PostgresStore.open(where)
        async with opening as store:
            svc = make(store, Clock())
            rooms = [member("alice", f"p{number}-{n}") for n in range(BURST // PROCESSES)]
            start.wait(60)
            await asyncio.gather(*(svc.handle_text(room, "/tres easy") for room in rooms))

    asyncio.run(flood())


async def test_the_users_cap_holds_across_processes(backend: Backend) -> None:
    async with backend.open() as store:
        await configure(make(store, Clock()), "max_games_per_user 1", "boards_per_minute 1")
    context = multiprocessing.get_context("spawn")  # no thread or loop copied by fork
    start = context.Barrier(PROCESSES)
    floods = [
        context.Process(target=_flood, args=(backend.kind, backend.where, n, start))
        for n in range(PROCESSES)
    ]
    for flood in floods:
        flood.start()
    for flood in floods:
        flood.join(120)
        assert flood.exitcode == 0
    assert await backend.sql("SELECT count(*) FROM sessions") == [(1,)]
    assert await backend.sql("SELECT count(*) FROM players") == [(1,)]


async def test_accepting_40_challenges_at_once_keeps_the_users_cap(
    stores: list[AnyStore], backend: Backend, clock: Clock
) -> None:
    svcs = services(stores, clock)
    await configure(svcs[0], "max_games_per_user 1")
    rooms = [f"room{n}" for n in range(BURST)]
    challenges = [
        (svcs[0], member(f"challenger{n}", room), "/tres @bob") for n, room in enumerate(rooms)
    ]
    assert set(keys(await burst(challenges))) == {"ok"}
    one_through(
        await burst(spread(svcs, [member("bob", room) for room in rooms], "/accept")),
        "limits.user_games",
    )
    assert await backend.sql("SELECT count(*) FROM sessions WHERE status = 'active'") == [(1,)]

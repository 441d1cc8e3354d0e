"""The store's promises, on both stores (``[sqlite]`` and ``[postgres]``): open and close,
schema versions, compare-and-set, one live game per user per chat, stats, expiry, kv, and a
lock held by another connection."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import AsyncIterator
from dataclasses import replace

import pytest

from core.ai.levels import Level
from core.store import (
    SCHEMA_VERSION,
    AlreadyPlaying,
    SchemaTooNew,
    Seat,
    Status,
    StoreBusy,
    StoreFault,
    kv,
    leases,
    schema,
    sessions,
    stats,
)
from tests.backends import Backend
from tests.core.store.helpers import NOW, make_session, played


async def test_async_with_form_closes(backend: Backend) -> None:
    async with backend.open() as store:
        await store.run(kv.kv_set("ns", "k", "v"))
    with pytest.raises(RuntimeError, match="closed"):
        await store.run(kv.kv_get("ns", "k"))
    await store.close()  # idempotent
    async with backend.open() as again:
        assert await again.run(kv.kv_get("ns", "k")) == "v"


async def test_newer_database_is_refused(backend: Backend) -> None:
    async with backend.open():
        pass
    await backend.set_schema_version(SCHEMA_VERSION + 5)
    with pytest.raises(SchemaTooNew, match=r"schema version \d+.*upgrade the bot") as caught:
        await backend.open()
    assert "\n" not in str(caught.value)
    version = "PRAGMA user_version" if backend.kind == "sqlite" else "SELECT * FROM chatbots_schema"
    assert await backend.sql(version) == [(SCHEMA_VERSION + 5,)]  # untouched


async def test_reopen_is_idempotent(backend: Backend) -> None:
    async with backend.open() as store:
        session = make_session()
        await store.run(sessions.create(session))
    async with backend.open() as store:
        assert await store.run(sessions.get(session.id)) == session
        assert await store.run(schema.schema_version()) == SCHEMA_VERSION


async def test_compare_and_set(backend: Backend) -> None:
    async with backend.open() as store:
        session = make_session()
        await store.run(sessions.create(session))
        first = played(session, 4)
        assert await store.run(sessions.update(first, expected_version=1))
        assert not await store.run(
            sessions.update(played(session, 0), expected_version=1)
        )  # lost the race
        assert await store.run(sessions.get(session.id)) == first
        assert not await store.run(sessions.delete(session.id, expected_version=1))
        assert await store.run(sessions.delete(session.id, expected_version=2))
        assert await store.run(sessions.get(session.id)) is None
        assert not await store.run(sessions.update(played(first, 0), expected_version=2))  # gone


async def test_two_connections_compare_and_set(backend: Backend) -> None:
    async with backend.open() as one, backend.open() as two:
        session = make_session()
        await one.run(sessions.create(session))
        assert await two.run(sessions.get(session.id)) == session
        assert await two.run(sessions.update(played(session, 4), expected_version=1))
        assert not await one.run(sessions.update(played(session, 0), expected_version=1))
        stored = await one.run(sessions.get(session.id))
        assert stored is not None and stored.moves == (4,)


async def test_one_live_game_per_user_per_chat(backend: Backend) -> None:
    async with backend.open() as store:
        first = make_session()
        await store.run(sessions.create(first))
        with pytest.raises(AlreadyPlaying) as caught:
            await store.run(sessions.create(make_session(alice="carol", bob="bob")))
        assert caught.value.session_id == first.id and caught.value.user_id == "bob"
        await store.run(sessions.create(make_session(chat="c2")))  # another chat is fine
        await store.run(sessions.create(make_session(alice="carol", bob=None)))  # carol vs the bot
        live = await store.run(sessions.live_game("test", "c1", "bob"))
        assert live is not None and live.id == first.id
        # A pending challenge binds only the challenger.
        challenge = make_session(alice="dave", bob="bob", status=Status.CHALLENGE)
        await store.run(sessions.create(challenge))
        assert await store.run(sessions.challenge_for("test", "c1", "bob")) == challenge
        live_dave = await store.run(sessions.live_game("test", "c1", "dave"))
        assert live_dave is not None and live_dave.id == challenge.id
        # Accepting it would make bob live twice.
        accepted = replace(challenge, status=Status.ACTIVE, version=2)
        with pytest.raises(AlreadyPlaying):
            await store.run(sessions.update(accepted, expected_version=1))
        assert await store.run(sessions.get(challenge.id)) == challenge  # rolled back
        # Deleting a session frees its players (ON DELETE CASCADE).
        assert await store.run(sessions.delete(first.id))
        assert await store.run(sessions.live_game("test", "c1", "bob")) is None
        assert await store.run(sessions.update(accepted, expected_version=1))


async def test_finishing_records_stats_once(backend: Backend) -> None:
    async with backend.open() as store:
        session = make_session()
        await store.run(sessions.create(session))
        won = played(session, 0, 3, 1, 4, 2)  # alice (X) wins on the top row
        assert won.status is Status.FINISHED and won.winner == 1
        assert await store.run(sessions.update(won, expected_version=1))
        # Touching a finished game again (a later write) must not count it twice.
        assert await store.run(sessions.update(replace(won, version=3), expected_version=2))
        alice = await store.run(stats.player_stats("test", "alice"))
        bob = await store.run(stats.player_stats("test", "bob", "c1"))
        assert alice is not None and (alice.wins, alice.losses, alice.draws) == (1, 0, 0)
        assert bob is not None and (bob.wins, bob.losses, bob.draws) == (0, 1, 0)
        assert (
            await store.run(sessions.live_game("test", "c1", "alice")) is None
        )  # finished: not live
        finished = await store.run(sessions.last_finished("test", "c1", "bob"))
        assert finished is not None and finished.id == session.id
        # A draw in another chat: per-platform totals sum the chats.
        other = make_session(chat="c2")
        await store.run(sessions.create(other))
        assert await store.run(
            sessions.update(played(other, 0, 1, 2, 4, 3, 5, 7, 6, 8), expected_version=1)
        )
        alice = await store.run(stats.player_stats("test", "alice"))
        assert alice is not None and (alice.wins, alice.draws, alice.games) == (1, 1, 2)
        here = await store.run(stats.player_stats("test", "alice", "c2"))
        assert here is not None and (here.wins, here.draws) == (0, 1)
        assert await store.run(stats.player_stats("test", "nobody")) is None
        top = await store.run(stats.top("test", "c1"))
        assert [row.user_id for row in top] == ["alice", "bob"]
        assert await store.run(stats.top("test", "c1", limit=1)) == top[:1]


async def test_a_finished_game_of_two_bots_records_no_stats(backend: Backend) -> None:
    async with backend.open() as store:
        bots = replace(make_session(), seats=(Seat.bot(Level.EASY), Seat.bot(Level.HARD)))
        await store.run(sessions.create(bots))
        won = played(bots, 0, 3, 1, 4, 2)
        assert won.status is Status.FINISHED
        assert await store.run(sessions.update(won, expected_version=1))
        assert await store.run(stats.top("test", "c1")) == []


async def test_leaderboard_ties_sort_by_code_point(backend: Backend) -> None:
    async with backend.open() as store:
        names = ["bob", "Zoe", "alice", "Émile", "_x"]
        for number, name in enumerate(names):
            game = make_session(alice=f"u{number}", bob=None, chat="ties")
            game = replace(game, seats=(replace(game.seats[0], name=name), game.seats[1]))
            await store.run(sessions.create(game))
            assert await store.run(sessions.update(played(game, 0, 3, 1, 4, 2), expected_version=1))
        top = await store.run(stats.top("test", "ties"))
        assert [row.name for row in top] == sorted(names)  # SQLite's BINARY order, everywhere


async def test_last_finished_of_anyone_in_the_chat(backend: Backend) -> None:
    async with backend.open() as store:
        mine = played(make_session(), 0, 3, 1, 4, 2)
        theirs = replace(played(make_session(alice="carol", bob="dave"), 0, 3, 1, 4, 2))
        theirs = replace(theirs, updated_at=NOW + 5)
        await store.run(sessions.create(mine))
        await store.run(sessions.create(theirs))
        assert await store.run(sessions.last_finished("test", "c1", None)) == theirs
        assert await store.run(sessions.last_finished("test", "c1", "alice")) == mine
        assert await store.run(sessions.last_finished("test", "c1", "erin")) is None
        assert await store.run(sessions.last_finished("test", "c9", None)) is None


async def test_delete_expired(backend: Backend) -> None:
    async with backend.open() as store:
        old = make_session(expires_at=NOW - 1)
        fresh = make_session(alice="carol", bob="dave", expires_at=NOW + 1)
        await store.run(sessions.create(old))
        await store.run(sessions.create(fresh))
        assert await store.run(sessions.delete_expired(NOW)) == 1
        assert await store.run(sessions.get(old.id)) is None
        assert await store.run(sessions.get(fresh.id)) == fresh
        assert await store.run(sessions.live_game("test", "c1", "alice")) is None
        assert await store.run(stats.count_sessions()) == 1


async def test_kv(backend: Backend) -> None:
    async with backend.open() as store:
        assert await store.run(kv.kv_get("matrix", "next_batch")) is None
        await store.run(kv.kv_set("matrix", "next_batch", "s1"))
        await store.run(kv.kv_set("matrix", "next_batch", "s2"))
        await store.run(kv.kv_set("discord", "next_batch", "other"))
        assert await store.run(kv.kv_get("matrix", "next_batch")) == "s2"
        await store.run(kv.kv_delete("matrix", "next_batch"))
        await store.run(kv.kv_delete("matrix", "absent"))
        assert await store.run(kv.kv_get("matrix", "next_batch")) is None
        assert await store.run(kv.kv_get("discord", "next_batch")) == "other"
        # Values are parameters, never SQL.
        nasty = "'); DROP TABLE kv; --"
        await store.run(kv.kv_set(nasty, nasty, nasty))
        assert await store.run(kv.kv_get(nasty, nasty)) == nasty


async def test_a_lock_held_elsewhere_is_a_temporary_error(backend: Backend) -> None:
    """Another connection holds the write lock (SQLite: the database's; PostgreSQL: the
    session's row and kv's table) past the timeout: StoreBusy, nothing half-written, and the
    store works again once it is released."""
    async with backend.open(busy_timeout_ms=50) as store:
        session = make_session()
        await store.run(sessions.create(session))
        async with _blocker(backend, session.id):
            with pytest.raises(StoreBusy):
                await store.run(sessions.update(played(session, 4), expected_version=1))
            with pytest.raises(StoreBusy) as caught:
                await store.run(kv.kv_set("ns", "k", "v"))
            # One line naming the database, as an operator's command prints it.
            where = backend.where if backend.kind == "sqlite" else store.url
            assert str(caught.value).startswith(f"the database {where!r} is busy: ")
            assert "\n" not in str(caught.value)
            assert await store.run(sessions.get(session.id)) == session  # readers are not blocked
        assert await store.run(sessions.update(played(session, 4), expected_version=1))
        stored = await store.run(sessions.get(session.id))
        assert stored is not None and stored.moves == (4,)
        assert await store.run(kv.kv_get("ns", "k")) is None


def _blocker(backend: Backend, session_id: str) -> contextlib.AbstractAsyncContextManager[None]:
    @contextlib.asynccontextmanager
    async def hold() -> AsyncIterator[None]:
        if backend.kind == "sqlite":
            db = sqlite3.connect(backend.where, isolation_level=None)
            try:
                db.execute("BEGIN IMMEDIATE")
                yield
            finally:
                db.execute("ROLLBACK")
                db.close()
            return
        import asyncpg

        conn = await asyncpg.connect(backend.where)
        try:
            async with conn.transaction():
                await conn.execute("SELECT 1 FROM sessions WHERE id = $1 FOR UPDATE", session_id)
                await conn.execute("LOCK TABLE kv IN EXCLUSIVE MODE")
                yield
                raise _Release
        except _Release:
            pass
        finally:
            await conn.close()

    return hold()


class _Release(Exception):
    """Ends the blocker's transaction by rolling it back."""


async def test_a_statement_the_database_refuses_is_a_store_fault_naming_it(
    backend: Backend,
) -> None:
    """A table gone from under the store (a database changed by hand): the driver's error
    becomes the store's own, one line naming the database and the cause, the driver's error
    kept as its cause; the store goes on serving what it still has."""
    async with backend.open() as store:
        await backend.sql("DROP TABLE kv")
        with pytest.raises(StoreFault) as caught:
            await store.run(kv.kv_set("ns", "k", "v"))
        where = backend.where if backend.kind == "sqlite" else store.url
        message = str(caught.value)
        assert message.startswith(f"the database {where!r} failed: ") and "kv" in message
        assert "\n" not in message
        driver = "sqlite3" if backend.kind == "sqlite" else "asyncpg"
        assert type(caught.value.__cause__).__module__.startswith(driver)
        assert await store.run(stats.count_sessions()) == 0


async def test_every_operation_is_timed_under_its_own_name_failures_included(
    backend: Backend,
) -> None:
    timed: list[str] = []
    async with backend.open() as store:
        store.time_operations(lambda name, seconds: timed.append(name))
        session = make_session()
        await store.run(sessions.create(session))
        await store.run(sessions.get(session.id))
        await store.run(sessions.update(played(session, 0), expected_version=session.version))
        await store.run(kv.kv_set("ns", "k", "v"))
        await store.run(kv.kv_get("ns", "k"))
        await store.run(leases.acquire_lease("sweeper", "me", 10.0))
        with pytest.raises(AlreadyPlaying):
            await store.run(sessions.create(make_session(bob="carol")))
        await store.check()
        store.time_operations(None)
        await store.run(stats.count_sessions())
    expected = ["create", "get", "update", "kv_set", "kv_get", "acquire_lease", "create", "check"]
    assert timed == expected


OPERATIONS = [
    "sessions",
    "departures",
    "stats",
    "settings",
    "kv",
    "leases",
    "seeks",
    "outbox",
    "boards",
    "ratings",
    "links",
    "schema",
    "archive",
]
"""The store's feature modules: each public ``Op`` function of them is an operation."""

TODAY = set(
    [
        "create",
        "get",
        "live_game",
        "challenge_for",
        "last_finished",
        "live_in_chats",
        "update",
        "delete",
        "swap",
        "delete_expired",
        "due_clocks",
        "due_reminders",
        "take_reminder",
        "count_sessions",
        "live_counts",
        "totals",
        "seek",
        "pair_waiting",
        "expire_seeks",
        "any_seeks",
        "cancel_seek",
        "seek_of",
        "waiting_seeks",
        "open_games_of",
        "block",
        "blocked",
        "outbox_put",
        "outbox_due",
        "outbox_take",
        "outbox_done",
        "settings_rows",
        "setting_put",
        "setting_delete",
        "player_stats",
        "top",
        "ladder",
        "player_ratings",
        "rating_of",
        "rating_rank",
        "rating_changes",
        "rating_change_of",
        "rating_log",
        "stored_ratings",
        "rating_totals",
        "link_code",
        "link",
        "unlink",
        "kv_get",
        "kv_set",
        "kv_delete",
        "kv_of_session",
        "acquire_lease",
        "release_lease",
        "lease_holder",
        "check",
    ]
)
"""Every ``operation`` label of ``chatbots_store_operation_seconds`` before operations were
declared once (dashboards read them)."""


def test_every_operation_is_a_generator_function_named_as_its_timing_label() -> None:
    import importlib
    import inspect

    found: dict[str, str] = {}
    for feature in OPERATIONS:
        module = importlib.import_module(f"core.store.{feature}")
        for name, function in vars(module).items():
            if (
                inspect.isfunction(function)
                and function.__module__ == module.__name__
                and not name.startswith("_")
                and str(function.__annotations__.get("return", "")).startswith("Op[")
            ):
                # A plain function returning another's generator would be timed by that name.
                assert inspect.isgeneratorfunction(function), f"{feature}.{name}"
                assert name not in found, f"{name}: {found[name]} and {feature}"
                found[name] = feature
    assert set(found) >= TODAY, TODAY - set(found)


async def test_a_game_is_found_by_its_public_id_and_a_rematch_has_its_own(backend: Backend) -> None:
    async with backend.open() as store:
        game = make_session()
        rematch = make_session(chat="c2")
        assert game.public_id != rematch.public_id and len(game.public_id) == 32
        await store.run(sessions.create(game))
        await store.run(sessions.create(rematch))
        assert await store.run(sessions.by_public_id(game.public_id)) == game
        assert await store.run(sessions.by_public_id(rematch.public_id)) == rematch
        # The short id that buttons carry is not an address, nor is a prefix of the public one.
        assert await store.run(sessions.by_public_id(game.id)) is None
        assert await store.run(sessions.by_public_id(game.public_id[:-1])) is None
        moved = played(game, 4)
        assert await store.run(sessions.update(moved, expected_version=game.version))
        assert await store.run(sessions.by_public_id(game.public_id)) == moved

"""Exactly once, across crashes and restarts: receipts written with the change, the previous
version's per-room lists, and encrypted events that wait for their room key in the store.

The real service and SQLite files throughout; the homeserver is the scripted fake, which also
decides when an encrypted event becomes readable (a real homeserver's order of messages and
room keys cannot be arranged from outside).
"""

from __future__ import annotations

import asyncio
import inspect
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from adapters.matrix.state import HANDLED_KEPT_S
from adapters.matrix.undecrypted import KEPT_S
from core.sessions import GameService
from core.store import KvEntry, SqliteStore, kv, sessions
from core.store.models import BoardLocation
from core.store.sql import Op, name_of
from core.store.sqlite_thread import SqliteThread
from tests.adapters.matrix.fakes import BOT, FakeTransport, encrypted, text
from tests.adapters.matrix.harness import (
    ALICE,
    ROOM,
    edit_of,
    is_board,
    notice_to,
    running,
    serving,
    state,
)

NAMESPACE = f"matrix:{BOT}"

T = TypeVar("T")


class Crash(BaseException):
    """The process dying: not an ``Exception``, so no handler on the way up catches it."""


class CrashAfterCommit(SqliteStore):
    """The real store, dying right after it committed the next update once armed."""

    armed = False

    def __init__(
        self, db: SqliteThread, path: Path, *, clock: Callable[[], float] = time.time
    ) -> None:
        super().__init__(db, path, clock=clock)
        self.crashed = asyncio.Event()

    async def run(self, op: Op[T]) -> T:
        applied = await super().run(op)
        if self.armed and name_of(op) == "update":
            self.armed = False
            self.crashed.set()
            raise Crash
        return applied


async def test_a_crash_right_after_the_move_is_stored_never_plays_it_again(
    tmp_path: Path,
) -> None:
    path = tmp_path / "chatbots.sqlite3"
    store = await CrashAfterCommit.open(path)
    assert isinstance(store, CrashAfterCommit)
    async with serving(path, store=store) as service:
        await state(service).set_next_batch("s0")
        fake = FakeTransport()
        started = fake.deliver((ROOM, text("$start", ALICE, "!tres easy")))
        async with running(service, fake):
            [board] = await fake.wait_sent(is_board)
            store.armed = True
            fake.deliver((ROOM, text("$m1", ALICE, "5")))
            await asyncio.wait_for(store.crashed.wait(), 5)
        # The move is stored; its sync token is not (its handling never finished).
        assert await state(service).next_batch() == started
        game = await service.store.run(sessions.live_game("matrix", ROOM, ALICE))
        assert game is not None and game.moves == (4,)

    # A new process on the same file; the homeserver sends the move again.
    async with serving(path) as service:
        again = FakeTransport()
        again.deliver((ROOM, text("$m1", ALICE, "5")), (ROOM, text("$help", ALICE, "!help")))
        async with running(service, again):
            await again.wait_sent(notice_to("$help"))
        assert not [s for s in again.sent if edit_of(board.event_id)(s) or notice_to("$m1")(s)]
        game = await service.store.run(sessions.live_game("matrix", ROOM, ALICE))
        assert game is not None and game.moves == (4,)  # played once; the bot's answer was lost
        assert await service.store.run(kv.kv_get(NAMESPACE, "handled:$m1")) == "1"


async def test_an_event_that_changes_nothing_gets_its_receipt_at_the_end(
    service: GameService,
) -> None:
    await state(service).set_next_batch("s0")
    fake = FakeTransport()
    fake.deliver((ROOM, text("$1", ALICE, "!help")))
    async with running(service, fake):
        await fake.wait_sent(notice_to("$1"))
    assert await service.store.run(kv.kv_get(NAMESPACE, "handled:$1")) == "1"


async def test_the_previous_versions_list_counts_in_the_first_sync_and_is_then_dropped(
    service: GameService,
) -> None:
    await state(service).set_next_batch("s0")
    await service.store.run(kv.kv_set(NAMESPACE, f"handled:{ROOM}", json.dumps(["$1"])))
    fake = FakeTransport()
    token = fake.deliver((ROOM, text("$1", ALICE, "!help")), (ROOM, text("$2", ALICE, "!help")))
    async with running(service, fake):
        await fake.wait_sent(notice_to("$2"))
        # The old list goes right after that sync's token is saved, which follows the notice.
        for _ in range(500):
            if await service.store.run(kv.kv_get(NAMESPACE, f"handled:{ROOM}")) is None:
                break
            await asyncio.sleep(0.01)
    assert await state(service).next_batch() == token
    assert not [s for s in fake.sent if notice_to("$1")(s)]
    assert await service.store.run(kv.kv_get(NAMESPACE, f"handled:{ROOM}")) is None


async def test_an_event_waiting_for_its_room_key_survives_a_restart(
    service: GameService,
) -> None:
    await state(service).set_next_batch("s0")
    fake = FakeTransport()
    token = fake.deliver(
        (ROOM, text("$2", ALICE, "!help")), undecrypted=((ROOM, encrypted("$enc", ALICE)),)
    )
    async with running(service, fake):
        await fake.wait_sent(notice_to("$2"))
    assert await state(service).next_batch() == token  # the token moved past it
    [waiting] = await state(service).undecrypted()
    assert waiting["room_id"] == ROOM and waiting["event"]["event_id"] == "$enc"

    # After the restart its key has arrived: it is handled, once, and waits no more.
    again = FakeTransport()
    again.keys["$enc"] = text("$enc", ALICE, "!help")
    again.deliver()
    async with running(service, again):
        await again.wait_sent(notice_to("$enc"))
        again.deliver()
        await again.wait_until(lambda: len(again.syncs) >= 3)
    assert again.decrypt_attempts == ["$enc"]
    assert await state(service).undecrypted() == []
    assert len([s for s in again.sent if notice_to("$enc")(s)]) == 1


async def test_an_event_whose_key_never_comes_is_given_up(service: GameService) -> None:
    now = [1000.0]
    await state(service).set_next_batch("s0")
    fake = FakeTransport()
    fake.deliver(undecrypted=((ROOM, encrypted("$enc", ALICE)),))
    async with running(service, fake, clock=lambda: now[0]):
        await fake.wait_until(lambda: len(fake.syncs) >= 2)
        assert len(await state(service).undecrypted()) == 1
        now[0] += KEPT_S
        fake.deliver()
        await fake.wait_until(lambda: len(fake.syncs) >= 3)
        assert await state(service).undecrypted() == []
        fake.deliver()
        await fake.wait_until(lambda: len(fake.syncs) >= 4)
    assert fake.decrypt_attempts == ["$enc"]  # tried after the next sync, then never again
    assert fake.sent == []


class RecordingStore(SqliteStore):
    """The real store, noting every key-value row written outside a change."""

    def __init__(
        self, db: SqliteThread, path: Path, *, clock: Callable[[], float] = time.time
    ) -> None:
        super().__init__(db, path, clock=clock)
        self.rows: list[KvEntry] = []
        self.boards: list[BoardLocation] = []

    async def run(self, op: Op[T]) -> T:
        if name_of(op) == "put_board":
            called = inspect.getgeneratorlocals(op)
            self.boards.append(called["location"])
            if called["kept"] is not None:
                self.rows.append(called["kept"])
        if name_of(op) == "kv_set":
            called = inspect.getgeneratorlocals(op)  # its arguments: it has not started
            self.rows.append(
                KvEntry(
                    called["namespace"],
                    called["key"],
                    called["value"],
                    called["session_id"],
                    called["expires_at"],
                )
            )
        return await super().run(op)


async def test_board_rows_go_with_their_game_and_receipts_expire(tmp_path: Path) -> None:
    # Whether the store honours the ties is the store's own test; here: the adapter asks.
    path = tmp_path / "chatbots.sqlite3"
    store = await RecordingStore.open(path)
    assert isinstance(store, RecordingStore)
    async with serving(path, store=store) as service:
        await state(service).set_next_batch("s0")
        fake = FakeTransport()
        fake.deliver(
            (ROOM, text("$start", ALICE, "!tres easy")), (ROOM, text("$h", ALICE, "!help"))
        )
        async with running(service, fake, clock=lambda: 1000.0):
            [board] = await fake.wait_sent(is_board)
            await fake.wait_sent(notice_to("$h"))
        game = await service.store.run(sessions.live_game("matrix", ROOM, ALICE))
        assert game is not None
    rows = {row.key: row for row in store.rows}
    [location] = store.boards
    assert (location.session_id, location.chat_id, location.message_id) == (
        game.id,
        ROOM,
        board.event_id,
    )
    assert rows[f"posted:{game.id} {ROOM}"].session_id is None
    assert rows["handled:$h"].expires_at == 1000.0 + HANDLED_KEPT_S
    assert rows["next_batch"].session_id is None and rows["next_batch"].expires_at is None

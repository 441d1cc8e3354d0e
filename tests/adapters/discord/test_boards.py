"""Board messages: remembered with their game, found again, edited in order."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar, cast

from adapters.discord.boards import KV_NAMESPACE, PICTURE, BoardMessages, old_board_key
from adapters.discord.layout import MessageSpec, PictureSpec
from core.store import kv, sessions
from core.store.models import BoardLocation, KvEntry
from core.store.sql import Op, name_of
from tests.backends import Backend
from tests.core.store.helpers import make_session

T = TypeVar("T")


class GameStore:
    """The board locations and key-value rows of a store that, like the real one, forgets a
    game's rows with it."""

    def __init__(self) -> None:
        self.rows: dict[tuple[str, str], tuple[str, str | None]] = {}
        self.boards: dict[tuple[str, str], BoardLocation] = {}  # (session, channel)

    async def run(self, op: Op[T]) -> T:
        """A kv operation answered from memory, by its name and arguments (never started)."""
        called = inspect.getgeneratorlocals(op)
        op.close()
        answer: Any = await getattr(self, name_of(op))(**called)
        return cast(T, answer)

    def time_operations(self, timer: Callable[[str, float], None] | None) -> None:
        pass

    async def check(self) -> None:
        pass

    async def close(self) -> None:
        pass

    async def kv_get(self, namespace: str, key: str) -> str | None:
        row = self.rows.get((namespace, key))
        return None if row is None else row[0]

    async def kv_set(
        self,
        namespace: str,
        key: str,
        value: str,
        *,
        session_id: str | None = None,
        expires_at: float | None = None,
    ) -> None:
        self.rows[(namespace, key)] = (value, session_id)

    async def kv_delete(self, namespace: str, key: str) -> None:
        self.rows.pop((namespace, key), None)

    async def put_board(
        self, location: BoardLocation, placed: float, kept: KvEntry | None = None
    ) -> bool:
        assert location.platform == KV_NAMESPACE and kept is None
        self.boards[(location.session_id, location.chat_id)] = location
        return True

    async def board_at(self, platform: str, session_id: str, chat_id: str) -> BoardLocation | None:
        return self.boards.get((session_id, chat_id))

    async def boards_of(self, platform: str, session_id: str) -> list[BoardLocation]:
        return [board for (session, _), board in self.boards.items() if session == session_id]

    def game_deleted(self, session_id: str) -> None:
        self.rows = {k: row for k, row in self.rows.items() if row[1] != session_id}
        self.boards = {k: board for k, board in self.boards.items() if k[0] != session_id}


class Channel:
    """Messages as Discord keeps them; edits recorded in order."""

    def __init__(self) -> None:
        self.edits: list[tuple[int, int, str]] = []
        self.gone: set[int] = set()

    async def edit(self, channel_id: int, message_id: int, spec: MessageSpec) -> bool:
        if message_id in self.gone:
            return False
        self.edits.append((channel_id, message_id, spec.content))
        return True


async def test_a_board_row_belongs_to_its_game() -> None:
    store = GameStore()
    boards = BoardMessages(store, Channel().edit)
    await boards.remember("g1", 10, 20, version=1)
    assert store.boards[("g1", "10")] == BoardLocation(KV_NAMESPACE, "g1", "10", "20", 1)


async def test_a_restart_finds_the_board_in_the_store() -> None:
    store = GameStore()
    await BoardMessages(store, Channel().edit).remember("g1", 10, 20)
    channel = Channel()
    after_restart = BoardMessages(store, channel.edit)
    assert await after_restart.edit("g1", MessageSpec("moved"), version=2)
    assert channel.edits == [(10, 20, "moved")]
    assert not await after_restart.edit("other", MessageSpec("?"))


async def test_the_reply_that_deletes_a_game_still_edits_its_board() -> None:
    store, channel = GameStore(), Channel()
    boards = BoardMessages(store, channel.edit)
    await boards.remember("g1", 10, 20, version=0)
    store.game_deleted("g1")  # /final before any move: the game and its rows are gone
    assert await boards.edit("g1", MessageSpec("ended"), version=1)
    assert channel.edits == [(10, 20, "ended")]


async def test_an_older_board_never_replaces_a_newer_one() -> None:
    channel = Channel()
    boards = BoardMessages(GameStore(), channel.edit)
    await boards.remember("g1", 10, 20, version=3)
    assert await boards.edit("g1", MessageSpec("stopped"), version=5)
    assert await boards.edit("g1", MessageSpec("late move"), version=4)  # dropped, not an error
    assert await boards.edit("g1", MessageSpec("text"))  # no version: always shown
    assert [content for _, _, content in channel.edits] == ["stopped", "text"]


async def test_an_edit_can_wait_for_the_board_to_be_posted() -> None:
    channel = Channel()
    boards = BoardMessages(GameStore(), channel.edit)
    edit = asyncio.create_task(boards.edit("g1", MessageSpec("move 1"), version=2, wait=5.0))
    await asyncio.sleep(0.01)
    assert not edit.done()
    await boards.remember("g1", 10, 20, version=1)
    assert await asyncio.wait_for(edit, 1.0)
    assert channel.edits == [(10, 20, "move 1")]
    assert not await boards.edit("g2", MessageSpec("?"), wait=0.01)  # never posted


class LateStore(GameStore):
    """Its first read misses, and the board is remembered before the miss is returned (a
    board posted while an edit reads the store)."""

    def __init__(self) -> None:
        super().__init__()
        self.meanwhile: list[Callable[[], Awaitable[None]]] = []

    async def kv_get(self, namespace: str, key: str) -> str | None:
        found = await super().kv_get(namespace, key)
        while self.meanwhile:
            await self.meanwhile.pop()()
        return found


async def test_a_board_remembered_while_an_edit_reads_the_store_wakes_it() -> None:
    store, channel = LateStore(), Channel()
    boards = BoardMessages(store, channel.edit)
    store.meanwhile.append(lambda: boards.remember("g1", 10, 20, version=1))
    # Not woken, the edit would wait the whole minute.
    edit = boards.edit("g1", MessageSpec("move 1"), version=2, wait=60.0, channel_id=10)
    assert await asyncio.wait_for(edit, 10.0)
    assert channel.edits == [(10, 20, "move 1")]


async def test_a_deleted_message_is_not_edited() -> None:
    channel = Channel()
    boards = BoardMessages(GameStore(), channel.edit)
    await boards.remember("g1", 10, 20)
    channel.gone.add(20)
    assert not await boards.edit("g1", MessageSpec("moved"))


class CountingStore(GameStore):
    """Counts the rows written."""

    def __init__(self) -> None:
        super().__init__()
        self.writes = 0

    async def put_board(
        self, location: BoardLocation, placed: float, kept: KvEntry | None = None
    ) -> bool:
        self.writes += 1
        return await super().put_board(location, placed, kept)


async def test_pressing_the_same_board_again_writes_no_row() -> None:
    store = CountingStore()
    boards = BoardMessages(store, Channel().edit)
    for version in range(1, 6):
        await boards.remember("g1", 10, 20, version=version)
    assert store.writes == 1
    # Another message becomes the board (a board posted again): that row is written.
    await boards.remember("g1", 10, 21, version=6)
    assert store.writes == 2
    assert store.boards[("g1", "10")].message_id == "21"
    assert await boards.where("g1") == (10, 21)
    assert await BoardMessages(store, Channel().edit).where("g1") == (10, 21)


async def test_an_open_game_has_a_board_in_each_channel_and_each_edit_finds_its_own() -> None:
    store = GameStore()
    channel = Channel()
    boards = BoardMessages(store, channel.edit)
    await boards.remember("g1", 10, 20, version=1)
    await boards.remember("g1", 11, 21, version=1)
    assert store.boards[("g1", "10")].message_id == "20"
    assert store.boards[("g1", "11")].message_id == "21"
    assert await boards.edit("g1", MessageSpec("a"), version=2, channel_id=11)
    assert await boards.edit("g1", MessageSpec("b"), version=2, channel_id=10)
    assert channel.edits == [(11, 21, "a"), (10, 20, "b")]
    # Another process finds both; a press it remembers keeps the other channel's board.
    other = BoardMessages(store, channel.edit)
    await other.remember("g1", 11, 21, version=3)
    assert await other.where("g1", channel_id=10) == (10, 20)
    assert await other.where("g1", channel_id=12) is None
    # A game of one channel is found without naming it, as always.
    await boards.remember("g2", 10, 30)
    assert await BoardMessages(store, channel.edit).where("g2") == (10, 30)


async def test_rows_stored_before_the_upgrade_are_still_found() -> None:
    # The old format: one row of the game, a channel:message pair per channel.
    store, channel = GameStore(), Channel()
    await store.run(kv.kv_set(KV_NAMESPACE, old_board_key("g1"), "10:20,11:21", session_id="g1"))
    await store.run(kv.kv_set(KV_NAMESPACE, old_board_key("g2"), "10:30", session_id="g2"))
    after_restart = BoardMessages(store, channel.edit)
    assert await after_restart.where("g1", channel_id=11) == (11, 21)
    assert await after_restart.where("g1", channel_id=10) == (10, 20)
    assert await after_restart.where("g1", channel_id=12) is None
    assert await after_restart.where("g2") == (10, 30)
    assert await after_restart.edit("g2", MessageSpec("moved"), version=2, channel_id=10)
    assert channel.edits == [(10, 30, "moved")]
    # A board posted again after the upgrade wins over the old row's message for its channel.
    await after_restart.remember("g2", 10, 31)
    assert await BoardMessages(store, channel.edit).where("g2") == (10, 31)
    assert await BoardMessages(store, channel.edit).where("g2", channel_id=10) == (10, 31)


async def test_processes_remembering_boards_at_once_lose_none(backend: Backend) -> None:
    # Two processes (two stores on one database, two BoardMessages) save many channels' boards
    # of one game at the same instant: each channel is its own row, so none is lost. One row
    # of the game read, changed and written back lost most of them here.
    channels = range(1, 41)
    async with backend.open() as first, backend.open() as second:
        game = make_session()
        await first.run(sessions.create(game))
        processes = [BoardMessages(first, Channel().edit), BoardMessages(second, Channel().edit)]
        await asyncio.gather(
            *(
                processes[channel % 2].remember(game.id, channel, 1000 + channel, version=1)
                for channel in channels
            )
        )
        after_restart = BoardMessages(first, Channel().edit)
        found = [await after_restart.where(game.id, channel_id=c) for c in channels]
        assert found == [(c, 1000 + c) for c in channels]
        # Still the game's rows: they go with it.
        await first.run(sessions.delete(game.id))
        assert await BoardMessages(second, Channel().edit).where(game.id) is None


async def test_a_picture_board_is_drawn_as_one_again() -> None:
    # Discord never lets a message lose the V2 flag: a board that is a picture refuses a plain
    # drawing, and is drawn as a picture again, at once from then on.
    pictures = {20}
    channel = Channel()

    async def edit(channel_id: int, message_id: int, spec: MessageSpec) -> bool:
        if message_id in pictures and spec.picture is None:
            return False
        return await channel.edit(channel_id, message_id, spec)

    asked: list[bool] = []

    def draw(keep_picture: bool) -> MessageSpec:
        asked.append(keep_picture)
        picture = PictureSpec(b"png", "b.png") if keep_picture else None
        return MessageSpec(f"board {len(asked)}", picture=picture)

    store = GameStore()
    boards = BoardMessages(store, edit)
    await boards.remember("g1", 10, 20, version=1)
    assert await boards.edit("g1", draw, version=2)
    assert await boards.edit("g1", draw, version=3)
    assert asked == [False, True, True]
    # The row says so: after a restart it is drawn as a picture at once.
    assert store.boards[("g1", "10")].detail == PICTURE
    assert await BoardMessages(store, edit).edit("g1", draw, version=4)
    assert asked == [False, True, True, True]
    await boards.remember("g2", 10, 21, version=1)
    assert await boards.edit("g2", draw, version=2)  # a plain board stays plain
    assert asked[-1] is False and channel.edits[-1] == (10, 21, "board 5")

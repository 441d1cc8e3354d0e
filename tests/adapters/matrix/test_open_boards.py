"""An open game between two Matrix rooms has a board in each: each room's board is found,
replaced and forgotten on its own, and a game of one room keeps its one row as before."""

from __future__ import annotations

from pathlib import Path

from adapters.matrix.state import BoardRef, MatrixState
from core.games import CONNECT_FOUR
from core.store import Seat, SqliteStore, Status, sessions
from core.store.models import Session
from tests.adapters.matrix.fakes import BOT


def open_game() -> Session:
    return Session(
        id="g1",
        platform="matrix",
        chat_id="!a:x",
        seats=(
            Seat.person("@ann:x", "ann"),
            Seat("bo", "@bo:y", platform="matrix", chat_id="!b:y"),
        ),
        rules=CONNECT_FOUR,
        moves=(),
        status=Status.ACTIVE,
        version=1,
        created_at=0.0,
        updated_at=0.0,
        expires_at=9e9,
    )


async def test_each_room_of_an_open_game_keeps_its_own_board(tmp_path: Path) -> None:
    async with SqliteStore.open(tmp_path / "db.sqlite3") as store:
        await store.run(sessions.create(open_game()))
        state = MatrixState(store, BOT)
        a, b = BoardRef("g1", "!a:x", "$ea"), BoardRef("g1", "!b:y", "$eb")
        await state.set_board(a, 0.0)
        await state.set_board(b, 1.0)
        assert await state.board("g1", "!a:x") == a
        assert await state.board("g1", "!b:y") == b
        assert await state.board("g1") == a  # a game of one room: its one board
        assert await state.board_at("$eb", "!b:y") == b
        assert await state.board_at("$ea", "!a:x") == a
        # A board posted again in one room replaces that room's alone.
        b2 = BoardRef("g1", "!b:y", "$eb2")
        await state.set_board(b2, 0.0)
        assert await state.board("g1", "!b:y") == b2 and await state.board_at("$eb", "!b:y") is None
        assert await state.board("g1", "!a:x") == a
        # Forgotten one by one; the other room's stays.
        await state.forget_board(a)
        assert await state.board("g1", "!a:x") is None
        assert await state.board("g1", "!b:y") == b2
        await state.forget_board(b2)
        assert await state.board("g1", "!b:y") is None


async def test_a_board_is_found_shortly_after_its_game_was_deleted(tmp_path: Path) -> None:
    # A game ended before its first move is deleted with its board location: the copy kept
    # with it still says where its board is, so that it is edited to say so.
    async with SqliteStore.open(tmp_path / "db.sqlite3") as store:
        await store.run(sessions.create(open_game()))
        state = MatrixState(store, BOT)
        b = BoardRef("g1", "!b:y", "$eb")
        await state.set_board(b, 0.0)
        assert await store.run(sessions.delete("g1"))
        assert await state.board("g1", "!b:y") == b
        assert await state.board("g1", "!a:x") is None
        assert await state.board_at("$eb") is None  # a reaction's target: the game is gone

"""Board locations on both stores: stored, looked up by chat and by message, replaced,
forgotten, deleted with their game; a board of a game that is gone is not stored; two stores
saving the two boards of one open game at once lose neither; and the schema step that copies
the adapters' kv rows over."""

from __future__ import annotations

import asyncio
import json

from core.store import boards, kv, schema, sessions
from core.store.migrations import BOARDS, STEPS
from core.store.models import BoardLocation
from tests.backends import Backend
from tests.core.store.helpers import NOW, before_step, make_session


async def test_a_board_is_stored_found_replaced_and_forgotten(backend: Backend) -> None:
    async with backend.open() as store:
        game = make_session()
        await store.run(sessions.create(game))
        first = BoardLocation("mx", game.id, "!a", "$one", version=1, detail="picture")
        second = BoardLocation("mx", game.id, "!b", "$two")
        assert await store.run(boards.put_board(first, NOW))
        assert await store.run(boards.put_board(second, NOW + 1))
        assert await store.run(boards.board_at("mx", game.id, "!a")) == first
        assert await store.run(boards.board_at("other", game.id, "!a")) is None
        assert await store.run(boards.board_by_message("mx", "$two")) == second
        assert await store.run(boards.board_by_message("other", "$two")) is None
        assert await store.run(boards.boards_of("mx", game.id)) == [first, second]
        # A new message in the first chat replaces its board and keeps it first.
        moved = BoardLocation("mx", game.id, "!a", "$three", version=4)
        assert await store.run(boards.put_board(moved, NOW + 2))
        assert await store.run(boards.boards_of("mx", game.id)) == [moved, second]
        assert await store.run(boards.board_by_message("mx", "$one")) is None
        assert await store.run(boards.forget_board("mx", game.id, "!b"))
        assert not await store.run(boards.forget_board("mx", game.id, "!b"))
        assert await store.run(boards.boards_of("mx", game.id)) == [moved]


async def test_boards_go_with_their_game_and_a_gone_game_gets_none(backend: Backend) -> None:
    async with backend.open() as store:
        game = make_session()
        await store.run(sessions.create(game))
        board = BoardLocation("discord", game.id, "10", "20")
        assert await store.run(boards.put_board(board, NOW))
        assert await store.run(sessions.delete(game.id))
        assert await store.run(boards.boards_of("discord", game.id)) == []
        assert not await store.run(boards.put_board(board, NOW))
        assert await store.run(boards.board_by_message("discord", "20")) is None


async def test_two_stores_saving_the_two_boards_of_an_open_game_lose_neither(
    backend: Backend,
) -> None:
    async with backend.open() as one, backend.open() as two:
        games = [make_session(alice=f"a{n}", bob=f"b{n}") for n in range(10)]
        for game in games:
            await one.run(sessions.create(game))
        await asyncio.gather(
            *(
                store.run(boards.put_board(BoardLocation("discord", game.id, chat, chat), NOW))
                for game in games
                for store, chat in ((one, "1"), (two, "2"))
            )
        )
        for game in games:
            found = await two.run(boards.boards_of("discord", game.id))
            assert sorted(board.chat_id for board in found) == ["1", "2"]


async def test_the_step_copies_the_adapters_board_rows(backend: Backend) -> None:
    """A database at the version before the step, with Discord's and Matrix's board rows:
    each becomes a board location (other rows stay where they were)."""
    game_id = await before_step(backend, BOARDS)
    for key, value in ((f"board:{game_id}:10", "100"), (f"board:{game_id}:11", "110")):
        await backend.sql(
            "INSERT INTO kv (namespace, key, value, session_id) VALUES ('discord', $1, $2, $3)",
            key,
            value,
            game_id,
        )
    matrix = "matrix:@bot:x"
    first = json.dumps({"session_id": game_id, "room_id": "!a:x", "event_id": "$ea"})
    second = json.dumps({"session_id": game_id, "room_id": "!b:y", "event_id": "$eb"})
    for namespace, key, value in (
        ("discord", f"reach:{game_id}", "x"),
        (matrix, "event:$ea", game_id),
        (matrix, f"board:{game_id} !b:y", second),
        (matrix, f"board:{game_id}", first),
        (matrix, f"board:{game_id} !c:z", "{damaged"),
    ):
        await backend.sql(
            "INSERT INTO kv (namespace, key, value, session_id) VALUES ($1, $2, $3, $4)",
            namespace,
            key,
            value,
            game_id,
        )
    async with backend.open() as store:
        assert await store.run(schema.schema_version()) == len(STEPS)
        found = await store.run(boards.boards_of("discord", game_id))
        assert sorted((board.chat_id, board.message_id) for board in found) == [
            ("10", "100"),
            ("11", "110"),
        ]
        assert await store.run(kv.kv_get("discord", f"reach:{game_id}")) == "x"
        # Matrix's: the first room first, the damaged row left out.
        assert await store.run(boards.boards_of(matrix, game_id)) == [
            BoardLocation(matrix, game_id, "!a:x", "$ea"),
            BoardLocation(matrix, game_id, "!b:y", "$eb"),
        ]
        assert await store.run(boards.board_by_message(matrix, "$eb")) is not None

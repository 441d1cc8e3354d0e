"""On a real Synapse: a player who leaves the room mid-game, and the bot kicked from a room, end
the games there as abandoned; the player who stayed is told and plays again at once. A leave
that a gappy sync (a ``limited`` timeline) carries only in its state section counts too."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import nio
import pytest

from adapters.matrix import transport as matrix_transport
from adapters.matrix.departures import Departure
from adapters.matrix.transport import NioTransport
from core.games import Outcome, Termination
from core.i18n import render
from core.store import Session, Status, departures, sessions
from core.store import stats as store_stats
from core.store.port import Store
from tests.e2e.synapse import (
    BOT,
    PASSWORD,
    Player,
    SynapseServer,
    is_edit_of,
    is_notice_from,
    running_bot,
    synapse_server,
)
from tests.e2e.test_matrix import move_by_text, open_room, shown, start_game

__all__ = ["synapse_server"]  # the fixture


async def pvp(server: SynapseServer, alice: Player, bob: Player, room: str) -> str:
    """Alice challenges Bob, he accepts, each plays once; the board's event id."""
    mark = bob.mark()
    await alice.say(room, "!tres @bob")
    await bob.wait_for(
        lambda seen: seen.room_id == room and "!accept" in shown(seen), after=mark, what="it"
    )
    board = await start_game(server, bob, room, "!accept")
    await move_by_text(server, alice, room, board, "1")
    await move_by_text(server, bob, room, board, "5")
    return str(board.source["event_id"])


async def test_a_player_who_leaves_mid_game_loses_it_and_the_other_plays_on(
    synapse_server: SynapseServer, tmp_path: Path
) -> None:
    server = synapse_server
    bot = server.user_id(BOT)
    async with (
        running_bot(server, tmp_path / "bot") as running,
        Player(server, "alice") as alice,
        Player(server, "bob") as bob,
    ):
        room = await open_room(server, alice, bob)
        board = await pvp(server, alice, bob, room)
        mark = alice.mark()
        left = await bob.client.room_leave(room)
        assert isinstance(left, nio.RoomLeaveResponse), left

        said = render("game.abandoned", "en", player="bob", winner="alice")
        # The board is edited to its end (the edit answering Bob's move may come first).
        edit = await alice.wait_for(
            lambda seen: (
                seen.room_id == room and is_edit_of(seen.source, board) and said in shown(seen)
            ),
            after=mark,
            what="the board's end",
        )
        assert "to move" not in shown(edit)
        notice = await alice.wait_for(
            lambda seen: (
                seen.room_id == room and is_notice_from(seen.source, bot) and shown(seen) == said
            ),
            after=mark,
            what="the notice",
        )
        assert "m.relates_to" not in notice.source["content"]  # a message of its own
        [session] = await finished(running.service.store, room)
        assert session.outcome == Outcome(Termination.ABANDONED, 1)
        stats = await running.service.store.run(store_stats.player_stats("matrix", alice.user_id))
        assert stats is not None and (stats.wins, stats.losses) == (1, 0)

        # Alice is free at once: a new game starts.
        again = await start_game(server, alice, room, "!tres easy")
        assert again.source["event_id"] != board


async def test_the_bot_kicked_from_a_room_ends_its_games_there(
    synapse_server: SynapseServer, tmp_path: Path
) -> None:
    server = synapse_server
    async with (
        running_bot(server, tmp_path / "bot") as running,
        Player(server, "alice") as alice,
        Player(server, "bob") as bob,
    ):
        room = await open_room(server, alice, bob)
        elsewhere = await open_room(server, bob)
        await pvp(server, alice, bob, room)
        await start_game(server, bob, elsewhere, "!tres easy")
        kicked = await alice.client.room_kick(room, server.user_id(BOT), "enough games")
        assert isinstance(kicked, nio.RoomKickResponse), kicked

        store = running.service.store
        deadline = time.monotonic() + 20
        while await store.run(departures.live_in_chats("matrix", [room])):
            assert time.monotonic() < deadline, "the games in the room did not end"
            await asyncio.sleep(0.05)
        [session] = await finished(store, room)
        assert session.outcome == Outcome(Termination.ABANDONED)  # nobody claims it
        assert await store.run(store_stats.player_stats("matrix", alice.user_id)) is None
        [kept] = await store.run(departures.live_in_chats("matrix", [elsewhere]))
        assert kept.status is Status.ACTIVE


GAPPY_LIMIT = 3
"""The bot's timeline per room and sync in the gappy tests: a leave followed by more messages
than this is cut out of the timeline."""


async def gap(alice: Player, bob: Player, room: str) -> None:
    """Bob leaves, then Alice says more than a timeline of the gappy tests holds."""
    left = await bob.client.room_leave(room)
    assert isinstance(left, nio.RoomLeaveResponse), left
    for n in range(GAPPY_LIMIT + 1):
        await alice.say(room, f"chatter {n}")


async def test_a_player_who_left_while_the_bot_was_away_loses_the_game_at_its_return(
    synapse_server: SynapseServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = synapse_server
    bot = server.user_id(BOT)
    data = tmp_path / "bot"
    async with Player(server, "alice") as alice, Player(server, "bob") as bob:
        async with running_bot(server, data):
            room = await open_room(server, alice, bob)
            board = await pvp(server, alice, bob, room)

        # While the bot is down, more happens than its first sync back shows: Bob's leave is
        # only in that sync's state section.
        mark = alice.mark()
        await gap(alice, bob, room)
        monkeypatch.setitem(matrix_transport.SYNC_FILTER["room"]["timeline"], "limit", GAPPY_LIMIT)

        async with running_bot(server, data) as running:
            said = render("game.abandoned", "en", player="bob", winner="alice")
            await alice.wait_for(
                lambda seen: (
                    seen.room_id == room
                    and is_notice_from(seen.source, bot)
                    and shown(seen) == said
                ),
                after=mark,
                what="the notice",
            )
            edit = await alice.wait_for(
                lambda seen: (
                    seen.room_id == room and is_edit_of(seen.source, board) and said in shown(seen)
                ),
                after=mark,
                what="the board's end",
            )
            assert "to move" not in shown(edit)
            [session] = await finished(running.service.store, room)
            assert session.outcome == Outcome(Termination.ABANDONED, 1)
            assert await running.service.store.run(departures.live_in_chats("matrix", [room])) == []

        notices = [
            seen
            for seen in alice.events[mark:]
            if seen.room_id == room and is_notice_from(seen.source, bot) and shown(seen) == said
        ]
        assert len(notices) == 1  # ended once


async def test_a_gappy_incremental_sync_names_the_member_who_left_in_the_gap(
    synapse_server: SynapseServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bot's transport alone, so that nothing syncs between the two syncs compared."""
    server = synapse_server
    bot = server.user_id(BOT)
    client = NioTransport(server.url, bot, str(tmp_path / "keys"))
    try:
        await client.login(bot, PASSWORD, None)
        async with Player(server, "alice") as alice, Player(server, "bob") as bob:
            room = await alice.create_room([bot, bob.user_id])
            await bob.join(room)
            await client.join(room)
            token = (await client.sync(None, 0, first=True)).next_batch
            await gap(alice, bob, room)

            monkeypatch.setitem(
                matrix_transport.SYNC_FILTER["room"]["timeline"], "limit", GAPPY_LIMIT
            )
            gappy = await client.sync(token, 0)
            assert gappy.gone == (Departure(room, bob.user_id),)
            assert [e.source["content"]["body"] for e in gappy.events if e.room_id == room] == [
                f"chatter {n}" for n in range(1, GAPPY_LIMIT + 1)
            ]

            # The same sync with the whole timeline: the leave is read there, and only there.
            monkeypatch.setitem(matrix_transport.SYNC_FILTER["room"]["timeline"], "limit", 100)
            whole = await client.sync(token, 0)
            assert whole.gone == ()
            members = [e.source for e in whole.events if e.source["type"] == "m.room.member"]
            assert [(m["state_key"], m["content"]["membership"]) for m in members] == [
                (bob.user_id, "leave")
            ]
    finally:
        await client.close()


async def finished(store: Store, room: str) -> list[Session]:
    """The last finished game in ``room`` (the tests play one there)."""
    last = await store.run(sessions.last_finished("matrix", room, None))
    return [] if last is None else [last]

"""A room upgrade on a real Synapse: the bot follows the tombstone into the replacement room,
carries the game being played and the open challenge there, and tells the old room once."""

from __future__ import annotations

import asyncio
import json
import urllib.parse
import urllib.request
from pathlib import Path

import nio

from core.i18n import render
from tests.e2e.synapse import (
    BOT,
    Player,
    SynapseServer,
    is_edit_of,
    is_notice_from,
    running_bot,
    synapse_server,
)
from tests.e2e.test_matrix import grid, is_board, move_by_text, open_room, shown, start_game

__all__ = ["synapse_server"]  # the fixture, imported for pytest


async def test_an_upgraded_room_keeps_its_game_and_challenge_and_is_told_once(
    synapse_server: SynapseServer, tmp_path: Path
) -> None:
    server = synapse_server
    bot = server.user_id(BOT)
    async with (
        running_bot(server, tmp_path / "bot"),
        Player(server, "alice") as alice,
        Player(server, "bob") as bob,
        Player(server, "carol") as carol,
    ):
        room = await open_room(server, alice, bob, carol)
        # Public, so that the bot may join the replacement room (which copies the join rule).
        public = await alice.client.room_put_state(
            room, "m.room.join_rules", {"join_rule": "public"}
        )
        assert isinstance(public, nio.RoomPutStateResponse), public
        board = await start_game(server, alice, room, "!quatre easy")
        await move_by_text(server, alice, room, board, "4")
        mark = bob.mark()
        await carol.say(room, f"!tres {bob.user_id}")
        await bob.wait_for(
            lambda seen: seen.room_id == room and "!accept" in shown(seen),
            after=mark,
            what="carol's challenge",
        )

        mark = alice.mark()
        new = await upgrade(server, alice, room)
        told = await alice.wait_for(
            lambda seen: (
                seen.room_id == room
                and is_notice_from(seen.source, bot)
                and shown(seen) == render("matrix.upgraded.joined", "en")
            ),
            after=mark,
            what="the old room told",
            within=60,
        )
        await bob.join(new)
        carried = await alice.wait_for(
            lambda seen: seen.room_id == new and is_board(seen, bot),
            after=mark,
            what="the game's board in the new room",
        )
        assert render("game.carried_over", "en") in shown(carried)
        assert sum(row.count("X") for row in grid(shown(carried))) == 1
        # The challenge again, there, mentioning bob (who is notified: an m.text).
        again = await alice.wait_for(
            lambda seen: seen.room_id == new and "!accept" in shown(seen),
            after=mark,
            what="the challenge in the new room",
        )
        assert again.source["content"]["msgtype"] == "m.text"
        assert again.source["content"]["m.mentions"] == {"user_ids": [bob.user_id]}

        # Played on in the new room: a typed move answers on the carried board.
        _, edit = await move_by_text(server, alice, new, carried, "4")
        assert sum(row.count("X") for row in grid(shown(edit))) == 2
        assert is_edit_of(edit.source, carried.source["event_id"])
        notices = [
            seen
            for seen in alice.events
            if seen.room_id == room
            and is_notice_from(seen.source, bot)
            and "upgraded" in shown(seen)
        ]
        assert notices == [told]


async def upgrade(server: SynapseServer, owner: Player, room: str) -> str:
    """The server's room upgrade (``POST /rooms/{room}/upgrade``), as Element does it: a new
    room with the old one's state, and a tombstone in the old one; the new room's id."""
    request = urllib.request.Request(
        f"{server.url}/_matrix/client/v3/rooms/{urllib.parse.quote(room)}/upgrade",
        data=json.dumps({"new_version": "12"}).encode(),
        headers={
            "Authorization": f"Bearer {owner.client.access_token}",
            "Content-Type": "application/json",
        },
        method="POST",
    )

    def post() -> str:
        with urllib.request.urlopen(request, timeout=30) as response:
            return str(json.load(response)["replacement_room"])

    return await asyncio.to_thread(post)

"""The move clock on Matrix, against a real Synapse: the board says the time left in words, the
reminder is an ``m.text`` that mentions the player to move (``m.mentions`` and a pill: default
push rules silence notices), and when the time is out the board is edited to the result and a
notice says it. The service's clock is moved by hand; every wait is on an event arriving."""

from __future__ import annotations

import time
from pathlib import Path

from tests.e2e.discord_harness import ManualClock
from tests.e2e.synapse import (
    BOT,
    Player,
    SynapseServer,
    is_edit_of,
    is_notice_from,
    running_bot,
    synapse_server,
)
from tests.e2e.test_matrix import _content, open_room, shown, start_game

__all__ = ["synapse_server"]  # the fixture, imported for pytest


async def test_a_reminder_mentions_the_player_and_the_board_shows_the_timeout(
    synapse_server: SynapseServer, tmp_path: Path
) -> None:
    server = synapse_server
    bot = server.user_id(BOT)
    # From the real time: the room's boards are drawn with the wall clock (as in production,
    # where it is the service's too); the reminder and the timeout follow the hand-moved one.
    clock = ManualClock(time.time())
    async with (
        running_bot(server, tmp_path / "bot", clock=clock),
        Player(server, "alice") as alice,
        Player(server, "bob") as bob,
    ):
        room = await open_room(server, alice, bob)
        await alice.say(room, f"!tres {bob.user_id} 5m")
        await bob.wait_for(
            lambda seen: seen.room_id == room and seen.source.get("sender") == bot,
            what="the challenge",
        )
        board = await start_game(server, bob, room, "!accept")
        assert "Time left: 5 minutes." in shown(board)

        mark = alice.mark()
        clock.advance(240)  # a fifth of five minutes is left: alice, who starts, is reminded
        reminder = await alice.wait_for(
            lambda seen: (
                seen.room_id == room
                and seen.source.get("sender") == bot
                and _content(seen).get("msgtype") == "m.text"
            ),
            after=mark,
            what="the reminder",
        )
        content = _content(reminder)
        assert content["m.mentions"] == {"user_ids": [alice.user_id]}
        assert f'href="https://matrix.to/#/{alice.user_id}"' in content["formatted_body"]
        assert "it is your move" in content["body"] and "Time left: 60 seconds." in content["body"]

        mark = alice.mark()
        clock.advance(60)
        board_id = board.source["event_id"]
        edit = await alice.wait_for(
            lambda seen: is_edit_of(seen.source, board_id) and "ran out of time" in shown(seen),
            after=mark,
            what="the board's last edit",
        )
        assert "alice ran out of time. bob wins." in shown(edit)
        assert "Time left" not in shown(edit)
        await alice.wait_for(
            lambda seen: (
                seen.room_id == room
                and is_notice_from(seen.source, bot)
                and "m.relates_to" not in _content(seen)
                and shown(seen) == "alice ran out of time. bob wins."
            ),
            after=mark,
            what="the result's notice",
        )

"""Room admins and abuse limits on Matrix, end to end: a real Synapse on 127.0.0.1, the real
service and store, players as plain matrix-nio clients (see tests/e2e/synapse.py).

Who may change a room's settings comes from the room's power levels as the bot synced them
(real ``m.room.power_levels`` state events sent by the room's creator) or from ``BOT_ADMINS``,
never from what people write.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import nio

from core.admin.keys import Effective
from core.i18n import render
from tests.e2e.synapse import (
    BOT,
    Player,
    Seen,
    SynapseServer,
    is_notice_from,
    reply_target,
    running_bot,
    synapse_server,
)
from tests.e2e.test_matrix import (
    is_board,
    is_playable,
    is_reply_notice,
    open_room,
    shown,
    start_game,
)

DEFAULT_RATE_BURST = Effective.rate_burst.default

__all__ = ["synapse_server"]  # the fixture, imported for pytest

NOT_ADMIN = render("settings.not_admin", "en")
OPS = "ops"  # a user listed in BOT_ADMINS, with no power in any room


async def set_level(owner: Player, room: str, user_id: str, level: int | None) -> None:
    """Send a new ``m.room.power_levels`` event: ``user_id`` at ``level``, or left out of the
    users (back to the room's default) when None."""
    current = await owner.client.room_get_state_event(room, "m.room.power_levels")
    assert isinstance(current, nio.RoomGetStateEventResponse), current
    content = dict(current.content)
    users = dict(content.get("users", {}))
    if level is None:
        users.pop(user_id, None)
    else:
        users[user_id] = level
    content["users"] = users
    put = await owner.client.room_put_state(room, "m.room.power_levels", content)
    assert isinstance(put, nio.RoomPutStateResponse), put


async def answer_to(player: Player, room: str, body: str, bot: str) -> Seen:
    """Say ``body``; the bot's notice that replies to it."""
    mark = player.mark()
    event_id = await player.say(room, body)
    return await player.wait_for(
        lambda seen: is_reply_notice(seen, room, bot, event_id), after=mark, what=repr(body)
    )


def ensure_user(server: SynapseServer, localpart: str) -> None:
    if localpart not in server.users:
        server.register([localpart])


async def test_only_moderators_and_bot_admins_change_a_rooms_settings(
    synapse_server: SynapseServer, tmp_path: Path
) -> None:
    server = synapse_server
    bot = server.user_id(BOT)
    ensure_user(server, OPS)
    async with (
        running_bot(server, tmp_path / "bot", bot_admins=[server.user_id(OPS)]),
        Player(server, "alice") as alice,
        Player(server, "bob") as bob,
        Player(server, "carol") as carol,
        Player(server, OPS) as ops,
    ):
        room = await open_room(server, alice, bob, carol, ops)

        # Power level 0: refused, whatever the text claims, and nothing changes.
        assert shown(await answer_to(bob, room, "!settings level hard", bot)) == NOT_ADMIN
        assert shown(await answer_to(bob, room, "!settings", bot)) == NOT_ADMIN
        board = await start_game(server, bob, room, "!tres")
        assert "medium" in shown(board) and "hard" not in shown(board)
        await answer_to(bob, room, "!final", bot)

        # Made a moderator with a real power levels event: the next message may.
        await set_level(alice, room, carol.user_id, 50)
        changed = await answer_to(carol, room, "!settings level hard", bot)
        assert shown(changed).startswith("level is now hard for "), shown(changed)
        board = await start_game(server, bob, room, "!tres")
        assert "hard" in shown(board)
        await answer_to(bob, room, "!final", bot)

        # Left out of a newer power levels event: back to the default level, refused again.
        await set_level(alice, room, carol.user_id, None)
        assert shown(await answer_to(carol, room, "!settings level easy", bot)) == NOT_ADMIN

        # BOT_ADMINS may, at level 0.
        changed = await answer_to(ops, room, "!settings level easy", bot)
        assert shown(changed).startswith("level is now easy for "), shown(changed)
        board = await start_game(server, bob, room, "!tres")
        assert "easy" in shown(board)
        await answer_to(bob, room, "!final", bot)

        # The room's language, chosen by its admins, is the one the bot answers in.
        await answer_to(ops, room, "!settings language es", bot)
        nothing = await answer_to(bob, room, "!final", bot)
        assert shown(nothing) == render("error.nothing_to_end", "es", prefix="!")


async def test_a_flood_gets_one_slow_down_and_no_more_than_the_allowed_boards(
    synapse_server: SynapseServer, tmp_path: Path
) -> None:
    server = synapse_server
    bot = server.user_id(BOT)
    boards_allowed = 3
    async with (
        running_bot(server, tmp_path / "bot"),
        Player(server, "alice") as alice,
        Player(server, "bob") as bob,
    ):
        room = await open_room(server, alice, bob)  # alice made it: she is its admin
        setting = f"!settings boards_per_minute {boards_allowed}"
        assert "is now" in shown(await answer_to(alice, room, setting, bot))

        mark = alice.mark()
        started = time.monotonic()
        # Sent all at once, as a script would (one by one they take longer on a busy machine).
        flood = await asyncio.gather(
            *(bob.say(room, "!tres easy" if i % 2 == 0 else "!final") for i in range(50))
        )
        elapsed = time.monotonic() - started
        assert elapsed < 5.0, f"the flood took {elapsed:.1f} s"
        # A room is handled in order: once alice is answered, every message of bob's was.
        await answer_to(alice, room, "!help", bot)

        answers = [
            seen
            for seen in alice.events[mark:]
            if seen.room_id == room and is_notice_from(seen.source, bot)
        ]
        slow_down = [seen for seen in answers if shown(seen).startswith("Slow down")]
        assert len(slow_down) == 1, [shown(seen) for seen in slow_down]
        boards = [seen for seen in answers if is_board(seen, bot) and is_playable(seen)]
        assert 1 <= len(boards) <= boards_allowed, [shown(seen) for seen in answers]
        # Answered at most: the bucket's burst and what refilled meanwhile (30 a minute), then
        # the one notice; nothing after it.
        to_bob = [seen for seen in answers if reply_target(seen.source) in set(flood)]
        assert len(to_bob) <= DEFAULT_RATE_BURST + int(elapsed / 2) + 2
        after_notice = to_bob[to_bob.index(slow_down[0]) + 1 :]
        assert after_notice == []


async def test_power_levels_after_a_restart_come_from_the_room_state(
    synapse_server: SynapseServer, tmp_path: Path
) -> None:
    server = synapse_server
    bot = server.user_id(BOT)
    data = tmp_path / "bot"
    async with (
        Player(server, "alice") as alice,
        Player(server, "bob") as bob,
        Player(server, "carol") as carol,
    ):
        async with running_bot(server, data):
            room = await open_room(server, alice, bob, carol)
            await set_level(alice, room, carol.user_id, 50)
            changed = await answer_to(carol, room, "!settings level hard", bot)
            assert shown(changed).startswith("level is now hard for ")

        # Restarted with no change since: the levels come from the state the first sync gives.
        async with running_bot(server, data):
            changed = await answer_to(carol, room, "!settings level medium", bot)
            assert shown(changed).startswith("level is now medium for ")
            assert shown(await answer_to(bob, room, "!settings", bot)) == NOT_ADMIN

        # While the bot is down, carol is demoted, then asks: when the bot catches up, her
        # message is judged by the levels it was sent under.
        await set_level(alice, room, carol.user_id, None)
        mark = carol.mark()
        asked = await carol.say(room, "!settings level easy")
        async with running_bot(server, data):
            refused = await carol.wait_for(
                lambda seen: is_reply_notice(seen, room, bot, asked), after=mark, what="refusal"
            )
            assert shown(refused) == NOT_ADMIN
            level = await answer_to(alice, room, "!settings level", bot)
            assert "medium" in shown(level)  # unchanged

"""A room upgrade (``m.room.tombstone``): the bot follows the room and its games."""

from __future__ import annotations

from typing import Any

from adapters.matrix.transport import MatrixError
from core.i18n import render
from core.sessions import GameService
from tests.adapters.matrix.fakes import BOT, FakeTransport, Sent, text
from tests.adapters.matrix.harness import (
    ALICE,
    BOB,
    CAROL,
    ROOM,
    edit_of,
    is_board,
    running,
    state,
)

NEW = "!upgraded:example.org"


def tombstone(event_id: str, replacement: str) -> dict[str, Any]:
    return {
        "type": "m.room.tombstone",
        "state_key": "",
        "event_id": event_id,
        "sender": ALICE,
        "content": {"body": "This room has been replaced", "replacement_room": replacement},
    }


def notice_saying(key: str, room: str) -> Any:
    return lambda s: s.room_id == room and s.content.get("body") == render(key, "en")


def in_room(room: str) -> Any:
    return lambda s: s.room_id == room and is_board(s)


async def test_the_bot_follows_an_upgrade_and_the_game_goes_on_in_the_new_room(
    service: GameService,
) -> None:
    await state(service).set_next_batch("s0")
    fake = FakeTransport()
    fake.room_members[ROOM] = [ALICE, BOT]
    fake.deliver((ROOM, text("$start", ALICE, "!quatre easy")), (ROOM, text("$m1", ALICE, "4")))
    async with running(service, fake):
        [old_board] = await fake.wait_sent(in_room(ROOM))
        await fake.wait_sent(edit_of(old_board.event_id))
        fake.deliver((ROOM, tombstone("$tomb", NEW)))
        [carried] = await fake.wait_sent(in_room(NEW))
        await fake.wait_sent(notice_saying("matrix.upgraded.joined", ROOM))
        assert fake.joined == [NEW]
        assert _stones(carried) == 2  # the game as it stood: alice's move and the bot's
        assert any(
            render("game.carried_over", "en") in str(s.content.get("body")) for s in fake.sent
        )

        # A move typed in the new room plays on the carried game's board there.
        fake.deliver((NEW, text("$m2", ALICE, "4")))
        [edit] = await fake.wait_sent(edit_of(carried.event_id))
        assert _stones(edit) == 4


async def test_when_the_new_room_cannot_be_joined_the_game_stays_and_the_room_is_told(
    service: GameService,
) -> None:
    await state(service).set_next_batch("s0")
    fake = FakeTransport()
    fake.room_members[ROOM] = [ALICE, BOT]
    fake.join_errors[NEW] = MatrixError("join", "not invited", "M_FORBIDDEN")
    fake.deliver((ROOM, text("$start", ALICE, "!quatre easy")))
    async with running(service, fake):
        [board] = await fake.wait_sent(in_room(ROOM))
        fake.deliver((ROOM, tombstone("$tomb", NEW)))
        await fake.wait_sent(notice_saying("matrix.upgraded.not_joined", ROOM))
        fake.deliver((ROOM, text("$m1", ALICE, "4")))
        await fake.wait_sent(edit_of(board.event_id))
    assert not [s for s in fake.sent if s.room_id == NEW]


def _stones(sent: Sent) -> int:
    content = sent.content.get("m.new_content", sent.content)
    return sum(str(content["body"]).count(mark) for mark in "🔴🟡")


async def test_challenges_are_carried_and_the_old_room_is_told_once_across_a_crash(
    service: GameService,
) -> None:
    await state(service).set_next_batch("s0")
    first = FakeTransport()
    first.room_members[ROOM] = [ALICE, BOB, CAROL, BOT]
    first.deliver(
        (ROOM, text("$start", ALICE, "!quatre easy")),
        (ROOM, text("$challenge", CAROL, f"!tres {BOB}")),
    )
    async with running(service, first):
        await first.wait_sent(in_room(ROOM))
        await first.wait_sent(is_challenge_in(ROOM))
        # This time the old room cannot be told (as if the bot crashed before it was).
        first.room_errors[ROOM] = [MatrixError("send", "no", "M_FORBIDDEN")]
        first.deliver((ROOM, tombstone("$tomb", NEW)))
        [carried] = await first.wait_sent(in_room(NEW))
        [again] = await first.wait_sent(is_challenge_in(NEW))
        await first.wait_until(lambda: not first.room_errors[ROOM])  # the notice, refused
        await first.wait_until(lambda: len(first.syncs) >= 3)
    # The same tombstone once more (a restart's sync from a token saved before it): what was
    # carried is not shown again; the room is told now; and then never again.
    second = FakeTransport()
    second.room_members[ROOM] = [ALICE, BOB, CAROL, BOT]
    second.deliver((ROOM, tombstone("$tomb", NEW)))
    second.deliver((ROOM, tombstone("$tomb", NEW)))
    async with running(service, second):
        await second.wait_sent(notice_saying("matrix.upgraded.joined", ROOM))
        await second.wait_until(lambda: len(second.syncs) >= 3)
    assert [s.room_id for s in second.sent] == [ROOM]
    assert second.joined == [NEW]  # joined again, harmlessly; the second time skipped whole
    assert again.content["msgtype"] == "m.text"
    assert again.content["m.mentions"] == {"user_ids": [BOB]}
    assert render("game.carried_over", "en") in str(carried.content["body"])


def is_challenge_in(room: str) -> Any:
    return lambda s: s.room_id == room and "!accept" in str(s.content.get("body"))

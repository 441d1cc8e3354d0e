"""``!link`` on Matrix: a room of the bot and the player alone is direct and gets a code; once a
third member is in (or invited: nio counts invited members among a room's users), the same room
refuses, so a code is never shown to a third person. Nor does a room of two that anyone may join
(a public join rule): whoever joins later could read the code in its history."""

from __future__ import annotations

import re

from core.sessions import GameService
from tests.adapters.matrix.fakes import BOT, FakeTransport, text
from tests.adapters.matrix.harness import ALICE, ROOM, running, state

BOB = "@bob:example.org"
_CODE = re.compile(r"\b[A-Z2-9]{8}\b")


async def test_a_direct_room_gets_a_code_and_the_room_with_a_third_member_does_not(
    service: GameService,
) -> None:
    await state(service).set_next_batch("s0")
    fake = FakeTransport()
    fake.room_members[ROOM] = [ALICE, BOT]
    fake.deliver((ROOM, text("$link", ALICE, "!link")))
    async with running(service, fake):
        [given] = await fake.wait_sent(lambda s: "Your link code" in str(s.content.get("body")))
        assert _CODE.search(str(given.content["body"])) is not None
        fake.room_members[ROOM] = [ALICE, BOT, BOB]
        fake.deliver((ROOM, text("$link2", ALICE, "!link")))
        [refused] = await fake.wait_sent(
            lambda s: "never shown in a room" in str(s.content.get("body"))
        )
        assert _CODE.search(str(refused.content["body"])) is None
        assert "direct chat" in str(refused.content["body"])
        # Bob left; the room is public now, so anyone may join and read back.
        fake.room_members[ROOM] = [ALICE, BOT]
        fake.public_rooms.add(ROOM)
        fake.deliver((ROOM, text("$link3", ALICE, "!link")))
        await fake.wait_sent(
            lambda s: "never shown in a room" in str(s.content.get("body")), count=2
        )
        assert len([s for s in fake.sent if "Your link code" in str(s.content.get("body"))]) == 1

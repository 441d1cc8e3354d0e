"""Open play on Matrix: a room of the bot and one person is a direct chat, where ``!seek`` is on
unless its admins turned it off; a room of more people needs its admins to turn it on."""

from __future__ import annotations

from core.sessions import GameService
from tests.adapters.matrix.fakes import BOT, FakeTransport, text
from tests.adapters.matrix.harness import ALICE, ROOM, running, state

BOB = "@bob:example.org"


async def test_a_room_of_two_is_direct_and_a_room_of_three_is_not(service: GameService) -> None:
    await state(service).set_next_batch("s0")
    fake = FakeTransport()
    fake.room_members[ROOM] = [ALICE, BOT]
    fake.deliver((ROOM, text("$seek", ALICE, "!seek tres")))
    async with running(service, fake):
        await fake.wait_sent(lambda s: "Looking for an opponent" in str(s.content.get("body")))
        fake.room_members[ROOM] = [ALICE, BOT, BOB]
        fake.deliver((ROOM, text("$seek2", BOB, "!seek tres")))
        await fake.wait_sent(lambda s: "Open play" in str(s.content.get("body")))

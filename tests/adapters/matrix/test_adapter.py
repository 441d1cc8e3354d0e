"""The adapter's logic against a scripted homeserver (tests/adapters/matrix/fakes.py) and the
real service and store: first start, restarts, boards and edits, reactions, rate limits, rooms
that do not wait for each other, shutdown."""

from __future__ import annotations

import asyncio

import pytest

from adapters.matrix import MatrixAdapter, MatrixConfig
from adapters.matrix.render import KEYCAPS
from adapters.matrix.state import Credentials
from adapters.matrix.transport import Invite, MatrixError
from core.i18n import render
from core.sessions import GameService
from tests.adapters.matrix.fakes import BOT, FakeTransport, reaction, text
from tests.adapters.matrix.harness import (
    ALICE,
    BOB,
    CAROL,
    CONFIG,
    ROOM,
    Sleeps,
    edit_of,
    is_board,
    notice_to,
    running,
    state,
)


async def test_first_start_skips_history_but_accepts_invites(service: GameService) -> None:
    fake = FakeTransport()
    fake.deliver((ROOM, text("$old", ALICE, "!help")), invites=(Invite("!new:x", ALICE),))
    async with running(service, fake) as adapter:
        await asyncio.wait_for(adapter.ready.wait(), 5)
        await fake.wait_until(lambda: len(fake.syncs) >= 2)
        assert fake.joined == ["!new:x"]
        assert fake.syncs[0] == (None, True, True)
        assert fake.syncs[1][0] == "s1"
        assert fake.sent == []  # the old "!help" is history
    assert await state(service).next_batch() == "s1"
    assert fake.closed


async def test_after_a_restart_missed_messages_are_handled_once(service: GameService) -> None:
    await state(service).set_next_batch("s0")
    fake = FakeTransport()
    fake.deliver((ROOM, text("$1", ALICE, "!help")))
    async with running(service, fake):
        await fake.wait_sent(notice_to("$1"))
        assert fake.syncs[0] == ("s0", False, True)  # full state: the client knew no room
        # The same event again (a crash after handling it, before the token was saved).
        fake.deliver((ROOM, text("$1", ALICE, "!help")), (ROOM, text("$2", ALICE, "!help")))
        await fake.wait_sent(notice_to("$2"))
    assert len([s for s in fake.sent if notice_to("$1")(s)]) == 1
    assert await state(service).next_batch() == "s2"


async def test_a_game_by_text_and_reactions_edits_the_original_board(
    service: GameService,
) -> None:
    await state(service).set_next_batch("s0")
    fake = FakeTransport()
    fake.deliver((ROOM, text("$start", ALICE, "!tres easy")))
    async with running(service, fake):
        [board] = await fake.wait_sent(is_board)
        # Announced in the board itself: one event.
        assert render("game.started", "en") in board.content["body"]
        assert fake.sent == [board]
        original = board.event_id

        fake.deliver((ROOM, text("$m1", ALICE, "5")))
        [edit] = await fake.wait_sent(edit_of(original))
        assert "❌" in edit.content["m.new_content"]["body"].split("\n")[2]
        assert not [s for s in fake.sent if notice_to("$m1")(s)]

        fake.deliver(
            (ROOM, reaction("$thumb", ALICE, original, "👍")),
            (ROOM, reaction("$elsewhere", ALICE, "$not-a-board", KEYCAPS[0])),
            (ROOM, reaction("$carol", CAROL, original, KEYCAPS[0])),
        )
        [not_yours] = await fake.wait_sent(notice_to(original))
        assert not_yours.content["body"].startswith("carol: ")
        await fake.wait_until(lambda: (ROOM, "$carol") in fake.redacted)

        empty = next(
            i
            for i, key in enumerate(KEYCAPS[:9])
            if _cell(edit.content["m.new_content"]["body"], i) == "⬜"
        )
        fake.deliver((ROOM, reaction("$r1", ALICE, original, KEYCAPS[empty])))
        edits = await fake.wait_sent(edit_of(original), count=2)
        assert _cell(edits[-1].content["m.new_content"]["body"], empty) == "❌"
        # The key is no longer a move (its cell is taken): its reaction stays, no event spent.
        assert (ROOM, "$r1") not in fake.redacted
        # Every edit points at the original; 👍 and reactions elsewhere are left alone.
        assert all(e.content["m.relates_to"]["event_id"] == original for e in edits)
        assert (ROOM, "$thumb") not in fake.redacted
        assert (ROOM, "$elsewhere") not in fake.redacted


def _cell(body: str, index: int) -> str:
    rows = [line.split(" ")[1:] for line in body.split("\n")[1:4]]
    return rows[index // 3][index % 3]


async def test_rate_limits_are_waited_out(service: GameService) -> None:
    await state(service).set_next_batch("s0")
    fake = FakeTransport()
    fake.send_errors = [MatrixError("send", "slow down", "M_LIMIT_EXCEEDED", retry_after_ms=1200)]
    fake.fail_sync(MatrixError("sync", "bad gateway", "502"))
    fake.deliver((ROOM, text("$1", ALICE, "!help")))
    sleeps = Sleeps()
    async with running(service, fake, sleep=sleeps):
        await fake.wait_sent(notice_to("$1"))
    assert sleeps.delays[0] == pytest.approx(0.5)  # the sync outage: exponential backoff
    # The server's retry_after_ms (+ a margin).
    assert any(delay == pytest.approx(1.25, abs=0.05) for delay in sleeps.delays)


async def test_a_slow_room_does_not_stall_the_others(service: GameService) -> None:
    await state(service).set_next_batch("s0")
    fake = FakeTransport()
    gate = asyncio.Event()
    fake.gates["!slow:x"] = gate
    token = fake.deliver(
        ("!slow:x", text("$slow", ALICE, "!help")), ("!fast:x", text("$fast", BOB, "!help"))
    )
    async with running(service, fake):
        await fake.wait_sent(notice_to("$fast"))
        assert not [s for s in fake.sent if notice_to("$slow")(s)]
        gate.set()
        await fake.wait_sent(notice_to("$slow"))
        await fake.wait_until(lambda: len(fake.syncs) >= 2)
    assert await state(service).next_batch() == token


async def test_stopping_lets_the_handler_in_flight_finish(service: GameService) -> None:
    await state(service).set_next_batch("s0")
    fake = FakeTransport()
    gate = asyncio.Event()
    fake.gates[ROOM] = gate
    token = fake.deliver((ROOM, text("$1", ALICE, "!help")))
    adapter = MatrixAdapter(service, CONFIG, transport=fake, sleep=Sleeps())
    stop = asyncio.Event()
    task = asyncio.create_task(adapter.run(stop))
    await fake.wait_until(lambda: len(fake.syncs) >= 2)  # the event is being handled
    stop.set()
    asyncio.get_running_loop().call_later(0.05, gate.set)
    await asyncio.wait_for(task, 5)
    assert [s for s in fake.sent if notice_to("$1")(s)]
    assert await state(service).next_batch() == token
    assert fake.closed


async def test_password_login_is_kept_and_reused(service: GameService) -> None:
    fake = FakeTransport()
    fake.deliver()
    async with running(service, fake) as adapter:
        await asyncio.wait_for(adapter.ready.wait(), 5)
    assert fake.logins == [("password", None)]
    saved = await state(service).credentials()
    assert saved is not None and saved.device_id == "NEWDEVICE"
    assert "token-" not in repr(saved)

    again = FakeTransport()
    again.deliver()
    async with running(service, again) as adapter:
        await asyncio.wait_for(adapter.ready.wait(), 5)
        assert adapter.device_id == "NEWDEVICE"
    assert again.logins == [("token", "NEWDEVICE")]

    # A revoked token: log in again with the password, on the same device.
    await state(service).set_credentials(Credentials("revoked", "NEWDEVICE"))
    third = FakeTransport()
    third.deliver()
    async with running(service, third) as adapter:
        await asyncio.wait_for(adapter.ready.wait(), 5)
    assert third.logins == [("token", "NEWDEVICE"), ("password", "NEWDEVICE")]


async def test_invites_from_other_servers_are_declined(service: GameService) -> None:
    config = MatrixConfig(
        "https://matrix.example.org", BOT, password="pw", allowed_servers=("example.org",)
    )
    fake = FakeTransport()
    fake.deliver(invites=(Invite("!ok:x", ALICE), Invite("!spam:x", "@eve:evil.example")))
    async with running(service, fake, config) as adapter:
        await asyncio.wait_for(adapter.ready.wait(), 5)
        await fake.wait_until(lambda: bool(fake.joined) and bool(fake.left))
    assert fake.joined == ["!ok:x"]
    assert fake.left == ["!spam:x"]


async def test_a_token_revoked_while_running_logs_in_again_on_the_same_device(
    service: GameService,
) -> None:
    await state(service).set_next_batch("s0")
    fake = FakeTransport()
    fake.fail_sync(MatrixError("sync", "logged out", "M_UNKNOWN_TOKEN"))
    fake.deliver((ROOM, text("$1", ALICE, "!help")))
    async with running(service, fake):
        await fake.wait_sent(notice_to("$1"))
    assert fake.logins == [("password", None), ("password", "NEWDEVICE")]
    assert fake.syncs[1][0] == "s0"  # carried on from the same token


async def test_connected_follows_the_last_sync(service: GameService) -> None:
    await state(service).set_next_batch("s0")
    fake = FakeTransport()
    fake.deliver()
    async with running(service, fake) as adapter:

        def up() -> bool:  # a call: each read is a new state, not one mypy narrowed
            return adapter.connected

        await asyncio.wait_for(adapter.ready.wait(), 5)
        assert up()
        fake.fail_sync(MatrixError("sync", "Cannot connect to host"))
        await fake.wait_until(lambda: len(fake.syncs) >= 3)  # failed, then tried again
        assert not up()
        fake.deliver()
        await fake.wait_until(lambda: len(fake.syncs) >= 4)
        assert up()

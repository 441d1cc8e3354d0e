"""The adapter on a homeserver as people run it: rate limits, expiring tokens, mentions."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest

from adapters.matrix import MatrixAdapter, MatrixConfig
from adapters.matrix.render import KEYCAPS
from adapters.matrix.transport import MatrixError
from core.sessions import GameService
from tests.adapters.matrix.fakes import BOT, FakeTransport, Sent, reaction, text
from tests.adapters.matrix.harness import (
    ALICE,
    BOB,
    CONFIG,
    ROOM,
    Sleeps,
    edit_of,
    is_board,
    notice_to,
    running,
    state,
)

TOKEN_ONLY = MatrixConfig("https://matrix.example.org", BOT, access_token="secret")


def limited() -> MatrixError:
    return MatrixError("send", "Too Many Requests", "M_LIMIT_EXCEEDED", retry_after_ms=5000)


def expired(what: str = "send") -> MatrixError:
    return MatrixError(what, "Access token has expired", "M_UNKNOWN_TOKEN", soft_logout=True)


def column_stones(sent: Sent, column: int) -> int:
    body = str(sent.content["m.new_content"]["body"])
    rows = [line.split(" ")[1:] for line in body.split("\n")[1:7]]
    return sum(1 for row in rows if row[column] != "⚪")


async def test_limited_a_move_costs_one_event_and_a_repeated_key_is_a_new_press(
    service: GameService,
) -> None:
    await state(service).set_next_batch("s0")
    fake = FakeTransport()
    fake.deliver((ROOM, text("$start", ALICE, "!quatre easy")))
    async with running(service, fake):
        [board] = await fake.wait_sent(is_board)
        fake.send_errors = [limited()]  # from now on the bot counts as limited
        fake.deliver((ROOM, reaction("$r1", ALICE, board.event_id, KEYCAPS[3])))
        [first] = await fake.wait_sent(edit_of(board.event_id))
        assert column_stones(first, 3) >= 1
        sent_before = len(fake.sent)

        # Limited, the bot leaves the consumed reaction alone. The player takes it away and
        # adds it again (a click on it, twice, in Element): a new event, read as a new press.
        fake.deliver(
            (ROOM, {**reaction("$undo", ALICE, "$r1", "x"), "type": "m.room.redaction"}),
            (ROOM, reaction("$r2", ALICE, board.event_id, KEYCAPS[3])),
        )
        edits = await fake.wait_sent(edit_of(board.event_id), count=2)
        assert column_stones(edits[-1], 3) > column_stones(first, 3)
        # One event for the move (the edit): no notice, no redaction.
        assert len(fake.sent) == sent_before + 1
        assert fake.redacted == []
        assert not [s for s in fake.sent if notice_to(board.event_id)(s)]


async def test_an_answer_refused_for_an_expired_token_arrives_after_a_new_login(
    service: GameService, caplog: pytest.LogCaptureFixture
) -> None:
    await state(service).set_next_batch("s0")
    fake = FakeTransport()
    fake.deliver((ROOM, text("$start", ALICE, "!tres easy")))
    async with running(service, fake) as adapter:
        [board] = await fake.wait_sent(is_board)
        fake.send_errors = [expired()]
        with caplog.at_level(logging.WARNING):
            fake.deliver((ROOM, text("$m1", ALICE, "5")))
            await fake.wait_sent(edit_of(board.event_id))
        device = adapter.device_id
    assert fake.logins[-1] == ("password", device)  # the same device again
    assert "expired" in caplog.text and "revoked" not in caplog.text


async def test_several_refusals_of_one_expiry_log_in_once(service: GameService) -> None:
    await state(service).set_next_batch("s0")
    fake = FakeTransport()
    async with running(service, fake):
        await fake.wait_until(lambda: len(fake.syncs) >= 1)
        logins = len(fake.logins)
        fake.send_errors = [expired(), expired(), expired()]
        rooms = [f"!room{i}:example.org" for i in range(3)]
        gate = asyncio.Event()
        for room in rooms:
            fake.gates[room] = gate
        fake.deliver(*((room, text(f"$h{i}", ALICE, "!help")) for i, room in enumerate(rooms)))
        # All three in flight with the old token, then all three refused.
        await fake.wait_until(lambda: fake.waiting >= 3)
        gate.set()
        await fake.wait_sent(lambda s: s.content.get("msgtype") == "m.notice", count=3)
    assert len(fake.logins) - logins == 1


@pytest.mark.parametrize("when", ["at start", "while syncing"])
async def test_a_dead_token_stops_the_adapter_alone_and_names_the_fix(
    service: GameService, caplog: pytest.LogCaptureFixture, when: str
) -> None:
    await state(service).set_next_batch("s0")
    fake = FakeTransport()
    config = TOKEN_ONLY
    if when == "at start":
        config = MatrixConfig("https://matrix.example.org", BOT, access_token="revoked")
    else:
        fake.deliver()
        fake.fail_sync(expired("sync"))
    adapter = MatrixAdapter(service, config, transport=fake, add_keycaps=False, sleep=Sleeps())
    stop = asyncio.Event()
    with caplog.at_level(logging.ERROR):
        task = asyncio.create_task(adapter.run(stop))
        await fake.wait_until(lambda: fake.closed)
        # Stopped, and says so to health; but run() goes on until the process stops, so
        # the other adapters and health keep running.
        assert not adapter.connected
        assert not task.done()
        stop.set()
        await asyncio.wait_for(task, 5)
    [line] = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
    assert "MATRIX_PASSWORD" in line and "mas-cli manage issue-compatibility-token" in line
    if when == "while syncing":
        assert "expired" in line


async def test_a_challenge_is_a_text_that_mentions_the_challenged_player(
    service: GameService,
) -> None:
    await state(service).set_next_batch("s0")
    fake = FakeTransport()
    fake.deliver((ROOM, text("$c", ALICE, f"!tres {BOB}")))
    async with running(service, fake):
        [challenge] = await fake.wait_sent(lambda s: "!accept" in str(s.content.get("body")))
        await fake.wait_until(lambda: len(fake.syncs) >= 2)
    content = challenge.content
    assert content["msgtype"] == "m.text"
    assert content["m.mentions"] == {"user_ids": [BOB]}
    assert f'href="https://matrix.to/#/{BOB}"' in content["formatted_body"]
    others = [s for s in fake.sent if s is not challenge and s.event_type == "m.room.message"]
    assert all(s.content["msgtype"] == "m.notice" for s in others)


async def test_a_rematch_challenge_mentions_the_player_it_challenges(
    service: GameService,
) -> None:
    await state(service).set_next_batch("s0")
    fake = FakeTransport()
    fake.deliver((ROOM, text("$c", ALICE, f"!tres {BOB}")))
    fake.deliver((ROOM, text("$a", BOB, "!accept")))
    # Alice (X, the challenger) takes the top row.
    for number, (who, cell) in enumerate([(ALICE, 1), (BOB, 4), (ALICE, 2), (BOB, 5), (ALICE, 3)]):
        fake.deliver((ROOM, text(f"$m{number}", who, str(cell))))
    fake.deliver((ROOM, text("$r", BOB, "!rematch")))
    async with running(service, fake):
        challenges = await fake.wait_sent(is_challenge, count=2)
    rematch = challenges[-1].content
    # Nothing in "!rematch" names alice: the service's reply says whom it addresses.
    assert rematch["msgtype"] == "m.text"
    assert rematch["m.mentions"] == {"user_ids": [ALICE]}
    assert f'href="https://matrix.to/#/{ALICE}"' in rematch["formatted_body"]


def is_challenge(sent: Sent) -> bool:
    return "!accept" in str(sent.content.get("body"))


async def test_final_before_any_move_edits_a_board_another_process_posted(
    service: GameService,
) -> None:
    await state(service).set_next_batch("s0")
    posting = FakeTransport()
    posting.deliver((ROOM, text("$start", ALICE, "!quatre easy")))
    async with running(service, posting):
        [board] = await posting.wait_sent(is_board)
        await posting.wait_until(lambda: len(posting.syncs) >= 2)
    ref = await state(service).board_at(board.event_id)
    assert ref is not None
    # Another adapter (another process, after a takeover) with nothing in memory.
    ending = FakeTransport()
    ending.deliver((ROOM, text("$final", ALICE, "!final")))
    async with running(service, ending):
        [edit] = await ending.wait_sent(edit_of(board.event_id))
        await ending.wait_until(lambda: len(ending.syncs) >= 2)
    assert "alice ended the game" in str(edit.content["m.new_content"]["body"])
    assert not [s for s in ending.sent if is_board(s)]
    # Once shown, the board's place is forgotten, copy included.
    assert await state(service).board(ref.session_id, ref.room_id) is None


async def test_a_new_term_remembers_the_rate_limit_and_seeds_no_keycaps(
    service: GameService,
) -> None:
    await state(service).set_next_batch("s0")
    first = FakeTransport()
    first.deliver((ROOM, text("$t1", ALICE, "!tres easy")))
    async with keycaps_on(service, first):
        [board] = await first.wait_sent(is_board)
        await first.wait_sent(lambda s: s.event_type == "m.reaction", count=len(KEYCAPS) - 1)
        first.send_errors = [limited()]
        first.deliver((ROOM, text("$m1", ALICE, "5")))
        await first.wait_sent(edit_of(board.event_id))
    assert await state(service).limited_ago(time.time()) is not None
    # A restart (or the process that takes over): limited still, so no keycaps to learn it.
    second = FakeTransport()
    second.deliver((ROOM, text("$t2", BOB, "!quatre easy")))
    async with keycaps_on(service, second):
        await second.wait_sent(is_board)
    # Stopped: whatever was queued went out as the sender drained.
    assert not [s for s in second.sent if s.event_type == "m.reaction"]


async def test_a_fresh_bot_seeds_no_keycaps_until_the_homeserver_lets_it_past_the_defaults(
    service: GameService,
) -> None:
    await state(service).set_next_batch("s0")
    first = FakeTransport()
    first.deliver((ROOM, text("$t0", ALICE, "!tres easy")))
    async with keycaps_on(service, first, exempt=False):
        await first.wait_sent(is_board)
        # Boards in 13 more rooms at once: past what Synapse's defaults let through, and the
        # server refused none.
        rooms = [f"!room{n}:example.org" for n in range(13)]
        first.deliver(
            *(
                (room, text(f"$t{room}", f"@p{n}:example.org", "!tres easy"))
                for n, room in enumerate(rooms)
            )
        )
        await first.wait_sent(is_board, count=14)
        # Proven only by the sends: the boards before it got no keycaps, the first one none.
        await first.wait_sent(lambda s: s.event_type == "m.reaction")
        reactions = [s for s in first.sent if s.event_type == "m.reaction"]
        assert all(s.room_id != ROOM for s in reactions)
        assert first.sent.index(reactions[0]) >= 13
    assert await state(service).free()
    # The next term knows: keycaps from its first board on.
    second = FakeTransport()
    second.deliver((ROOM, text("$t2", BOB, "!quatre easy")))
    async with keycaps_on(service, second, exempt=False):
        await second.wait_sent(is_board)
        await second.wait_sent(lambda s: s.event_type == "m.reaction", count=7)
    # A refusal noted later forgets it.
    await state(service).set_limited_at(time.time(), keep=60)
    assert not await state(service).free()


@asynccontextmanager
async def keycaps_on(
    service: GameService, fake: FakeTransport, *, exempt: bool = True
) -> AsyncIterator[None]:
    config = dataclasses.replace(CONFIG, exempt=exempt)
    adapter = MatrixAdapter(service, config, transport=fake, add_keycaps=True, sleep=Sleeps())
    stop = asyncio.Event()
    task = asyncio.create_task(adapter.run(stop))
    try:
        yield
    finally:
        stop.set()
        await asyncio.wait_for(task, 10)

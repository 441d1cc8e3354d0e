"""The send path under rate limits and expiring tokens, against the scripted transport."""

from __future__ import annotations

import asyncio
import logging

import pytest

from adapters.matrix.render import notice_content, reaction_content
from adapters.matrix.sender import QUIET_S, Sender, TokenDead
from adapters.matrix.transport import MatrixError
from tests.adapters.matrix.fakes import FakeTransport
from tests.adapters.matrix.harness import ROOM, Sleeps

OTHER = "!other:example.org"


def limited(ms: int = 5000) -> MatrixError:
    return MatrixError("send", "Too Many Requests", "M_LIMIT_EXCEEDED", retry_after_ms=ms)


class Relogins:
    def __init__(self, *, dead: bool = False) -> None:
        self.calls = 0
        self.dead = dead

    async def __call__(self, error: MatrixError, started: float) -> None:
        self.calls += 1
        if self.dead:
            raise TokenDead(str(error))


class Time:
    """A clock that moves only when something sleeps on it."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.delays: list[float] = []

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.delays.append(seconds)
        self.now += seconds
        await asyncio.sleep(0)


def bodies(fake: FakeTransport) -> list[str]:
    return [str(s.content.get("body")) for s in fake.sent]


async def test_an_answer_waits_out_every_rate_limit_and_arrives() -> None:
    fake = FakeTransport()
    fake.send_errors = [limited(5000), limited(4000), limited(300)]
    time = Time()
    seen: list[int] = []
    sender = Sender(
        lambda: fake,
        relogin=Relogins(),
        sleep=time.sleep,
        clock=time.clock,
        on_limited=lambda: seen.append(1),
    )
    event_id = await sender.send(ROOM, notice_content("your move"))
    assert bodies(fake) == ["your move"] and event_id == fake.sent[0].event_id
    assert sender.limited_total == 3 and len(seen) == 3
    # The server's windows (plus a margin), not a guess of ours.
    assert [round(d, 2) for d in time.delays] == [5.05, 4.05, 0.35]


async def test_a_waiting_edit_is_replaced_by_the_newer_state_of_its_board() -> None:
    fake = FakeTransport()
    gate = asyncio.Event()
    fake.gates[ROOM] = gate
    sender = Sender(lambda: fake, relogin=Relogins(), sleep=Sleeps())
    first = sender.edit(ROOM, "$board", {"body": "move 1"})  # in flight, held at the gate
    await fake.wait_until(lambda: fake.waiting >= 1)  # the first one in flight
    second = sender.edit(ROOM, "$board", {"body": "move 2"})
    third = sender.edit(ROOM, "$board", {"body": "move 3"})
    other = sender.edit(ROOM, "$other-board", {"body": "elsewhere"})
    assert third is second  # one waiting edit per board
    gate.set()
    await sender.flush()
    assert bodies(fake) == ["move 1", "move 3", "elsewhere"]
    assert first.done() and second.done() and other.done()


async def test_courtesies_go_behind_answers_and_are_dropped_while_limited() -> None:
    fake = FakeTransport()
    gate = asyncio.Event()
    fake.gates[ROOM] = gate
    sender = Sender(lambda: fake, relogin=Relogins(), sleep=Sleeps(), exempt=True)
    sender.send(ROOM, notice_content("board"))
    await fake.wait_until(lambda: fake.waiting >= 1)  # the first one in flight
    sender.courtesy(ROOM, reaction_content("$board", "1\ufe0f\u20e3"))
    sender.send(ROOM, notice_content("answer"))
    gate.set()
    await sender.flush()
    assert [s.event_type for s in fake.sent] == ["m.room.message"] * 2 + ["m.reaction"]
    assert bodies(fake)[:2] == ["board", "answer"]

    # Once the server refuses one send for its rate, keycaps and clean-up give way.
    fake.send_errors = [limited(2000)]
    await sender.send(ROOM, notice_content("limited answer"))
    assert sender.limited
    sender.courtesy(ROOM, reaction_content("$board", "2\ufe0f\u20e3"))
    sender.redact(ROOM, "$consumed", "move played")
    await sender.flush()
    assert bodies(fake)[-1] == "limited answer"
    assert fake.redacted == [] and sender.dropped_courtesies == 2


def courtesies_go(sender: Sender) -> bool:
    # A call, not the property itself: mypy would keep its value narrowed across the sends.
    return sender.courtesies_go


class Notes:
    def __init__(self) -> None:
        self.count = 0

    async def __call__(self) -> None:
        self.count += 1


async def test_a_fresh_bot_spends_no_event_on_courtesies_before_it_knows_its_limits() -> None:
    # On Synapse's defaults, a board's nine keycaps before the first 429 spend the whole
    # burst: every answer of the first game then waits its 5 s.
    fake = FakeTransport()
    sender = Sender(lambda: fake, relogin=Relogins(), sleep=Sleeps())
    board = await sender.send(ROOM, notice_content("board"))
    for key in ("1\ufe0f\u20e3", "2\ufe0f\u20e3"):
        sender.courtesy(ROOM, reaction_content(board, key))
    sender.redact(ROOM, "$consumed", "move played")
    await sender.send(ROOM, notice_content("answer"))
    await sender.flush()
    assert bodies(fake) == ["board", "answer"] and fake.redacted == []
    assert sender.dropped_courtesies == 3 and not sender.courtesies_go


async def test_sends_past_the_default_allowance_unrefused_prove_the_bot_free() -> None:
    time = Time()  # stands still: every send comes at once
    fake = FakeTransport()
    noted = Notes()
    sender = Sender(
        lambda: fake, relogin=Relogins(), sleep=time.sleep, clock=time.clock, note_free=noted
    )
    for n in range(12):  # the burst of 10, and 2 more: not yet beyond the margin
        await sender.send(ROOM, notice_content(f"answer {n}"))
    assert not courtesies_go(sender)
    await sender.send(ROOM, notice_content("answer 12"))
    await sender.flush()
    assert courtesies_go(sender) and noted.count == 1
    sender.courtesy(ROOM, reaction_content("$board", "1\ufe0f\u20e3"))
    await sender.flush()
    assert [s.event_type for s in fake.sent][-1] == "m.reaction"
    await sender.send(ROOM, notice_content("more"))
    await sender.flush()
    assert noted.count == 1  # noted once


async def test_answers_at_the_default_pace_prove_nothing() -> None:
    time = Time()
    fake = FakeTransport()
    sender = Sender(lambda: fake, relogin=Relogins(), sleep=time.sleep, clock=time.clock)
    for n in range(40):  # one every 5 s: what the defaults allow, forever
        await sender.send(ROOM, notice_content(f"answer {n}"))
        time.now += 5.0
    assert not sender.courtesies_go


async def test_a_rate_limit_forgets_that_the_bot_was_free() -> None:
    time = Time()
    fake = FakeTransport()
    sender = Sender(lambda: fake, relogin=Relogins(), sleep=time.sleep, clock=time.clock)
    sender.free_known()  # noted in the store by an earlier term
    assert sender.courtesies_go
    fake.send_errors = [limited(2000)]
    await sender.send(ROOM, notice_content("answer"))
    time.now += QUIET_S + 1  # long after the window
    sender.courtesy(ROOM, reaction_content("$board", "1\ufe0f\u20e3"))
    await sender.flush()
    assert bodies(fake) == ["answer"] and not sender.courtesies_go


async def test_a_rate_limit_in_one_room_holds_the_others() -> None:
    clock = [100.0]
    fake = FakeTransport()
    fake.send_errors = [limited(5000)]
    sleeps = Sleeps()
    sender = Sender(lambda: fake, relogin=Relogins(), sleep=sleeps, clock=lambda: clock[0])
    await sender.send(ROOM, notice_content("first"))
    sleeps.delays.clear()
    await sender.send(OTHER, notice_content("second"))  # the window is still open
    assert sleeps.delays and sleeps.delays[0] == pytest.approx(5.05)


async def test_a_refused_token_logs_in_again_and_the_answer_arrives() -> None:
    fake = FakeTransport()
    fake.send_errors = [MatrixError("send", "Access token has expired", "M_UNKNOWN_TOKEN")]
    relogins = Relogins()
    sender = Sender(lambda: fake, relogin=relogins, sleep=Sleeps())
    await sender.send(ROOM, notice_content("answer"))
    assert relogins.calls == 1 and bodies(fake) == ["answer"]


async def test_a_dead_token_fails_the_answer_instead_of_retrying_forever() -> None:
    fake = FakeTransport()
    fake.send_errors = [MatrixError("send", "Access token has expired", "M_UNKNOWN_TOKEN")]
    sender = Sender(lambda: fake, relogin=Relogins(dead=True), sleep=Sleeps())
    with pytest.raises(TokenDead):
        await sender.send(ROOM, notice_content("answer"))
    assert fake.sent == []


async def test_a_permanent_refusal_is_logged_and_the_queue_goes_on(
    caplog: pytest.LogCaptureFixture,
) -> None:
    fake = FakeTransport()
    fake.send_errors = [MatrixError("send", "kicked", "M_FORBIDDEN")]
    sender = Sender(lambda: fake, relogin=Relogins(), sleep=Sleeps())
    refused = sender.send(ROOM, notice_content("lost"))
    kept = sender.send(ROOM, notice_content("kept"))
    with caplog.at_level(logging.WARNING):
        await sender.flush()
    assert isinstance(refused.exception(), MatrixError)
    assert await kept and bodies(fake) == ["kept"]
    assert "M_FORBIDDEN" in caplog.text


async def test_the_fix_is_logged_once_however_often_the_bot_is_limited(
    caplog: pytest.LogCaptureFixture,
) -> None:
    fake = FakeTransport()
    fake.send_errors = [limited(100), limited(100), limited(100)]
    sender = Sender(lambda: fake, relogin=Relogins(), sleep=Sleeps())
    with caplog.at_level(logging.WARNING):
        await sender.send(ROOM, notice_content("answer"))
    lines = [r for r in caplog.records if "override_ratelimit" in r.getMessage()]
    assert len(lines) == 1


async def test_limited_the_rooms_take_turns_one_request_at_a_time() -> None:
    fake = FakeTransport()
    fake.send_errors = [limited(100)]
    sender = Sender(lambda: fake, relogin=Relogins(), sleep=Sleeps())
    await sender.send(ROOM, notice_content("first"))
    assert sender.limited
    gate = asyncio.Event()
    rooms = ["!a:example.org", "!b:example.org", "!c:example.org"]
    for room in rooms:
        fake.gates[room] = gate
    answers = [sender.send(room, notice_content(room)) for room in rooms]
    await fake.wait_until(lambda: fake.waiting >= 1)
    assert fake.waiting == 1  # the others wait their turn instead of all being refused
    gate.set()
    await asyncio.gather(*answers)
    assert bodies(fake) == ["first", *rooms]


async def test_the_keycaps_of_an_ended_board_still_waiting_are_dropped() -> None:
    fake = FakeTransport()
    gate = asyncio.Event()
    fake.gates[ROOM] = gate
    sender = Sender(lambda: fake, relogin=Relogins(), sleep=Sleeps(), exempt=True)
    sender.send(ROOM, notice_content("board"))
    await fake.wait_until(lambda: fake.waiting >= 1)  # the first one in flight
    for key in ("1\ufe0f\u20e3", "2\ufe0f\u20e3"):
        sender.courtesy(ROOM, reaction_content("$board", key))
    sender.courtesy(ROOM, reaction_content("$other", "1\ufe0f\u20e3"))
    sender.drop_courtesies(ROOM, "$board")
    gate.set()
    await sender.flush()
    reactions = [
        s.content["m.relates_to"]["event_id"] for s in fake.sent if s.event_type == "m.reaction"
    ]
    assert reactions == ["$other"]


async def test_limited_the_oldest_waiting_answer_goes_first_whatever_its_room() -> None:
    fake = FakeTransport()
    fake.send_errors = [limited(100)]
    sender = Sender(lambda: fake, relogin=Relogins(), sleep=Sleeps())
    await sender.send(ROOM, notice_content("first"))
    gate = asyncio.Event()
    a, b, c = "!a:example.org", "!b:example.org", "!c:example.org"
    for room in (a, b, c):
        fake.gates[room] = gate
    sender.send(a, notice_content("a1"))
    await fake.wait_until(lambda: fake.waiting >= 1)  # a1 in flight
    sender.send(b, notice_content("b"))
    sender.send(a, notice_content("a2"))  # behind a1 in its room, older than c
    sender.send(c, notice_content("c"))
    gate.set()
    await sender.flush()
    assert bodies(fake) == ["first", "a1", "b", "a2", "c"]


async def test_an_answer_refused_for_the_rate_keeps_its_turn() -> None:
    fake = FakeTransport()
    fake.send_errors = [limited(100)]
    sender = Sender(lambda: fake, relogin=Relogins(), sleep=Sleeps())
    await sender.send(ROOM, notice_content("first"))
    fake.send_errors = [limited(100)]  # the older answer is refused once more...
    older = sender.send("!a:example.org", notice_content("older"))
    younger = sender.send("!b:example.org", notice_content("younger"))
    await asyncio.gather(older, younger)
    # ...and still goes before the younger one, which would otherwise take every next window.
    assert bodies(fake) == ["first", "older", "younger"]

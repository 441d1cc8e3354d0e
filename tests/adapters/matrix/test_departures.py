"""Which membership events end a member's games: leave (left or kicked) and ban, never the
bot's own (its rooms left come under ``rooms.leave``), never a join or an invite."""

from __future__ import annotations

from typing import Any

import pytest

from adapters.matrix.departures import Departure, departure, gap_departures
from core.games import Outcome, Termination
from core.i18n import render
from core.sessions import GameService
from core.store import sessions
from tests.adapters.matrix.fakes import FakeTransport, text
from tests.adapters.matrix.harness import (
    ALICE,
    BOB,
    CAROL,
    ROOM,
    edit_of,
    is_board,
    notice_to,
    running,
    state,
)

BOT = "@bot:example.org"


def member(user: Any, membership: Any, sender: str = "@alice:example.org") -> dict[str, Any]:
    return {
        "type": "m.room.member",
        "state_key": user,
        "sender": sender,
        "event_id": "$e",
        "content": {"membership": membership},
    }


@pytest.mark.parametrize("membership", ["leave", "ban"])
def test_a_member_gone_is_a_departure(membership: str) -> None:
    event = member("@bob:example.org", membership)
    assert departure("!r", event, BOT) == Departure("!r", "@bob:example.org")


def test_a_kick_is_a_leave_sent_by_someone_else() -> None:
    event = member("@bob:example.org", "leave", sender="@mod:example.org")
    assert departure("!r", event, BOT) == Departure("!r", "@bob:example.org")


@pytest.mark.parametrize(
    "event",
    [
        member(BOT, "leave"),  # the bot's own: from rooms.leave only
        member("@bob:example.org", "join"),
        member("@bob:example.org", "invite"),
        member(None, "leave"),
        member("@bob:example.org", None),
        {"type": "m.room.member", "state_key": "@bob:example.org", "content": "leave"},
        {"type": "m.room.message", "content": {"membership": "leave"}, "state_key": "@b:x"},
    ],
)
def test_anything_else_is_not(event: dict[str, Any]) -> None:
    assert departure("!r", event, BOT) is None


def test_each_departure_has_a_worker_of_its_own_beside_its_room() -> None:
    assert Departure("!r").queue != "!r"
    assert Departure("!r").queue == Departure("!r", "@bob:example.org").queue


# --- gappy syncs: the state section of a limited timeline ---------------------------------------


def synced_member(
    user: str, membership: str, before: str, *, sender: str | None = None, n: int = 1
) -> dict[str, Any]:
    """A membership as Synapse puts it in a sync, ``unsigned.prev_content`` included."""
    return {
        "type": "m.room.member",
        "state_key": user,
        "sender": sender or user,
        "event_id": f"$member{n}",
        "origin_server_ts": 1_764_000_000_000 + n,
        "content": {"membership": membership},
        "unsigned": {
            "prev_content": {"membership": before, "displayname": user[1:].partition(":")[0]},
            "prev_sender": user,
            "replaces_state": f"$earlier{n}",
            "age": 1200,
        },
    }


def said(n: int, sender: str = "@alice:example.org") -> dict[str, Any]:
    return {
        "type": "m.room.message",
        "sender": sender,
        "event_id": f"$said{n}",
        "origin_server_ts": 1_764_000_001_000 + n,
        "content": {"msgtype": "m.text", "body": f"chatter {n}"},
        "unsigned": {"age": 900},
    }


CHATTER = [said(1), said(2), said(3)]


def test_a_member_who_left_in_the_gap_is_read_from_the_state_section() -> None:
    state = [
        synced_member(BOB, "leave", "join", n=1),
        synced_member(CAROL, "ban", "join", sender="@mod:example.org", n=2),
        synced_member("@dan:example.org", "join", "invite", n=3),
    ]
    assert gap_departures("!r", state, CHATTER, BOT) == (
        Departure("!r", BOB),
        Departure("!r", CAROL),
    )


def test_a_member_back_by_the_timelines_start_has_not_left() -> None:
    # Left and came back within the gap: the state section holds only the join.
    state = [synced_member(BOB, "join", "leave")]
    assert gap_departures("!r", state, CHATTER, BOT) == ()


def test_a_membership_in_the_timeline_too_is_the_timelines_to_read() -> None:
    state = [synced_member(BOB, "leave", "join", n=1), synced_member(CAROL, "leave", "join", n=2)]
    timeline = [
        said(1),
        synced_member(BOB, "join", "leave", n=3),  # came back: nothing ends
        synced_member(CAROL, "leave", "join", n=4),  # read there, from the timeline, once
    ]
    assert gap_departures("!r", state, timeline, BOT) == ()
    assert departure("!r", timeline[2], BOT) == Departure("!r", CAROL)


def test_the_state_from_before_the_bot_joined_ends_nothing() -> None:
    state = [synced_member(BOB, "leave", "join", n=1)]
    timeline = [synced_member(BOT, "join", "invite", n=2), said(1)]
    assert gap_departures("!r", state, timeline, BOT) == ()


def test_the_bots_own_membership_and_repeats_are_not_read_twice() -> None:
    state = [
        synced_member(BOT, "leave", "join", n=1),
        synced_member(BOB, "leave", "join", n=2),
        synced_member(BOB, "leave", "join", n=3),
    ]
    assert gap_departures("!r", state, CHATTER, BOT) == (Departure("!r", BOB),)


async def test_a_departure_from_a_gap_ends_the_game_once(service: GameService) -> None:
    """The adapter hands :attr:`SyncBatch.gone` to the service like a leave in the timeline."""
    await state(service).set_next_batch("s0")
    fake = FakeTransport()
    fake.deliver((ROOM, text("$challenge", ALICE, "!tres @bob")))
    async with running(service, fake):
        await fake.wait_sent(lambda sent: BOB in str(sent.content.get("m.mentions")))
        fake.deliver((ROOM, text("$accept", BOB, "!accept")))
        [board] = await fake.wait_sent(is_board)
        fake.deliver((ROOM, text("$m1", ALICE, "1")))
        await fake.wait_sent(edit_of(board.event_id))

        said = render("game.abandoned", "en", player="bob", winner="alice")
        fake.deliver((ROOM, text("$chatter", ALICE, "hello")), gone=(Departure(ROOM, BOB),))
        await fake.wait_sent(lambda sent: sent.content.get("body") == said)
        # The same departure in the next sync (a restart before the token was saved): nothing
        # is left to end.
        fake.deliver(gone=(Departure(ROOM, BOB),))
        fake.deliver((ROOM, text("$help", ALICE, "!help")))
        await fake.wait_sent(notice_to("$help"))
    assert len([sent for sent in fake.sent if sent.content.get("body") == said]) == 1
    last = await service.store.run(sessions.last_finished("matrix", ROOM, None))
    assert last is not None and last.outcome == Outcome(Termination.ABANDONED, 1)

"""Which membership events end a member's games: leave (left or kicked) and ban, never the
bot's own (its rooms left come under ``rooms.leave``), never a join or an invite."""

from __future__ import annotations

from typing import Any

import pytest

from adapters.matrix.departures import Departure, departure

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

"""Who may change a room's settings on Matrix: power levels from the synced room state, and
``BOT_ADMINS``; each message judged by the levels it was sent under."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from adapters.matrix import MatrixConfig
from adapters.matrix.power import ADMIN_LEVEL, PowerLevels
from core.replies import Actor, Reply
from core.sessions import GameService
from tests.adapters.matrix.fakes import BOT, FakeTransport, power_levels, text
from tests.adapters.matrix.harness import ALICE, BOB, CAROL, CONFIG, ROOM, notice_to, running, state

OTHER_ROOM = "!other:example.org"


def create(sender: str, version: str = "10", **content: Any) -> dict[str, Any]:
    return {
        "type": "m.room.create",
        "state_key": "",
        "event_id": f"$create-{sender}",
        "sender": sender,
        "content": {"room_version": version, **content},
    }


def test_a_level_is_the_users_entry_else_the_default() -> None:
    levels = PowerLevels()
    levels.apply(ROOM, power_levels("$pl", ALICE, {ALICE: 100, BOB: 50}, users_default=10))
    assert levels.level(ROOM, ALICE) == 100
    assert levels.level(ROOM, BOB) == 50 and levels.may_administer(ROOM, BOB)
    assert levels.level(ROOM, CAROL) == 10 and not levels.may_administer(ROOM, CAROL)
    assert levels.level(OTHER_ROOM, ALICE) == 0  # a room never synced


def test_a_new_power_levels_event_replaces_the_old_one_whole() -> None:
    # matrix-nio merges the users of a new event into the old ones; a demotion by removal
    # must take effect.
    levels = PowerLevels()
    levels.apply(ROOM, power_levels("$1", ALICE, {ALICE: 100, BOB: 50}))
    levels.apply(ROOM, power_levels("$2", ALICE, {ALICE: 100}))
    assert levels.level(ROOM, BOB) == 0
    assert not levels.may_administer(ROOM, BOB)


def test_without_power_levels_the_creator_has_100() -> None:
    levels = PowerLevels()
    levels.apply(ROOM, create(ALICE))
    assert levels.level(ROOM, ALICE) == 100 and levels.level(ROOM, BOB) == 0
    levels.apply(ROOM, power_levels("$pl", ALICE, {BOB: 100}))
    assert levels.level(ROOM, ALICE) == 0  # before room version 12, the event decides


def test_from_room_version_12_the_creators_stand_above_every_level() -> None:
    levels = PowerLevels()
    levels.apply(ROOM, create(ALICE, "12", additional_creators=[BOB]))
    levels.apply(ROOM, power_levels("$pl", ALICE, {CAROL: 100}))
    assert levels.may_administer(ROOM, ALICE) and levels.may_administer(ROOM, BOB)
    assert levels.level(ROOM, ALICE) > levels.level(ROOM, CAROL) == 100


def test_odd_or_foreign_events_change_nothing() -> None:
    levels = PowerLevels()
    levels.apply(ROOM, power_levels("$pl", ALICE, {BOB: 50}))
    not_state = {**power_levels("$x", BOB, {BOB: 100}), "state_key": "@bob:example.org"}
    levels.apply(ROOM, not_state)  # a state key of its own: not the room's levels
    levels.apply(ROOM, {"type": "m.room.power_levels", "state_key": "", "content": "junk"})
    levels.apply(ROOM, text("$t", BOB, '{"users": {"@bob:example.org": 100}}'))
    assert levels.level(ROOM, BOB) == 50
    written = {**power_levels("$s", ALICE, {}), "content": {"users": {BOB: "75"}}}
    levels.apply(ROOM, written)  # old room versions allow levels as strings
    assert levels.level(ROOM, BOB) == 75
    levels.apply(ROOM, {**written, "content": {"users": {BOB: True}, "users_default": "x"}})
    assert levels.level(ROOM, BOB) == 0
    assert ADMIN_LEVEL == 50


class Recording:
    """The real service, noting who acted on each call (to check what the adapter said)."""

    def __init__(self, service: GameService) -> None:
        self._service = service
        self.actors: list[Actor] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._service, name)

    async def handle_text(self, actor: Actor, text: str, **kwargs: Any) -> Sequence[Reply]:
        self.actors.append(actor)
        return await self._service.handle_text(actor, text, **kwargs)


async def test_each_message_is_judged_by_the_levels_it_was_sent_under(
    service: GameService,
) -> None:
    await state(service).set_next_batch("s0")
    spy = Recording(service)
    fake = FakeTransport()
    config = MatrixConfig(CONFIG.homeserver, BOT, password="pw", bot_admins=(CAROL,))
    # The full state of the first sync: Alice is an admin; Bob becomes one mid-timeline.
    fake.deliver(
        (ROOM, text("$1", BOB, "!help")),
        (ROOM, text("$2", ALICE, "!help")),
        (ROOM, power_levels("$pl", ALICE, {ALICE: 100, BOB: 50})),
        (ROOM, text("$3", BOB, "!help I am admin now, promise")),
        (ROOM, text("$4", CAROL, "!help")),
        state=((ROOM, power_levels("$pl0", ALICE, {ALICE: 100})),),
    )
    async with running(spy, fake, config):  # type: ignore[arg-type]
        await fake.wait_sent(notice_to("$4"))
        # Demoted by a new event that leaves him out: back to the default.
        fake.deliver(
            (ROOM, power_levels("$pl2", ALICE, {ALICE: 100})), (ROOM, text("$5", BOB, "!help"))
        )
        await fake.wait_sent(notice_to("$5"))
    admins = [(a.user_id, a.is_admin) for a in spy.actors]
    assert admins == [(BOB, False), (ALICE, True), (BOB, True), (CAROL, True), (BOB, False)]
    assert all(a.server_id is None and a.platform == "matrix" for a in spy.actors)


async def test_levels_set_in_skipped_history_still_count(service: GameService) -> None:
    spy = Recording(service)
    fake = FakeTransport()
    # The very first start skips old messages, but not the state they changed.
    fake.deliver((ROOM, power_levels("$pl", ALICE, {BOB: 50})), (ROOM, text("$old", BOB, "!help")))
    async with running(spy, fake) as adapter:  # type: ignore[arg-type]
        await asyncio.wait_for(adapter.ready.wait(), 5)
        fake.deliver((ROOM, text("$new", BOB, "!help")))
        await fake.wait_sent(notice_to("$new"))
    assert [(a.user_id, a.is_admin) for a in spy.actors] == [(BOB, True)]

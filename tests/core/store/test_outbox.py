"""The outbox on both stores: items left for the process that serves their chat come back in
order, each claimed by one caller alone (a burst of claims from two stores), a claim whose
process died taken again once it lapsed, a chat's items taken in order, a board item
kept at its newest version, an item that shows the board taking older board items away,
expired items gone; the schema step that brings ``open_boards``' rows over; and a reminder
taken while a room upgrade moves its game stays taken."""

from __future__ import annotations

import asyncio
import dataclasses
import time

from core.store import outbox, schema, sessions
from core.store.migrations import RELAY, STEPS
from core.store.models import JsonValue, Kind, OutboxItem
from tests.backends import Backend
from tests.core.store.helpers import NOW, before_step, make_session

LATER = NOW + 3600
CLAIM = 60.0


def board(session_id: str, version: int, chat: str = "!room") -> OutboxItem:
    return OutboxItem(Kind.BOARD, "mx", chat, session_id, version, seat=2)


async def test_items_come_back_in_order_each_taken_once(backend: Backend) -> None:
    async with backend.open() as one, backend.open() as two:
        game = make_session()
        await one.run(sessions.create(game))
        seek: dict[str, JsonValue] = {
            "seek": ["player", "id", "mx", "!room", "bob", "Bob", 3, 3, 3, 0, 1, 120.0]
        }
        left = [
            OutboxItem(Kind.REMINDER, "mx", "!room", game.id, 1, seat=1),
            OutboxItem(Kind.SEEK_EXPIRED, "mx", "!other", detail=seek),
            OutboxItem(Kind.TIMEOUT, "disc", "chan", game.id, 2),
        ]
        for item in left:
            await one.run(outbox.outbox_put(item, LATER))
        due = await two.run(outbox.outbox_due("mx", NOW))
        assert [dataclasses.replace(item, id=None) for item in due] == left[:2]
        assert due[0].id is not None and due[1].id is not None and due[0].id < due[1].id
        # Both stores claim every item at once: each is taken by exactly one.
        ids = [item.id for item in due if item.id is not None]
        taken = await asyncio.gather(
            *(
                store.run(outbox.outbox_take(item_id, NOW, NOW + CLAIM))
                for item_id in ids
                for store in (one, two)
            )
        )
        assert sorted(taken) == [False, False, True, True]
        assert await one.run(outbox.outbox_due("mx", NOW)) == []
        [timeout] = await one.run(outbox.outbox_due("disc", NOW))
        assert timeout.kind is Kind.TIMEOUT and timeout.version == 2


async def test_a_claim_whose_process_died_is_taken_again_once_it_lapsed(
    backend: Backend,
) -> None:
    async with backend.open() as one, backend.open() as two:
        await one.run(outbox.outbox_put(OutboxItem(Kind.SEEK_EXPIRED, "mx", "!room"), LATER))
        [item] = await one.run(outbox.outbox_due("mx", NOW))
        assert item.id is not None
        assert await one.run(outbox.outbox_take(item.id, NOW, NOW + CLAIM))  # and its process dies
        # While the claim holds, nobody else sees or takes it.
        assert await two.run(outbox.outbox_due("mx", NOW + CLAIM - 1)) == []
        assert not await two.run(outbox.outbox_take(item.id, NOW + CLAIM - 1, NOW + 2 * CLAIM))
        # Lapsed: due again, taken by one of two processes claiming it at once, and gone once
        # shown.
        later = NOW + CLAIM
        assert await two.run(outbox.outbox_due("mx", later)) == [item]
        taken = await asyncio.gather(
            one.run(outbox.outbox_take(item.id, later, later + CLAIM)),
            two.run(outbox.outbox_take(item.id, later, later + CLAIM)),
        )
        assert sorted(taken) == [False, True]
        await two.run(outbox.outbox_done(item))
        assert await backend.sql("SELECT id FROM outbox") == []


async def test_a_chats_items_are_taken_in_order(backend: Backend) -> None:
    async with backend.open() as store:
        for chat in ("!room", "!room", "!other"):
            await store.run(outbox.outbox_put(OutboxItem(Kind.SEEK_EXPIRED, "mx", chat), LATER))
        first, second, elsewhere = await store.run(outbox.outbox_due("mx", NOW))
        assert first.id is not None and second.id is not None and elsewhere.id is not None
        assert await store.run(outbox.outbox_take(first.id, NOW, NOW + CLAIM))
        # The first is being shown (or its process died): the second waits for it, another
        # chat does not.
        assert not await store.run(outbox.outbox_take(second.id, NOW, NOW + CLAIM))
        assert await store.run(outbox.outbox_take(elsewhere.id, NOW, NOW + CLAIM))
        await store.run(outbox.outbox_done(first))
        assert await store.run(outbox.outbox_take(second.id, NOW, NOW + CLAIM))


async def test_a_claimed_board_moved_on_meanwhile_stays_due(backend: Backend) -> None:
    async with backend.open() as store:
        game = make_session()
        await store.run(sessions.create(game))
        await store.run(outbox.outbox_put(board(game.id, 3), LATER))
        [taken] = await store.run(outbox.outbox_due("mx", NOW))
        assert taken.id is not None and await store.run(
            outbox.outbox_take(taken.id, NOW, NOW + CLAIM)
        )
        await store.run(
            outbox.outbox_put(board(game.id, 4), LATER)
        )  # after it read the game, maybe
        await store.run(outbox.outbox_done(taken))
        [due] = await store.run(outbox.outbox_due("mx", NOW))
        assert (due.id, due.version) == (taken.id, 4)
        # A timeout leaves a claimed board alone: it comes after the board being shown.
        assert await store.run(outbox.outbox_take(due.id, NOW, NOW + CLAIM))
        await store.run(
            outbox.outbox_put(OutboxItem(Kind.TIMEOUT, "mx", "!room", game.id, 5), LATER)
        )
        [timeout] = await store.run(outbox.outbox_due("mx", NOW))
        assert timeout.id is not None
        assert not await store.run(outbox.outbox_take(timeout.id, NOW, NOW + CLAIM))
        await store.run(outbox.outbox_done(due))
        assert await store.run(outbox.outbox_take(timeout.id, NOW, NOW + CLAIM))


async def test_a_board_item_is_kept_once_at_its_newest_version(backend: Backend) -> None:
    async with backend.open() as store:
        game = make_session()
        await store.run(sessions.create(game))
        for version in (3, 5, 4):  # the last one comes late: it changes nothing
            await store.run(outbox.outbox_put(board(game.id, version), LATER))
        await store.run(outbox.outbox_put(board(game.id, 2, chat="!elsewhere"), LATER))
        due = await store.run(outbox.outbox_due("mx", NOW))
        assert [(item.chat_id, item.version) for item in due] == [("!room", 5), ("!elsewhere", 2)]


async def test_an_item_that_shows_the_board_takes_older_boards_away(backend: Backend) -> None:
    async with backend.open() as store:
        game = make_session()
        await store.run(sessions.create(game))
        await store.run(outbox.outbox_put(board(game.id, 3), LATER))
        await store.run(outbox.outbox_put(board(game.id, 9, chat="!elsewhere"), LATER))
        ended = OutboxItem(Kind.TIMEOUT, "mx", "!room", game.id, 4)
        await store.run(outbox.outbox_put(ended, LATER))
        due = await store.run(outbox.outbox_due("mx", NOW))
        assert [(item.kind, item.chat_id) for item in due] == [
            (Kind.BOARD, "!elsewhere"),
            (Kind.TIMEOUT, "!room"),
        ]


async def test_a_board_waits_for_no_item_that_shows_it_already(backend: Backend) -> None:
    async with backend.open() as store:
        game = make_session()
        await store.run(sessions.create(game))
        paired = OutboxItem(Kind.PAIRED, "mx", "!room", game.id, 1, detail={"seeks": []})
        await store.run(outbox.outbox_put(paired, LATER))
        await store.run(outbox.outbox_put(board(game.id, 2), LATER))  # shown by the pairing's item
        await store.run(outbox.outbox_put(board(game.id, 2, chat="!elsewhere"), LATER))
        due = await store.run(outbox.outbox_due("mx", NOW))
        assert [(item.kind, item.chat_id) for item in due] == [
            (Kind.PAIRED, "!room"),
            (Kind.BOARD, "!elsewhere"),
        ]
        # Once the pairing's item is taken (it may have read the game already), a later change
        # is due again.
        assert due[0].id is not None and await store.run(
            outbox.outbox_take(due[0].id, NOW, NOW + CLAIM)
        )
        await store.run(outbox.outbox_put(board(game.id, 3), LATER))
        assert [item.version for item in await store.run(outbox.outbox_due("mx", NOW))] == [2, 3]


async def test_items_nobody_showed_in_time_go(backend: Backend) -> None:
    async with backend.open() as store:
        game = make_session()
        await store.run(sessions.create(game))
        await store.run(outbox.outbox_put(board(game.id, 1), NOW + 10))
        await store.run(outbox.outbox_put(board(game.id, 1, chat="!later"), NOW + 100))
        assert [item.chat_id for item in await store.run(outbox.outbox_due("mx", NOW + 10))] == [
            "!later"
        ]
        await store.run(sessions.delete_expired(NOW + 10))
        assert await backend.sql("SELECT chat_id FROM outbox") == [("!later",)]


async def test_an_item_this_version_cannot_show_is_left_alone(backend: Backend) -> None:
    async with backend.open() as store:
        await backend.sql(
            "INSERT INTO outbox (platform, chat_id, kind, session_id, version, detail,"
            " expires_at) VALUES ('mx', '!room', 'newer_kind', NULL, 0, '{}', $1)",
            LATER,
        )
        await store.run(outbox.outbox_put(OutboxItem(Kind.SEEK_EXPIRED, "mx", "!room"), LATER))
        [item] = await store.run(outbox.outbox_due("mx", NOW))
        assert item.kind is Kind.SEEK_EXPIRED


async def test_the_step_brings_the_boards_due_over(backend: Backend) -> None:
    """A database at the version before the outbox's step, with a board due in
    ``open_boards``: the step moves it to the outbox and drops the table (and the steps after
    it, if any, run as usual)."""
    game_id = await before_step(backend, RELAY)
    await backend.sql("INSERT INTO open_boards VALUES ('mx', '!room', $1, 4)", game_id)
    async with backend.open() as store:
        assert await store.run(schema.schema_version()) == len(STEPS)
        [item] = await store.run(outbox.outbox_due("mx", NOW))
    assert (item.kind, item.chat_id, item.session_id, item.version) == (
        Kind.BOARD,
        "!room",
        game_id,
        4,
    )
    [(left,)] = await backend.sql("SELECT expires_at FROM outbox")
    assert left > time.time() + 86_000  # a day from the upgrade, by the database's clock


async def test_a_reminder_taken_stays_taken_when_its_game_moves(backend: Backend) -> None:
    async with backend.open() as store:
        game = dataclasses.replace(
            make_session(), clock=300.0, deadline=LATER, remind_at=LATER - 60
        )
        await store.run(sessions.create(game))
        # A room upgrade read the game; the sweep reminded its player meanwhile.
        assert await store.run(sessions.take_reminder(game.id, game.version)) == ()
        moved = dataclasses.replace(game, chat_id="c2", version=game.version + 1)
        assert await store.run(sessions.swap(game, moved))
        stored = await store.run(sessions.get(game.id))
        assert stored is not None and stored.chat_id == "c2"
        assert stored.remind_at is None and stored.deadline == LATER
        # A game whose reminder is still to come keeps it.
        other = dataclasses.replace(make_session(alice="ann", bob="ben"), clock=300.0)
        other = dataclasses.replace(other, deadline=LATER, remind_at=LATER - 60)
        await store.run(sessions.create(other))
        assert await store.run(
            sessions.swap(other, dataclasses.replace(other, chat_id="c2", version=2))
        )
        kept = await store.run(sessions.get(other.id))
        assert kept is not None and kept.remind_at == LATER - 60


async def test_what_waits_for_a_game_follows_it_to_its_new_chat(backend: Backend) -> None:
    async with backend.open() as store:
        game = make_session(chat="!old")
        await store.run(sessions.create(game))
        reminder = OutboxItem(Kind.REMINDER, "test", "!old", game.id, 1, seat=1)
        await store.run(outbox.outbox_put(reminder, LATER))
        await store.run(
            outbox.outbox_put(OutboxItem(Kind.BOARD, "test", "!old", game.id, 1), LATER)
        )
        await store.run(
            outbox.outbox_put(OutboxItem(Kind.BOARD, "test", "!new", game.id, 1), LATER)
        )
        await store.run(
            outbox.outbox_put(OutboxItem(Kind.TIMEOUT, "test", "!other", "another", 1), LATER)
        )
        assert await store.run(
            sessions.swap(game, dataclasses.replace(game, chat_id="!new", version=2))
        )
        due = await store.run(outbox.outbox_due("test", NOW))
        assert sorted((item.kind.value, item.chat_id) for item in due) == [
            ("board", "!new"),
            ("reminder", "!new"),
            ("timeout", "!other"),
        ]

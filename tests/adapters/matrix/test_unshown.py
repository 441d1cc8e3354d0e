"""Boards whose newest edit was still queued when the process stopped (rate-limited answers
wait in the send queues) are edited again at the next start, to what the store holds; the real
service on a real SQLite file, a fake homeserver."""

from __future__ import annotations

import asyncio

from adapters.matrix.output import Output
from adapters.matrix.sender import Sender
from adapters.matrix.state import BoardRef, Waiting
from adapters.matrix.unshown import Unshown
from core.replies import Actor
from core.sessions import GameService
from tests.adapters.matrix.fakes import FakeTransport, Sent
from tests.adapters.matrix.harness import ALICE, ROOM, edit_of, is_board, no_relogin, state


async def test_an_edit_queued_at_a_stop_is_shown_at_the_next_start(service: GameService) -> None:
    alice = Actor("matrix", ROOM, ALICE, "alice")
    [started] = await service.handle_text(alice, "!quatre easy")
    assert started.session_id is not None
    before = FakeTransport()
    sender = Sender(lambda: before, relogin=no_relogin)
    output = Output(state(service), sender, "en", add_keycaps=False)
    await output.apply(ROOM, [started], reply_to=None)
    [board] = [s for s in before.sent if is_board(s)]

    # The answer to a move waits (the homeserver limits the bot) when the process stops.
    before.gates[ROOM] = asyncio.Event()
    moved = await service.handle_move(alice, started.session_id, 3)
    await output.apply(ROOM, moved, reply_to=None)
    await before.wait_until(lambda: before.waiting == 1)
    await sender.close(0)
    await output.close()
    assert not [s for s in before.sent if edit_of(board.event_id)(s)]
    [noted] = await state(service).unshown()
    assert noted.ref.event_id == board.event_id and noted.final is None

    # The next start (another process, maybe) edits that board to the stored state.
    after = FakeTransport()
    sender = Sender(lambda: after, relogin=no_relogin)
    output = Output(state(service), sender, "en", add_keycaps=False)
    assert await output.show_unshown(service) == 1
    await sender.flush()
    await output.close()
    [edit] = after.sent
    assert edit_of(board.event_id)(edit) and stones(edit) == 2  # alice's and the bot's
    assert await state(service).unshown() == []
    # Shown: a later start has nothing to show again.
    assert await Output(state(service), sender, "en", add_keycaps=False).show_unshown(service) == 0


async def test_the_end_of_a_game_deleted_since_is_sent_again_as_it_was(
    service: GameService,
) -> None:
    alice = Actor("matrix", ROOM, ALICE, "alice")
    [started] = await service.handle_text(alice, "!quatre easy")
    before = FakeTransport()
    sender = Sender(lambda: before, relogin=no_relogin)
    output = Output(state(service), sender, "en", add_keycaps=False)
    await output.apply(ROOM, [started], reply_to=None)
    [board] = [s for s in before.sent if is_board(s)]
    before.gates[ROOM] = asyncio.Event()
    # Ended before its first move: the game is deleted, its last board exists only as queued.
    await output.apply(ROOM, await service.handle_text(alice, "!final"), reply_to=None)
    await before.wait_until(lambda: before.waiting == 1)
    await sender.close(0)
    await output.close()

    after = FakeTransport()
    sender = Sender(lambda: after, relogin=no_relogin)
    output = Output(state(service), sender, "en", add_keycaps=False)
    assert await output.show_unshown(service) == 1
    await sender.flush()
    await output.close()
    [edit] = after.sent
    assert edit_of(board.event_id)(edit)
    assert "alice ended the game" in str(edit.content["m.new_content"]["body"])
    assert await state(service).unshown() == []


async def test_a_board_whose_game_is_gone_is_forgotten(service: GameService) -> None:
    alice = Actor("matrix", ROOM, ALICE, "alice")
    [started] = await service.handle_text(alice, "!quatre easy")
    assert started.session_id is not None
    fake = FakeTransport()
    sender = Sender(lambda: fake, relogin=no_relogin)
    output = Output(state(service), sender, "en", add_keycaps=False)
    await output.apply(ROOM, [started], reply_to=None)
    fake.gates[ROOM] = asyncio.Event()
    moved = await service.handle_move(alice, started.session_id, 3)
    await output.apply(ROOM, moved, reply_to=None)
    await fake.wait_until(lambda: fake.waiting == 1)
    await sender.close(0)
    await output.close()
    # Gone before the next start (an admin deleted it, or it expired and was swept).
    assert await service.store.delete(started.session_id)
    output = Output(
        state(service), Sender(lambda: fake, relogin=no_relogin), "en", add_keycaps=False
    )
    assert await output.show_unshown(service) == 0
    await output.close()
    assert await state(service).unshown() == []


def stones(sent: Sent) -> int:
    body = str(sent.content["m.new_content"]["body"])
    return sum(body.count(mark) for mark in "🔴🟡")


async def test_a_process_that_lost_the_lease_notes_nothing(service: GameService) -> None:
    holds = [True]
    unshown = Unshown(state(service), lambda: holds[0])
    ref = BoardRef("s1", ROOM, "$board")
    unshown.queued(ref, 3)
    await unshown.close()
    assert await state(service).unshown() == [Waiting(ref, 3)]
    # Taken over: the row is the new holder's; this process's delivery changes nothing there.
    holds[0] = False
    unshown.delivered("s1", 3)
    await unshown.close()
    assert await state(service).unshown() == [Waiting(ref, 3)]

"""Boards whose newest edit was still queued when the process stopped (rate-limited answers
wait in the send queues) are edited again at the next start, to what the store holds; the real
service on a real SQLite file, a fake homeserver."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path

from adapters.matrix.output import Output
from adapters.matrix.sender import Sender
from adapters.matrix.state import BoardRef, Waiting
from adapters.matrix.unshown import Unshown
from core.i18n import render
from core.replies import Actor, Reply
from core.sessions import GameService
from core.store import sessions
from tests.adapters.matrix.fakes import FakeTransport, Sent
from tests.adapters.matrix.harness import (
    ALICE,
    FAST,
    ROOM,
    edit_of,
    is_board,
    no_relogin,
    serving,
    state,
)

ALICE_HERE = Actor("matrix", ROOM, ALICE, "alice")


async def stopped_while_answering(
    service: GameService, answer: Callable[[str], Awaitable[list[Reply]]]
) -> tuple[str, Sent]:
    """A game's board posted, then ``answer`` (given the session id) shown while the
    homeserver holds every send, and the process stopped; the session id and the board."""
    [started] = await service.handle_text(ALICE_HERE, "!quatre easy")
    assert started.session_id is not None
    fake = FakeTransport()
    sender = Sender(lambda: fake, relogin=no_relogin)
    output = Output(state(service), sender, "en", add_keycaps=False)
    await output.apply(ROOM, [started], reply_to=None)
    [board] = [s for s in fake.sent if is_board(s)]
    fake.gates[ROOM] = asyncio.Event()
    await output.apply(ROOM, await answer(started.session_id), reply_to=None)
    await fake.wait_until(lambda: fake.waiting == 1)
    await sender.close(0)
    await output.close()
    assert not [s for s in fake.sent if edit_of(board.event_id)(s)]
    return started.session_id, board


async def next_start(service: GameService) -> tuple[int, list[Sent]]:
    """Another term (a restart, another process): how many boards it showed again, and what
    it sent."""
    fake = FakeTransport()
    sender = Sender(lambda: fake, relogin=no_relogin)
    output = Output(state(service), sender, "en", add_keycaps=False)
    shown = await output.show_unshown(service)
    await sender.flush()
    await output.close()
    return shown, fake.sent


async def test_an_edit_queued_at_a_stop_is_shown_at_the_next_start(service: GameService) -> None:
    async def move(session_id: str) -> list[Reply]:
        return await service.handle_move(ALICE_HERE, session_id, 3)

    _, board = await stopped_while_answering(service, move)
    [noted] = await state(service).unshown()
    assert noted.ref.event_id == board.event_id and noted.final is None

    shown, [edit] = await next_start(service)
    assert shown == 1
    assert edit_of(board.event_id)(edit) and stones(edit) == 2  # alice's and the bot's
    assert await state(service).unshown() == []
    # Shown: a later start has nothing to show again.
    assert await next_start(service) == (0, [])


async def test_the_end_of_a_game_deleted_since_is_sent_again_as_it_was(
    service: GameService,
) -> None:
    async def final(_: str) -> list[Reply]:
        # Ended before its first move: the game is deleted, its last board exists only queued.
        return await service.handle_text(ALICE_HERE, "!final")

    _, board = await stopped_while_answering(service, final)
    shown, [edit] = await next_start(service)
    assert shown == 1 and edit_of(board.event_id)(edit)
    assert "alice ended the game" in str(edit.content["m.new_content"]["body"])
    assert await state(service).unshown() == []


async def test_a_board_whose_game_is_gone_is_forgotten(service: GameService) -> None:
    async def move(session_id: str) -> list[Reply]:
        return await service.handle_move(ALICE_HERE, session_id, 3)

    session_id, _ = await stopped_while_answering(service, move)
    # Gone before the next start (an admin deleted it, or it expired and was swept).
    assert await service.store.run(sessions.delete(session_id))
    assert await next_start(service) == (0, [])
    assert await state(service).unshown() == []


async def test_a_process_that_lost_the_lease_notes_nothing(service: GameService) -> None:
    holds = [True]
    unshown = Unshown(state(service), lambda: holds[0])
    ref = BoardRef("s1", ROOM, "$board")
    unshown.queued(ref, 3)
    await unshown.close()
    assert await state(service).unshown() == [Waiting(ref, 3)]
    # Taken over: the row is the new holder's; this process's delivery changes nothing there.
    holds[0] = False
    unshown.delivered(ref, 3)
    await unshown.close()
    assert await state(service).unshown() == [Waiting(ref, 3)]


def stones(sent: Sent) -> int:
    body = str(sent.content["m.new_content"]["body"])
    return sum(body.count(mark) for mark in "🔴🟡")


async def test_a_board_edited_again_carries_the_links_of_its_first_show(tmp_path: Path) -> None:
    url = "https://games.example.org"
    settings = replace(FAST, public_url=url)
    async with serving(tmp_path / "linked.sqlite3", settings=settings) as service:

        async def move(session_id: str) -> list[Reply]:
            return await service.handle_move(ALICE_HERE, session_id, 3)

        session_id, _ = await stopped_while_answering(service, move)
        session = await service.store.run(sessions.get(session_id))
        assert session is not None
        [noted] = await state(service).unshown()
        _, [edit] = await next_start(service)
        shown = edit.content["m.new_content"]
        live = f"{render('links.live', 'en')}: {url}/live/{session.public_id}"
        assert live in str(shown["body"]) and f'<a href="{url}/live/' in shown["formatted_body"]

        # The game ended while no process showed it: the board edited again is its end, which
        # links the game's page, as the end's first show does.
        [ended] = await service.handle_text(ALICE_HERE, "!final")
        assert ended.board is not None and ended.board.finished
        await state(service).set_unshown([noted])
        _, [edit] = await next_start(service)
        page = f"{render('links.game', 'en')}: {url}/game/{session.public_id}"
        assert page in str(edit.content["m.new_content"]["body"])
        assert await state(service).board(session_id, ROOM) is None  # the end: nothing to edit

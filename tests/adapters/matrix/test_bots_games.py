"""A watched bots' game on Matrix: its moves are published one by one as edits of one board,
``!final`` stops it, and a move that ``!final`` overtook never covers the ended board.

The real service (its background task plays the game) and store; the scripted homeserver.
"""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path

from adapters.matrix.output import Output
from adapters.matrix.sender import Sender
from core.i18n import render
from core.replies import Actor, BoardView
from core.sessions import GameService, ServiceSettings
from tests.adapters.matrix.fakes import FakeTransport, Sent, text
from tests.adapters.matrix.harness import (
    ALICE,
    ROOM,
    edit_of,
    is_board,
    no_relogin,
    notice_to,
    running,
    serving,
    state,
)

BRISK = ServiceSettings(
    ai_workers=0, ai_warm_up=False, watch_move_interval=0.01, bot_vs_bot_budget=0.02
)


def stones(sent: Sent) -> int:
    content = sent.content.get("m.new_content", sent.content)
    body = str(content["body"])
    return sum(sum(line.count(mark) for mark in "❌⭕❎🅾") for line in body.split("\n")[1:4])


def finished(sent: Sent) -> bool:
    # An ended board says what to type next instead of how to move.
    content = sent.content.get("m.new_content", sent.content)
    return "!rematch" in str(content.get("body", ""))


async def test_a_bots_game_edits_one_board_move_by_move_to_the_end(tmp_path: Path) -> None:
    async with serving(tmp_path / "chatbots.sqlite3", settings=BRISK) as service:
        await state(service).set_next_batch("s0")
        fake = FakeTransport()
        fake.deliver((ROOM, text("$watch", ALICE, "!tres bot")))
        async with running(service, fake):
            [board] = await fake.wait_sent(is_board)
            original = board.event_id
            await fake.wait_sent(lambda s: edit_of(original)(s) and finished(s))
        edits = [s for s in fake.sent if edit_of(original)(s)]
        assert stones(board) == 0
        # Edits still waiting when a newer state came were replaced by it: never backwards.
        counts = [stones(edit) for edit in edits]
        assert counts == sorted(set(counts)) and counts[0] >= 1
        assert finished(edits[-1]) and not any(finished(edit) for edit in edits[:-1])
        assert len([s for s in fake.sent if is_board(s)]) == 1
        # The result is in the last edit: no notice after it.
        assert fake.sent[-1] is edits[-1]


async def test_final_stops_a_bots_game(tmp_path: Path) -> None:
    slow = dataclasses.replace(BRISK, watch_move_interval=0.2)
    async with serving(tmp_path / "chatbots.sqlite3", settings=slow) as service:
        await state(service).set_next_batch("s0")
        fake = FakeTransport()
        fake.deliver((ROOM, text("$watch", ALICE, "!quatre bot")))
        async with running(service, fake):
            [board] = await fake.wait_sent(is_board)
            await fake.wait_sent(edit_of(board.event_id), count=2)
            fake.deliver((ROOM, text("$final", ALICE, "!final")))
            [answer] = await fake.wait_sent(notice_to("$final"))
            assert render("game.watch_stopped", "en", player="alice") in answer.content["body"]
            # Long enough for several more moves, had the game gone on.
            await asyncio.sleep(1.0)
        edits = [s for s in fake.sent if edit_of(board.event_id)(s)]
        last = edits[-1]
        assert fake.sent.index(last) < fake.sent.index(answer)  # nothing after the stop
        assert render("game.stopped", "en") in last.content["m.new_content"]["body"]


async def test_a_board_older_than_the_one_shown_is_not_shown(service: GameService) -> None:
    alice = Actor("matrix", ROOM, ALICE, "alice")
    [started] = await service.handle_text(alice, "!tres easy")
    assert started.board is not None
    fake = FakeTransport()
    sender = Sender(lambda: fake, relogin=no_relogin)
    output = Output(state(service), sender, "en", add_keycaps=False)

    await output.apply(ROOM, [started], reply_to=None)
    [board] = [s for s in fake.sent if is_board(s)]
    newer = dataclasses.replace(started, new_message=False, board=_at(started.board, 5))
    older = dataclasses.replace(started, new_message=False, board=_at(started.board, 4))
    await output.apply(ROOM, [newer], reply_to=None)
    await sender.flush()
    await output.apply(ROOM, [older], reply_to=None)
    await output.apply(ROOM, [newer], reply_to=None)  # the same board again is fine
    await sender.flush()
    assert len([s for s in fake.sent if edit_of(board.event_id)(s)]) == 2


def _at(board: BoardView, version: int) -> BoardView:
    return dataclasses.replace(board, version=version)

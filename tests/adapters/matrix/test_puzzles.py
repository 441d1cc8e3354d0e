"""A puzzle in a Matrix room, against the scripted homeserver and the real service: its board
is posted like a game's, and a typed answer or a keycap reaction edits that board in place, with
the solver's defence and then the result (issue 35)."""

from __future__ import annotations

import re

from adapters.matrix.render import KEYCAPS
from core.puzzles import shipped
from core.puzzles.answer import Attempt, best_reply
from core.sessions import GameService
from tests.adapters.matrix.fakes import FakeTransport, reaction, text
from tests.adapters.matrix.harness import ALICE, ROOM, edit_of, is_board, running, state


async def test_a_typed_answer_edits_the_puzzles_board(service: GameService) -> None:
    await state(service).set_next_batch("s0")
    fake = FakeTransport()
    fake.deliver((ROOM, text("$start", ALICE, "!puzzle")))
    async with running(service, fake):
        [board] = await fake.wait_sent(is_board)
        found = re.search(r"Puzzle ([0-9a-f]{10}):", board.content["body"])
        assert found is not None
        puzzle = shipped.by_id(found[1])
        assert puzzle is not None
        attempt = Attempt(puzzle)
        for answer in range(1, puzzle.depth + 1):
            move = best_reply(attempt.position)
            fake.deliver((ROOM, text(f"$a{answer}", ALICE, str(move + 1))))
            edits = await fake.wait_sent(edit_of(board.event_id), count=answer)
            body = edits[-1].content["m.new_content"]["body"]
            if answer == puzzle.depth:
                assert "Solved! Puzzle rating" in body
            else:
                assert "Right! The solver defends with" in body
                defended = attempt.position.play(move)
                attempt = Attempt(puzzle, (*attempt.played, move, best_reply(defended)))
        assert len([s for s in fake.sent if is_board(s)]) == 1


async def test_a_keycap_reaction_answers_the_puzzles_board(service: GameService) -> None:
    await state(service).set_next_batch("s0")
    fake = FakeTransport()
    fake.deliver((ROOM, text("$start", ALICE, "!puzzle")))
    async with running(service, fake):
        [board] = await fake.wait_sent(is_board)
        found = re.search(r"Puzzle ([0-9a-f]{10}):", board.content["body"])
        assert found is not None
        puzzle = shipped.by_id(found[1])
        assert puzzle is not None
        move = best_reply(puzzle.position)
        fake.deliver((ROOM, reaction("$r1", ALICE, board.event_id, KEYCAPS[move])))
        [edit] = await fake.wait_sent(edit_of(board.event_id))
        body = edit.content["m.new_content"]["body"]
        assert "Solved!" in body or "Right! The solver defends with" in body

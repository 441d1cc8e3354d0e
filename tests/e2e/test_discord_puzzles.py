"""End to end on the loopback Discord: a puzzle's board is a board like a game's (column
buttons), a click answers it, the solver's defence and the result come back in place, and an
answer to a finished puzzle is told privately (issue 35)."""

from __future__ import annotations

from core.i18n import render
from core.puzzles.answer import Attempt, best_reply
from core.puzzles.streak import utc_day
from core.sessions.puzzles.solving import daily
from tests.e2e.discord_double import DiscordDouble, button_ids, buttons
from tests.e2e.discord_harness import Harness, ManualClock, clock, double, harness

__all__ = ["clock", "double", "harness"]  # fixtures


def column_button(message: dict[str, object], column: int) -> str:
    return next(cid for cid in button_ids(message) if cid.endswith(f":{column}"))


async def test_a_puzzle_is_answered_by_its_buttons(
    harness: Harness, double: DiscordDouble, clock: ManualClock
) -> None:
    puzzle = daily(utc_day(clock.now))
    start = await double.slash("puzzle", {}, user="alice")
    assert start.original_id is not None
    board = double.messages[start.original_id]
    assert [b["label"] for b in buttons(board)] == [str(c) for c in range(1, 8)]
    assert f"Puzzle {puzzle.id}" in board["content"]
    board_id = int(board["id"])
    assert "Alice" in board["content"] and "🤖 Alice" not in board["content"]
    attempt = Attempt(puzzle)
    while True:
        move = best_reply(attempt.position)  # the fastest win, or the only move that holds
        click = await double.click(board_id, column_button(board, move), user="alice")
        assert click.callback["type"] in (6, 7)  # the board message itself is updated
        board = double.messages[board_id]
        if "Solved!" in board["content"]:
            break
        assert "Right! The solver defends with" in board["content"]
        defended = attempt.position.play(move)
        attempt = Attempt(puzzle, (*attempt.played, move, best_reply(defended)))
    assert "Puzzle rating" in "\n".join(click.public())
    again = await double.click(board_id, column_button(board, 0), user="alice")
    assert again.ephemeral() == [render("puzzle.over.solved", "en", prefix="/")]

"""A puzzle's board and lines as players see them (pure). A puzzle's board is drawn as a game's
(the neutral :class:`~core.replies.BoardView`) under an id of its own that never names a game (a
game's id has 8 characters): a person's attempt (``pz-``), so that each player's board in a room
is edited on its own, or the daily post (``pd-``). A click on it reaches
:class:`~core.sessions.puzzles.solving.Puzzles` through the service's ordinary entry points; its
version is the number of answers of the attempt it shows (0 for the daily post)."""

from __future__ import annotations

from core.i18n import Param, Text
from core.puzzles.answer import Attempt
from core.puzzles.puzzle import Puzzle, Theme
from core.ratings import format_delta
from core.render import move_label
from core.replies import BoardView, PlayerView
from core.sessions.views import MARKS, board_cells
from core.store.models.puzzles import PuzzleResult

ATTEMPT = "pz-"
"""A board of one person's attempt: ``pz-<attempt id>``."""
DAILY = "pd-"
"""The daily post's board, anyone's to answer that day: ``pd-<puzzle id>``."""
_LENGTHS = {ATTEMPT: len(ATTEMPT) + 12, DAILY: len(DAILY) + 10}
SOLVER = "Solver"
"""The name of the puzzle's other side (a name, as a bot's "Bot (hard)" is)."""


def attempt_board(attempt_id: str) -> str:
    return ATTEMPT + attempt_id


def daily_board(puzzle: Puzzle) -> str:
    return DAILY + puzzle.id


def parse_board(board: str) -> tuple[str, str] | None:
    """(:data:`ATTEMPT` or :data:`DAILY`, the attempt's or puzzle's id) of a puzzle's board id;
    None for a game's (8 characters, never these lengths)."""
    kind = board[: len(ATTEMPT)]
    if _LENGTHS.get(kind) == len(board):
        return kind, board[len(kind) :]
    return None


def task(attempt: Attempt) -> Text:
    """What is asked of the player now (the board's line while the attempt goes on)."""
    puzzle = attempt.puzzle
    params: dict[str, Param] = {
        "id": puzzle.id,
        "mark": MARKS[puzzle.side_to_move],
        "moves": attempt.moves_left,
    }
    return Text(f"puzzle.status.{puzzle.theme.value}", params)


def puzzle_board(
    board: str, attempt: Attempt, version: int, player: PlayerView, status: Text
) -> BoardView:
    """The board ``board`` (an id) of ``attempt`` (its ``version``: answers so far),
    ``player`` on the side to move at the puzzle's start, the solver on the other."""
    position = attempt.position
    running = not attempt.finished and not position.is_over
    playable = position.legal_moves() if running else ()
    solver = PlayerView(SOLVER, None, "hard")
    players = (player, solver) if attempt.puzzle.side_to_move == 1 else (solver, player)
    return BoardView(
        session_id=board,
        version=version,
        rules=position.rules,
        cells=board_cells(position, playable),
        playable=playable,
        players=players,
        to_move=position.to_move if running else None,
        finished=not running,
        status=status,
    )


def going(attempt: Attempt, reply: int) -> Text:
    """A right move: the solver's defence, and what is asked now."""
    shown = move_label(attempt.puzzle.rules, reply)
    return Text("puzzle.going", {"reply": shown, "task": task(attempt)})


def solved(result: PuzzleResult) -> Text:
    """A solve: the new puzzle rating, its change and the streak, in one line."""
    params: dict[str, Param] = {
        "rating": result.after.display(),
        "delta": format_delta(result.after.rating - result.before.rating),
        "streak": result.streak.days,
    }
    return Text("puzzle.solved", params)


def failed(puzzle: Puzzle, move: int, reply: int | None, result: PuzzleResult) -> Text:
    """A wrong move, the solver's refutation, the solution and the rating change, in one line."""
    rules = puzzle.rules
    refutation: Param = (
        "" if reply is None else Text("puzzle.refutation", {"reply": move_label(rules, reply)})
    )
    key = "puzzle.failed.hold" if puzzle.theme is Theme.HOLD else "puzzle.failed.win"
    params: dict[str, Param] = {
        "move": move_label(rules, move),
        "refutation": refutation,
        "solution": move_label(rules, puzzle.solution),
        "rating": result.after.display(),
        "delta": format_delta(result.after.rating - result.before.rating),
    }
    return Text(key, params)

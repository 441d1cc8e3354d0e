"""A puzzle's page (``/puzzle/<id>``, ``/puzzle/today``; issue 35): its starting position, the
theme, the side to move, its rating and how many solved it, and its solution (the first move
and the proven line, with the bot's replies) only when asked (``?solution=1``), as plain
values; ``adapters/web/puzzles.py`` draws them.

Puzzles are the shipped sets' (:mod:`core.puzzles.shipped`) and those an operator added
(:func:`core.store.puzzles.puzzle_of`), public by nature: their ids are
digests of the position, nothing private is behind them. Today's is the one ``/puzzle`` gives
(:func:`core.sessions.puzzles.solving.daily`)."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import TYPE_CHECKING

from core.games.rules import COLUMN_LETTERS
from core.pages.game import MARKS, Cell, describe_board, game_title
from core.pages.game_picture import position_png
from core.pages.paths import puzzle_path
from core.puzzles import lines
from core.puzzles.puzzle import Puzzle, Theme
from core.puzzles.rating import of_difficulty
from core.ratings import Rating
from core.render import move_label
from core.sessions.puzzles.solving import daily
from core.store.puzzles import puzzle_of
from core.store.sql import Op, row

if TYPE_CHECKING:
    from core.store.port import Store


@dataclass(frozen=True, slots=True)
class PuzzlePage:
    """A puzzle's page.

    Attributes:
        task: what to find, in words ("X to move: win in 3").
        rating: its rating now ("1623 ±80"); ``attempts``, ``solved``: how many tried, solved.
        solution: the first move and why it is the one, or None (not asked for).
        line: with the solution, the proven line, a step per move of the solver's side (its
            move, then the bot's reply), to the win; empty when not asked for, or for an added
            puzzle (its answers are searched, no line is stored).
        today: it is today's puzzle (its address is ``/puzzle/today`` too).
        puzzle: the puzzle itself (its preview picture is drawn from it).
    """

    id: str
    title: str
    theme: str
    task: str
    to_move: str
    rating: str
    attempts: int
    solved: int
    board: tuple[tuple[Cell, ...], ...]
    columns: tuple[str, ...]
    gravity: bool
    rows: int
    cols: int
    description: str
    solution: str | None
    line: tuple[str, ...]
    today: bool
    path: str
    puzzle: Puzzle


def puzzle_rating(puzzle_id: str) -> Op[tuple[Rating, int] | None]:
    """The puzzle's rating and solves, or None when nobody tried it yet."""
    found = yield row(
        "SELECT rating, deviation, attempts, solved FROM puzzle_ratings WHERE puzzle_id = $1",
        puzzle_id,
    )
    if found is None:
        return None
    return Rating(float(found[0]), float(found[1]), int(found[2])), int(found[3])


def today_puzzle(now: datetime.datetime) -> Puzzle:
    """The puzzle ``/puzzle`` gives on ``now``'s UTC day."""
    return daily(now.astimezone(datetime.UTC).date())


async def puzzle_page(
    store: Store, puzzle_id: str, *, solution: bool, now: datetime.datetime
) -> PuzzlePage | None:
    """The page of the puzzle ``puzzle_id`` (shipped or added); None when there is none."""
    puzzle = await store.run(puzzle_of(puzzle_id))
    if puzzle is None:
        return None
    rated = await store.run(puzzle_rating(puzzle.id))
    rating, solved = rated if rated is not None else (of_difficulty(puzzle.difficulty), 0)
    position = puzzle.position
    rules = puzzle.rules
    mark = MARKS[puzzle.side_to_move - 1]
    last = position.last_cell
    board = tuple(
        tuple(
            Cell(("", *MARKS)[position.cell(r, c)], r * rules.cols + c == last, False)
            for c in range(rules.cols)
        )
        for r in range(rules.rows)
    )
    columns = tuple(str(c + 1) if rules.gravity else COLUMN_LETTERS[c] for c in range(rules.cols))
    return PuzzlePage(
        id=puzzle.id,
        title=f"{game_title(rules)} puzzle",
        theme=theme_words(puzzle),
        task=f"{mark} to move: {task_words(puzzle)}",
        to_move=mark,
        rating=f"{rating.rating:.0f} ±{rating.deviation:.0f}",
        attempts=rating.games,
        solved=solved,
        board=board,
        columns=columns,
        gravity=rules.gravity,
        rows=rules.rows,
        cols=rules.cols,
        description=describe_board(rules, position),
        solution=_solution(puzzle) if solution else None,
        line=_line(puzzle) if solution else (),
        today=today_puzzle(now).id == puzzle.id,
        path=puzzle_path(puzzle.id),
        puzzle=puzzle,
    )


def theme_words(puzzle: Puzzle) -> str:
    match puzzle.theme:
        case Theme.WIN:
            return "Win in N"
        case Theme.HOLD:
            return "Hold"
    return "Win by fours (VCF)"


def task_words(puzzle: Puzzle) -> str:
    """What the solver must find."""
    n = puzzle.depth
    moves = f"{n} move{'' if n == 1 else 's'}"
    match puzzle.theme:
        case Theme.WIN:
            return f"win in {moves}"
        case Theme.HOLD:
            return "find the only move that does not lose"
    return f"win by continuous fours in {moves}"


def puzzle_png(page: PuzzlePage) -> bytes:
    """The PNG of the puzzle's position for its link preview, the task under it (never the
    solution)."""
    puzzle = page.puzzle
    names = tuple(f"{m} (to move)" if m == page.to_move else m for m in MARKS)
    return position_png(puzzle.position, (names[0], names[1]), page.task, page.id)


def _solution(puzzle: Puzzle) -> str:
    move = move_label(puzzle.rules, puzzle.solution)
    where = "column" if puzzle.rules.gravity else "cell"
    why = "the only move that does not lose" if puzzle.theme is Theme.HOLD else "the only win"
    return f"{MARKS[puzzle.side_to_move - 1]} plays {where} {move}: {why}."


def _line(puzzle: Puzzle) -> tuple[str, ...]:
    """The proven line (:func:`core.puzzles.lines.known`) in words, a step per move of the
    solver's side: "X plays column 3, O answers column 4 (the longest defence)", the last one
    the win (for a hold: the solution and the best reply)."""
    line = lines.known(puzzle)
    if line is None:
        return ()
    mover, other = MARKS[puzzle.side_to_move - 1], MARKS[2 - puzzle.side_to_move]
    where = "column" if puzzle.rules.gravity else "cell"
    defence = {Theme.WIN: "the longest defence", Theme.VCF: "the forced block"}
    steps = []
    for at in range(0, len(line), 2):
        step = f"{mover} plays {where} {move_label(puzzle.rules, line[at])}"
        if at + 1 < len(line):
            why = defence.get(puzzle.theme, "the best reply")
            step += f", {other} answers {where} {move_label(puzzle.rules, line[at + 1])} ({why})"
        elif puzzle.theme is not Theme.HOLD:
            step += f": {puzzle.rules.k} in a row, {mover} wins"
        steps.append(step)
    return tuple(steps)

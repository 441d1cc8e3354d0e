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

from core.games.kinds import GameKind
from core.games.rules import COLUMN_LETTERS
from core.i18n import Param, Text
from core.pages.game import ENGLISH, MARKS, Cell, board_text
from core.pages.game_picture import position_png
from core.pages.paths import puzzle_path
from core.pages.words import Title
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
        title, title_today: its heading, on any day and on its own day.
        task: what to find, in words ("X to move: win in 3 moves"); every text a catalogue
            text drawn in the reader's language.
        rating: its rating now ("1623 ±80"); ``attempts``, ``solved``: how many tried, solved.
        solution: the first move and why it is the one, or None (not asked for).
        line: with the solution, the proven line, a step per move of the solver's side (its
            move, then the bot's reply), to the win; empty when not asked for, or for an added
            puzzle (its answers are searched, no line is stored).
        today: it is today's puzzle (its address is ``/puzzle/today`` too).
        puzzle: the puzzle itself (its preview picture is drawn from it).
    """

    id: str
    title: Text
    title_today: Text
    theme: Text
    task: Text
    to_move: str
    rating: str
    attempts: int
    solved: int
    board: tuple[tuple[Cell, ...], ...]
    columns: tuple[str, ...]
    gravity: bool
    rows: int
    cols: int
    description: Text
    solution: Text | None
    line: tuple[Text, ...]
    hold: bool
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
    game = Text(*GameKind.of(rules).title(rules))  # within a sentence; the title starts it
    return PuzzlePage(
        id=puzzle.id,
        title=Title("page.puzzle.title", {"game": game}),
        title_today=Title("page.puzzle.title_today", {"game": game}),
        theme=Text(f"page.puzzle.theme.{puzzle.theme.value}"),
        task=task_words(puzzle),
        to_move=mark,
        rating=f"{rating.rating:.0f} ±{rating.deviation:.0f}",
        attempts=rating.games,
        solved=solved,
        board=board,
        columns=columns,
        gravity=rules.gravity,
        rows=rules.rows,
        cols=rules.cols,
        description=board_text(rules, position),
        solution=_solution(puzzle) if solution else None,
        line=_line(puzzle) if solution else (),
        hold=puzzle.theme is Theme.HOLD,
        today=today_puzzle(now).id == puzzle.id,
        path=puzzle_path(puzzle.id),
        puzzle=puzzle,
    )


def task_words(puzzle: Puzzle) -> Text:
    """What the solver must find, with the side to move ("X to move: win in 3 moves")."""
    params: dict[str, Param] = {"mark": MARKS[puzzle.side_to_move - 1], "moves": puzzle.depth}
    return Text(f"page.puzzle.task.{puzzle.theme.value}", params)


def puzzle_png(page: PuzzlePage) -> bytes:
    """The PNG of the puzzle's position for its link preview, the task under it (never the
    solution), in English: one picture serves every reader."""
    puzzle = page.puzzle
    names = tuple(f"{m} (to move)" if m == page.to_move else m for m in MARKS)
    return position_png(puzzle.position, (names[0], names[1]), page.task.render(ENGLISH), page.id)


def _where(puzzle: Puzzle, move: int) -> Text:
    kind = "column" if puzzle.rules.gravity else "cell"
    return Text(f"page.puzzle.{kind}", {"move": move_label(puzzle.rules, move)})


def _solution(puzzle: Puzzle) -> Text:
    why = Text("page.puzzle.why.hold" if puzzle.theme is Theme.HOLD else "page.puzzle.why.win")
    mark = MARKS[puzzle.side_to_move - 1]
    return Text(
        "page.puzzle.plays", {"mark": mark, "where": _where(puzzle, puzzle.solution), "why": why}
    )


def _line(puzzle: Puzzle) -> tuple[Text, ...]:
    """The proven line (:func:`core.puzzles.lines.known`) in words, a step per move of the
    solver's side: "X plays column 3, O answers column 4 (the longest defence)", the last one
    the win (for a hold: the solution and the best reply)."""
    line = lines.known(puzzle)
    if line is None:
        return ()
    mover, other = MARKS[puzzle.side_to_move - 1], MARKS[2 - puzzle.side_to_move]
    why = Text(f"page.puzzle.defence.{puzzle.theme.value}")
    steps = []
    for at in range(0, len(line), 2):
        params: dict[str, Param] = {"mark": mover, "where": _where(puzzle, line[at])}
        if at + 1 < len(line):
            reply = _where(puzzle, line[at + 1])
            steps.append(
                Text(
                    "page.puzzle.step_reply", {**params, "other": other, "reply": reply, "why": why}
                )
            )
        elif puzzle.theme is not Theme.HOLD:
            steps.append(Text("page.puzzle.step_wins", {**params, "k": puzzle.rules.k}))
        else:
            steps.append(Text("page.puzzle.step", params))
    return tuple(steps)

"""A puzzle's page values on both stores: the position, the task, the side to move, its
rating from the players' results (its difficulty before anyone tried it), the solution only
when asked, today's puzzle the one ``/puzzle`` gives, and None for an unknown id."""

from __future__ import annotations

import datetime

from core.pages.puzzle import puzzle_page, today_puzzle
from core.puzzles import shipped
from core.puzzles.puzzle import Theme
from core.sessions.puzzles.solving import daily
from tests.backends import Backend
from tests.core.store.test_puzzles_store import finish

NOON = datetime.datetime(2026, 11, 28, 12, tzinfo=datetime.UTC)


async def test_a_puzzle_page_before_and_after_players_tried_it(backend: Backend) -> None:
    puzzle = next(p for p in shipped.connect_four() if p.theme is Theme.WIN and p.depth > 1)
    async with backend.open() as store:
        page = await puzzle_page(store, puzzle.id, solution=False, now=NOON)
        assert page is not None
        assert page.title.render("en") == "Connect Four 6x7 puzzle"
        assert page.theme.render("en") == "Win in N"
        mark = "XO"[puzzle.side_to_move - 1]
        assert page.task.render("en") == f"{mark} to move: win in {puzzle.depth} moves"
        assert page.task.render("es") == f"Juegan las {mark}: gana en {puzzle.depth} jugadas"
        assert page.rating.startswith(f"{puzzle.difficulty} ±")
        assert (page.attempts, page.solved, page.solution) == (0, 0, None)
        stones = sum(1 for row in page.board for cell in row if cell.mark)
        assert stones == len(puzzle.moves) and page.description.render("en").startswith(
            "From the bottom up"
        )
        await finish(store, "alice", puzzle.id, True)
        await finish(store, "bob", puzzle.id, False)
        page = await puzzle_page(store, puzzle.id, solution=True, now=NOON)
        assert page is not None and (page.attempts, page.solved) == (2, 1)
        assert not page.rating.startswith(f"{puzzle.difficulty} ±")
        assert page.solution is not None
        shown = page.solution.render("en")
        assert shown == f"{mark} plays column {puzzle.solution + 1}: the only win."


async def test_today_and_unknown_puzzles(backend: Backend) -> None:
    today = daily(NOON.date())
    assert today_puzzle(NOON) == today
    async with backend.open() as store:
        page = await puzzle_page(store, today.id, solution=False, now=NOON)
        assert page is not None and page.today
        tomorrow = NOON + datetime.timedelta(days=1)
        page = await puzzle_page(store, today.id, solution=False, now=tomorrow)
        assert page is not None and not page.today
        assert await puzzle_page(store, "0" * 10, solution=False, now=NOON) is None

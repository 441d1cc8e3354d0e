"""A puzzle on the console: its board printed as a game's, a typed answer checked, and the
result said in one line (issue 35)."""

from __future__ import annotations

import re

from core.puzzles import shipped
from core.sessions import GameService
from tests.adapters.console.test_adapter import play, service

__all__ = ["service"]  # the fixture


async def test_todays_puzzle_is_printed_and_answered(service: GameService) -> None:
    shown = await play(service, "/puzzle\n")
    found = re.search(r"Puzzle ([0-9a-f]{10}):", shown)
    assert found is not None and "X " in shown and "Solver" in shown
    puzzle = shipped.by_id(found[1])
    assert puzzle is not None
    wrong = next(m for m in puzzle.position.legal_moves() if m != puzzle.solution)
    output = await play(service, f"{wrong + 1}\n{wrong + 1}\n/puzzle stats\n")
    assert re.search(rf"Failed: {wrong + 1} (does not win in time|loses)\.", output)
    assert f"{puzzle.solution + 1}. Puzzle rating" in output
    assert "This puzzle is over: you answered it already." in output
    assert "solved 0 of 1" in output

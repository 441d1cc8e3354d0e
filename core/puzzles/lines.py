"""The proven line of each shipped puzzle, the answer checker's fast path (``data/lines.csv``).

A puzzle's line is what :func:`core.puzzles.answer.answer` plays out when the player follows
it: the solution, the bot's reply, then each time the attacker's fastest win (the lowest column
among equals; for a VCF, the first four that keeps the win) and the bot's reply, to the win. A
hold's line is the solution and the solver's exact reply (the best, the lowest column among
equals). The checker answers a move on the
line from it (the verdict and the reply it would search for), and searches with the solver
only for a move off the line: any other move that still wins is still accepted, by the solver.

Made by :func:`line_of` with the checker's own rules (``python -m benchmarks._puzzle_set
lines``); the suite checks a sample against the solver, the benchmark ``puzzles`` all of them.
"""

from __future__ import annotations

import functools
import time
from importlib import resources

from core.ai.engine import SearchTimeout
from core.puzzles import vcf
from core.puzzles.facts import move_values
from core.puzzles.puzzle import Puzzle, Theme

LINES = "lines.csv"
HOLD_REPLY_SECONDS = 30.0
"""How long the solver may search for a hold's exact reply (none stored if it cannot)."""


def known(puzzle: Puzzle) -> tuple[int, ...] | None:
    """The stored line of ``puzzle``, or None (a puzzle not shipped, or without one)."""
    return _lines().get(puzzle.id)


@functools.cache
def _lines() -> dict[str, tuple[int, ...]]:
    text = resources.files(__package__).joinpath("data", LINES).read_text("utf-8")
    found = {}
    for line in text.splitlines():
        if line.strip():
            ident, moves = line.strip().split(",")
            found[ident] = tuple(int(move) - 1 for move in moves.split("."))
    return found


def to_line(puzzle: Puzzle, line: tuple[int, ...]) -> str:
    """One line of ``data/lines.csv``: the id, then the moves 1-based, joined by dots."""
    return f"{puzzle.id},{'.'.join(str(move + 1) for move in line)}"


def line_of(puzzle: Puzzle) -> tuple[int, ...] | None:
    """The line of ``puzzle``, found with the solver (see the module docstring); None for a
    hold whose exact reply the solver cannot find in :data:`HOLD_REPLY_SECONDS`."""
    from core.puzzles.answer import Attempt, Verdict, answer, best_reply

    if puzzle.theme is Theme.HOLD:
        child = puzzle.position.play(puzzle.solution)
        if child.is_over:
            return (puzzle.solution,)
        # Every reply's exact value, and the best one with the lowest column: the solver's own
        # best move may be any of equals (its table decides), and a line must be the same
        # whenever it is made.
        try:
            values = move_values(child, time.perf_counter() + HOLD_REPLY_SECONDS)
        except SearchTimeout:
            return None
        best = max(values.values())
        return (puzzle.solution, min(move for move, value in values.items() if value == best))
    attempt = Attempt(puzzle)
    move = puzzle.solution
    while True:
        result = answer(attempt, move, known_line=False)
        if result.verdict is Verdict.SOLVED:
            return (*attempt.played, move)
        if result.verdict is not Verdict.GOING:
            raise ValueError(f"puzzle {puzzle.id}: the line failed at {attempt.played}")
        attempt = result.attempt
        position = attempt.position
        if puzzle.theme is Theme.VCF:
            move = vcf.winning_firsts(position, attempt.moves_left)[0]
        else:
            move = best_reply(position)

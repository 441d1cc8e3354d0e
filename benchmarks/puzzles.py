"""Puzzles: how many the generator makes per minute on one worker, how long checking an answer
takes (p50/p99), and how long the solver's full check of the shipped set takes.

``python -m benchmarks puzzles [--quick]``. The generator runs from seed 1 for a fixed time
(quick: 20 s, else 60 s) in this process, the solver warmed up first. An answer check is
:func:`core.puzzles.answer.answer` on a shipped puzzle's start: the right first move (on the
puzzle's stored line: :mod:`core.puzzles.lines`), the same searched by the solver as any move
off the line is (then the longest defence is searched), and a wrong one (then the refutation),
every puzzle of both sets. Without ``--quick``, every stored line is also found again by the
solver and compared (a few minutes).
The full check is :func:`core.puzzles.facts.verify` on every shipped puzzle, as the suite does.
"""

from __future__ import annotations

import collections
import time

from benchmarks.book import fmt, percentile
from core.ai import solver
from core.puzzles import lines, shipped
from core.puzzles.answer import Attempt, answer
from core.puzzles.facts import verify
from core.puzzles.generate import generate
from core.puzzles.puzzle import Puzzle, Theme


def generation(seconds: float) -> None:
    kinds: collections.Counter[str] = collections.Counter()
    started = time.perf_counter()
    for puzzle in generate(1):
        kinds["hold" if puzzle.theme is Theme.HOLD else f"win in {puzzle.depth}"] += 1
        if time.perf_counter() - started >= seconds:
            break
    elapsed = time.perf_counter() - started
    made = sum(kinds.values())
    print(f"generated: {made} puzzles in {elapsed:.0f} s = {made * 60 / elapsed:.0f} per minute")
    print("  by kind: " + ", ".join(f"{kind} {n}" for kind, n in sorted(kinds.items())))


def answers(name: str, puzzles: tuple[Puzzle, ...]) -> None:
    times: dict[str, list[float]] = {"right": [], "right, searched": [], "wrong": []}
    for puzzle in puzzles:
        wrong = next(m for m in puzzle.position.legal_moves() if m != puzzle.solution)
        for kind, move, known in (
            ("right", puzzle.solution, True),
            ("right, searched", puzzle.solution, False),
            ("wrong", wrong, True),
        ):
            started = time.perf_counter()
            answer(Attempt(puzzle), move, known_line=known)
            times[kind].append(time.perf_counter() - started)
    for kind, taken in times.items():
        print(
            f"answer check, {name}, {kind} first move: {len(taken)} answers, "
            f"p50 {fmt(percentile(taken, 0.5))}, p99 {fmt(percentile(taken, 0.99))}, "
            f"max {fmt(max(taken))}"
        )


def full_check() -> None:
    puzzles = shipped.connect_four()
    started = time.perf_counter()
    for puzzle in puzzles:
        verify(puzzle)
    elapsed = time.perf_counter() - started
    print(f"full check of the shipped set: {len(puzzles)} puzzles in {elapsed:.1f} s")


def lines_check() -> None:
    every = shipped.every()
    started = time.perf_counter()
    wrong = [
        p.id for p in every if lines.known(p) is not None and lines.known(p) != lines.line_of(p)
    ]
    elapsed = time.perf_counter() - started
    print(f"lines check: {len(every)} puzzles in {elapsed:.0f} s, {len(wrong)} differ: {wrong}")


def main(quick: bool) -> None:
    solver.warm_up()
    answers("Connect Four", shipped.connect_four())
    answers("VCF", shipped.vcf())
    full_check()
    if not quick:
        lines_check()
    generation(20.0 if quick else 60.0)

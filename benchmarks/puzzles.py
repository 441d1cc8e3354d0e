"""Puzzles: how many the generator makes per minute on one worker, how long checking an answer
takes (p50/p99), and how long the solver's full check of the shipped set takes.

``python -m benchmarks puzzles [--quick]``. The generator runs from seed 1 for a fixed time
(quick: 20 s, else 60 s) in this process, the solver warmed up first. An answer check is
:func:`core.puzzles.answer.answer` on a shipped puzzle, every puzzle of both sets: each move of
the proven line (:mod:`core.puzzles.lines`), each other right move of the puzzle's answer tree
(a win off the line), and the same searched by the solver as a move outside the tree is (a few
a puzzle: the cost before the trees), a wrong first move (from the refutations, and the same
searched: the cost before them), and the wrong moves at the tree's next positions.
Parsing a puzzle's tree, on its first answer in a process, is timed apart. Without ``--quick``,
every stored tree and its refutations are also made again by the solver and compared, and every
wrong move at every tree's position is answered from the table and by the checker's own search
(within its budget) and compared (many minutes).
The full check is :func:`core.puzzles.facts.verify` on every shipped puzzle, as the suite does.
"""

from __future__ import annotations

import collections
import time
from collections.abc import Callable

from benchmarks.book import fmt, percentile
from core.ai import solver
from core.puzzles import lines, shipped
from core.puzzles.answer import REFUTATION_BUDGET, Attempt, answer
from core.puzzles.facts import verify
from core.puzzles.generate import generate
from core.puzzles.puzzle import Puzzle, Theme

SEARCHED_PER_PUZZLE = 3
WRONG_NODES = 4  # a puzzle's first positions where wrong moves are timed
WRONG_MOVES = 7  # the first legal moves there (the wrong ones among them)


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


def _timed(call: Callable[..., object], *args: object, **kwargs: object) -> float:
    started = time.perf_counter()
    call(*args, **kwargs)
    return time.perf_counter() - started


def answers(name: str, puzzles: tuple[Puzzle, ...]) -> None:
    times: dict[str, list[float]] = collections.defaultdict(list)
    for puzzle in puzzles:
        times["tree parsed (first answer)"].append(_timed(lines.tree, puzzle))
        paths = lines.stored(puzzle) or []
        proven = paths[0] if paths else ()
        seen = set()
        searched = 0
        for path in paths:
            for at in range(0, len(path), 2):
                played, move = path[:at], path[at]
                if path[: at + 1] == proven[: at + 1]:
                    kind = "on the line"
                else:
                    kind = "off the line, winning"
                here = lines.key(puzzle.rules, path[: at + 1])
                if here in seen:
                    continue
                seen.add(here)
                attempt = Attempt(puzzle, played)
                times[kind].append(_timed(answer, attempt, move))
                if kind != "on the line" and searched < SEARCHED_PER_PUZZLE:
                    searched += 1
                    times["off the line, searched (no tree)"].append(
                        _timed(answer, attempt, move, known_line=False)
                    )
        wrong = next(m for m in puzzle.position.legal_moves() if m != puzzle.solution)
        times["wrong first move"].append(_timed(answer, Attempt(puzzle), wrong))
        times["wrong first move, searched (no table)"].append(
            _timed(answer, Attempt(puzzle), wrong, known_line=False)
        )
        for played in lines.nodes_of(puzzle, paths)[1:WRONG_NODES]:
            attempt = Attempt(puzzle, played)
            tree = lines.tree(puzzle) or {}
            for move in attempt.position.legal_moves()[:WRONG_MOVES]:
                if lines.key(puzzle.rules, (*played, move)) not in tree:
                    times["wrong later move"].append(_timed(answer, attempt, move))
    for kind, taken in times.items():
        print(
            f"answer check, {name}, {kind}: {len(taken)} answers, "
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


def trees_check() -> None:
    every = shipped.every()
    started = time.perf_counter()
    wrong = [p.id for p in every if lines.stored(p) != lines.tree_of(p)]
    elapsed = time.perf_counter() - started
    print(f"trees check: {len(every)} puzzles in {elapsed:.0f} s, {len(wrong)} differ: {wrong}")
    started = time.perf_counter()
    wrong = [
        p.id
        for p in every
        if (paths := lines.stored(p)) is not None
        and lines.refutations_of(p, paths) != lines.stored_refutations(p)
    ]
    elapsed = time.perf_counter() - started
    print(f"refutations check: made again in {elapsed:.0f} s, {len(wrong)} differ: {wrong}")
    started = time.perf_counter()
    checked, differ = 0, []
    for puzzle in every:
        tree = lines.tree(puzzle) or {}
        for played in lines.nodes_of(puzzle, lines.stored(puzzle) or []):
            attempt = Attempt(puzzle, played)
            for move in attempt.position.legal_moves():
                if lines.key(puzzle.rules, (*played, move)) in tree:
                    continue
                checked += 1
                if answer(attempt, move) != answer(attempt, move, known_line=False):
                    differ.append((puzzle.id, played, move))
    elapsed = time.perf_counter() - started
    print(
        f"wrong moves answered from the table and searched: {checked} in {elapsed:.0f} s,"
        f" {len(differ)} differ (the search within its budget: {REFUTATION_BUDGET} s): {differ[:5]}"
    )


def main(quick: bool) -> None:
    solver.warm_up()
    answers("Connect Four", shipped.connect_four())
    answers("VCF", shipped.vcf())
    full_check()
    if not quick:
        trees_check()
    generation(20.0 if quick else 60.0)

"""Perfect Connect Four with the opening book: HARD at 1 s, side by side with bitbully.

``python -m benchmarks book [--quick]``. Prints the book's load time and memory (in a fresh
process), then for a sample of each of Pons' six sets and for every position of random games
from the empty board played by EASY: how many of ``choose_move(HARD, budget=1.0)``'s moves keep
the exact score, and its decision time p50/p99 next to those of the AGPL ``bitbully`` engine
(``BitBully().best_move`` with its book loaded) on the same positions in the same run. bitbully
is optional (``pip install -e '.[bench]'``) and imported here only. Game reviews have their
own benchmark (:mod:`benchmarks.review`).
"""

from __future__ import annotations

import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from core.ai import Level, choose_move, solver, warm_up
from core.games import CONNECT_FOUR, Position
from tests.core.ai.connect4_sets import SETS, load_set
from tests.core.ai.test_solver import keeps_score

BUDGET = 1.0
REPO = Path(__file__).resolve().parents[1]

LOAD_PROBE = """
import time
def rss():
    with open('/proc/self/status') as f:
        return next(int(l.split()[1]) for l in f if l.startswith('VmRSS')) / 1024
from core.ai import book
import numpy
before = rss()
started = time.perf_counter()
loaded = book.load()
mapped = time.perf_counter() - started
loaded.touch()
touched = time.perf_counter() - started
after = rss()
pss = shared = 0
with open('/proc/self/smaps') as f:
    inside = False
    for line in f:
        if '-' in line.split()[0] and len(line.split()) >= 5:
            inside = line.rstrip().endswith('book_12ply_distances.dat')
        elif inside and line.startswith('Pss:'):
            pss += int(line.split()[1])
        elif inside and line.startswith(('Shared_Clean:', 'Shared_Dirty:')):
            shared += int(line.split()[1])
print(mapped, touched, after - before, pss / 1024, shared / 1024, flush=True)
import sys
if sys.argv[1:] == ["hold"]:
    sys.stdin.read()  # keep the mapping until told to stop (end of input)
"""


def fmt(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:.0f} us"
    if seconds < 1:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds:.2f} s"


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def book_figures() -> None:
    """Load figures of fresh processes: alone, then while another process (a first pool worker)
    holds the book mapped, as every further worker does."""
    command = [sys.executable, "-c", LOAD_PROBE]
    alone = subprocess.run(command, cwd=REPO, capture_output=True, text=True, check=True)
    holder = subprocess.Popen(
        [*command, "hold"], cwd=REPO, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None
        first = holder.stdout.readline()
        second = subprocess.run(command, cwd=REPO, capture_output=True, text=True, check=True)
    finally:
        holder.communicate("")  # end of input: the holder exits
    print("book, per process: map | map + read every page | RSS added | PSS | shared with others")
    for label, line in (
        ("alone", alone.stdout),
        ("1st of 2", first),
        ("2nd of 2", second.stdout),
    ):
        mapped, touched, rss, pss, shared = (float(x) for x in line.split())
        print(
            f"  {label:<8} {fmt(mapped):>8} | {fmt(touched):>8} | {rss:6.1f} MB | {pss:6.1f} MB"
            f" | {shared:6.1f} MB"
        )
    print(
        "  (the pages are the package file's, in the OS page cache: one copy per machine; PSS "
        "splits them among the processes that map them)"
    )


def peer() -> Callable[[Position], int] | None:
    """bitbully's best_move with its default book, or None (with a message) when absent."""
    try:
        from bitbully import BitBully, Board
    except ImportError:
        print("bitbully not installed (pip install -e '.[bench]'): peer columns left out")
        return None
    started = time.perf_counter()
    agent: Any = BitBully()
    seconds = time.perf_counter() - started
    print(f"bitbully (book loaded: {agent.is_book_loaded()}) started in {fmt(seconds)}")

    def best(p: Position) -> int:
        return int(agent.best_move(Board.from_moves(list(p.moves))))

    return best


def compare(
    label: str, positions: list[tuple[Position, int]], other: Callable[[Position], int] | None
) -> None:
    ours: list[float] = []
    theirs: list[float] = []
    kept = peer_kept = 0
    missed: list[Position] = []
    for p, score in positions:
        started = time.perf_counter()
        move = choose_move(p, Level.HARD, budget=BUDGET)
        ours.append(time.perf_counter() - started)
        if keeps_score(p, move, score):
            kept += 1
        else:
            missed.append(p)
        if other is not None:
            started = time.perf_counter()
            their_move = other(p)
            theirs.append(time.perf_counter() - started)
            peer_kept += keeps_score(p, their_move, score)
    n = len(positions)
    line = (
        f"{label:<12} {n:>5} {kept:>5} {kept / n:>7.1%} {fmt(statistics.median(ours)):>9} "
        f"{fmt(percentile(ours, 0.99)):>9} {fmt(max(ours)):>9}"
    )
    if theirs:
        ratio = percentile(ours, 0.99) / percentile(theirs, 0.99)
        line += (
            f" | {peer_kept:>5} {fmt(statistics.median(theirs)):>9} "
            f"{fmt(percentile(theirs, 0.99)):>9} {ratio:>6.2f}"
        )
    print(line, flush=True)
    for p in missed[:5]:
        print(f"  missed: {''.join(str(move + 1) for move in p.moves)} (Pons' notation)")


def random_game_positions(games: int, seed: int) -> list[tuple[Position, int]]:
    """Every position of ``games`` games played by EASY, with its exact score."""
    rng = random.Random(seed)
    found = []
    for _ in range(games):
        p = Position.start(CONNECT_FOUR)
        while not p.is_over:
            found.append((p, solver.solve(p)))
            p = p.play(choose_move(p, Level.EASY, rng=rng))
    return found


def main(quick: bool) -> None:
    book_figures()
    started = time.perf_counter()
    warm_up()
    print(f"warm_up (book mapped and read, JIT loaded): {fmt(time.perf_counter() - started)}")
    other = peer()
    # The full run is the evidence for "exact from the first move": every position of the six
    # sets and of 1000 games by EASY; --quick a sample of each.
    step = 100 if quick else 1
    games = 2 if quick else 1000
    print(
        f"\nchoose_move(HARD, budget={BUDGET} s): moves that keep the exact score; "
        + ("every position" if step == 1 else f"every {step}th position")
        + " of each set; p99 ratio = ours / bitbully's (same run, same positions)"
    )
    header = (
        f"{'positions':<12} {'n':>5} {'kept':>5} {'share':>7} {'p50':>9} {'p99':>9} {'max':>9}"
        f" | {'bb kept':>5} {'bb p50':>9} {'bb p99':>9} {'ratio':>6}"
    )
    print(header)
    print("-" * len(header))
    for name in SETS:
        compare(name, load_set(name)[::step], other)
    compare("EASY games", random_game_positions(games, seed=11), other)

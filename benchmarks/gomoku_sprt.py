"""HARD against an earlier HARD on free boards, as a sequential test (SPRT) on fixed openings.

``python -m benchmarks gomoku_sprt [--quick]``. HARD from this tree plays HARD from a git
revision (``GOMOKU_BASE``, default ``main``: its tree is extracted with ``git archive`` and run
in a child process) from fixed openings, each with both colours. Both count their budget
(``GOMOKU_SPRT_BUDGET`` seconds a move, default 0.2) in CPU seconds of their own process, so a
busy machine slows the test down but does not tilt it.

Per rules (``GOMOKU_SPRT_RULES``, e.g. ``15x15x5,9x9x4``; default below) games go on until the
generalized SPRT on the game scores accepts one hypothesis (``GOMOKU_SPRT_ELO``, default
``-20,20``: accepting the second says "not weaker", the first "weaker") or the cap of games
(``GOMOKU_SPRT_GAMES``, default 200; ``--quick`` 20) is reached. It prints wins, draws and
losses of this tree's HARD, its score, the Elo that score means and the log-likelihood ratio
against its bounds (alpha = beta = 0.05).
"""

from __future__ import annotations

import math
import os
import random
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path

from benchmarks.gomoku_peer import OPENINGS as PEER_OPENINGS
from benchmarks.gomoku_peer import cpu_clock, opening_cells
from core.ai import Level, choose_move, warm_up
from core.games import Position, Rules

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_RULES = "15x15x5,9x9x5,19x19x6,11x11x4,25x25x5"
ALPHA = BETA = 0.05
# Openings per rules (each played with both colours), generated from a fixed seed.
OPENING_COUNT = 100

# The earlier HARD's side of the match: positions in, moves out, one a line.
_CHILD = """
import sys, time
time.perf_counter = time.process_time
import core
from pathlib import Path
assert Path(core.__file__).resolve().is_relative_to(Path.cwd().resolve()), core.__file__
from core.ai import Level, choose_move, warm_up
from core.games import Position, Rules
warm_up()
print("ready", flush=True)
for line in sys.stdin:
    rows, cols, k, budget, *moves = line.split()
    p = Position.from_moves(Rules(int(rows), int(cols), int(k)), [int(m) for m in moves])
    print(choose_move(p, Level.HARD, budget=float(budget)), flush=True)
"""


class Base:
    """HARD of an earlier revision, in a child process run from its extracted tree."""

    def __init__(self, revision: str, folder: Path) -> None:
        archive = subprocess.run(
            ["git", "archive", revision, "core"], cwd=ROOT, check=True, capture_output=True
        ).stdout
        with tarfile.open(fileobj=BytesIO(archive)) as tar:
            tar.extractall(folder, filter="data")
        self.process = subprocess.Popen(
            [sys.executable, "-c", _CHILD],
            cwd=folder,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        if self._line() != "ready":
            raise RuntimeError("the earlier HARD did not start")

    def _line(self) -> str:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"the earlier HARD exited (code {self.process.wait()})")
        return line.strip()

    def move(self, p: Position, budget: float) -> int:
        assert self.process.stdin is not None
        rules = p.rules
        words = [rules.rows, rules.cols, rules.k, budget, *p.moves]
        self.process.stdin.write(" ".join(str(word) for word in words) + "\n")
        self.process.stdin.flush()
        return int(self._line())

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait()


def openings(rules: Rules) -> list[tuple[int, ...]]:
    """Three-stone openings around the centre: gomoku_peer's 10 balanced ones first on 15x15,
    then the first player on the centre, the second next to it, the first within two cells."""
    cols = rules.cols
    centre_row, centre_col = rules.rows // 2, cols // 2
    found: list[tuple[int, ...]] = []
    if (rules.rows, rules.cols, rules.k) == (15, 15, 5):
        found += [tuple(opening_cells(o, cols)) for o in PEER_OPENINGS]
    rng = random.Random(f"{rules.rows}x{rules.cols}x{rules.k}")
    centre = centre_row * cols + centre_col
    for _ in range(50 * OPENING_COUNT):
        if len(found) >= OPENING_COUNT:
            break
        second = (centre_row + rng.randint(-1, 1), centre_col + rng.randint(-1, 1))
        third = (centre_row + rng.randint(-2, 2), centre_col + rng.randint(-2, 2))
        moves = (centre, second[0] * cols + second[1], third[0] * cols + third[1])
        if len(set(moves)) == 3 and moves not in found:
            found.append(moves)
    return found


def play(
    rules: Rules, opening: tuple[int, ...], ours_first: bool, base: Base, budget: float
) -> int:
    """One game; its result for this tree's HARD: 1 win, 0 draw, -1 loss."""
    p = Position.from_moves(rules, list(opening))
    ours = 1 if ours_first else 2
    while not p.is_over:
        if p.to_move == ours:
            p = p.play(choose_move(p, Level.HARD, budget=budget))
        else:
            p = p.play(base.move(p, budget))
    return 0 if p.winner is None else (1 if p.winner == ours else -1)


def llr(results: list[int], elo0: float, elo1: float) -> float:
    """The generalized SPRT's log-likelihood ratio of H1 (Elo ``elo1``) against H0 (``elo0``)
    for these game results, by the normal approximation of the score."""
    n = len(results)
    if n < 2:
        return 0.0
    scores = [(r + 1) / 2 for r in results]
    mean = sum(scores) / n
    variance = sum((s - mean) ** 2 for s in scores) / n
    if variance == 0:
        return 0.0
    s0, s1 = (1 / (1 + 10 ** (-elo / 400)) for elo in (elo0, elo1))
    return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)


def rules_of(name: str) -> Rules:
    """Free rules from ``ROWSxCOLSxK``."""
    rows, cols, k = (int(x) for x in name.split("x"))
    return Rules(rows, cols, k)


def elo_of(score: float) -> float:
    score = min(max(score, 1e-3), 1 - 1e-3)
    return -400 * math.log10(1 / score - 1)


def main(quick: bool) -> None:
    revision = os.environ.get("GOMOKU_BASE", "main")
    budget = float(os.environ.get("GOMOKU_SPRT_BUDGET", "0.2"))
    elo0, elo1 = (float(x) for x in os.environ.get("GOMOKU_SPRT_ELO", "-20,20").split(","))
    cap = int(os.environ.get("GOMOKU_SPRT_GAMES", "20" if quick else "200"))
    all_rules = [
        rules_of(name) for name in os.environ.get("GOMOKU_SPRT_RULES", DEFAULT_RULES).split(",")
    ]
    lower, upper = math.log(BETA / (1 - ALPHA)), math.log((1 - BETA) / ALPHA)
    print(
        f"HARD (this tree) against HARD ({revision}), {budget} CPU s a move;"
        f" H0 Elo {elo0:+.0f}, H1 Elo {elo1:+.0f}; LLR bounds {lower:.2f}, {upper:.2f}"
    )
    # This process's HARD on the same clock as the child's.
    with cpu_clock(), tempfile.TemporaryDirectory() as folder:
        warm_up()
        base = Base(revision, Path(folder))
        try:
            for rules in all_rules:
                results: list[int] = []
                ratio = 0.0
                started = time.monotonic()
                for opening in openings(rules):
                    for ours_first in (True, False):
                        results.append(play(rules, opening, ours_first, base, budget))
                    ratio = llr(results, elo0, elo1)
                    if len(results) % 10 == 0:
                        print(
                            f"  {len(results)} games: {results.count(1)}/{results.count(0)}"
                            f"/{results.count(-1)}, LLR {ratio:.2f}",
                            flush=True,
                        )
                    if not lower < ratio < upper or len(results) >= cap:
                        break
                wins, losses = results.count(1), results.count(-1)
                score = (wins + results.count(0) / 2) / len(results)
                verdict = (
                    f"H1 (Elo {elo1:+.0f})"
                    if ratio >= upper
                    else f"H0 (Elo {elo0:+.0f})"
                    if ratio <= lower
                    else "undecided"
                )
                print(
                    f"{rules.rows}x{rules.cols} k={rules.k}: {wins}/{results.count(0)}/{losses}"
                    f" in {len(results)} games, score {score:.0%} (Elo {elo_of(score):+.0f}),"
                    f" LLR {ratio:.2f}: {verdict} ({time.monotonic() - started:.0f} s)",
                    flush=True,
                )
        finally:
            base.close()

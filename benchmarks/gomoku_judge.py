"""How far HARD's moves fall short of Rapfi's judgement, move by move, on fixed positions.

``python -m benchmarks gomoku_judge [--quick]``. Games against Rapfi (gomoku_peer) are few and
their results swing: a change worth a few per cent of score hides in the noise of 52 games. This
measures each move instead. The positions are those before HARD's moves in 15 games it lost to
Rapfi at 100 ms a move (:data:`GAMES_FILE`, from a gomoku_peer run), up to where the judge
sees a forced win for either side. In each, HARD moves at 1 CPU s; Rapfi (built as gomoku_peer
builds it, ``RAPFI_SOURCE``; optional) at a fixed depth (``GOMOKU_JUDGE_DEPTH``, default 10:
the same verdict however busy the machine, and, each position a new game with its table emptied,
whatever it judged before) gives its evaluation of the position and of the
position after HARD's move. The loss of a move is the difference (0 where HARD played the
judge's move), evaluations capped at :data:`CAP`, a forced win or loss counting as the cap.

It prints the mean loss a move, the share of moves that lose more than :data:`BLUNDER`, and
the share of HARD's moves the judge would have played. ``GOMOKU_JUDGE_SAVE=<file>`` keeps the
losses per position; ``GOMOKU_JUDGE_BASE=<file>`` (another version's) prints the paired
difference, position by position. ``GOMOKU_JUDGE_GAMES=<file>`` judges the positions of other
games, such as :data:`SELF_PLAY_FILE` (Rapfi against itself: positions no version of HARD chose,
397 of them); ``GOMOKU_JUDGE_MAKE=<file>`` writes such games instead of judging. ``--quick``:
the first 20 positions.
Rapfi is a peer of the benchmark only: nothing of it is imported or shipped.
"""

from __future__ import annotations

import json
import math
import os
import statistics
import time
from collections.abc import Sequence
from pathlib import Path

from benchmarks._gomocup import GomocupEngine, rapfi
from benchmarks.gomoku_peer import (
    CLOCK_VARIABLE,
    EVERY_OPENING,
    GOMOKU,
    Setting,
    ask,
    cpu_clock,
    engine_move,
    opening_cells,
)
from core.ai import Level, choose_move, warm_up
from core.games import Position

BUDGET = 1.0
DEPTH_VARIABLE = "GOMOKU_JUDGE_DEPTH"
# A file the losses are written to (JSON, per position), and one of another version's to compare
# with, position by position: most moves are the same in both, so the paired difference is far
# finer than the difference of two means.
SAVE_VARIABLE = "GOMOKU_JUDGE_SAVE"
BASE_VARIABLE = "GOMOKU_JUDGE_BASE"
DEFAULT_DEPTH = 10
# Rapfi's evaluations in its own units (a small edge is about 100); beyond this a position is
# as good as decided, and a forced win in 9 plies is no better than one in 21.
CAP = 1500
BLUNDER = 300
QUICK_POSITIONS = 20
OPENING_STONES = 3

# The games, one a line: "b" (HARD had the first player's stones) or "w", then the moves.
GAMES_FILE = Path(__file__).with_name("gomoku_judge_games.txt")
# Games of Rapfi against itself (made with MAKE_VARIABLE): positions no version of HARD chose,
# twice as many as GAMES_FILE's, for a finer comparison (GOMOKU_JUDGE_GAMES=<this file>).
SELF_PLAY_FILE = Path(__file__).with_name("gomoku_judge_selfplay.txt")
# Another games file to judge on (the same form), and a file to write games of Rapfi against
# itself to instead of judging (one from each opening of gomoku_peer's EVERY_OPENING, at
# MAKE_SETTING; "b" and "w" in turn: the positions of one side, half as many to judge).
GAMES_VARIABLE = "GOMOKU_JUDGE_GAMES"
MAKE_VARIABLE = "GOMOKU_JUDGE_MAKE"
MAKE_SETTING = Setting("100 ms a move", "maker", turn_ms=100)
# Of each game made, the first plies kept: the middle game, where HARD's games against Rapfi
# turn (a game between equals may go on to a full board).
MADE_PLIES = 40


def value(evaluation: str | None) -> int | None:
    """Rapfi's evaluation (for the side to move) capped at ``CAP``; None when it gave none."""
    if evaluation is None:
        return None
    if evaluation.startswith(("+M", "M")):
        return CAP
    if evaluation.startswith("-M"):
        return -CAP
    try:
        return max(-CAP, min(CAP, int(evaluation)))
    except ValueError:
        return None


def verdict(engine: GomocupEngine, moves: list[int], depth: int) -> tuple[int, int | None]:
    """The judge's move (a cell) and its capped evaluation for the side to move after
    ``moves``."""
    preferred, evaluation = ask(engine, Setting(f"depth {depth}", "judge", max_depth=depth), moves)
    return preferred, value(evaluation)


def positions(quick: bool, games: Path = GAMES_FILE) -> list[list[int]]:
    """The moves before each of HARD's moves in ``games``, in order."""
    found = []
    for line in games.read_text().splitlines():
        if not line or line.startswith("#"):
            continue
        colour, *cells = line.split()
        moves = [int(cell) for cell in cells]
        ours = 0 if colour == "b" else 1
        found += [list(moves[:ply]) for ply in range(OPENING_STONES, len(moves)) if ply % 2 == ours]
    return found[:QUICK_POSITIONS] if quick else found


def self_play(
    first: GomocupEngine, second: GomocupEngine, opening: Sequence[int], plies: int | None = None
) -> list[int]:
    """A game of ``first`` (the first player's stones) against ``second`` from ``opening``
    (cells), each told the board when it first moves and each move after; to its end, or to
    ``plies`` moves."""
    moves = list(opening)
    told = [False, False]
    p = Position.from_moves(GOMOKU, moves)
    while not p.is_over and (plies is None or len(moves) < plies):
        side = len(moves) % 2
        engine = (first, second)[side]
        if not told[side]:
            engine.start(GOMOKU.rows, MAKE_SETTING.info())
        moves.append(engine_move(engine, moves, told[side]))
        told[side] = True
        p = p.play(moves[-1])
    return moves


def make_games(binary: Path, out: Path) -> None:
    """Writes a games file of Rapfi against itself (see :data:`MAKE_VARIABLE`)."""
    lines = [
        f"# Rapfi against itself at {MAKE_SETTING.label}, one game from each opening of"
        " gomoku_peer's EVERY_OPENING;",
        f"# b/w in turn: whose positions are judged (HARD moves in them), then the first"
        f" {MADE_PLIES} moves.",
    ]
    with (
        GomocupEngine([str(binary)], cwd=binary.parent) as first,
        GomocupEngine([str(binary)], cwd=binary.parent) as second,
    ):
        for index, opening in enumerate(EVERY_OPENING):
            moves = self_play(first, second, opening_cells(opening), MADE_PLIES)
            lines.append(" ".join(["bw"[index % 2], *map(str, moves)]))
    out.write_text("\n".join(lines) + "\n")
    print(f"{len(EVERY_OPENING)} games written to {out}")


def main(quick: bool) -> None:
    binary = rapfi("to judge with")
    if binary is None:
        return
    made = os.environ.get(MAKE_VARIABLE)
    if made:
        make_games(binary, Path(made))
        return
    games = Path(os.environ.get(GAMES_VARIABLE) or GAMES_FILE)
    depth = int(os.environ.get(DEPTH_VARIABLE) or DEFAULT_DEPTH)
    on_cpu = os.environ.get(CLOCK_VARIABLE) == "cpu"
    warm_up()
    losses: dict[int, int] = {}  # per position (its index in positions())
    agreed = 0
    started = time.perf_counter()
    with GomocupEngine([str(binary)], cwd=binary.parent) as engine, cpu_clock(on_cpu):
        for index, moves in enumerate(positions(quick, games)):
            preferred, before = verdict(engine, moves, depth)
            if before is None or abs(before) >= CAP:
                continue  # decided, or no verdict: no move to judge
            p = Position.from_moves(GOMOKU, moves)
            ours = choose_move(p, Level.HARD, budget=BUDGET)
            if ours == preferred:
                agreed += 1
                losses[index] = 0
                continue
            _, after = verdict(engine, [*moves, ours], depth)
            if after is None:
                continue
            losses[index] = max(before + after, 0)  # ``after`` is the opponent's
    if not losses:
        print("no position judged")
        return
    report(list(losses.values()), agreed, depth, on_cpu, time.perf_counter() - started)
    saved = os.environ.get(SAVE_VARIABLE)
    if saved:
        Path(saved).write_text(json.dumps(losses))
    base = os.environ.get(BASE_VARIABLE)
    if base:
        compare(losses, {int(k): v for k, v in json.loads(Path(base).read_text()).items()})


def report(losses: list[int], agreed: int, depth: int, on_cpu: bool, seconds: float) -> None:
    blunders = sum(loss > BLUNDER for loss in losses)
    print(
        f"HARD at {BUDGET:g} {'CPU ' if on_cpu else ''}s judged by Rapfi at depth {depth},"
        f" {len(losses)} positions: mean loss {statistics.mean(losses):.1f} a move"
        f" (standard error {standard_error(losses):.1f}; cap {CAP}),"
        f" {blunders / len(losses):.1%} lose more than {BLUNDER},"
        f" {agreed / len(losses):.1%} the judge's move ({seconds:.0f} s)",
        flush=True,
    )


def compare(losses: dict[int, int], base: dict[int, int]) -> None:
    """The paired difference of the losses on the positions both runs judged."""
    common = sorted(losses.keys() & base.keys())
    if len(common) < 2:
        print("too few positions in common with the base to compare")
        return
    differences = [losses[i] - base[i] for i in common]
    print(
        f"against the base, {len(common)} positions: loss a move"
        f" {statistics.mean(differences):+.1f} (standard error"
        f" {standard_error(differences):.1f}), better in"
        f" {sum(d < 0 for d in differences)}, worse in {sum(d > 0 for d in differences)}",
        flush=True,
    )


def standard_error(values: list[int]) -> float:
    return statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0

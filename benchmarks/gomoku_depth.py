"""How far HARD's alpha-beta for five in a row reads: nodes to a fixed depth, and the depth
reached in a budget, on fixed 15x15 positions.

``python -m benchmarks gomoku_depth [--quick]``. A first, quick signal for a change to the
search (:mod:`core.ai.pattern_search`): the nodes an iterative deepening of the root needs to
finish depth 6 and depth 8 from an empty table do not depend on the machine's load (nodes per
second and the depth reached in ``GOMOKU_DEPTH_BUDGET`` CPU seconds, default 0.5, do). The
positions are HARD's self-play at 0.1 s a move from gomoku_peer's openings, after 8, 14 and 20
stones (``--quick``: the first 8). Games decide (gomoku_sprt, gomoku_peer): fewer nodes to a
depth is not strength by itself.
"""

from __future__ import annotations

import math
import os
import statistics
import time

from benchmarks.gomoku_peer import cpu_clock
from core.ai import pattern_search, warm_up
from core.ai.pattern_board import PatternBoard
from core.ai.pattern_search import PatternSearch
from core.games import Position, Rules

GOMOKU = Rules(15, 15, 5)
DEPTHS = (6, 8)
# Self-play games, cells row-major from the empty board; the positions are their first 8, 14
# and 20 moves (as far as a game went).
GAMES: tuple[tuple[int, ...], ...] = (
    (112, 98, 140, 113, 126, 97, 128, 129, 81, 96, 99, 83, 69, 125, 139, 141, 109, 154, 94, 145),
    (112, 98, 84, 129, 82, 127, 83, 81, 97, 67, 69, 55, 54, 99, 68, 96, 36, 111, 52, 100),
    (112, 98, 80, 128, 83, 82, 66, 114, 130, 100, 142, 86, 72, 99, 97, 101, 102, 116, 71, 84),
    (112, 97, 140, 113, 81, 83, 96, 111, 125, 69, 55, 129, 128, 80, 126, 98, 110, 68, 53, 145),
    (112, 97, 80, 83, 94, 111, 125, 55, 69, 95, 79, 64, 122, 66, 78, 81, 126, 96, 51, 98),
    (112, 98, 95, 128, 110, 113, 83, 142, 80, 125, 82, 81, 96, 68, 97, 143, 158, 127, 52, 67),
    (112, 97, 82, 83, 98, 115, 111, 99, 131, 51, 67, 114, 84, 70, 109, 113, 81, 116, 117, 95),
    (112, 98, 125, 83, 128, 68, 113, 53, 38, 82, 80, 96, 110, 54),
    (112, 98, 82, 67, 113, 65, 96, 66, 68, 110, 80, 64, 63, 128, 127, 81, 95, 79, 141, 99),
    (112, 97, 95, 98, 81, 96, 109, 123, 110, 108, 80, 125, 79, 100, 99, 78, 111, 113, 63, 127),
)
POSITIONS = tuple(game[:stones] for game in GAMES for stones in (8, 14, 20) if len(game) >= stones)


def search_of(moves: tuple[int, ...], deadline: float) -> PatternSearch:
    """A search of the position after ``moves``, its transposition table emptied."""
    p = Position.from_moves(GOMOKU, list(moves))
    search = PatternSearch(PatternBoard(GOMOKU, p.stones, p.to_move - 1), deadline)
    search.forget()
    return search


def main(quick: bool) -> None:
    budget = float(os.environ.get("GOMOKU_DEPTH_BUDGET", "0.5"))
    positions = POSITIONS[:8] if quick else POSITIONS
    with cpu_clock():
        warm_up()
        print(f"{len(positions)} positions of 15x15 five in a row, HARD's alpha-beta alone")
        for depth in DEPTHS:
            nodes = 0
            started = time.process_time()
            deepest = pattern_search.MAX_DEPTH
            pattern_search.MAX_DEPTH = depth
            try:
                for moves in positions:
                    search = search_of(moves, math.inf)
                    search.root()
                    nodes += search.nodes
            finally:
                pattern_search.MAX_DEPTH = deepest
            seconds = time.process_time() - started
            print(
                f"  to depth {depth}: {nodes} nodes, {seconds:.2f} CPU s,"
                f" {nodes / max(seconds, 1e-9):,.0f} nodes/s"
            )
        depths = []
        for moves in positions:
            search = search_of(moves, time.process_time() + budget)
            search.root()
            depths.append(search.depth)
        print(
            f"  in {budget} CPU s: depth mean {statistics.mean(depths):.2f},"
            f" median {statistics.median(depths):g} (a win or loss seen ends a search early)"
        )

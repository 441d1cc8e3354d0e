"""Tic-tac-toe: HARD (complete memoized table) against a plain full minimax without memo.

Times ``choose_move(HARD)`` on every unfinished, reachable 3x3 position (4,520 of them) and, in
the same run, the seeds' approach: a list board and a full minimax over every line of play.
"""

from __future__ import annotations

import statistics
import time

from core.ai import Level, choose_move, warm_up
from core.games import TICTACTOE, Position
from tests.core.ai.test_players import reachable

LINES = (
    (0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6),
)  # fmt: skip


def _winner(board: list[int]) -> int:
    for a, b, c in LINES:
        if board[a] and board[a] == board[b] == board[c]:
            return board[a]
    return 0


def _minimax(board: list[int], player: int) -> int:
    """Value for ``player`` to move: 1 win, 0 draw, -1 loss; every line of play, no memo."""
    best = -2
    for cell in range(9):
        if board[cell]:
            continue
        board[cell] = player
        if _winner(board):
            value = 1
        elif all(board):
            value = 0
        else:
            value = -_minimax(board, 3 - player)
        board[cell] = 0
        if value > best:
            best = value
            if best == 1:
                break
    return best


def plain_minimax_move(p: Position) -> int:
    """The seeds' bot: the first move of best minimax value."""
    board = [p.cell(r, c) for r in range(3) for c in range(3)]
    player = p.to_move
    best_move, best_value = -1, -2
    for cell in range(9):
        if board[cell]:
            continue
        board[cell] = player
        value = 1 if _winner(board) else 0 if all(board) else -_minimax(board, 3 - player)
        board[cell] = 0
        if value > best_value:
            best_move, best_value = cell, value
    return best_move


def _p99(values: list[float]) -> float:
    return statistics.quantiles(values, n=100)[98] if len(values) > 1 else values[0]


def main(quick: bool) -> None:
    positions = reachable(TICTACTOE)
    print(f"unfinished reachable 3x3 positions: {len(positions)} (expected 4520)")
    assert len(positions) == 4520
    started = time.perf_counter()
    cold = choose_move(Position.start(TICTACTOE), Level.HARD)
    print(f"first HARD call (builds the table): {1000 * (time.perf_counter() - started):.2f} ms")
    warm_up()
    sample = positions[::10] if quick else positions
    hard_times: list[float] = []
    plain_times: list[float] = []
    for p in sample:
        t0 = time.perf_counter()
        choose_move(p, Level.HARD)
        t1 = time.perf_counter()
        plain_minimax_move(p)
        t2 = time.perf_counter()
        hard_times.append(t1 - t0)
        plain_times.append(t2 - t1)
    assert cold in Position.start(TICTACTOE).legal_moves()
    print(f"positions timed: {len(sample)}")
    print(f"{'player':<28}{'median':>12}{'mean':>12}{'p99':>12}{'max':>12}")
    for name, times in (("choose_move(HARD)", hard_times), ("plain minimax, no memo", plain_times)):
        print(
            f"{name:<28}{1e6 * statistics.median(times):>10.1f}us"
            f"{1e6 * statistics.mean(times):>10.1f}us"
            f"{1e6 * _p99(times):>10.1f}us{1e6 * max(times):>10.1f}us"
        )
    median_ratio = statistics.median(plain_times) / statistics.median(hard_times)
    mean_ratio = statistics.mean(plain_times) / statistics.mean(hard_times)
    p99_ratio = _p99(plain_times) / _p99(hard_times)
    print(
        f"ratio plain/HARD: median {median_ratio:.1f}x, mean {mean_ratio:.1f}x,"
        f" p99 {p99_ratio:.1f}x, total {sum(plain_times) / sum(hard_times):.1f}x"
    )

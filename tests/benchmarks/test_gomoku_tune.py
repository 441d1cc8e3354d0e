"""The evaluation's fit (``benchmarks.gomoku_tune``): its description of a position is the one the
kernel scores, it keeps only quiet positions, and its regression finds weights it is shown."""

from __future__ import annotations

import random

import numpy as np

from benchmarks.gomoku_tune import (
    FEATURES,
    SIDE_TO_MOVE,
    SIZE,
    Game,
    cell_features,
    current_weights,
    evaluated_positions,
    fit,
    fit_evaluation,
    fit_threats,
    log_loss,
    quiet_positions,
)
from core.ai import _gomoku_kernel as kernel
from core.ai.pattern_board import PatternBoard
from core.ai.patterns import CODES, THREAT_CLASSES, THREAT_VALUES
from core.games import Position, Rules
from core.games.bitboard import geometry

RULES = Rules(SIZE, SIZE, 5)


def cell(row: int, col: int) -> int:
    return row * SIZE + col


def test_the_features_weighed_by_the_values_are_the_boards_sums() -> None:
    rng = random.Random(7)
    weights = current_weights()
    for _ in range(20):
        p = Position.from_moves(RULES, [])
        while len(p.moves) < rng.randint(3, 30) and not p.is_over:
            p = p.play(rng.choice([m for m in p.legal_moves() if abs(m // SIZE - 7) < 4]))
        board = PatternBoard(RULES, p.stones, p.to_move - 1)
        stone = board.w[kernel.W_STONE]
        empty = [here for here in board.grid.cells if not board.w[stone + here]]
        for player in (0, 1):
            features = cell_features(np.asarray(board.packed[player], dtype=np.int64)[empty])
            assert features[SIDE_TO_MOVE] == 0
            assert features[:CODES].sum() == 4 * len(empty)
            assert round(float(features @ weights)) == board.total[player]


def test_only_quiet_positions_are_kept_with_the_result_of_the_side_to_move() -> None:
    black_three = [cell(7, 7), cell(0, 0), cell(7, 8), cell(0, 2), cell(7, 9)]
    game = Game((*black_three, cell(14, 14), cell(10, 10), cell(14, 12), cell(3, 3)), 0, 1)
    kept = list(quiet_positions(game, RULES))
    # After black's open three (the fifth stone) nothing is quiet: white must answer it, and
    # black, left to move with it, could make a flex four.
    assert [result for _, _, result in kept] == [0.0, 1.0, 0.0, 1.0]
    for mine, theirs, _ in kept:
        assert (mine[SIDE_TO_MOVE], theirs[SIDE_TO_MOVE]) == (0, -1)


def test_the_fit_finds_the_weights_the_results_were_drawn_from() -> None:
    rng = np.random.default_rng(3)
    x = rng.normal(size=(20_000, FEATURES))
    truth = rng.normal(size=FEATURES)
    fixed = [0, 5]
    truth[fixed] = 0.0
    y = (rng.random(len(x)) < 1 / (1 + np.exp(-x @ truth))).astype(float)
    free = [i for i in range(FEATURES) if i not in fixed]
    weights = fit(x, y, np.zeros(FEATURES), free)
    assert np.all(weights[fixed] == 0)
    assert np.max(np.abs(weights - truth)) < 0.1
    assert log_loss(x, y, weights) < log_loss(x, y, np.zeros(FEATURES))


def test_the_fit_keeps_the_evaluations_scale() -> None:
    """Results drawn from the current weights on a scale of 1,000 give back that scale and
    (nearly) those evaluations, in the evaluation's units."""
    rng = np.random.default_rng(5)
    start = current_weights()
    x = rng.poisson(3.0, size=(40_000, FEATURES)).astype(float) * rng.choice([-1, 1], FEATURES)
    x /= np.abs(x @ start).mean() / 1_000  # an evaluation of about a thousand, as in play
    y = (rng.random(len(x)) < 1 / (1 + np.exp(-x @ start / 1_000))).astype(float)
    scale, fitted = fit_evaluation(x, y, start)
    assert 900 < scale < 1_100
    assert log_loss(x / scale, y, fitted) <= log_loss(x / scale, y, start)
    assert np.mean(np.abs(x @ fitted - x @ start)) < 0.1 * np.mean(np.abs(x @ start))


def test_the_evaluated_positions_are_those_the_search_evaluates() -> None:
    """Unlike the quiet ones, a position where the opponent has an open three is evaluated (the
    side to move blocks it at a leaf); one where the side to move has an open three against no
    four is won, and one with a five to block is searched on: neither is evaluated."""
    black_three = [cell(7, 7), cell(0, 0), cell(7, 8), cell(0, 2), cell(7, 9)]
    game = Game((*black_three, cell(14, 14), cell(10, 10), cell(14, 12), cell(3, 3)), 0, 1)
    kept = list(evaluated_positions(game, RULES))
    # Of the positions after 1 to 7 stones, the one after 6 is left out: black is to move with
    # his open three (white played elsewhere). After 5 and 7 white is to move against it.
    assert [result for _, _, result in kept] == [0.0, 1.0, 0.0, 1.0, 0.0, 0.0]
    white_to_move = kept[4]
    assert white_to_move[1] >> len(THREAT_CLASSES) & 1  # the other side's flex four cells
    board = PatternBoard(RULES, (0, 0), 0)
    for move in game.moves[:5]:
        board.play(board.index_of(geometry(RULES).bit_of(*divmod(move, SIZE))))
    evaluation = int(board.fn["gk_evaluate"](board.tab, board.w))
    assert white_to_move[0] == evaluation - THREAT_VALUES[5].get(white_to_move[1], 0)


def test_the_threat_fit_finds_the_values_the_results_were_drawn_from() -> None:
    rng = np.random.default_rng(11)
    scale = 1_000.0
    truth = {3: 800.0, 200: -1_500.0, 517: 0.0}
    masks = rng.choice(list(truth), size=60_000)
    evaluations = rng.normal(0, 1_000, size=len(masks))
    values = np.array([truth[int(m)] for m in masks])
    results = (rng.random(len(masks)) < 1 / (1 + np.exp(-(evaluations + values) / scale))) * 1.0
    fitted = fit_threats(evaluations, masks, results, scale)
    for mask, value in truth.items():
        assert abs(fitted[mask] - value) < 100
    assert np.count_nonzero(fitted) <= len(truth)  # masks never seen stay 0

"""Fits the line values of HARD's five-in-a-row evaluation to game results (Texel's method).

``python -m benchmarks gomoku_tune [--quick]``, run only when named (it is a tool, not a
figure). HARD plays itself on 15x15 from random openings (``GOMOKU_TUNE_GAMES``, default 2,000;
``--quick`` 40; ``GOMOKU_TUNE_BUDGET`` CPU seconds a move, default 0.1), in a process per core;
``GOMOKU_TUNE_SEED`` (default 0) picks the openings; ``GOMOKU_TUNE_FILE`` keeps the games in a
file (JSON lines), or reads them from it when it exists.
Of each game it keeps the quiet positions: neither side can win or make a flex four at once, and
the side to move has no four-three to play, so what decides them is the shape the evaluation
scores, not a threat the search reads. Each position is described the way the evaluation sees
it (``gk_evaluate``): per player, over the empty cells, how many lines of each pattern code and
how many cells of each pair of best codes; the side to move's counts weighed by ``TEMPO / 8``.

A logistic regression then fits the values (``VALUES`` and ``PAIR_BONUS`` of
:mod:`core.ai.patterns`) to the results, with the scale of the logistic fixed by the current
values (so the fitted ones stay on the scale of the search's other constants) and a constant for
the side to move (which the search does not need: it compares leaves of one side). It prints
the log loss of the current and the fitted values on held-out games and the fitted tables, to be
written into :mod:`core.ai.patterns` (k 5) and then judged by ``gomoku_sprt`` and ``gomoku_peer``:
a better fit is not yet a stronger player.

Then the threat values (``THREAT_VALUES``): every position where the search evaluates at a leaf
(quiet or not: an open three of the opponent to answer is the common case), described by its
threat mask (which classes of cells each side has, :func:`core.ai._gomoku_kernel.gk_threats`),
with the current evaluation without its threat term as a fixed offset: per mask, the value that
predicts the results best. They are fitted on top of the line values in :mod:`core.ai.patterns`,
so after writing new line values, run the tool again for the threats.
"""

from __future__ import annotations

import json
import math
import os
import random
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from core.ai import _gomoku_kernel as kernel
from core.ai.pattern_board import PatternBoard
from core.ai.pattern_search import PatternSearch
from core.ai.patterns import (
    B1,
    B2,
    B4,
    CODES,
    F4,
    FLEX4,
    FOUR,
    FOUR_THREE,
    PAIR_BONUS,
    THREAT_MASKS,
    VALUES,
    WIN,
)
from core.games import Position, Rules
from core.games.bitboard import geometry

IN_DEFAULT_RUN = False
SIZE = 15
# Codes whose value can be fitted: a flex four or a five in the making is never quiet.
FITTED_CODES = tuple(range(B1, F4))
# Pairs of a cell's two best codes (best first) that can be fitted: from two twos up, not a
# double four (a flex four).
PAIRS = tuple(
    (best, second)
    for second in range(B2, F4)
    for best in range(second, F4)
    if (best, second) != (B4, B4)
)
FEATURES = CODES + len(PAIRS) + 1  # codes, pairs, the side to move
SIDE_TO_MOVE = FEATURES - 1
HELD_OUT = 0.2  # of the games, for the loss printed
# The weight of the prior that pulls a threat mask's value towards 0 (in log-odds, squared).
THREAT_PRIOR = 1.0
PROGRESS_EVERY = 200  # games a process plays between two lines of progress


@dataclass(frozen=True, slots=True)
class Game:
    moves: tuple[int, ...]
    opening: int  # stones placed at random before HARD played
    winner: int  # 0 draw, else the player (1 or 2)


def play_games(seed: int, count: int, budget: float) -> list[Game]:
    """``count`` games of HARD against itself from random openings of 2 to 6 stones within three
    cells of the centre, each move ``budget`` CPU seconds."""
    from benchmarks.gomoku_peer import cpu_clock
    from core.ai import Level, choose_move, warm_up

    rng = random.Random(seed)
    rules = Rules(SIZE, SIZE, 5)
    centre = SIZE // 2
    games: list[Game] = []
    with cpu_clock():
        warm_up()
        while len(games) < count:
            stones = rng.randint(2, 6)
            moves: list[int] = []
            while len(moves) < stones:
                cell = (centre + rng.randint(-3, 3)) * SIZE + centre + rng.randint(-3, 3)
                if cell not in moves:
                    moves.append(cell)
            p = Position.from_moves(rules, moves)
            while not p.is_over:
                p = p.play(choose_move(p, Level.HARD, budget=budget))
            games.append(Game(tuple(p.moves), stones, p.winner or 0))
            if len(games) % PROGRESS_EVERY == 0:
                print(f"  process {seed}: {len(games)} of {count} games", flush=True)
    return games


def cell_features(packed: NDArray[np.int64]) -> NDArray[np.float64]:
    """Of one player's packed patterns of some empty cells: the count of lines of each code,
    of cells of each pair of best codes, and 0 for the side to move."""
    codes = np.minimum(np.stack([(packed >> (4 * d)) & 15 for d in range(4)], axis=1), CODES - 1)
    found = np.zeros(FEATURES)
    found[:CODES] = np.bincount(codes.ravel(), minlength=CODES)[:CODES]
    ranked = -np.sort(-codes, axis=1)
    for j, (best, second) in enumerate(PAIRS):
        found[CODES + j] = np.count_nonzero((ranked[:, 0] == best) & (ranked[:, 1] == second))
    return found


def _positions(game: Game, rules: Rules) -> Iterator[tuple[PatternBoard, float]]:
    """The board at each position of ``game`` after the opening (one board, played forward: use
    it before the next), but the last two (decided), and the result for its side to move (1,
    0.5 or 0)."""
    geo = geometry(rules)
    board = PatternBoard(rules, (0, 0), 0)
    for ply, move in enumerate(game.moves[:-2]):
        board.play(board.index_of(geo.bit_of(*divmod(move, rules.cols))))
        if ply < game.opening:
            continue
        yield board, 0.5 if not game.winner else float(game.winner == board.to_move + 1)


def quiet_positions(
    game: Game, rules: Rules
) -> Iterator[tuple[NDArray[np.float64], NDArray[np.float64], float]]:
    """Per quiet position after the opening: the features of the side to move, of the other,
    and the result for the side to move."""
    for board, result in _positions(game, rules):
        me = board.to_move
        counts = board.w[kernel.W_COUNTS :]
        if counts[8 * me + WIN] + counts[8 * me + FLEX4] + counts[8 * me + FOUR_THREE]:
            continue
        if counts[8 * (1 - me) + WIN] + counts[8 * (1 - me) + FLEX4]:
            continue
        empty = [here for here in board.grid.cells if not board.w[board.w[kernel.W_STONE] + here]]
        packed = board.packed
        mine = cell_features(np.asarray(packed[me], dtype=np.int64)[empty])
        theirs = cell_features(np.asarray(packed[1 - me], dtype=np.int64)[empty])
        theirs[SIDE_TO_MOVE] = -1  # the model's side-to-move term is mine minus theirs
        yield mine, theirs, result


def evaluated_positions(game: Game, rules: Rules) -> Iterator[tuple[int, int, float]]:
    """Per position after the opening where the search would stop at a leaf and evaluate (as
    ``gk_negamax`` and ``gk_horizon`` decide: no five to make or block, no flex four that wins,
    no win by fours within ``LEAF_VCF_DEPTH``): its evaluation without the threat term, its
    threat mask and the result for the side to move."""
    for board, result in _positions(game, rules):
        w, fn = board.w, board.fn
        me = board.to_move
        mine, theirs = (kernel.W_COUNTS + 8 * side for side in (me, 1 - me))
        if w[mine + WIN] or w[theirs + WIN]:
            continue
        if w[mine + FLEX4] and not fn["gk_fours"](w, 1 - me):
            continue
        fours = w[mine + FOUR] + w[mine + FOUR_THREE]
        if fours and PatternSearch(board, math.inf).vcf(kernel.LEAF_VCF_DEPTH) >= 0:
            continue
        mask = int(fn["gk_threats"](w))
        threat = int(board.tab[board.tab[kernel.T_THREAT] + mask])
        yield int(fn["gk_evaluate"](board.tab, w)) - threat, mask, result


def fit_threats(
    evaluations: NDArray[np.float64],
    masks: NDArray[np.int64],
    results: NDArray[np.float64],
    scale: float,
) -> NDArray[np.float64]:
    """Per threat mask, the value added to the evaluation that predicts the results of its
    positions best (in the evaluation's units), pulled towards 0 by a prior of ``THREAT_PRIOR``
    so that a mask seen a few times gets a small value. The masks are one-hot, so each is a
    one-dimensional Newton's method of its own."""
    values = np.zeros(THREAT_MASKS)
    for mask in np.unique(masks):
        offsets, y = evaluations[masks == mask] / scale, results[masks == mask]
        x = 0.0
        for _ in range(50):
            p = 1 / (1 + np.exp(-np.clip(offsets + x, -50, 50)))
            step = (np.sum(p - y) + THREAT_PRIOR * x) / (np.sum(p * (1 - p)) + THREAT_PRIOR)
            x -= step
            if abs(step) < 1e-9:
                break
        values[mask] = x * scale
    return values


def current_weights() -> NDArray[np.float64]:
    weights = np.zeros(FEATURES)
    weights[:CODES] = VALUES[5]
    for j, pair in enumerate(PAIRS):
        weights[CODES + j] = PAIR_BONUS[5].get(pair, 0)
    return weights


def log_loss(x: NDArray[np.float64], y: NDArray[np.float64], weights: NDArray[np.float64]) -> float:
    """The mean log loss of predicting ``y`` by the logistic of ``x @ weights``."""
    z = np.clip(x @ weights, -50, 50)
    return float(np.mean(np.logaddexp(0, -z) * y + np.logaddexp(0, z) * (1 - y)))


def logistic_scale(
    x: NDArray[np.float64], y: NDArray[np.float64], weights: NDArray[np.float64]
) -> float:
    """The divisor of the evaluation that predicts the results best (a search on a log grid)."""
    return float(min(np.geomspace(30, 30_000, 400), key=lambda s: log_loss(x / s, y, weights)))


def fit(
    x: NDArray[np.float64],
    y: NDArray[np.float64],
    start: NDArray[np.float64],
    free: Sequence[int],
    iterations: int = 50,
) -> NDArray[np.float64]:
    """The weights minimising the log loss, the ``free`` ones moved from ``start``: Newton's
    method, each step halved until the loss does not grow (a full step can overshoot on
    features that are rare)."""
    weights = start.astype(float).copy()
    index = np.asarray(free)
    for _ in range(iterations):
        p = 1 / (1 + np.exp(-np.clip(x @ weights, -50, 50)))
        gradient = x.T @ (p - y) / len(y)
        hessian = (x * (p * (1 - p))[:, None]).T @ x / len(y)
        # A rare feature (none in the sample) must not make the system singular.
        step = np.linalg.solve(
            hessian[np.ix_(index, index)] + 1e-12 * np.eye(len(index)), gradient[index]
        )
        loss = log_loss(x, y, weights)
        size = 1.0
        while size > 1e-4:
            trial = weights.copy()
            trial[index] -= size * step
            if log_loss(x, y, trial) <= loss:
                weights = trial
                break
            size /= 2
        else:
            break
    return weights


def fit_evaluation(
    x: NDArray[np.float64], y: NDArray[np.float64], start: NDArray[np.float64]
) -> tuple[float, NDArray[np.float64]]:
    """The logistic's scale that fits the ``start`` weights best, and the weights that fit best
    on that scale, in the evaluation's units (the values of flex fours and fives, never quiet,
    stay as they start)."""
    scale = logistic_scale(x, y, start)
    fitted = fit(x / scale, y, start, [*FITTED_CODES, *range(CODES, FEATURES)])
    if not math.isfinite(float(np.sum(fitted))):
        raise RuntimeError("the fit diverged")
    return scale, fitted


def _collect(args: tuple[int, int, float]) -> list[Game]:
    return play_games(*args)


def main(quick: bool) -> None:
    count = int(os.environ.get("GOMOKU_TUNE_GAMES", "40" if quick else "2000"))
    budget = float(os.environ.get("GOMOKU_TUNE_BUDGET", "0.1"))
    seed = int(os.environ.get("GOMOKU_TUNE_SEED", "0"))
    file_name = os.environ.get("GOMOKU_TUNE_FILE")
    saved = Path(file_name) if file_name else None
    if saved is not None and saved.exists():
        games = [
            Game(tuple(g["moves"]), g["opening"], g["winner"])
            for g in map(json.loads, saved.open())
        ]
        print(f"{len(games)} games read from {saved}")
    else:
        workers = os.cpu_count() or 1
        shares = [count // workers + (i < count % workers) for i in range(workers)]
        print(f"{count} games of HARD against itself, {budget} CPU s a move, {workers} processes")
        with ProcessPoolExecutor(workers) as pool:
            games = [
                g
                for part in pool.map(
                    _collect, [(seed + i, n, budget) for i, n in enumerate(shares)]
                )
                for g in part
            ]
        if saved is not None:
            saved.write_text("".join(json.dumps(asdict(g)) + "\n" for g in games))
    rules = Rules(SIZE, SIZE, 5)
    rng = random.Random(0)
    held = {i for i in range(len(games)) if rng.random() < HELD_OUT}
    rows: dict[bool, list[tuple[NDArray[np.float64], float]]] = {True: [], False: []}
    for i, game in enumerate(games):
        for mine, theirs, result in quiet_positions(game, rules):
            rows[i in held].append((mine * kernel.TEMPO / 8 - theirs, result))
    x, y = (np.array([r[k] for r in rows[False]]) for k in (0, 1))
    x_held, y_held = (np.array([r[k] for r in rows[True]]) for k in (0, 1))
    print(f"quiet positions: {len(y)} to fit, {len(y_held)} held out")
    if len(y) < FEATURES:
        raise SystemExit(f"too few quiet positions to fit {FEATURES} weights: play more games")
    start = current_weights()
    scale, fitted = fit_evaluation(x, y, start)
    print(f"logistic scale {scale:.0f} (the current values)")
    for name, data, labels in (("fitted on", x, y), ("held out", x_held, y_held)):
        if not len(labels):
            continue  # too few games to hold some out
        before = log_loss(data / scale, labels, start)
        after = log_loss(data / scale, labels, fitted)
        print(f"log loss, {name}: current {before:.4f}, fitted {after:.4f}")
    values = [round(float(v)) for v in fitted[:CODES]]
    pairs = {
        pair: round(float(v)) for pair, v in zip(PAIRS, fitted[CODES:SIDE_TO_MOVE], strict=True)
    }
    print(f"VALUES = {tuple(values)}")
    print(f"PAIR_BONUS = {pairs}")
    print(f"side to move: {fitted[SIDE_TO_MOVE]:+.0f} (not used by the search)")
    fit_threat_values(games, held, rules)


def fit_threat_values(games: list[Game], held: set[int], rules: Rules) -> None:
    """Fits and prints the threat values (``THREAT_VALUES``) on top of the current evaluation."""
    rows: dict[bool, list[tuple[int, int, float]]] = {True: [], False: []}
    for i, game in enumerate(games):
        rows[i in held].extend(evaluated_positions(game, rules))
    # per split: the evaluations (a column), the masks and the results
    data = {
        split: (
            np.array([r[0] for r in part], dtype=float).reshape(-1, 1),
            np.array([r[1] for r in part], dtype=np.int64),
            np.array([r[2] for r in part], dtype=float),
        )
        for split, part in rows.items()
    }
    e, m, y = data[False]
    print(f"evaluated positions: {len(y)} to fit, {len(rows[True])} held out")
    scale = logistic_scale(e, y, np.ones(1))
    values = fit_threats(e[:, 0], m, y, scale)
    for name, split in (("fitted on", False), ("held out", True)):
        e, m, y = data[split]
        if not len(y):
            continue
        before = log_loss(e / scale, y, np.ones(1))
        after = log_loss((e[:, 0] + values[m])[:, None] / scale, y, np.ones(1))
        print(f"threats, log loss, {name}: without {before:.4f}, fitted {after:.4f}")
    fitted = {mask: round(float(v)) for mask, v in enumerate(values) if round(float(v))}
    print(f"THREAT_VALUES[5] = {fitted}")

"""Tournaments: HARD against MEDIUM and EASY, on Connect Four and on big free boards.

(a) Connect Four 6x7 from the empty board: HARD must open in the centre column and never lose.
(b) Free boards 7x7 k=4, 9x9 k=5, 10x10 k=5: goal, HARD wins at least 95% against MEDIUM, as
    first and as second player.
Each game gets its own seeded random source, so MEDIUM and EASY vary from game to game; games run
on two worker processes (the move times are measured inside the game, per move).
"""

from __future__ import annotations

import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from core.ai import Level, choose_move, warm_up
from core.games import CONNECT_FOUR, Position, Rules

BUDGET = 0.2
WORKERS = 2


@dataclass(frozen=True, slots=True)
class Game:
    rules: Rules
    opponent: Level
    hard_first: bool
    seed: int
    budget: float = BUDGET  # seconds per HARD move


@dataclass(frozen=True, slots=True)
class Played:
    game: Game
    result: int  # for HARD: 1 win, 0 draw, -1 loss
    plies: int
    first_hard_move: int
    hard_times: tuple[float, ...]


def play(game: Game) -> Played:
    rng = random.Random(game.seed)
    hard_player = 1 if game.hard_first else 2
    p = Position.start(game.rules)
    times: list[float] = []
    first = -1
    while not p.is_over:
        if p.to_move == hard_player:
            started = time.perf_counter()
            move = choose_move(p, Level.HARD, budget=game.budget, rng=rng)
            times.append(time.perf_counter() - started)
            if first < 0:
                first = move
        else:
            move = choose_move(p, game.opponent, rng=rng)
        p = p.play(move)
    result = 0 if p.winner is None else (1 if p.winner == hard_player else -1)
    return Played(game, result, len(p.moves), first, tuple(times))


def _p99(values: list[float]) -> float:
    return statistics.quantiles(values, n=100)[98] if len(values) > 1 else values[0]


def _name(rules: Rules) -> str:
    kind = "gravity" if rules.gravity else "free"
    return f"{rules.rows}x{rules.cols} k={rules.k} {kind}"


def report(title: str, played: list[Played]) -> None:
    print(f"\n{title}")
    print(
        f"{'board':<20}{'opponent':<9}{'HARD':<7}{'games':>6}{'win':>6}{'draw':>6}{'loss':>6}"
        f"{'win%':>7}{'plies':>7}{'mean ms':>9}{'p99 ms':>8}{'max ms':>8}"
    )
    groups: dict[tuple[str, str, str], list[Played]] = {}
    for item in played:
        key = (
            _name(item.game.rules),
            item.game.opponent.value,
            "first" if item.game.hard_first else "second",
        )
        groups.setdefault(key, []).append(item)
    for (board, opponent, side), items in groups.items():
        results = [item.result for item in items]
        times = [t for item in items for t in item.hard_times]
        wins, draws, losses = results.count(1), results.count(0), results.count(-1)
        print(
            f"{board:<20}{opponent:<9}{side:<7}{len(items):>6}{wins:>6}{draws:>6}{losses:>6}"
            f"{100 * wins / len(items):>6.0f}%{statistics.mean(i.plies for i in items):>7.1f}"
            f"{1000 * statistics.mean(times):>9.1f}{1000 * _p99(times):>8.1f}"
            f"{1000 * max(times):>8.1f}"
        )


def _init_worker() -> None:
    warm_up()


def main(quick: bool) -> None:
    games_per_side = 10 if quick else 100
    started = time.perf_counter()
    print(f"warm-up (JIT, tables): {warm_up():.2f} s; budget {BUDGET} s per HARD move")
    boards = [CONNECT_FOUR, Rules(7, 7, 4), Rules(9, 9, 5), Rules(10, 10, 5)]
    games = [
        Game(rules, opponent, hard_first, seed=1000 * index + seed)
        for rules in boards
        for index, (opponent, hard_first) in enumerate(
            (o, f) for o in (Level.MEDIUM, Level.EASY) for f in (True, False)
        )
        for seed in range(games_per_side)
    ]
    with ProcessPoolExecutor(WORKERS, initializer=_init_worker) as pool:
        played = list(pool.map(play, games, chunksize=1))
    gravity = [item for item in played if item.game.rules.gravity]
    free = [item for item in played if not item.game.rules.gravity]
    report("(a) Connect Four from the empty board", gravity)
    openings = {item.first_hard_move for item in gravity if item.game.hard_first}
    losses = sum(item.result < 0 for item in gravity)
    print(f"HARD's first moves as first player: {sorted(openings)} (centre column is 3)")
    print(f"HARD losses on Connect Four: {losses}")
    report("(b) free boards", free)
    for rules in boards[1:]:
        against_medium = [
            item for item in free if item.game.rules == rules and item.game.opponent is Level.MEDIUM
        ]
        share = sum(item.result == 1 for item in against_medium) / len(against_medium)
        print(f"{_name(rules)}: HARD beats MEDIUM in {100 * share:.0f}% of games (goal 95%)")
    print(f"wall time {time.perf_counter() - started:.0f} s on {WORKERS} processes")

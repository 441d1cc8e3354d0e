"""``/review`` of whole Connect Four games: how long ``review_game`` takes, p50/p99.

``python -m benchmarks review [--quick]``. Two kinds of long games (30 to 42 moves): HARD
against HARD with a tenth of the moves random (few mistakes, the first game perfect play), and
random games where a player takes a win it has and avoids handing one over (many mistakes, each
of which costs a search of the optimal moves). The same games are then analysed under the former
contract, the optimal moves of every position, for comparison in the same run.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

from benchmarks.book import fmt, percentile
from core.ai import Level, analysis, choose_move, warm_up
from core.ai.review import review_game
from core.games import CONNECT_FOUR, Position

MIN_MOVES = 30  # shorter games are left out: the figure is about whole games
GAMES = 60  # of each kind (quick: 8)


def hard_games(count: int, rng: random.Random) -> list[tuple[int, ...]]:
    """HARD against HARD, a tenth of the moves random (none in the first game)."""
    games: list[tuple[int, ...]] = []
    while len(games) < count:
        noise = 0.0 if not games else 0.1
        p = Position.start(CONNECT_FOUR)
        while not p.is_over:
            if rng.random() < noise:
                p = p.play(rng.choice(p.legal_moves()))
            else:
                p = p.play(choose_move(p, Level.HARD, budget=0.05))
        if len(p.moves) >= MIN_MOVES:
            games.append(p.moves)
    return games


def careful_random_games(count: int, rng: random.Random) -> list[tuple[int, ...]]:
    """Random moves, except that a win at hand is taken and a win is not handed over when
    another move avoids it: long games full of mistakes."""
    games: list[tuple[int, ...]] = []
    while len(games) < count:
        p = Position.start(CONNECT_FOUR)
        while not p.is_over:
            children = {m: p.play(m) for m in p.legal_moves()}
            wins = [m for m, c in children.items() if c.winner is not None]
            safe = [
                m
                for m, c in children.items()
                if not any(c.play(r).winner is not None for r in c.legal_moves())
            ]
            p = children[rng.choice(wins or safe or list(children))]
        if len(p.moves) >= MIN_MOVES:
            games.append(p.moves)
    return games


def timed(games: list[tuple[int, ...]], review: Callable[[tuple[int, ...]], object]) -> str:
    wall: list[float] = []
    cpu: list[float] = []  # the machine may be shared: CPU time is the review's own cost
    for moves in games:
        started, started_cpu = time.perf_counter(), time.process_time()
        assert review(moves) is not None
        wall.append(time.perf_counter() - started)
        cpu.append(time.process_time() - started_cpu)
    return (
        f"p50 {fmt(statistics.median(wall)):>8}  p99 {fmt(percentile(wall, 0.99)):>8}  "
        f"max {fmt(max(wall)):>8} | CPU p50 {fmt(statistics.median(cpu)):>8}  "
        f"p99 {fmt(percentile(cpu, 0.99)):>8}"
    )


def every_position(moves: tuple[int, ...]) -> object:
    return analysis.game_scores(CONNECT_FOUR, moves, needs_best=lambda before, after: True)


def review(moves: tuple[int, ...]) -> object:
    return review_game(CONNECT_FOUR, moves)


def main(quick: bool) -> None:
    warm_up()
    count = 8 if quick else GAMES
    rng = random.Random(7)
    kinds = {
        "HARD+noise": hard_games(count, rng),
        "careful random": careful_random_games(count, rng),
    }
    # a process's first review also solves the first plies once for all (tens of ms)
    review(kinds["HARD+noise"][0])
    print(f"review_game on whole Connect Four games ({count} of each kind, {MIN_MOVES}+ moves)")
    for name, games in kinds.items():
        lengths = [len(m) for m in games]
        print(
            f"{name:<15} moves {min(lengths)}..{max(lengths)} "
            f"(median {statistics.median(lengths):.0f})"
        )
        print(f"  review (optimal moves at mistakes)   {timed(games, review)}")
        print(f"  optimal moves of every position      {timed(games, every_position)}")

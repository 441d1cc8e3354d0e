"""The cost of ratings: ``core.ratings.rate`` alone, p50 and p99; the rebuild of every rating
from 100,000 stored results (what ``chatbots ratings rebuild`` adds to reading them); and, on
SQLite and PostgreSQL (:mod:`benchmarks.ratings_store`), ``/top all`` with 100,000 rated
players with the plan that shows its index, and what the rating update adds to the transaction
that finishes a game.

``python -m benchmarks ratings [--quick]``. Each sample of ``rate`` is one call on a random
pair of ratings and a random result (win, loss or draw), timed with ``perf_counter_ns``.
"""

from __future__ import annotations

import random
import statistics
import time

from benchmarks import ratings_store
from core.ratings import RatedResult, Rating, rate, rebuild

SAMPLES = 50_000
REBUILD_RESULTS = 100_000


def _micros(times_ns: list[int], share: int) -> float:
    return statistics.quantiles(times_ns, n=100)[share - 1] / 1000


def main(quick: bool) -> None:
    rng = random.Random(23)
    samples = SAMPLES // 10 if quick else SAMPLES
    pairs = [
        (
            Rating(rng.uniform(800, 2400), rng.uniform(40, 350), rng.randrange(100)),
            Rating(rng.uniform(800, 2400), rng.uniform(40, 350), rng.randrange(100)),
            rng.choice([1, 2, None]),
        )
        for _ in range(samples)
    ]
    for first, second, winner in pairs[:1000]:  # warm the interpreter's caches
        rate(first, second, winner)
    times: list[int] = []
    for first, second, winner in pairs:
        started = time.perf_counter_ns()
        rate(first, second, winner)
        times.append(time.perf_counter_ns() - started)
    print(
        f"one rating update ({samples} samples): p50 {statistics.median(times) / 1000:.1f} µs,"
        f" p99 {_micros(times, 99):.1f} µs, max {max(times) / 1000:.1f} µs"
    )

    count = REBUILD_RESULTS // 10 if quick else REBUILD_RESULTS
    players = [f"p{n}" for n in range(2000)]
    results = []
    for _ in range(count):
        one, two = rng.sample(players, 2)
        pool = rng.choice(["tictactoe", "connect4", "free-big-k5"])
        results.append(RatedResult(pool, one, two, rng.choice([1, 2, None])))
    started_s = time.perf_counter()
    ratings = rebuild(results)
    elapsed = time.perf_counter() - started_s
    print(
        f"rebuild of {count} results ({len(ratings)} ratings): {elapsed:.2f} s,"
        f" {count / elapsed:,.0f} results/s"
    )
    ratings_store.run(quick)

"""Connect Four solver against Pascal Pons' six test sets, and the anytime search at 1 s.

``python -m benchmarks connect4 [--quick]``. Prints, per set: positions solved, correct scores,
mean and median time, mean nodes, and the ratio to Pons' published C++ figures (measured on
another machine); the plain-Python kernel on
a sample (ratio compiled/plain); the JIT warm-up; then ``best_move`` with a 1 s budget: the
share of moves that keep the exact score and the p99 time.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

from core.ai import engine, solver
from core.games import CONNECT_FOUR, Position
from tests.core.ai.connect4_sets import SETS
from tests.core.ai.connect4_sets import load_set as load
from tests.core.ai.test_solver import keeps_score

# Pons' C++ solver, mean time per position (issue 6), in seconds: published figures from another
# machine, so a ratio against them is only an order of magnitude
CPP_MEAN = {
    "L3_R1": 6.4e-6,
    "L2_R1": 52e-6,
    "L2_R2": 5.8e-3,
    "L1_R1": 0.43e-3,
    "L1_R2": 146e-3,
    "L1_R3": 4.0,
}
BUDGET = 1.0


def last_nodes() -> int:
    return engine.engine_for(CONNECT_FOUR).nodes


def time_solves(
    positions: list[tuple[Position, int]], solve: Callable[[Position], int]
) -> tuple[int, list[float], list[int]]:
    correct = 0
    times: list[float] = []
    nodes: list[int] = []
    for p, expected in positions:
        started = time.perf_counter()
        score = solve(p)
        times.append(time.perf_counter() - started)
        nodes.append(last_nodes())
        correct += score == expected
    return correct, times, nodes


def fmt_time(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} us"
    if seconds < 1:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds:.2f} s"


def solve_table(quick: bool) -> None:
    counts = {"L3_R1": 1000, "L2_R1": 1000, "L2_R2": 1000, "L1_R1": 1000, "L1_R2": 1000}
    counts["L1_R3"] = 20
    if quick:
        counts = {"L3_R1": 300, "L2_R1": 200, "L2_R2": 30, "L1_R1": 100, "L1_R2": 10}
        counts["L1_R3"] = 2
    print(f"solve(), {'compiled' if solver.accelerated() else 'plain Python'} kernel")
    header = (
        f"{'set':<6} {'solved':>6} {'correct':>7} {'mean':>10} {'median':>10} "
        f"{'max':>10} {'mean nodes':>11} {'C++ mean*':>10} {'x C++*':>6}"
    )
    print(header)
    print("-" * len(header))
    for name in SETS:
        # quick: skip the first L1_R3 position, one of the slowest (about 9 s)
        positions = load(name, counts[name], skip=int(quick and name == "L1_R3"))
        correct, times, nodes = time_solves(positions, solver.solve)
        mean = statistics.fmean(times)
        print(
            f"{name:<6} {len(positions):>6} {correct:>7} {fmt_time(mean):>10} "
            f"{fmt_time(statistics.median(times)):>10} {fmt_time(max(times)):>10} "
            f"{statistics.fmean(nodes):>11.0f} {fmt_time(CPP_MEAN[name]):>10} "
            f"{mean / CPP_MEAN[name]:>6.2f}",
            flush=True,
        )
        if name == "L1_R3":
            print("  L1_R3 times:", ", ".join(f"{t:.2f}" for t in times))
    print(
        "* C++ mean: Pons' published figures from another machine (not measured here); x C++ is "
        "our mean over them, an order of magnitude only"
    )
    print(
        "  (positions with up to 12 stones, most of the L1 sets, are searched down to the 12-ply "
        "opening book when it is installed; Pons' figures are of his search alone)"
    )


def plain_table(quick: bool) -> None:
    print("\nplain Python kernel (same code, not compiled) on the first positions of a set")
    header = f"{'set':<6} {'n':>4} {'correct':>7} {'plain mean':>11} {'compiled':>10} {'ratio':>6}"
    print(header)
    print("-" * len(header))
    for name, count in (("L3_R1", 10 if quick else 100), ("L2_R1", 3 if quick else 20)):
        positions = load(name, count)
        correct, plain_times, _ = time_solves(positions, lambda p: solver.solve(p, plain=True))
        _, compiled_times, _ = time_solves(positions, solver.solve)
        plain = statistics.fmean(plain_times)
        compiled = statistics.fmean(compiled_times)
        print(
            f"{name:<6} {count:>4} {correct:>7} {fmt_time(plain):>11} {fmt_time(compiled):>10} "
            f"{plain / compiled:>6.0f}",
            flush=True,
        )


def best_move_table(quick: bool) -> None:
    counts = {"L1_R1": 1000, "L1_R2": 1000, "L1_R3": 30}
    if quick:
        counts = {"L1_R1": 50, "L1_R2": 10, "L1_R3": 2}
    print(f"\nbest_move(budget={BUDGET} s): moves that keep the exact score")
    header = (
        f"{'set':<6} {'n':>5} {'optimal':>8} {'share':>7} {'exact':>6} {'median':>10} "
        f"{'p99':>10} {'max':>10}"
    )
    print(header)
    print("-" * len(header))
    for name, count in counts.items():
        positions = load(name, count, skip=int(quick and name == "L1_R3"))
        optimal = exact = 0
        times: list[float] = []
        for p, score in positions:
            started = time.perf_counter()
            result = solver.best_move(p, started + BUDGET)
            times.append(time.perf_counter() - started)
            exact += result.exact
            # an exact result is optimal by construction (tested); check the others by solving
            if result.exact:
                optimal += result.score in (score, None)  # None: the only safe move
            else:
                optimal += keeps_score(p, result.move, score)
        times.sort()
        p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
        print(
            f"{name:<6} {count:>5} {optimal:>8} {optimal / count:>7.1%} {exact:>6} "
            f"{fmt_time(statistics.median(times)):>10} {fmt_time(p99):>10} "
            f"{fmt_time(times[-1]):>10}",
            flush=True,
        )
    started = time.perf_counter()
    result = solver.best_move(Position.start(CONNECT_FOUR), started + BUDGET)
    print(
        f"empty board: column {result.move} (exact={result.exact}, depth {result.depth}) "
        f"in {fmt_time(time.perf_counter() - started)}"
    )


def main(quick: bool) -> None:
    started = time.perf_counter()
    compile_seconds = solver.warm_up()
    total = time.perf_counter() - started
    print(
        f"JIT warm-up: {compile_seconds:.2f} s (accelerated: {solver.accelerated()}; a first run"
        f" compiles, later runs load numba's cache); total start {total:.2f} s"
    )
    solve_table(quick)
    plain_table(quick)
    best_move_table(quick)

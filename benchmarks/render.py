"""Board pictures: render time and PNG size per board size and theme.

Renders every position of random games (3x3, 6x7 Connect Four, 15x15 and 25x25 five in a row)
as a player sees them move by move, each from scratch (the picture cache cleared first; the
pieces it is made of stay drawn, as in a running bot), and prints p50 and p99 render times and
the largest PNG. Goal (issue 25): p99 under 10 ms and under 40 KB at 25x25. A picture shown
again comes from the cache: its time is printed too.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

from core.games import CONNECT_FOUR, TICTACTOE, Rules
from core.pictures import THEMES, board_png
from core.pictures.picture import CACHE_SIZE, _render
from core.replies import BoardView
from tests.boards import board_of, random_moves

BOARDS = (TICTACTOE, CONNECT_FOUR, Rules(15, 15, 5, gravity=False), Rules(25, 25, 5, gravity=False))
CAPTION = "Alice (X) to move - 4:59 left"


@dataclass
class _Timings:
    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def _boards(rules: Rules, samples: int) -> list[BoardView]:
    """Positions of random games, every move of each, until there are ``samples``."""
    boards: list[BoardView] = []
    seed = 0
    while len(boards) < samples:
        moves = random_moves(rules, rules.cells, seed=seed)
        boards.extend(board_of(rules, moves[:n]) for n in range(len(moves) + 1))
        seed += 1
    return boards[:samples]


def _timed(boards: list[BoardView], render: Callable[[BoardView], bytes]) -> _Timings:
    timings = _Timings()
    for board in boards:
        _render.cache_clear()
        wall, cpu = time.perf_counter(), time.thread_time()
        data = render(board)
        timings.cpu.append(time.thread_time() - cpu)
        timings.wall.append(time.perf_counter() - wall)
        timings.sizes.append(len(data))
    return timings


def _ms(values: list[float]) -> str:
    p50, p99 = statistics.median(values), _percentile(values, 0.99)
    return f"{p50 * 1e3:>5.2f} {p99 * 1e3:>6.2f}"


def main(quick: bool) -> None:
    samples = 60 if quick else 300
    print(f"{samples} positions per board and theme, each rendered afresh (ms; CPU: this")
    print("thread's own time, which other processes on the machine do not inflate)")
    print(
        f"{'board':>7} {'theme':>9} {'first':>6} {'wall p50':>8} {'p99':>6} {'CPU p50':>7}"
        f" {'p99':>6} {'PNG max':>8} {'cached':>7}"
    )
    for rules in BOARDS:
        boards = _boards(rules, samples)
        for theme in THEMES.values():
            _render.cache_clear()
            started = time.perf_counter()
            board_png(boards[-1], theme)  # draws the pieces: the first picture of its kind
            first = time.perf_counter() - started
            timings = _timed(boards, partial(board_png, theme=theme))
            kept = boards[-CACHE_SIZE:]
            for board in kept:
                board_png(board, theme)
            started = time.perf_counter()
            for board in kept:
                board_png(board, theme)
            cached = (time.perf_counter() - started) / len(kept)
            print(
                f"{rules.rows:>3}x{rules.cols:<3} {theme.name:>9} {first * 1e3:>6.1f}"
                f" {_ms(timings.wall):>15} {_ms(timings.cpu):>14}"
                f" {max(timings.sizes) / 1024:>6.1f}KB {cached * 1e6:>5.0f}us"
            )
    captioned = _timed(
        _boards(BOARDS[-1], samples // 3), lambda board: board_png(board, caption=CAPTION)
    )
    print(
        f"25x25 with a caption (players and a line): wall p50/p99 {_ms(captioned.wall)} ms,"
        f" CPU p50/p99 {_ms(captioned.cpu)} ms"
    )

"""Gomoku (15x15, five in a row, freestyle) against Rapfi: HARD at 1 s a move, per Rapfi setting.

``python -m benchmarks gomoku_peer [--quick]``. Rapfi (dhbloo/rapfi, GPL-3) is a peer of the
benchmark only, like bitbully for Connect Four: nothing of it is imported or shipped. It is
optional: give a checkout of its sources in ``RAPFI_SOURCE`` (the repository or its ``Rapfi``
folder); the benchmark builds it there with CMake (``build-chatbots-bench``, classic pattern
evaluation from its internal config, no network weights) and plays it through the Gomocup
(piskvork) protocol with the small client of :mod:`benchmarks._gomocup`, one thread,
freestyle rule.

For each Rapfi setting (1 s a move, 100 ms a move, depth 6, depth 8) it plays the 10 openings
of :data:`OPENINGS` with both colours (20 games; ``--quick``: 2 openings, 4 games) and prints
the score, the game lengths and the time per move of both sides. ``RAPFI_SETTINGS`` picks some
settings by key (``1s``, ``100ms``, ``depth6``, ``depth8``; comma-separated);
``GOMOKU_PEER_CLOCK=cpu`` counts HARD's budget in CPU seconds, for a busy machine;
``GOMOKU_PEER_MOVES=1`` prints the moves of every game HARD did not win, to replay it;
``GOMOKU_PEER_OPENINGS=all`` plays all 26 openings of that kind (52 games a setting; the
others favour black more), for a comparison that needs more games;
``GOMOKU_PEER_JUDGE=<ms>`` has a second Rapfi, at that many milliseconds a position, judge each
of HARD's moves in those games: its evaluation before the move (for HARD: ``+M13``/``-M12``, a
forced win or loss in that many plies) and the move it prefers, to see where a game turned.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks._gomocup import GomocupEngine, rapfi
from core.ai import Level, choose_move, warm_up
from core.games import Position, Rules

GOMOKU = Rules(15, 15, 5)
BUDGET = 1.0
# Which settings to play, by their keys (below), comma-separated; all when unset.
SETTINGS_VARIABLE = "RAPFI_SETTINGS"
# "cpu": HARD's budget (and its time per move below) counted in this process's CPU seconds,
# for a machine shared with other work, where a wall-clock second may give HARD a tenth of one.
CLOCK_VARIABLE = "GOMOKU_PEER_CLOCK"
# "1": the moves (row, col) of each game HARD did not win, printed after the setting's score.
MOVES_VARIABLE = "GOMOKU_PEER_MOVES"
# Milliseconds: a second Rapfi judges each of HARD's moves in the games it did not win.
JUDGE_VARIABLE = "GOMOKU_PEER_JUDGE"
# "all": the 26 openings of every_opening (52 games a setting) instead of the 10 even ones,
# for more games in a comparison of two versions of HARD; the measure is the 10.
OPENINGS_VARIABLE = "GOMOKU_PEER_OPENINGS"

# Three-stone openings (row, col): black on the centre, white next to it (direct) or diagonal
# (indirect), black's second stone within two cells. These 10 are the most even of the 26 such
# openings (up to symmetry: every_opening) by Rapfi's own evaluation after 1 s, white to move:
# -4 to -102 (all favour black a little; -100 is a small edge in Rapfi's units).
OPENINGS: tuple[tuple[tuple[int, int], ...], ...] = (
    ((7, 7), (6, 8), (9, 5)),
    ((7, 7), (6, 8), (5, 9)),
    ((7, 7), (6, 8), (5, 5)),
    ((7, 7), (6, 7), (9, 5)),
    ((7, 7), (6, 7), (5, 5)),
    ((7, 7), (6, 8), (6, 5)),
    ((7, 7), (6, 7), (5, 7)),
    ((7, 7), (6, 8), (8, 5)),
    ((7, 7), (6, 8), (5, 7)),
    ((7, 7), (6, 7), (6, 5)),
)


def every_opening() -> tuple[tuple[tuple[int, int], ...], ...]:
    """The 26 openings of that kind: :data:`OPENINGS` first, then one of each other class under
    the board's symmetries that keep the first two stones in place (row-major by black's second
    stone, the first of its class)."""
    centre = GOMOKU.rows // 2
    found = list(OPENINGS)
    for white in ((centre - 1, centre), (centre - 1, centre + 1)):
        for row in range(centre - 2, centre + 3):
            for col in range(centre - 2, centre + 3):
                if (row, col) in ((centre, centre), white):
                    continue
                same = {((centre, centre), white, image) for image in _images((row, col), white)}
                if not same & set(found):
                    found.append(((centre, centre), white, (row, col)))
    return tuple(found)


def _images(cell: tuple[int, int], fixed: tuple[int, int]) -> set[tuple[int, int]]:
    """``cell`` under each symmetry of the board that leaves ``fixed`` (and the centre) alone."""
    symmetries = [(t, r, c) for t in (False, True) for r in (1, -1) for c in (1, -1)]
    return {_moved(cell, *symmetry) for symmetry in symmetries if _moved(fixed, *symmetry) == fixed}


def _moved(cell: tuple[int, int], transpose: bool, rows: int, cols: int) -> tuple[int, int]:
    """``cell`` mirrored about the centre's diagonal (``transpose``), then its row and column
    (-1)."""
    centre = GOMOKU.rows // 2
    r, c = cell[0] - centre, cell[1] - centre
    if transpose:
        r, c = c, r
    return centre + rows * r, centre + cols * c


EVERY_OPENING = every_opening()


@dataclass(frozen=True, slots=True)
class Setting:
    """How Rapfi is limited: milliseconds a move (0: none) and a depth (0: none)."""

    label: str
    key: str
    turn_ms: int = 0
    max_depth: int = 0

    def info(self) -> dict[str, int]:
        """The Gomocup INFO keys that impose it (no time limit when limited by depth)."""
        info = {"rule": 0, "thread_num": 1, "timeout_match": 0, "timeout_turn": self.turn_ms}
        if self.max_depth:
            info["max_depth"] = self.max_depth
        return info


SETTINGS = (
    Setting("1 s a move", "1s", turn_ms=1000),
    Setting("100 ms a move", "100ms", turn_ms=100),
    Setting("depth 6", "depth6", max_depth=6),
    Setting("depth 8", "depth8", max_depth=8),
)


# --------------------------------------------------------------------------------------------
# The Gomocup (piskvork) protocol, manager side
# --------------------------------------------------------------------------------------------


# --------------------------------------------------------------------------------------------
# Games
# --------------------------------------------------------------------------------------------


@dataclass(slots=True)
class Game:
    opening: int
    ours_first: bool  # whether HARD has the first player's stones (the opening's two)
    result: int = 0  # for HARD: 1 win, 0 draw, -1 loss
    plies: int = 0
    moves: tuple[int, ...] = ()  # cells, row-major, the opening's included
    our_times: list[float] = field(default_factory=list)
    peer_times: list[float] = field(default_factory=list)


def opening_cells(opening: Sequence[tuple[int, int]], cols: int = GOMOKU.cols) -> list[int]:
    """An opening's (row, column) stones as cells, row-major on a board ``cols`` wide."""
    return [row * cols + col for row, col in opening]


def board_stones(moves: Sequence[int], engine_first: bool) -> list[tuple[int, int, bool]]:
    """``moves`` (cells, row-major, in the order played) as :meth:`GomocupEngine.board` takes
    them, the engine's own being the first player's when ``engine_first``."""
    return [
        (move % GOMOKU.cols, move // GOMOKU.cols, (i % 2 == 0) == engine_first)
        for i, move in enumerate(moves)
    ]


def play(
    engine: GomocupEngine, setting: Setting, opening: int, ours_first: bool, budget: float = BUDGET
) -> Game:
    """One game from ``EVERY_OPENING[opening]`` (whose first are :data:`OPENINGS`), HARD at
    ``budget`` s a move."""
    game = Game(opening, ours_first)
    p = Position.from_moves(GOMOKU, opening_cells(EVERY_OPENING[opening]))
    ours = 1 if ours_first else 2
    engine.start(GOMOKU.rows, setting.info())
    told = False  # whether the engine has seen the board yet
    while not p.is_over:
        if p.to_move == ours:
            started = time.perf_counter()
            move = choose_move(p, Level.HARD, budget=budget)
            game.our_times.append(time.perf_counter() - started)
            p = p.play(move)
            continue
        started = time.monotonic()  # the wall clock even when HARD's is the CPU's
        move = engine_move(engine, p.moves, told)
        told = True
        game.peer_times.append(time.monotonic() - started)
        p = p.play(move)
    game.plies = len(p.moves)
    game.moves = p.moves
    game.result = 0 if p.winner is None else (1 if p.winner == ours else -1)
    return game


@dataclass(frozen=True, slots=True)
class Verdict:
    """The judge's view of the position before one of HARD's moves."""

    ply: int  # from 1, the opening's stones included
    ours: int  # HARD's move (a cell, row-major)
    preferred: int  # the judge's move
    evaluation: str | None  # for HARD, as the judge said it


def judge(engine: GomocupEngine, game: Game, turn_ms: int) -> list[Verdict]:
    """The judge's verdict before each of HARD's moves in ``game`` (a new game each time: the
    judge plays the side to move, HARD's)."""
    verdicts = []
    opening = len(EVERY_OPENING[game.opening])
    ours = 0 if game.ours_first else 1  # HARD's moves are the plies of this parity
    setting = Setting(f"{turn_ms} ms a move", "judge", turn_ms=turn_ms)
    for ply in range(opening, len(game.moves)):
        if ply % 2 == ours:
            preferred, evaluation = ask(engine, setting, game.moves[:ply])
            verdicts.append(Verdict(ply + 1, game.moves[ply], preferred, evaluation))
    return verdicts


def engine_move(engine: GomocupEngine, moves: Sequence[int], told: bool) -> int:
    """The engine's move (a cell), playing the side to move after ``moves``: told the whole
    board the first time in a game, else (``told``) only the last move."""
    if told:
        last = moves[-1]
        x, y = engine.turn(last % GOMOKU.cols, last // GOMOKU.cols)
    else:
        # The side to move has the first player's stones when an even number of stones is down.
        x, y = engine.board(board_stones(moves, engine_first=len(moves) % 2 == 0))
    return y * GOMOKU.cols + x


def ask(engine: GomocupEngine, setting: Setting, moves: Sequence[int]) -> tuple[int, str | None]:
    """The engine's move (a cell) and evaluation, as it said it, playing the side to move after
    ``moves`` (a new game: nothing of an earlier position is its history)."""
    engine.start(GOMOKU.rows, setting.info())
    return engine_move(engine, moves, told=False), engine.evaluation()


# --------------------------------------------------------------------------------------------
# Building Rapfi, the report
# --------------------------------------------------------------------------------------------


def fmt(seconds: float) -> str:
    return f"{seconds * 1e3:.0f} ms" if seconds < 1 else f"{seconds:.2f} s"


def cell_name(cell: int) -> str:
    return f"{cell // GOMOKU.cols},{cell % GOMOKU.cols}"


def report(setting: Setting, games: list[Game], judged: dict[int, list[Verdict]]) -> None:
    """The setting's score; ``judged``: the judge's verdicts per game (index in ``games``)."""
    wins = sum(g.result == 1 for g in games)
    draws = sum(g.result == 0 for g in games)
    losses = sum(g.result == -1 for g in games)
    ours = [t for g in games for t in g.our_times]
    peers = [t for g in games for t in g.peer_times]
    print(
        f"Rapfi {setting.label}: HARD {wins} wins, {draws} draws, {losses} losses"
        f" ({(wins + draws / 2) / len(games):.0%});"
        f" HARD's move p50 {fmt(statistics.median(ours))}, max {fmt(max(ours))};"
        f" Rapfi's move p50 {fmt(statistics.median(peers))}",
        flush=True,
    )
    for first, label in ((True, "HARD first (black)"), (False, "HARD second (white)")):
        side = [g for g in games if g.ours_first == first]
        lengths = " ".join(f"{'WDL'[1 - g.result]}{g.plies}" for g in side)
        lost = [g.plies for g in side if g.result == -1]
        before = f"{statistics.mean(lost):.1f}" if lost else "-"
        print(f"  {label}: {lengths}  (plies before a loss, mean {before})", flush=True)
    if os.environ.get(MOVES_VARIABLE) == "1" or judged:
        for index, g in enumerate(games):
            if g.result != 1:
                colour = "first" if g.ours_first else "second"
                cells = " ".join(cell_name(m) for m in g.moves)
                print(f"  opening {g.opening}, HARD {colour}, {'WDL'[1 - g.result]}: {cells}")
                for v in judged.get(index, []):
                    print(
                        f"    ply {v.ply}: HARD {cell_name(v.ours)}, judge"
                        f" {cell_name(v.preferred)}, eval before {v.evaluation or '?'}"
                    )


@contextmanager
def cpu_clock(enabled: bool = True) -> Iterator[None]:
    """Within it, every deadline of the AI (a ``time.perf_counter()`` value, the compiled
    kernels' clock included) counts this process's CPU seconds: a budget is then the same however
    busy the machine is. The wall clock is back on leaving."""
    wall_clock = time.perf_counter
    if enabled:
        time.perf_counter = time.process_time
    try:
        yield
    finally:
        time.perf_counter = wall_clock


def main(quick: bool) -> None:
    binary = rapfi("to play against")
    if binary is None:
        return
    on_cpu = os.environ.get(CLOCK_VARIABLE) == "cpu"
    if on_cpu:
        # Rapfi's time limit stays on the wall clock: its depth-limited settings are the ones
        # load does not change.
        print("HARD's budget in CPU seconds of this process")
    with cpu_clock(on_cpu):
        _play_settings(quick, binary)


def _play_settings(quick: bool, binary: Path) -> None:
    warm_up()
    every = os.environ.get(OPENINGS_VARIABLE) == "all"
    openings = range(2 if quick else len(EVERY_OPENING if every else OPENINGS))
    wanted = os.environ.get(SETTINGS_VARIABLE, "")
    keys = {key.strip() for key in wanted.split(",") if key.strip()}
    judge_ms = int(os.environ.get(JUDGE_VARIABLE) or 0)
    unknown = keys - {setting.key for setting in SETTINGS}
    if unknown:
        choices = ", ".join(setting.key for setting in SETTINGS)
        print(f"unknown {SETTINGS_VARIABLE} {sorted(unknown)}: choose from {choices}")
        return
    for setting in SETTINGS:
        if keys and setting.key not in keys:
            continue
        games: list[Game] = []
        # cwd without a config.toml: Rapfi then uses its internal (classic) configuration
        with GomocupEngine([str(binary)], cwd=binary.parent) as engine:
            for opening in openings:
                for ours_first in (True, False):
                    games.append(play(engine, setting, opening, ours_first))
        judged: dict[int, list[Verdict]] = {}
        if judge_ms:
            with GomocupEngine([str(binary)], cwd=binary.parent) as engine:
                for index, game in enumerate(games):
                    if game.result != 1:
                        judged[index] = judge(engine, game, judge_ms)
        report(setting, games, judged)

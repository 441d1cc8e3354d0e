"""The opening book (core.ai.book and its kernel part): format, conversion, use, absence."""

from __future__ import annotations

import contextlib
import os
import random
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.ai import _book_kernel as bk
from core.ai import _solver_kernel as kernel
from core.ai import book, solver
from core.ai.engine import engine_for, lock
from core.ai.levels import Level
from core.ai.players import choose_move
from core.games import CONNECT_FOUR, Position, Rules
from tests.core.ai.connect4_sets import SETS, load_set
from tests.core.ai.test_solver import keeps_score

REPO = Path(__file__).resolve().parents[3]

# The reference reader's documented examples (bitbully_databases.BitBullyDatabases docstrings):
# rows from the top, 1 the first player, 2 the second, and the raw value of the 12-ply book.
EXAMPLES = [
    (
        [
            [0, 0, 0, 0, 0, 0, 0],
            [0, 0, 0, 1, 0, 0, 0],
            [0, 1, 0, 2, 0, 0, 0],
            [0, 2, 0, 1, 0, 2, 0],
            [0, 1, 0, 2, 0, 1, 0],
            [0, 2, 0, 1, 0, 2, 0],
        ],
        71,  # the first player wins in 29 plies
    ),
    (
        [
            [0, 0, 0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0, 0, 0],
            [0, 0, 1, 1, 0, 0, 0],
            [0, 0, 2, 2, 0, 0, 0],
            [0, 1, 2, 1, 0, 0, 0],
            [0, 1, 1, 2, 0, 2, 2],
        ],
        -88,  # the first player loses in 12 plies
    ),
    (
        [
            [0, 0, 0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0, 0, 0],
            [0, 1, 0, 0, 0, 0, 0],
            [0, 2, 2, 0, 1, 0, 0],
            [0, 2, 1, 0, 2, 0, 0],
            [1, 1, 2, 1, 2, 0, 0],
        ],
        73,  # the first player wins in 27 plies
    ),
]


def bitboards(board: list[list[int]]) -> tuple[int, int]:
    """(first player's stones, every stone) of a board drawn with the top row first."""
    height = CONNECT_FOUR.rows + 1
    first = mask = 0
    for row_from_top, row in enumerate(board):
        for col, cell in enumerate(row):
            bit = 1 << (col * height + CONNECT_FOUR.rows - 1 - row_from_top)
            if cell:
                mask |= bit
                if cell == 1:
                    first |= bit
    return first, mask


def reference_key(board: list[list[int]]) -> int:
    """The key as the reference reader's ``_to_huffman`` builds it (as a bit string)."""
    bits = ""
    for col in range(7):
        for row in reversed(range(6)):
            cell = board[row][col]
            if cell == 0:
                bits += "0"
                break
            bits += "10" if cell == 1 else "11"
            if row == 0:
                bits += "0"
    return int(bits + "0", 2)


@pytest.fixture(scope="module")
def opened() -> book.Book:
    found = book.load()
    assert found is not None, "the bitbully-databases package is a dependency: install it"
    return found


@pytest.fixture(scope="module", autouse=True)
def compiled() -> None:
    solver.warm_up()


def test_the_book_is_the_expected_file(opened: book.Book) -> None:
    assert opened.records == book.BOOK_RECORDS
    assert opened.path.endswith("book_12ply_distances.dat")
    import bitbully_databases

    package = Path(bitbully_databases.__file__).parent
    assert Path(opened.path).is_relative_to(package), "read from the package, in place"


@pytest.mark.parametrize(("board", "value"), EXAMPLES)
def test_reader_finds_the_documented_examples(
    opened: book.Book, board: list[list[int]], value: int
) -> None:
    first, mask = bitboards(board)
    assert bk.book_key(first, mask, 7, 7, False) == reference_key(board)
    found = bk.book_find(opened.data, bk.book_key(first, mask, 7, 7, False))
    if found == bk.BOOK_MISSING:  # stored under the mirror image's key
        found = bk.book_find(opened.data, bk.book_key(first, mask, 7, 7, True))
    assert found == value
    # the plain kernel reads the same bytes as Python ints
    assert bk.book_probe(first, mask, 12, 7, 7, opened.raw) == bk.book_score(value, 12, 42)


def test_mirror_key_is_the_key_of_the_mirrored_board() -> None:
    board = EXAMPLES[2][0]
    mirrored = [list(reversed(row)) for row in board]
    first, mask = bitboards(board)
    assert bk.book_key(first, mask, 7, 7, True) == reference_key(mirrored)


def test_conversion_of_distances_to_scores() -> None:
    # 71: the first player wins in 29 plies, with stone 41 (40 before it): score (43 - 40) // 2
    assert bk.book_score(71, 12, 42) == 1
    # -88: the opponent wins in 12 plies, with stone 24 (23 before it): (43 - 23) // 2
    assert bk.book_score(-88, 12, 42) == -10
    assert bk.book_score(97, 12, 42) == 14  # a win with stone 15: the next stone but one
    assert bk.book_score(0, 12, 42) == 0


def test_book_value_of_a_documented_example_matches_the_plain_solver() -> None:
    board, value = EXAMPLES[1]
    # the example gives stones, not moves: rebuild a game that reaches them
    p = _position_with(*bitboards(board))
    assert p is not None
    with search_without_book():
        assert solver.solve(p) == bk.book_score(value, 12, 42)


@contextlib.contextmanager
def search_without_book() -> Iterator[None]:
    """Standard Connect Four searched as if the book were not installed."""
    with lock:
        engine = engine_for(CONNECT_FOUR)
        engine.work[kernel.G_BOOK_PLY] = -1
        engine.has_book = False
    try:
        yield
    finally:
        with lock:
            engine.work[kernel.G_BOOK_PLY] = book.BOOK_PLY
            engine.has_book = True


def _position_with(first: int, mask: int) -> Position | None:
    """A position with exactly these stones, found by a search over move orders."""
    height = 7
    columns = [
        [(first >> (c * height + r)) & 1 for r in range(6) if mask >> (c * height + r) & 1]
        for c in range(7)
    ]

    def extend(p: Position, used: list[int]) -> Position | None:
        if all(used[c] == len(columns[c]) for c in range(7)):
            return p
        wanted = 1 if len(p.moves) % 2 == 0 else 0
        for c in range(7):
            if used[c] < len(columns[c]) and columns[c][used[c]] == wanted:
                child = p.play(c)
                if child.is_over:
                    continue
                used[c] += 1
                found = extend(child, used)
                used[c] -= 1
                if found is not None:
                    return found
        return None

    return extend(Position.start(CONNECT_FOUR), [0] * 7)


def _random_position(rng: random.Random, stones: int) -> Position:
    while True:
        p = Position.start(CONNECT_FOUR)
        for _ in range(stones):
            p = p.play(rng.choice(p.legal_moves()))
            if p.is_over:
                break
        if not p.is_over:
            return p


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), stones=st.integers(12, 14))
def test_book_backed_score_equals_the_plain_solver_score(seed: int, stones: int) -> None:
    """12 stones: the book alone; 13 and 14: the search's root moves pass through it."""
    p = _random_position(random.Random(seed), stones)
    with_book = solver.solve(p)
    with search_without_book():
        without = solver.solve(p)
    assert with_book == without, p


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_parents_in_the_book_bound_a_thirteen_stone_score_from_below(seed: int) -> None:
    p = _random_position(random.Random(seed), 13)
    cur, mask = p.stones[1], p.occupied  # the second player to move
    opened = book.load()
    assert opened is not None
    bound = bk.book_parent_bound(cur, mask, 13, 7, 7, opened.data)
    assert bound <= solver.solve(p), p
    # the best over the parents: a top stone of the first player taken back
    parents = [
        bk.book_probe(cur ^ mask ^ top, mask ^ top, 12, 7, 7, opened.data)
        for top in _top_stones(p, player=1)
    ]
    found = [-value for value in parents if value != bk.BOOK_MISSING]
    assert bound == (max(found) if found else -bk.BOOK_MISSING)


def _top_stones(p: Position, player: int) -> list[int]:
    """The bits of the top stones of ``player`` (1 or 2), one per column at most."""
    tops = []
    for col in range(7):
        column = [1 << (col * 7 + row) for row in range(6) if p.occupied >> (col * 7 + row) & 1]
        if column and p.stones[player - 1] & column[-1]:
            tops.append(column[-1])
    return tops


def test_positions_with_twelve_stones_are_in_the_book_unless_the_mover_wins_at_once(
    opened: book.Book,
) -> None:
    rng = random.Random(12)
    for _ in range(300):
        p = _random_position(rng, 12)
        cur, mask = p.stones[0], p.stones[0] | p.stones[1]
        found = bk.book_probe(cur, mask, 12, 7, 7, opened.data)
        wins_now = any(p.play(m).winner for m in p.legal_moves())
        assert (found == bk.BOOK_MISSING) == wins_now, p


def test_solve_is_exact_from_the_empty_board() -> None:
    assert solver.solve(Position.start(CONNECT_FOUR)) == 1  # the first player wins, stone 41
    assert solver.solve(Position.from_moves(CONNECT_FOUR, [0])) == 2  # an edge loses for him
    result = solver.best_move(Position.start(CONNECT_FOUR), float("inf"))
    assert result.exact and result.score == 1 and result.move == 3


def test_best_move_at_the_books_ply_proves_a_move_of_the_known_score() -> None:
    """With 12 stones the book gives the score; best_move must still prove a move one ply
    deeper (its candidates take turns; refuted ones drop out)."""
    sample = [
        (p, s) for name in ("L1_R2", "L1_R3") for p, s in load_set(name) if len(p.moves) == 12
    ]
    for p, score in sample[::24]:
        result = solver.best_move(p, time.perf_counter() + 10)
        assert result.exact and result.score in (score, None), p  # None: the only safe move
        assert keeps_score(p, result.move, score), p


def test_best_move_one_stone_beyond_the_book_proves_a_move_of_the_exact_score() -> None:
    """With 13 stones the book's parents give a floor where the search starts; the move found
    must still keep the exact score, and the score be the exact one."""
    sample = [
        (p, s) for name in ("L1_R2", "L1_R3") for p, s in load_set(name) if len(p.moves) == 13
    ]
    assert len(sample) > 50
    for p, score in sample[::12]:
        result = solver.best_move(p, time.perf_counter() + 10)
        assert result.exact and result.score in (score, None), p  # None: the only safe move
        assert keeps_score(p, result.move, score), p


def test_the_book_applies_only_to_standard_connect_four() -> None:
    assert book.applies(CONNECT_FOUR)
    for rules in (Rules(6, 8, 4, gravity=True), Rules(7, 7, 4, gravity=True), Rules(6, 7, 5)):
        assert not book.applies(rules)
    # another board searches without it, and its scores stay exact (the small-board tests)
    engine = engine_for(Rules(5, 6, 4, gravity=True))
    assert engine.work[kernel.G_BOOK_PLY] == -1


@pytest.mark.parametrize("name", SETS)
def test_hard_is_optimal_on_a_sample_of_every_set(name: str) -> None:
    """Every 50th position of each set (20 per set), HARD with room to spare (most take
    milliseconds; with 12 stones the score is known but a move must be proven one ply deeper,
    which takes up to about 0.6 s of CPU). The budget is a bound, not a speed claim: a busy
    machine must not turn a correct player into a failed test. What 1 s achieves is measured by
    the benchmark (``python -m benchmarks book``), which covers the 13- and 14-stone openings too.
    """
    sample = [
        (p, score) for p, score in load_set(name)[::50] if len(p.moves) <= 12 or "L1" not in name
    ]
    assert len(sample) >= 10
    for p, score in sample:
        move = choose_move(p, Level.HARD, budget=5.0)
        assert keeps_score(p, move, score), (name, p)


def test_without_the_package_the_bot_plays_on_and_warns_once() -> None:
    """A broken install: the package cannot be imported. The search alone answers."""
    code = (
        "import logging, sys, time\n"
        "sys.modules['bitbully_databases'] = None  # import fails, as if not installed\n"
        "logging.basicConfig(level=logging.WARNING, format='%(levelname)s %(message)s')\n"
        "from core.ai import Level, choose_move, solve, warm_up\n"
        "from core.ai import book\n"
        "from core.games import CONNECT_FOUR, Position\n"
        "warm_up()\n"
        "assert book.load() is None\n"
        "p = Position.start(CONNECT_FOUR)\n"
        "for _ in range(3):\n"
        "    p = p.play(choose_move(p, Level.HARD, budget=0.05))\n"
        "assert solve(Position.from_moves(CONNECT_FOUR, [3, 3, 3, 3, 2, 4, 2, 4, 4])) == -2\n"
        "from core.ai.review import can_review\n"
        "assert not can_review(CONNECT_FOUR)  # no exact review without the book\n"
        "print('played', p.moves)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert "played" in done.stdout
    warnings = [line for line in done.stderr.splitlines() if line.startswith("WARNING")]
    assert len(warnings) == 1, done.stderr
    assert "opening book unavailable" in warnings[0]


def test_warm_up_maps_the_book_and_the_plain_kernel_reads_it() -> None:
    code = (
        "import sys\n"
        "from core.ai import book, solver, warm_up\n"
        "from core.games import CONNECT_FOUR, Position\n"
        "warm_up()\n"
        "assert book.load() is not None\n"
        "assert not solver.accelerated() and 'numba' not in sys.modules\n"
        "p = Position.from_moves(CONNECT_FOUR, [3, 3, 3, 3, 2, 4, 2, 4, 4, 1, 1])\n"
        # 11 stones: the plain search looks its children up in the mapped file
        "assert solver.solve(p) == 0\n"
    )
    env = {**os.environ, "CHATBOTS_JIT": "0"}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr


def test_without_the_package_a_pool_of_workers_still_warns_once(tmp_path: Path) -> None:
    """The broken install seen by every process: the bot, the fork server and each worker."""
    stub = tmp_path / "bitbully_databases"
    stub.mkdir()
    (stub / "__init__.py").write_text("raise ImportError('a broken install (test)')\n")
    code = (
        "import asyncio, logging, random\n"
        "logging.basicConfig(level=logging.WARNING, format='%(levelname)s %(message)s')\n"
        "from core.ai import Level\n"
        "from core.workers.runner import PoolRunner\n"
        "from core.games import CONNECT_FOUR, Position\n"
        "async def main():\n"
        "    runner = PoolRunner(workers=2, warm_up=True, rng=random.Random(1))\n"
        "    await runner.start()\n"
        "    try:\n"
        "        p = Position.start(CONNECT_FOUR)\n"
        "        moves = await asyncio.gather(\n"
        "            *(runner.choose(p, Level.HARD, budget=0.05) for _ in range(4))\n"
        "        )\n"
        "        print('played', moves)\n"
        "    finally:\n"
        "        await runner.close()\n"
        "if __name__ == '__main__':\n"
        "    asyncio.run(main())\n"
    )
    script = tmp_path / "pool.py"
    script.write_text(code)
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(REPO)])}
    done = subprocess.run(
        [sys.executable, str(script)],
        cwd=REPO,
        env=environment,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 0, done.stderr
    assert "played" in done.stdout
    said = [line for line in done.stderr.splitlines() if "opening book unavailable" in line]
    assert len(said) == 1 and said[0].startswith("WARNING"), done.stderr

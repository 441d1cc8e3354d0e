"""The exact solver and the anytime search (core.ai.solver)."""

from __future__ import annotations

import functools
import math
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.ai import _solver_kernel as kernel
from core.ai.engine import bitboards, engine_for, lock
from core.ai.solver import SearchResult, SearchTimeout, accelerated, best_move, solve, warm_up
from core.games import CONNECT_FOUR, TICTACTOE, Position, Rules
from tests.core.ai.connect4_sets import load_set

REPO = Path(__file__).resolve().parents[3]
GRAVITY_4X4_K3 = Rules(4, 4, 3, gravity=True)
FREE_3X4_K3 = Rules(3, 4, 3)


@functools.cache
def brute_force(p: Position) -> int:
    """docs/design.md's score by plain minimax over every line of play (memoised by position)."""
    best = -p.rules.cells
    for move in p.legal_moves():
        child = p.play(move)
        if child.winner is not None:
            value = (p.rules.cells + 1 - len(p.moves)) // 2
        elif child.is_draw:
            value = 0
        else:
            value = -brute_force(child)
        best = max(best, value)
    return best


def random_position(
    rules: Rules, rng: random.Random, max_moves: int, *, avoid_wins: bool = False
) -> Position:
    """A position reached by random moves (that win nothing, with ``avoid_wins``), not over."""
    while True:
        p = Position.start(rules)
        for _ in range(rng.randrange(max_moves + 1) if not avoid_wins else max_moves):
            moves = p.legal_moves()
            if avoid_wins:
                moves = tuple(m for m in moves if p.play(m).winner is None)
                if not moves:
                    break
            p = p.play(rng.choice(moves))
            if p.is_over:
                break
        if not p.is_over:
            return p


def keeps_score(p: Position, move: int, score: int) -> bool:
    child = p.play(move)
    if child.winner is not None:
        return (p.rules.cells + 1 - len(p.moves)) // 2 == score
    if child.is_draw:
        return score == 0
    return -solve(child) == score


@pytest.fixture(scope="module", autouse=True)
def compiled() -> None:
    warm_up()


# --- exact scores on the published sets ---------------------------------------------------


@pytest.mark.parametrize(
    ("name", "count"), [("L3_R1", 300), ("L2_R1", 100), ("L1_R1", 40), ("L2_R2", 5)]
)
def test_solve_matches_published_scores(name: str, count: int) -> None:
    for p, expected in load_set(name, count):
        assert solve(p) == expected, p


def test_plain_kernel_matches_published_scores() -> None:
    for p, expected in load_set("L3_R1", 15):
        assert solve(p, plain=True) == expected, p


def test_plain_and_compiled_agree_on_random_positions() -> None:
    rng = random.Random(6)
    for rules, max_moves in (
        (CONNECT_FOUR, 42),
        (Rules(5, 6, 4, gravity=True), 30),
        (Rules(4, 5, 3, gravity=True), 20),
        (Rules(3, 4, 3), 12),
    ):
        for _ in range(6):
            p = random_position(rules, rng, max_moves)
            if rules == CONNECT_FOUR and len(p.moves) < 22:
                continue  # keep the plain search short
            assert solve(p) == solve(p, plain=True), p


def test_compiled_path_is_active_when_numba_is() -> None:
    try:
        import numba  # noqa: F401
    except ImportError:
        pytest.skip("numba not installed")
    if os.environ.get("CHATBOTS_JIT") == "0":
        pytest.skip("compiling disabled by CHATBOTS_JIT=0")
    assert accelerated()


def test_plain_path_without_the_accelerator() -> None:
    """With CHATBOTS_JIT=0 nothing is compiled and the scores stay exact."""
    samples = [(list(p.moves), score) for p, score in load_set("L3_R1", 5)]
    code = (
        "import sys\n"
        "from core.ai.solver import solve, accelerated, warm_up\n"
        "from core.games import CONNECT_FOUR, Position\n"
        "warm_up()\n"
        "assert not accelerated()\n"
        f"for moves, score in {samples!r}:\n"
        "    assert solve(Position.from_moves(CONNECT_FOUR, moves)) == score\n"
        "assert 'numba' not in sys.modules\n"
    )
    env = {**os.environ, "CHATBOTS_JIT": "0"}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr


def test_importing_the_solver_does_not_load_numba() -> None:
    code = "import sys, core.ai.solver\nassert 'numba' not in sys.modules, 'numba imported'\n"
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


# --- against a brute-force solver on small boards --------------------------------------------


@pytest.mark.parametrize("rules", [GRAVITY_4X4_K3, FREE_3X4_K3, TICTACTOE])
def test_solve_matches_brute_force_on_random_positions(rules: Rules) -> None:
    rng = random.Random(rules.cells)
    for _ in range(20):
        p = random_position(rules, rng, rules.cells - 1)
        assert solve(p) == brute_force(p), p
        assert solve(p, plain=True) == brute_force(p), p


@pytest.mark.parametrize("rules", [GRAVITY_4X4_K3, FREE_3X4_K3, TICTACTOE])
def test_solve_from_the_empty_board(rules: Rules) -> None:
    p = Position.start(rules)
    assert solve(p) == brute_force(p)


def test_solve_big_board_runs_plain_python() -> None:
    """A board beyond 64 bits still gets exact (near the end) scores."""
    rng = random.Random(8)
    for rules in (Rules(4, 13, 4, gravity=True), Rules(5, 6, 4)):  # 65 and 2 * 36 bits
        p = random_position(rules, rng, rules.cells - 8, avoid_wins=True)
        while len(p.moves) < rules.cells - 8:
            p = random_position(rules, rng, rules.cells - 8, avoid_wins=True)
        assert solve(p) == brute_force(p)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_solve_agrees_with_brute_force(data: st.DataObject) -> None:
    rules = data.draw(
        st.sampled_from([GRAVITY_4X4_K3, FREE_3X4_K3, TICTACTOE, Rules(3, 5, 3, gravity=True)])
    )
    p = Position.start(rules)
    for _ in range(data.draw(st.integers(0, rules.cells - 1))):
        p = p.play(data.draw(st.sampled_from(p.legal_moves())))
        if p.is_over:
            return
    assert solve(p) == brute_force(p)


def test_solve_rejects_a_finished_game() -> None:
    won = Position.from_moves(CONNECT_FOUR, [0, 1, 0, 1, 0, 1, 0])
    with pytest.raises(ValueError, match="over"):
        solve(won)
    with pytest.raises(ValueError, match="over"):
        best_move(won, time.perf_counter() + 1)


# --- best_move ---------------------------------------------------------------------------------


def test_best_move_is_exact_when_there_is_time() -> None:
    for p, expected in load_set("L2_R1", 20):
        result = best_move(p, time.perf_counter() + 5)
        assert isinstance(result, SearchResult)
        assert result.exact
        assert result.score in (expected, None)  # None: a forced move, played without search
        assert keeps_score(p, result.move, expected), p


def test_best_move_exact_on_small_boards() -> None:
    rng = random.Random(3)
    for rules in (GRAVITY_4X4_K3, FREE_3X4_K3, TICTACTOE):
        for _ in range(15):
            p = random_position(rules, rng, rules.cells - 1)
            result = best_move(p, time.perf_counter() + 5)
            assert result.exact
            assert keeps_score(p, result.move, brute_force(p)), p


def test_best_move_takes_an_immediate_win() -> None:
    # player 1 has three in column 0 and may win there; player 2 threatens nothing yet
    p = Position.from_moves(CONNECT_FOUR, [0, 1, 0, 1, 0, 2])
    result = best_move(p, time.perf_counter() + 1)
    assert result.move == 0
    assert result.exact
    assert result.score == (42 + 1 - 6) // 2


def test_best_move_blocks_the_only_threat() -> None:
    # player 1 has 0,1,2 on the bottom row; 3 is the only block (and the only non-losing move)
    p = Position.from_moves(CONNECT_FOUR, [0, 6, 1, 6, 2])
    result = best_move(p, time.perf_counter() + 1)
    assert result.move == 3


def test_best_move_blocks_on_a_free_board() -> None:
    p = Position.from_moves(TICTACTOE, [0, 4, 1])
    assert best_move(p, time.perf_counter() + 1).move == 2


def test_best_move_with_a_tiny_budget_returns_a_legal_safe_move() -> None:
    for p, _ in load_set("L1_R3", 5):
        started = time.perf_counter()
        result = best_move(p, started + 0.002)
        assert result.move in p.legal_moves()
        assert _opponent_cannot_win_at_once(p.play(result.move))


@pytest.mark.parametrize(
    "rules", [Rules(10, 12, 5, gravity=True), Rules(7, 7, 4), Rules(25, 25, 4, gravity=True)]
)
def test_best_move_on_big_boards_returns_a_legal_move(rules: Rules) -> None:
    """Boards beyond 64-bit words run the plain kernel, under the same deadline."""
    p = random_position(rules, random.Random(2), 6)
    result = best_move(p, time.perf_counter() + 0.05)
    assert result.move in p.legal_moves()


def test_solve_raises_when_the_deadline_passes() -> None:
    p, _ = load_set("L1_R3", 1)[0]
    with pytest.raises(SearchTimeout):
        solve(p, deadline=time.perf_counter() + 0.001)


def test_best_move_from_the_empty_board_is_the_centre() -> None:
    result = best_move(Position.start(CONNECT_FOUR), time.perf_counter() + 1.0)
    assert result.move == 3


def _opponent_cannot_win_at_once(p: Position) -> bool:
    return p.is_over or all(p.play(m).winner is None for m in p.legal_moves())


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(0, 6), max_size=30), st.sampled_from([0.0, 0.003, 0.02]))
def test_best_move_wins_or_blocks_when_it_must(moves: list[int], budget: float) -> None:
    p = Position.start(CONNECT_FOUR)
    for move in moves:
        if move in p.legal_moves():
            p = p.play(move)
        if p.is_over:
            return
    result = best_move(p, time.perf_counter() + budget)
    assert result.move in p.legal_moves()
    after = p.play(result.move)
    if any(p.play(m).winner is not None for m in p.legal_moves()):
        assert after.winner is not None
    elif any(_opponent_cannot_win_at_once(p.play(m)) for m in p.legal_moves()):
        assert _opponent_cannot_win_at_once(after)


def test_kernel_constants_leave_room_for_scores() -> None:
    # the plain table packs scores of boards up to 25x25 (|score| <= 313) under the flag bit
    assert kernel.TT_OFFSET > 25 * 25 // 2 + 1
    assert kernel.TT_LOWER == 2 * kernel.TT_OFFSET


def test_search_counters_do_not_overlap_board_parameters() -> None:
    # every search clears [S_NODES, G_ORDER_AT): a board parameter in there would be lost
    names = [name for name in vars(kernel) if name[:2] in ("G_", "S_")]
    for name in names:
        index = getattr(kernel, name)
        inside = kernel.S_NODES <= index < kernel.G_ORDER_AT
        assert inside == name.startswith("S_"), name


@pytest.mark.parametrize("plain", [True, False])
def test_evaluation_weighs_threats_by_row_parity_after_a_search_starts(plain: bool) -> None:
    # the first player (to move) has three on the bottom row, the second player no threat
    p = Position.from_moves(CONNECT_FOUR, [0, 6, 1, 6, 2, 5])
    with lock:
        engine = engine_for(CONNECT_FOUR, plain=plain)
        engine.start(engine.table.next_generation())
        cur, mask, nb = bitboards(p)
        value = engine.functions["evaluate"](cur, mask, nb, engine.work)
    # one threat, counted again because it lies on an odd row, the first player's rows
    assert value == 2


@pytest.mark.parametrize("plain", [True, False])
def test_root_search_tries_the_preferred_move_first(plain: bool) -> None:
    p = Position.start(CONNECT_FOUR)
    cur, mask, nb = bitboards(p)
    lowest = -CONNECT_FOUR.cells
    with lock:
        engine = engine_for(CONNECT_FOUR, plain=plain)
        root_search = engine.functions["root_search"]
        possible = engine.functions["possible_moves"](mask, engine.work)
        chosen = []
        for preferred in (None, 0, 5):
            engine.start(engine.table.next_generation())
            if preferred is not None:
                engine.prefer(1 << p.move_bit(preferred))
            # every move reaches the lowest score: the first one tried fails high and is kept
            root_search(
                cur, mask, nb, lowest, lowest + 1, engine.work, math.inf, engine.table.keys,
                engine.table.values, engine.book, possible,
            )  # fmt: skip
            chosen.append(engine.move_of_bit(engine.best_bit))
    assert chosen == [3, 0, 5]

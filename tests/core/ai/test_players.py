"""choose_move at every level: legality, the rules of MEDIUM, perfect tic-tac-toe for HARD."""

from __future__ import annotations

import random
from collections import Counter
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.ai import Level, choose_move, solve
from core.games import CONNECT_FOUR, TICTACTOE, Position, Rules


def reachable(rules: Rules) -> list[Position]:
    """Every unfinished position reachable from the empty board."""
    seen: set[Position] = set()
    order: list[Position] = []
    frontier = [Position.start(rules)]
    while frontier:
        p = frontier.pop()
        if p in seen or p.is_over:
            continue
        seen.add(p)
        order.append(p)
        frontier.extend(p.play(m) for m in p.legal_moves())
    return order


@cache
def score_after(p: Position, move: int) -> int:
    """The exact score of ``p`` if ``move`` is played and both sides then play perfectly."""
    child = p.play(move)
    if child.winner is not None:
        return (p.rules.cells + 1 - len(p.moves)) // 2
    return 0 if child.is_draw else -solve(child)


# -- all levels ----------------------------------------------------------------------------------


@pytest.mark.parametrize("level", list(Level))
def test_finished_game_is_refused(level: Level) -> None:
    over = Position.from_moves(TICTACTOE, [0, 3, 1, 4, 2])
    with pytest.raises(ValueError, match="over"):
        choose_move(over, level)


@settings(max_examples=60, deadline=None)
@given(
    rows=st.integers(3, 7),
    cols=st.integers(3, 7),
    k=st.integers(3, 5),
    gravity=st.booleans(),
    seed=st.integers(0, 2**32),
    plies=st.integers(0, 40),
)
def test_every_level_plays_a_legal_move(
    rows: int, cols: int, k: int, gravity: bool, seed: int, plies: int
) -> None:
    rules = Rules(rows, cols, min(k, max(rows, cols)), gravity)
    rng = random.Random(seed)
    p = Position.start(rules)
    for _ in range(plies):
        if p.is_over:
            break
        p = p.play(rng.choice(p.legal_moves()))
    if p.is_over:
        return
    for level in Level:
        assert choose_move(p, level, budget=0.02, rng=random.Random(seed)) in p.legal_moves()


# -- EASY ----------------------------------------------------------------------------------------


def test_easy_is_uniform() -> None:
    rng = random.Random(1)
    start = Position.start(TICTACTOE)
    counts = Counter(choose_move(start, Level.EASY, rng=rng) for _ in range(9000))
    assert set(counts) == set(range(9))
    # Five standard deviations (about 30) either side of 1000.
    assert all(850 < n < 1150 for n in counts.values())


def test_easy_is_reproducible_with_a_seed() -> None:
    p = Position.from_moves(Rules(5, 5, 4), [12, 0])

    def moves(seed: int) -> list[int]:
        rng = random.Random(seed)
        return [choose_move(p, Level.EASY, rng=rng) for _ in range(20)]

    assert moves(5) == moves(5)
    assert moves(5) != moves(6)


# -- MEDIUM --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "moves", "win"),
    [
        (TICTACTOE, [0, 3, 1, 4], {2}),  # X: 0 1 _ ; O blocks nothing yet
        (CONNECT_FOUR, [3, 0, 3, 0, 3, 1], {3}),  # three in column 3
        (Rules(9, 9, 5), [40, 0, 41, 1, 42, 2, 43, 9], {39, 44}),  # open four on row 4
    ],
)
def test_medium_takes_a_win(rules: Rules, moves: list[int], win: set[int]) -> None:
    p = Position.from_moves(rules, moves)
    for seed in range(10):
        assert choose_move(p, Level.MEDIUM, rng=random.Random(seed)) in win


@pytest.mark.parametrize(
    ("rules", "moves", "block"),
    [
        (TICTACTOE, [0, 3, 8, 4], {5}),  # O threatens 3 4 5
        (CONNECT_FOUR, [0, 3, 6, 3, 6, 3], {3}),  # O has three in column 3
        (Rules(9, 9, 5), [80, 40, 72, 41, 8, 42, 0, 43], {39, 44}),  # O: open four on row 4
    ],
)
def test_medium_blocks(rules: Rules, moves: list[int], block: set[int]) -> None:
    p = Position.from_moves(rules, moves)
    for seed in range(10):
        assert choose_move(p, Level.MEDIUM, rng=random.Random(seed)) in block


def test_medium_is_not_a_fixed_script() -> None:
    p = Position.from_moves(Rules(9, 9, 5), [40, 41])
    answers = {choose_move(p, Level.MEDIUM, rng=random.Random(seed)) for seed in range(30)}
    assert len(answers) > 1


# -- HARD at tic-tac-toe -------------------------------------------------------------------------


@pytest.mark.parametrize("hard_player", [1, 2])
def test_hard_never_loses_at_tictactoe(hard_player: int) -> None:
    """Against every line of play of the opponent, as first and as second player."""
    seen: set[Position] = set()
    stack = [Position.start(TICTACTOE)]
    finished = 0
    while stack:
        p = stack.pop()
        if p in seen:
            continue
        seen.add(p)
        if p.is_over:
            assert p.winner in (None, hard_player), p
            finished += 1
        elif p.to_move == hard_player:
            stack.append(p.play(choose_move(p, Level.HARD)))
        else:
            stack.extend(p.play(m) for m in p.legal_moves())
    assert finished > 0


def test_hard_plays_every_tictactoe_position_perfectly() -> None:
    """Every won position is won, by the fastest win; every other one keeps its exact score."""
    positions = reachable(TICTACTOE)
    assert len(positions) == 4520
    won = 0
    for p in positions:
        best = solve(p)
        move = choose_move(p, Level.HARD)
        assert score_after(p, move) == best, p
        won += best > 0
    assert won > 0


# -- HARD under gravity --------------------------------------------------------------------------


def test_hard_takes_the_win_under_gravity() -> None:
    p = Position.from_moves(CONNECT_FOUR, [3, 0, 3, 0, 3, 1])
    assert choose_move(p, Level.HARD, budget=0.2) == 3


def test_hard_blocks_under_gravity() -> None:
    p = Position.from_moves(CONNECT_FOUR, [0, 3, 6, 3, 6, 3])
    assert choose_move(p, Level.HARD, budget=0.2) == 3

"""Which rating a game's rules count for."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.games import CONNECT_FOUR, TICTACTOE, Rules
from core.ratings import pool_of


def _pool(rules: Rules) -> str:
    return pool_of(rules.rows, rules.cols, rules.k, rules.gravity)


@pytest.mark.parametrize(
    ("rules", "pool"),
    [
        (TICTACTOE, "tictactoe"),
        (CONNECT_FOUR, "connect4"),
        (Rules(7, 6, 4, gravity=True), "gravity"),
        (Rules(6, 7, 3, gravity=True), "gravity"),
        (Rules(4, 4, 3, gravity=True), "gravity"),
        (Rules(25, 25, 5, gravity=True), "gravity"),
        (Rules(3, 3, 3, gravity=True), "gravity"),
        (Rules(4, 4, 3), "free-4x4-k3"),
        (Rules(4, 4, 4), "free-4x4-k4"),
        (Rules(5, 4, 4), "free-4x5-k4"),
        (Rules(4, 5, 4), "free-4x5-k4"),
        (Rules(6, 7, 4), "free-6x7-k4"),
        (Rules(9, 11, 5), "free-9x11-k5"),
        (Rules(10, 10, 5), "free-big-k5"),
        (Rules(15, 15, 5), "free-big-k5"),
        (Rules(19, 19, 5), "free-big-k5"),
        (Rules(25, 4, 4), "free-big-k4"),
        (Rules(15, 15, 3), "free-big-k3"),
    ],
)
def test_pools(rules: Rules, pool: str) -> None:
    assert _pool(rules) == pool


@given(
    st.integers(min_value=3, max_value=25),
    st.integers(min_value=3, max_value=25),
    st.integers(min_value=3, max_value=25),
    st.booleans(),
)
def test_every_board_has_a_short_stable_pool_name(
    rows: int, cols: int, k: int, gravity: bool
) -> None:
    k = min(k, max(rows, cols))
    pool = pool_of(rows, cols, k, gravity)
    assert re.fullmatch(r"tictactoe|connect4|gravity|free-\d+x\d+-k\d+|free-big-k\d+", pool)
    assert len(pool) <= 16
    assert pool == pool_of(rows, cols, k, gravity)
    if not gravity:
        assert pool == pool_of(cols, rows, k, gravity)

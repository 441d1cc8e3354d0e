"""The alpha-beta of five in a row (:mod:`core.ai.pattern_search`): its reductions (null
windows after the first move, late quiet moves a ply shallower) change how much is read, not
which wins are seen.

Run on the plain-Python kernel, whose constants a test may change (the compiled copy bakes
them in): with the reductions switched off it is the plain alpha-beta it replaced."""

from __future__ import annotations

import math

import pytest

from core.ai import _gomoku_search, _solver_jit, pattern_board, pattern_search
from core.ai.pattern_board import PatternBoard
from core.ai.pattern_search import WIN_SCORE, PatternSearch
from core.games import Position
from tests.core.ai.test_vcf import GOMOKU_15, load

# Wins by fours and threes of tests/data/gomoku/vct.txt the root sees within a few plies (the
# quickest to read in plain Python), those plies, and positions from HARD's self-play with
# quiet moves late in the order (15x15, the moves from the start).
WINS = [load("vct.txt")[i][1] for i in (4, 12, 13)]
WIN_DEPTH = 6
QUIET = (
    (112, 97, 80, 83, 94, 111, 125, 55),
    (112, 98, 125, 83, 128, 68, 113, 53),
)


@pytest.fixture(autouse=True)
def plain(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pattern_board, "functions", lambda: (_solver_jit.plain_functions(), False))


def root(
    moves: tuple[int, ...], depth: int, monkeypatch: pytest.MonkeyPatch
) -> tuple[int, PatternSearch]:
    """The best move and the search, after an iterative deepening of the root to ``depth``
    from a fresh table."""
    p = Position.from_moves(GOMOKU_15, list(moves))
    search = PatternSearch(PatternBoard(p.rules, p.stones, p.to_move - 1), math.inf)
    search.forget()
    monkeypatch.setattr(pattern_search, "MAX_DEPTH", depth)
    return search.root(), search


def unreduced(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_gomoku_search, "LMR_DEPTH", 1 << 30)


@pytest.mark.parametrize("moves", WINS, ids=[str(len(m)) for m in WINS])
def test_reductions_keep_each_win_in_sight(
    moves: tuple[int, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, reduced = root(moves, WIN_DEPTH, monkeypatch)
    unreduced(monkeypatch)
    _, full = root(moves, WIN_DEPTH, monkeypatch)
    assert full.value >= WIN_SCORE // 2
    assert reduced.value >= WIN_SCORE // 2
    assert reduced.depth <= full.depth  # seen as early


@pytest.mark.parametrize("moves", QUIET, ids=[str(len(m)) for m in QUIET])
def test_late_quiet_moves_are_read_shallower(
    moves: tuple[int, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    best, reduced = root(moves, 5, monkeypatch)
    unreduced(monkeypatch)
    full_best, full = root(moves, 5, monkeypatch)
    assert (best, reduced.value) == (full_best, full.value)  # the same choice,
    assert reduced.nodes < full.nodes  # for less reading

"""The horizon of HARD's alpha-beta for five in a row: the win by fours read out at a leaf."""

from __future__ import annotations

import time

from core.ai._gomoku_kernel import LEAF_VCF_DEPTH
from core.ai.pattern_board import PatternBoard
from core.ai.pattern_search import WIN_SCORE, PatternSearch
from core.games import Position, Rules

# Black to move wins by four fours (a line of tests/data/gomoku/vcf.txt).
# fmt: off
WIN_BY_FOURS = (
    112, 98, 80, 128, 82, 113, 83, 81, 110, 97, 65, 129, 145, 95, 96, 68, 109, 127, 64, 48, 124, 138
)
# fmt: on


def test_a_leaf_reads_its_win_by_fours_once() -> None:
    """Leaves transpose (the same stones in another order): the second visit of a leaf whose
    win by fours was read costs one node, not the search again."""
    p = Position.from_moves(Rules(15, 15, 5), list(WIN_BY_FOURS))
    board = PatternBoard(p.rules, p.stones, p.to_move - 1)
    search = PatternSearch(board, time.perf_counter() + 3600)
    search.forget()
    won = WIN_SCORE - 1 - 2 * LEAF_VCF_DEPTH
    assert search.negamax(0, -WIN_SCORE, WIN_SCORE, 1) == won
    assert search.nodes > 1
    assert search.negamax(0, -WIN_SCORE, WIN_SCORE, 1) == won
    assert search.nodes == 1

"""The horizon of HARD's alpha-beta for five in a row: the win by fours read out at a leaf, the
nodes near it cut without a search (reverse futility), and the beam that must not make a win
out of a defence it left out."""

from __future__ import annotations

import time

from core.ai import _gomoku_kernel as kernel
from core.ai._gomoku_kernel import FUTILITY_DEPTH, FUTILITY_MARGIN, LEAF_VCF_DEPTH
from core.ai.pattern_board import PatternBoard
from core.ai.pattern_search import WIN_SCORE, PatternSearch
from core.ai.patterns import FLEX4
from core.games import Position, Rules
from core.games.bitboard import geometry

# Black to move wins by three fours, read at a leaf (a line of tests/data/gomoku/vcf.txt).
# fmt: off
WIN_BY_FOURS = (
    112, 98, 80, 128, 82, 113, 83, 81, 110, 97, 65, 129, 145, 95, 96, 68, 109, 127, 64, 48,
    124, 138, 79, 94,
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


# Self-play positions (gomoku_depth's fourth game): after 14 stones the side to move is far ahead
# and the other threatens nothing; after 13 the other has an open three.
AHEAD = (112, 97, 140, 113, 81, 83, 96, 111, 125, 69, 55, 129, 128, 80)


def _search_of(moves: tuple[int, ...]) -> PatternSearch:
    p = Position.from_moves(Rules(15, 15, 5), list(moves))
    search = PatternSearch(
        PatternBoard(p.rules, p.stones, p.to_move - 1), time.perf_counter() + 3600
    )
    search.forget()
    return search


def test_a_node_far_ahead_near_the_horizon_is_cut_without_a_search() -> None:
    """Its evaluation stands for its value: a move of the side behind that left it so far ahead
    is refuted without reading every reply."""
    search = _search_of(AHEAD)
    static = search.board.evaluate()
    beta = static - FUTILITY_MARGIN * FUTILITY_DEPTH
    assert search.negamax(FUTILITY_DEPTH, beta - 1, beta, 2) == static
    assert search.nodes == 1
    # Short of the margin, or farther from the horizon, it is searched.
    search.negamax(FUTILITY_DEPTH, beta, beta + 1, 2)
    assert search.nodes > 1
    search.forget()
    search.negamax(FUTILITY_DEPTH + 1, beta - 1, beta, 2)
    assert search.nodes > 1


def test_no_node_is_cut_while_the_opponent_threatens_a_flex_four() -> None:
    """The evaluation does not see that the open three must be answered at once."""
    search = _search_of(AHEAD[:-1])
    board = search.board
    assert board.w[kernel.W_COUNTS + 8 * (1 - board.to_move) + FLEX4] > 0  # an open three
    beta = search.board.evaluate() - FUTILITY_MARGIN * FUTILITY_DEPTH
    search.negamax(FUTILITY_DEPTH, beta - 1, beta, 2)
    assert search.nodes > 1


# A game against Rapfi at depth 6 (white, HARD, to move after 13 stones). Its move 8,8 threatens
# a win by fours, and the defence is a quiet cell the beam of the replies left out: searched
# with the beam alone, every reply lost and 8,8 "won", so the root stopped at depth 2 with that
# move however long it had (and lost the game).
FALSE_WIN = (112, 98, 84, 83, 68, 100, 96, 99, 101, 115, 67, 130, 145)


def test_a_reply_is_lost_only_once_every_move_near_the_stones_has_been_tried() -> None:
    search = _search_of(FALSE_WIN)
    board = search.board
    board.play(board.index_of(geometry(board.grid.rules).bit_of(8, 8)))
    # Black to move, one ply before the horizon (where white's win by fours is read out).
    assert search.negamax(1, -WIN_SCORE - 1, WIN_SCORE + 1, 1) > -WIN_SCORE // 2

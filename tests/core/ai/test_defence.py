"""HARD's defence against the opponent's wins by fours and threes (VCT) on 15x15, on positions
of games lost to Rapfi (benchmarks/gomoku_peer.py): a move kept as a refutation must be one
whose search read to the end, not one whose search stopped at its node limit."""

from __future__ import annotations

import time

from core.ai import _gomoku_kernel as kernel
from core.ai import freeboard, threat_search, warm_up
from core.ai.heuristic import windows
from core.ai.pattern_board import PatternBoard
from core.ai.pattern_search import PatternSearch
from core.ai.proof_search import ProofSearch
from core.games import Position
from core.games.bitboard import iter_bits
from tests.core.ai.test_vcf import GOMOKU_15, hard_move


def cells(text: str) -> list[int]:
    """Moves written as the benchmark prints them: ``row,col`` separated by spaces."""
    return [int(row) * 15 + int(col) for row, col in (pair.split(",") for pair in text.split())]


# Rapfi at depth 6 against HARD (second player, opening 6), HARD to move: black threatens a
# win by threes. Most replies' searches stop at the node limit; HARD kept those with the two
# read to the end and chose (7, 5), after which black's win (228,000 nodes) followed.
THREES_THREAT = cells("7,7 6,7 5,7 7,6 6,8 5,8 4,9 8,6 6,6")


def test_a_refutation_read_to_the_end_beats_one_cut_short() -> None:
    warm_up()  # the compiled kernels loaded before HARD's clock starts, not within its second
    p = Position.from_moves(GOMOKU_15, THREES_THREAT)
    after = p.play(hard_move(p))
    board = PatternBoard(after.rules, after.stones, after.to_move - 1)
    search = PatternSearch(board, time.perf_counter() + 600)
    search.forget()
    assert search.vct(10, 1_000_000) < 0, f"{after!r} loses by threes"
    assert board.w[kernel.W_ABORT] == 0, f"{after!r}: no proof that the threes are stopped"


# Rapfi at depth 8 against HARD (second player, opening 6), HARD to move: black wins by threes
# after every move HARD ranked among its root moves; the one refutation, (6, 8), was not among
# them, and HARD gave the game up (a "swindle", lost 12 plies later).
QUIET_REFUTATION = cells("7,7 6,7 5,7 7,6 6,6 5,6 7,8 8,5 5,8 9,4 10,3")


def test_the_one_refutation_is_found_beyond_the_root_moves() -> None:
    warm_up()
    p = Position.from_moves(GOMOKU_15, QUIET_REFUTATION)
    assert hard_move(p) == 6 * 15 + 8


# Rapfi at depth 6 against HARD (second player, opening 1), black to move after HARD's (6, 7),
# which HARD's search had read as a refutation: black's (6, 5) makes no three, only a win by
# fours to threaten, and wins (Rapfi played it; HARD was lost two moves later).
QUIET_WIN = cells(
    "7,7 6,8 5,9 6,9 6,10 4,8 8,8 5,8 3,8 4,7 7,10 4,6 4,5 4,10 4,9 3,6 2,5 6,6 7,6 2,6 5,6"
    " 1,6 0,6 7,9 5,7 6,7"
)


def test_a_quiet_move_that_threatens_a_win_by_fours_starts_a_win_by_threats() -> None:
    p = Position.from_moves(GOMOKU_15, QUIET_WIN)
    board = PatternBoard(p.rules, p.stones, p.to_move - 1)
    search = PatternSearch(board, time.perf_counter() + 600)
    search.forget()
    first = search.vct(6, 1_000_000)
    assert first >= 0
    assert p.geometry.cell_of_bit(board.bit_of(first)) == 6 * 15 + 5
    assert board.stone_count == len(QUIET_WIN)  # the board is as it was


# That game, HARD to move: black threatens a win by threes; every move read lost but two.
OUT_OF_TIME = cells("7,7 6,8 5,9 6,9 6,10 7,11 7,9 5,11 8,8 8,11 6,11 7,10 5,8 9,12 10,13")


class _OutOfTimeAfterOne(freeboard._Threats):
    """The opponent's wins read for one move, up to the node limit, then out of time."""

    def win(self, attacker: int, depth: int, threes: bool, limited: bool = False) -> int:
        if self.complete is False:
            raise threat_search.DeadlinePassed
        self.complete = False
        return -1


def test_out_of_time_a_move_read_to_the_node_limit_beats_the_moves_not_read() -> None:
    """Rapfi at depth 8 (opening 1, HARD second): out of time, HARD kept every move not read
    yet beside the two read to the node limit, and chose one that lost to a win by threes."""
    p = Position.from_moves(GOMOKU_15, OUT_OF_TIME)
    player = p.to_move - 1
    table = windows(p.rules)
    board = threat_search.Board(table, p.stones)
    search = threat_search.Search(table, board, float("inf"))
    threats = _OutOfTimeAfterOne(search, ProofSearch(search), None)
    candidates = 0
    for bit in iter_bits(board.occupied):
        candidates |= table.near[bit]
    candidates &= ~board.occupied
    moves = search.ordered(player, candidates, threat_search.ROOT_WIDTH)
    kept = freeboard._refutations(threats, player, moves, candidates, freeboard.VCT_DEPTH, True)
    assert len(kept) == 1

"""Wins by fours and threes (VCT) on 15x15, proven by proof-number search: HARD converts every
one of tests/data/gomoku/vct.txt against HARD defending."""

from __future__ import annotations

import time

import pytest

from core.ai import freeboard, proof_search, threat_search
from core.ai.heuristic import windows
from core.ai.pattern_board import PatternBoard
from core.ai.pattern_search import PatternSearch
from core.ai.patterns import THREE
from core.games import Position
from tests.core.ai.test_vcf import GOMOKU_15, load, vcf_of

POSITIONS = load("vct.txt")
# The defender's budget: HARD reads the attack as the opponent's win as if it passed, and
# tries the replies that refute it; none does, so this only shortens the test.
DEFENDER_BUDGET = 0.3
# Ours: a win of this set is proven in 0.01 to 0.4 CPU s (within 1 s), and HARD returns as soon
# as it is: ten seconds only keep a busy machine from failing the test (at 1 s: gomoku_peer).
ATTACKER_BUDGET = 10.0


def search_of(p: Position, seconds: float) -> proof_search.ProofSearch:
    table = windows(p.rules)
    board = threat_search.Board(table, p.stones)
    return proof_search.ProofSearch(
        threat_search.Search(table, board, time.perf_counter() + seconds)
    )


def test_the_set_is_what_it_says() -> None:
    assert len(POSITIONS) >= 10
    assert max(length for length, _ in POSITIONS) >= 6
    for length, moves in POSITIONS:
        p = Position.from_moves(GOMOKU_15, moves)
        attacker = p.to_move - 1
        assert vcf_of(p, attacker) < 0 and vcf_of(p, 1 - attacker) < 0, moves
        proof = search_of(p, 600)
        assert proof.prove(attacker, proof_search.INFINITE, length - 1) < 0, moves
        assert proof.complete, moves
        assert proof.prove(attacker, proof_search.INFINITE, length) >= 0, moves


@pytest.mark.parametrize(("length", "moves"), POSITIONS, ids=[str(len(m)) for _, m in POSITIONS])
def test_a_win_by_threats_is_converted(length: int, moves: tuple[int, ...]) -> None:
    p = Position.from_moves(GOMOKU_15, moves)
    attacker = p.to_move
    start = len(p.moves)
    while p.winner is None and not p.is_draw:
        budget = ATTACKER_BUDGET if p.to_move == attacker else DEFENDER_BUDGET
        p = p.play(freeboard.hard_move(p, time.perf_counter() + budget))
    assert p.winner == attacker, f"{p!r}"
    # Our threats and his blocks, and a few fours of his to answer: a conversion, not a win
    # found much later by other means.
    assert len(p.moves) - start <= 2 * length + 12, f"{p!r}"


def test_a_search_out_of_time_leaves_the_board_as_it_was() -> None:
    _, moves = max(POSITIONS)
    p = Position.from_moves(GOMOKU_15, moves)
    proof = search_of(p, 0.0)
    with pytest.raises(threat_search.DeadlinePassed):
        proof_search.shortest_win(proof, p.to_move - 1)
    assert proof.board.stones == list(p.stones)
    fresh = threat_search.Board(windows(p.rules), p.stones)
    assert proof.board.counts == fresh.counts and proof.board.score == fresh.score


@pytest.mark.parametrize(("length", "moves"), POSITIONS, ids=[str(len(m)) for _, m in POSITIONS])
def test_the_alpha_betas_search_by_threats_finds_each_win(
    length: int, moves: tuple[int, ...]
) -> None:
    """Within the threats of the proof-number search's shortest win (its moves by fours cost
    nothing there: each attacker turn reads them out first)."""
    p = Position.from_moves(GOMOKU_15, moves)
    board = PatternBoard(p.rules, p.stones, p.to_move - 1)
    search = PatternSearch(board, time.perf_counter() + 600)
    search.forget()
    first = search.vct(length, 10**7)
    assert first >= 0
    assert board.stone_count == len(moves)  # the board is as it was
    attacker = p.to_move - 1
    cls = board.classes[attacker][first]
    assert cls >= THREE  # a move that makes a three or more

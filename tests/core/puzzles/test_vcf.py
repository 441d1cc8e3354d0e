"""VCF puzzles on 15x15: proven by a search of their own, answered by fours within the moves
left, and found by the engine's threat search too."""

from __future__ import annotations

import pytest

from core.ai.heuristic import windows
from core.ai.threat_search import Board, Search
from core.puzzles import vcf
from core.puzzles.answer import Attempt, Verdict, answer
from core.puzzles.facts import NotAFact, verify
from core.puzzles.generate import generate_vcf
from core.puzzles.puzzle import Puzzle, Theme, from_line, make, to_line

# Found by the generator (seed 5): after the first four and its block, two fours (cells 167
# and 171, 1-based) both still win within the two moves left.
VCF_IN_3 = from_line(
    "d61f1ff0c0,vcf,15x15/5f,184.95.170.191.152.105.70.127.1.19.181.32.162.61.89.111.81.177."
    "156.126.142.34.123.165.86.87.136.210.169.128.205.198,3,168,1420"
)


def threat_search_finds(puzzle: Puzzle) -> bool:
    p = puzzle.position
    table = windows(p.rules)
    search = Search(table, Board(table, p.stones), float("inf"))
    return search.threat_search(p.to_move - 1, puzzle.depth, False) >= 0


def test_a_vcf_is_proven_and_a_wrong_n_or_first_move_is_not() -> None:
    verify(VCF_IN_3)
    assert threat_search_finds(VCF_IN_3)
    moves, rules = VCF_IN_3.moves, VCF_IN_3.rules
    for wrong in (
        make(Theme.VCF, rules, moves, 2, VCF_IN_3.solution, 1420),
        make(Theme.VCF, rules, moves, 4, VCF_IN_3.solution, 1420),
        make(Theme.VCF, rules, moves, 3, VCF_IN_3.solution + 1, 1420),
    ):
        with pytest.raises(NotAFact):
            verify(wrong)


@pytest.mark.parametrize("second", [166, 170])
def test_either_winning_four_is_accepted_not_only_one_line(second: int) -> None:
    first = answer(Attempt(VCF_IN_3), VCF_IN_3.solution)
    assert first.verdict is Verdict.GOING
    assert first.reply == 199  # the forced block
    assert sorted(vcf.winning_firsts(first.attempt.position, 2)) == [166, 170]
    step = answer(first.attempt, second)
    assert step.verdict is Verdict.GOING
    attempt = step.attempt
    last = answer(attempt, vcf.winning_firsts(attempt.position, attempt.moves_left)[0])
    assert last.verdict is Verdict.SOLVED
    assert last.attempt.finished


def test_a_move_that_is_no_four_fails_and_the_key_cell_is_taken() -> None:
    quiet = next(
        move
        for move in VCF_IN_3.position.legal_moves()
        if move not in vcf.first_fours(VCF_IN_3.position)
    )
    result = answer(Attempt(VCF_IN_3), quiet)
    assert result.verdict is Verdict.FAILED
    assert result.reply == VCF_IN_3.solution
    assert result.attempt.finished


def test_the_vcf_generator_is_deterministic_and_its_puzzles_are_proven() -> None:
    made = [p for _, p in zip(range(4), generate_vcf(3), strict=False)]
    again = [p for _, p in zip(range(4), generate_vcf(3), strict=False)]
    assert [to_line(p) for p in made] == [to_line(p) for p in again]
    for puzzle in made:
        verify(puzzle)
        assert threat_search_finds(puzzle)
        assert from_line(to_line(puzzle)) == puzzle

"""The refutations of wrong answers, stored beside the answer trees: a wrong move at a tree's
position is answered from them exactly as the solver answers it (searched to the end), without
a search; a sample here, a wider one in the slow suite, every one in ``python -m benchmarks
puzzles`` (issue 35)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from core.games.position import IllegalMove
from core.puzzles import answer as answer_module
from core.puzzles import lines, refutations, shipped
from core.puzzles.answer import Attempt, Verdict, answer
from core.puzzles.puzzle import Puzzle, Theme
from core.puzzles.refutations import Refutation, Wrong
from tests.core.puzzles.test_lines import no_search, sample

NODES = 4  # the first positions of each sampled tree
FAST_SAMPLE = 160  # every 160th puzzle of each set, in the fast suite
WIDE_SAMPLE = 10


def positions(puzzle: Puzzle, most: int = NODES) -> Iterator[Attempt]:
    for played in lines.nodes_of(puzzle, lines.stored(puzzle) or [])[:most]:
        yield Attempt(puzzle, played)


@pytest.fixture
def exact(monkeypatch: pytest.MonkeyPatch) -> None:
    """The checker's own search without its budget: the reply it gives whenever it finishes."""
    monkeypatch.setattr(answer_module, "REFUTATION_BUDGET", refutations.SEARCH_SECONDS)


def test_every_tree_has_its_refutations() -> None:
    for puzzle in shipped.every():
        if lines.stored(puzzle) is not None:
            assert lines.stored_refutations(puzzle), puzzle.id


def compared(puzzles: list[Puzzle], nodes: int) -> int:
    """Every legal wrong move (on a free board, a spread of them) at the first ``nodes``
    positions of each tree, answered from the table and by the checker's own search; how many."""
    count = 0
    for puzzle in puzzles:
        tree = lines.tree(puzzle) or {}
        for attempt in positions(puzzle, nodes):
            for move in attempt.position.legal_moves()[:: 1 if puzzle.rules.gravity else 23]:
                if lines.key(puzzle.rules, (*attempt.played, move)) in tree:
                    continue
                found = answer(attempt, move)
                assert found.verdict is Verdict.FAILED
                assert found == answer(attempt, move, known_line=False), (puzzle.id, move)
                count += 1
    return count


@pytest.mark.usefixtures("exact")
def test_a_wrong_move_is_answered_from_the_table_as_the_solver_answers_it() -> None:
    assert compared(sample(FAST_SAMPLE), 1) > 30


@pytest.mark.usefixtures("exact")
def test_a_wide_sample_of_wrong_moves_is_answered_as_the_solver_answers_them() -> None:
    assert compared(sample(), NODES) > 500


def test_a_wrong_move_is_not_searched(monkeypatch: pytest.MonkeyPatch) -> None:
    cases = []
    for puzzle in (shipped.connect_four()[3], shipped.vcf()[3]):
        attempt = next(positions(puzzle, 2), Attempt(puzzle))
        tree = lines.tree(puzzle) or {}
        move = next(
            m
            for m in attempt.position.legal_moves()
            if lines.key(puzzle.rules, (*attempt.played, m)) not in tree
        )
        cases.append((attempt, move, answer(attempt, move)))
    no_search(monkeypatch)
    for attempt, move, searched in cases:
        found = answer(attempt, move)
        assert found == searched and found.verdict is Verdict.FAILED
        assert found.attempt.finished and found.attempt.played[-2:-1] == (move,)


def test_an_illegal_move_is_still_refused() -> None:
    vcf_puzzle = shipped.vcf()[0]
    with pytest.raises(IllegalMove):
        answer(Attempt(vcf_puzzle), vcf_puzzle.moves[0])  # occupied: no refutation stored
    with pytest.raises(IllegalMove):
        answer(Attempt(vcf_puzzle), vcf_puzzle.rules.cells)
    assert lines.refutation(vcf_puzzle, (), vcf_puzzle.moves[0]) is None


def test_every_quiet_move_of_a_vcf_position_gets_the_forced_reply() -> None:
    for puzzle in shipped.vcf()[:1]:
        for attempt in positions(puzzle, 1):
            tree = lines.tree(puzzle) or {}
            for move in attempt.position.legal_moves():
                if lines.key(puzzle.rules, (*attempt.played, move)) not in tree:
                    assert answer(attempt, move) == answer(attempt, move, known_line=False)


def test_the_table_is_what_the_solver_makes_on_a_sample() -> None:
    for puzzle in sample(FAST_SAMPLE):
        made = [refutations.wrong_at(attempt) for attempt in positions(puzzle, 1)]
        assert made == (lines.stored_refutations(puzzle) or [])[:1], puzzle.id


def test_a_wide_sample_of_tables_is_what_the_solver_makes() -> None:
    for puzzle in sample(WIDE_SAMPLE):
        paths = lines.stored(puzzle)
        if paths is not None:
            assert lines.refutations_of(puzzle, paths) == lines.stored_refutations(puzzle)


def test_the_text_form_reads_back() -> None:
    c4 = shipped.connect_four()[0].rules
    table = [Wrong({0: 3, 2: None, 6: 6}), Wrong({})]
    assert refutations.encode(c4, table) == "4.0...7;......."
    assert refutations.decode(c4, "4.0...7;.......") == table
    free = shipped.vcf()[0].rules
    table = [Wrong({94: 95, 3: None}, Refutation(100)), Wrong({7: 8})]
    assert refutations.encode(free, table) == "101/4=0/95=96;-/8=9"
    assert refutations.decode(free, "101/4=0/95=96;-/8=9") == table
    assert refutations.decode(free, "") == []
    with pytest.raises(ValueError):
        refutations.decode(c4, "4.0")


def test_a_hold_is_refuted_at_its_start_only() -> None:
    hold = next(p for p in shipped.connect_four() if p.theme is Theme.HOLD and lines.tree(p))
    assert lines.nodes_of(hold, lines.stored(hold) or []) == [()]

"""The shipped puzzles' answer trees, the answer checker's fast path: each is what the solver
makes (a sample here, all of them in ``python -m benchmarks puzzles``), a move in the tree is
answered from it exactly as the solver would, without a search, and an illegal move still
goes to the solver (issue 35)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from core.ai import solver
from core.games.position import IllegalMove
from core.puzzles import answer as answer_module
from core.puzzles import lines, shipped, vcf
from core.puzzles.answer import Attempt, Verdict, answer
from core.puzzles.puzzle import Puzzle, Theme

SAMPLE = 40  # every 40th puzzle of each set
SMALL = 2  # trees of at most this many lines are made again in the fast suite
SMALL_COUNT = 12
WIDE_SAMPLE = 10  # every 10th, in the slow suite


def sample(step: int = SAMPLE) -> list[Puzzle]:
    return [*shipped.connect_four()[::step], *shipped.vcf()[::step]]


def nodes(puzzle: Puzzle) -> Iterator[tuple[tuple[int, ...], int]]:
    """Each accepted answer of the stored tree once: the moves before it, and the move."""
    seen = set()
    for path in lines.stored(puzzle) or []:
        for at in range(0, len(path), 2):
            here = lines.key(puzzle.rules, path[: at + 1])
            if here not in seen:
                seen.add(here)
                yield path[:at], path[at]


def no_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any search by the checker fails the test from now on."""

    def searched(*args: object, **kwargs: object) -> None:
        raise AssertionError("the solver was asked")

    for name in ("score", "best_reply"):
        monkeypatch.setattr(answer_module, name, searched)
    monkeypatch.setattr(solver, "best_move", searched)
    monkeypatch.setattr(vcf, "still_wins", searched)
    monkeypatch.setattr(vcf, "forced_reply", searched)


def test_every_win_and_vcf_has_a_tree_and_nearly_every_hold() -> None:
    every = shipped.every()
    missing = [p for p in every if lines.stored(p) is None]
    assert not [p.id for p in missing if p.theme is not Theme.HOLD]
    holds = sum(p.theme is Theme.HOLD for p in every)
    assert len(missing) <= holds // 20, [p.id for p in missing]


def test_a_sample_of_small_trees_is_what_the_solver_makes() -> None:
    # a hold's exact reply can take the solver seconds: holds are in the wide sample
    small = [
        p for p in sample() if p.theme is not Theme.HOLD and len(lines.stored(p) or ()) <= SMALL
    ]
    assert len(small) >= SMALL_COUNT
    for puzzle in small[:: len(small) // SMALL_COUNT]:
        assert lines.stored(puzzle) == lines.tree_of(puzzle), puzzle.id


def test_a_wide_sample_of_trees_is_what_the_solver_makes() -> None:
    for puzzle in sample(WIDE_SAMPLE):
        assert lines.stored(puzzle) == lines.tree_of(puzzle), puzzle.id


def test_in_the_tree_the_fast_path_answers_as_the_solver() -> None:
    for puzzle in sample():
        if puzzle.theme is Theme.HOLD:
            continue  # the stored reply is the exact one; the searched one has a budget
        for n, (played, move) in enumerate(nodes(puzzle)):
            if n >= 30:
                break
            attempt = Attempt(puzzle, played)
            assert answer(attempt, move) == answer(attempt, move, known_line=False), (
                puzzle.id,
                played,
            )


def test_the_proven_line_is_the_trees_first_and_ends_in_the_win() -> None:
    for puzzle in sample():
        line = lines.known(puzzle)
        assert line is not None and line == (lines.stored(puzzle) or [])[0]
        attempt = Attempt(puzzle)
        for move in line[::2]:
            result = answer(attempt, move)
            assert result.verdict is not Verdict.FAILED
            attempt = result.attempt
        assert attempt.finished and attempt.played == line


def _second_wins(theme: Theme) -> Iterator[tuple[Puzzle, tuple[int, ...], int]]:
    """Wins off the proven line, from the stored trees."""
    every = shipped.vcf() if theme is Theme.VCF else shipped.connect_four()
    for puzzle in (p for p in every if p.theme is theme):
        line = lines.known(puzzle) or ()
        for played, move in nodes(puzzle):
            if (*played, move) != line[: len(played) + 1]:
                yield puzzle, played, move


@pytest.mark.parametrize("theme", [Theme.WIN, Theme.VCF])
def test_a_win_off_the_line_is_accepted_without_a_search(
    theme: Theme, monkeypatch: pytest.MonkeyPatch
) -> None:
    puzzle, played, move = next(_second_wins(theme))
    searched = answer(Attempt(puzzle, played), move, known_line=False)
    assert searched.verdict is not Verdict.FAILED
    no_search(monkeypatch)
    assert answer(Attempt(puzzle, played), move) == searched


def test_a_wrong_move_fails_and_an_illegal_one_goes_to_the_solver() -> None:
    puzzle = next(p for p in shipped.connect_four() if p.theme is Theme.WIN and p.depth >= 2)
    wrong = next(m for m in puzzle.position.legal_moves() if m != puzzle.solution)
    result = answer(Attempt(puzzle), wrong)  # from the refutations (test_refutations.py)
    assert result.verdict is Verdict.FAILED and result.reply is not None
    full = next(p for p in shipped.connect_four() if len(p.position.legal_moves()) < p.rules.cols)
    column = next(c for c in range(full.rules.cols) if c not in full.position.legal_moves())
    with pytest.raises(IllegalMove):
        answer(Attempt(full), column)
    with pytest.raises(IllegalMove):
        answer(Attempt(full), full.rules.cols)


def test_the_key_of_a_position_is_the_same_in_every_order() -> None:
    puzzle = shipped.connect_four()[0]
    assert lines.key(puzzle.rules, (1, 2, 3, 4)) == lines.key(puzzle.rules, (3, 4, 1, 2))
    assert lines.key(puzzle.rules, (1, 2, 3, 4)) != lines.key(puzzle.rules, (2, 1, 3, 4))
    assert lines.key(puzzle.rules, (1, 9)) is None
    free = shipped.vcf()[0]
    assert lines.key(free.rules, (5, 6, 7)) == lines.key(free.rules, (7, 6, 5))
    assert lines.key(free.rules, (5, 6, 7)) != lines.key(free.rules, (5, 7, 6))

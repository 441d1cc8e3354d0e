"""The shipped puzzles' proven lines, the answer checker's fast path: each is what the solver
answers (a sample here, all of them in ``python -m benchmarks puzzles``), a move on the line is
answered from it exactly as the solver would, and a move off it still goes to the solver, which
accepts any win within the moves left (issue 35)."""

from __future__ import annotations

from core.puzzles import lines, shipped
from core.puzzles.answer import Attempt, Verdict, answer
from core.puzzles.facts import moves_to_win, score
from core.puzzles.puzzle import Puzzle, Theme

SAMPLE = 40  # every 40th puzzle of each set


def sample() -> list[Puzzle]:
    return [*shipped.connect_four()[::SAMPLE], *shipped.vcf()[::SAMPLE]]


def test_every_win_and_vcf_has_a_line_and_nearly_every_hold() -> None:
    every = shipped.every()
    missing = [p for p in every if lines.known(p) is None]
    assert not [p.id for p in missing if p.theme is not Theme.HOLD]
    holds = sum(p.theme is Theme.HOLD for p in every)
    assert len(missing) <= holds // 20, [p.id for p in missing]


def test_a_sample_of_lines_is_what_the_solver_finds() -> None:
    for puzzle in sample():
        assert lines.known(puzzle) == lines.line_of(puzzle), puzzle.id


def test_on_the_line_the_fast_path_answers_as_the_solver() -> None:
    for puzzle in sample():
        if puzzle.theme is Theme.HOLD:
            continue  # the stored reply is the exact one; the searched one has a budget
        line = lines.known(puzzle)
        assert line is not None
        attempt = Attempt(puzzle)
        for move in line[::2]:
            fast = answer(attempt, move)
            searched = answer(attempt, move, known_line=False)
            assert fast == searched, (puzzle.id, attempt.played)
            attempt = fast.attempt
        assert attempt.finished


def test_a_win_off_the_line_is_accepted_by_the_solver() -> None:
    found = None
    for puzzle in shipped.connect_four():
        line = lines.known(puzzle)
        if puzzle.theme is not Theme.WIN or puzzle.depth < 3 or line is None:
            continue
        attempt = answer(Attempt(puzzle), puzzle.solution).attempt
        position = attempt.position
        for move in position.legal_moves():
            child = position.play(move)
            if move == line[2] or child.winner is not None:
                continue
            against = score(child)
            stones = len(position.moves)
            if against < 0 and moves_to_win(-against, stones, 42) <= attempt.moves_left:
                found = (attempt, move)
                break
        if found:
            break
    assert found is not None, "no shipped puzzle has a second win at its second move"
    attempt, move = found
    result = answer(attempt, move)
    assert result.verdict is Verdict.GOING and result.reply is not None
    assert result == answer(attempt, move, known_line=False)

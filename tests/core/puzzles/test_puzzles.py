"""Puzzles as facts: the solver's checks, answering with the solver, the generator, the daily
choice."""

from __future__ import annotations

import datetime
import itertools

import pytest

from core.games.position import IllegalMove, Position
from core.games.rules import CONNECT_FOUR
from core.puzzles import shipped
from core.puzzles.answer import Attempt, Verdict, answer, best_reply
from core.puzzles.facts import NotAFact, move_values, moves_to_win, verify
from core.puzzles.generate import generate
from core.puzzles.puzzle import Theme, from_line, make, to_line
from core.puzzles.rating import after_attempt, starting
from core.ratings.rating import NEW, Rating

# Found by the generator (seed 7): after 1 and the longest defence 4 (1-based), both 5 and 6
# still win within the five moves left, and the solver's own line takes 5.
WIN_IN_6 = from_line("2fd0bc8b8e,win,6x7/4,5262526423,6,1,1600")


def test_moves_to_win_reads_pons_scores() -> None:
    # the side to move on 10 stones wins with its first move: (42 + 1 - 10) // 2
    assert moves_to_win(16, 10, 42) == 1
    assert moves_to_win(15, 10, 42) == 2
    assert moves_to_win(11, 10, 42) == 6
    with pytest.raises(ValueError):
        moves_to_win(0, 10, 42)


def test_a_stated_puzzle_is_confirmed_and_a_wrong_n_or_move_is_not() -> None:
    verify(WIN_IN_6)
    for wrong in (
        make(Theme.WIN, CONNECT_FOUR, WIN_IN_6.moves, 5, WIN_IN_6.solution, 1600),
        make(Theme.WIN, CONNECT_FOUR, WIN_IN_6.moves, 6, 3, 1600),
        make(Theme.HOLD, CONNECT_FOUR, WIN_IN_6.moves, 1, WIN_IN_6.solution, 1600),
    ):
        with pytest.raises(NotAFact):
            verify(wrong)


def test_an_alternative_win_that_is_not_the_solvers_line_is_accepted() -> None:
    first = answer(Attempt(WIN_IN_6), WIN_IN_6.solution)
    assert first.verdict is Verdict.GOING
    assert first.reply == 3
    line = best_reply(first.attempt.position)
    assert line == 4
    going = answer(first.attempt, 5)  # not the solver's line, still a win in the moves left
    assert going.verdict is Verdict.GOING
    attempt = going.attempt
    verdicts = []
    while not attempt.finished:
        step = answer(attempt, best_reply(attempt.position))
        verdicts.append(step.verdict)
        attempt = step.attempt
    assert verdicts[-1] is Verdict.SOLVED
    assert set(verdicts[:-1]) <= {Verdict.GOING}


def test_a_wrong_move_fails_with_the_solvers_refutation() -> None:
    wrong = 3
    result = answer(Attempt(WIN_IN_6), wrong)
    assert result.verdict is Verdict.FAILED
    after = Position.from_moves(CONNECT_FOUR, (*WIN_IN_6.moves, wrong))
    values = move_values(after)
    assert result.reply is not None
    assert values[result.reply] == max(values.values())


def test_the_longest_defence_delays_the_loss_most() -> None:
    after = WIN_IN_6.position.play(WIN_IN_6.solution)
    values = move_values(after)
    reply = best_reply(after)
    assert values[reply] == max(values.values())
    assert reply == min(move for move, value in values.items() if value == values[reply])


def test_an_illegal_move_and_a_finished_attempt_are_refused() -> None:
    full = from_line(to_line(WIN_IN_6))
    with pytest.raises(IllegalMove):
        answer(Attempt(full), 9)
    failed = answer(Attempt(full), 3).attempt
    assert failed.finished
    with pytest.raises(ValueError):
        answer(failed, 0)


def test_a_hold_accepts_only_the_move_that_does_not_lose() -> None:
    hold = next(p for p in generate(3) if p.theme is Theme.HOLD)
    verify(hold)
    values = move_values(hold.position)
    assert answer(Attempt(hold), hold.solution).verdict is Verdict.SOLVED
    for move, value in values.items():
        if move != hold.solution:
            assert value < 0
            assert answer(Attempt(hold), move).verdict is Verdict.FAILED


def test_the_generator_is_deterministic_and_its_puzzles_are_facts() -> None:
    first = list(itertools.islice(generate(11), 8))
    assert [to_line(p) for p in first] == [to_line(p) for p in itertools.islice(generate(11), 8)]
    for puzzle in first:
        verify(puzzle)
        assert from_line(to_line(puzzle)) == puzzle


def test_a_line_whose_id_does_not_match_is_refused() -> None:
    with pytest.raises(ValueError):
        from_line("0000000000,win,6x7/4,5262526423,6,1,1600")


def test_the_daily_puzzle_is_a_function_of_the_date_and_the_set() -> None:
    puzzles = tuple(
        make(Theme.WIN, CONNECT_FOUR, moves, 1, 0, 1000)
        for moves in itertools.product(range(7), repeat=2)
    )
    day = datetime.date(2026, 11, 28)
    assert shipped.daily(day, puzzles) == shipped.daily(day, tuple(puzzles))
    assert shipped.daily(day, puzzles) != shipped.daily(day + datetime.timedelta(days=1), puzzles)
    days = [day + datetime.timedelta(days=n) for n in range(30)]
    assert len({shipped.daily(d, puzzles).id for d in days}) > 20
    with pytest.raises(ValueError):
        shipped.daily(day, ())


def test_solving_raises_the_player_and_lowers_the_puzzle_and_failing_the_reverse() -> None:
    puzzle_rating = starting(WIN_IN_6)
    assert puzzle_rating.rating == WIN_IN_6.difficulty
    solved = after_attempt(NEW, puzzle_rating, solved=True)
    assert solved.deltas[0] > 0 > solved.deltas[1]
    failed = after_attempt(NEW, puzzle_rating, solved=False)
    assert failed.deltas[0] < 0 < failed.deltas[1]
    # a puzzle far harder than the player costs little to fail
    hard = after_attempt(NEW, Rating(2500.0, 80.0, 50), solved=False)
    assert abs(hard.deltas[0]) < abs(failed.deltas[0])

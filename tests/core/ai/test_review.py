"""Game review (core.ai.review): exact values, optimal moves, mistakes."""

from __future__ import annotations

import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.ai import solver
from core.ai.review import (
    GameReview,
    Mistake,
    MoveReview,
    Result,
    can_review,
    describe,
    review_game,
)
from core.games import CONNECT_FOUR, TICTACTOE, IllegalMove, Position, Rules
from tests.core.ai.test_solver import brute_force

GRAVITY_4X4_K3 = Rules(4, 4, 3, gravity=True)


@pytest.fixture(scope="module", autouse=True)
def compiled() -> None:
    solver.warm_up()


def mistakes(review: GameReview | None) -> dict[int, Mistake]:
    assert review is not None
    return {m.ply: m.mistake for m in review.moves if m.mistake is not None}


def test_tictactoe_blunders_are_marked() -> None:
    # O answers the centre on an edge (loses); X lets the win go (3 and 6 won: a fork), then
    # X fails to block O's row 6-7-8, and O, instead of completing it, blocks X.
    review = review_game(TICTACTOE, [4, 1, 0, 8, 2, 6, 3, 5, 7])
    assert mistakes(review) == {
        1: Mistake.DRAW_TO_LOSS,
        4: Mistake.WIN_TO_DRAW,
        6: Mistake.DRAW_TO_LOSS,
        7: Mistake.WIN_TO_DRAW,
    }
    assert review is not None
    assert review.moves[4] == MoveReview(4, 1, 2, 2, 0, (3, 6), Mistake.WIN_TO_DRAW)
    assert review.moves[7].best == (7,)  # O's win on the bottom row
    assert all(m.best == () for m in review.moves if m.mistake is None)


def test_tictactoe_win_thrown_into_a_loss() -> None:
    # O's 2 lets X fork with 6 (threats at 3 and 7); O blocks 3 and threatens 5; X, who wins at
    # 7, plays 1 and O completes 3-4-5
    review = review_game(TICTACTOE, [0, 4, 8, 2, 6, 3, 1])
    assert mistakes(review) == {3: Mistake.DRAW_TO_LOSS, 6: Mistake.WIN_TO_LOSS}
    assert review is not None
    assert review.moves[6].best == (7,)
    assert review.moves[6].after == -1  # O wins with the last stone but one


def test_connect_four_blunder_and_its_consistency_with_solve() -> None:
    moves = [3, 3, 1, 2, 4, 3, 3, 1, 4, 4, 6, 0, 5]
    review = review_game(CONNECT_FOUR, moves)
    # 1 (an early edge-side move) throws the first player's win away; at ply 11 the second
    # player, winning, does not block the bottom row and loses at once
    assert mistakes(review) == {2: Mistake.WIN_TO_LOSS, 11: Mistake.WIN_TO_LOSS}
    assert review is not None
    assert review.moves[11].after == -((42 - 11) // 2)
    p = Position.start(CONNECT_FOUR)
    for entry in review.moves:
        assert entry.before == solver.solve(p)
        values = {m: _value_after(p, m) for m in p.legal_moves()}
        optimal = tuple(m for m, v in values.items() if v == entry.before)
        # the optimal moves are given where the move is a mistake, and only there
        assert entry.best == (optimal if entry.mistake is not None else ())
        assert entry.after == values[entry.move]
        assert entry.player == p.to_move
        p = p.play(entry.move)


def test_connect_four_mistakes_beyond_the_book() -> None:
    # a random game: at ply 12 the first player's 1 (a column) turns a draw into a loss, and
    # at ply 13 the second player's 7 throws the win back, both just beyond the 12-stone book
    moves = [int(c) - 1 for c in "21476477774417"]
    review = review_game(CONNECT_FOUR, moves)
    late = {ply: m for ply, m in mistakes(review).items() if ply >= 12}
    assert late == {12: Mistake.DRAW_TO_LOSS, 13: Mistake.WIN_TO_LOSS}
    assert review is not None
    p = Position.from_moves(CONNECT_FOUR, moves[:12])
    for entry in review.moves[12:]:
        values = {m: _value_after(p, m) for m in p.legal_moves()}
        assert entry.before == max(values.values())
        assert entry.after == values[entry.move]
        assert entry.best == tuple(m for m, v in values.items() if v == entry.before)
        p = p.play(entry.move)


def test_a_review_from_a_kept_beginning_is_the_same_review() -> None:
    moves = [int(c) - 1 for c in "21476477774417"] + [4, 2, 5, 2, 5, 5, 5, 4, 0, 3]
    whole = review_game(CONNECT_FOUR, moves)
    assert whole is not None
    for kept in (1, 12, 13, 16, len(moves)):
        assert review_game(CONNECT_FOUR, moves, known=whole.moves[:kept]) == whole
    # the review of a beginning serves a longer game; a review of another game is not used
    beginning = review_game(CONNECT_FOUR, moves[:14])
    assert beginning is not None
    assert review_game(CONNECT_FOUR, moves, known=beginning.moves) == whole
    other = review_game(CONNECT_FOUR, [3, 3, 1, 2, 4, 3, 3, 1, 4, 4, 6, 0, 5])
    assert other is not None
    assert review_game(CONNECT_FOUR, moves, known=other.moves) == whole


def _brute_force_after(p: Position, move: int) -> int:
    child = p.play(move)
    if child.winner is not None:
        return (p.rules.cells + 1 - len(p.moves)) // 2
    return 0 if child.is_draw else -brute_force(child)


def _value_after(p: Position, move: int) -> int:
    child = p.play(move)
    if child.winner is not None:
        return (p.rules.cells + 1 - len(p.moves)) // 2
    return 0 if child.is_draw else -solver.solve(child)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_review_agrees_with_brute_force_on_small_boards(data: st.DataObject) -> None:
    rules = data.draw(st.sampled_from([GRAVITY_4X4_K3, TICTACTOE, Rules(3, 4, 3)]))
    p = Position.start(rules)
    for _ in range(data.draw(st.integers(0, rules.cells))):
        if p.is_over:
            break
        p = p.play(data.draw(st.sampled_from(p.legal_moves())))
    review = review_game(rules, p.moves)
    assert review is not None and len(review.moves) == len(p.moves)
    q = Position.start(rules)
    for entry in review.moves:
        assert entry.before == brute_force(q)
        child = q.play(entry.move)
        if child.winner is None and not child.is_draw:
            assert entry.after == -brute_force(child)
        won, drawn = entry.before > 0, entry.before == 0
        lost_after = entry.after < 0
        expected = None
        if won and entry.after == 0:
            expected = Mistake.WIN_TO_DRAW
        elif won and lost_after:
            expected = Mistake.WIN_TO_LOSS
        elif drawn and lost_after:
            expected = Mistake.DRAW_TO_LOSS
        assert entry.mistake is expected
        if expected is None:
            assert entry.best == ()
        else:
            optimal = [m for m in q.legal_moves() if _brute_force_after(q, m) == entry.before]
            assert entry.best == tuple(optimal) and entry.move not in entry.best
        q = child


def test_what_can_be_reviewed() -> None:
    assert can_review(TICTACTOE)
    assert can_review(CONNECT_FOUR)  # with the book installed
    assert can_review(GRAVITY_4X4_K3)
    assert not can_review(Rules(7, 8, 4, gravity=True))
    assert not can_review(Rules(15, 15, 5))
    assert review_game(Rules(15, 15, 5), [0, 1]) is None


def test_review_gives_up_after_the_deadline() -> None:
    assert review_game(CONNECT_FOUR, [3, 3, 3, 3, 2, 2, 4], deadline=time.perf_counter()) is None


def test_review_refuses_an_illegal_game() -> None:
    with pytest.raises(IllegalMove):
        review_game(TICTACTOE, [4, 4])


def test_describe_scores() -> None:
    assert describe(1, CONNECT_FOUR, 0) == (Result.WIN, 41)  # the empty board: stone 41
    assert describe(1, CONNECT_FOUR, 12) == (Result.WIN, 29)  # the book's example: 29 plies
    assert describe(-10, CONNECT_FOUR, 12) == (Result.LOSS, 12)
    assert describe(0, CONNECT_FOUR, 12) == (Result.DRAW, 30)
    assert describe(5, TICTACTOE, 0) == (Result.WIN, 1)  # a win with the next stone

"""HARD on free boards: exact small boards, forced wins and blocks on big ones, the deadline."""

from __future__ import annotations

import random
import time
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.ai import exact_free, freeboard, threat_search
from core.ai.heuristic import windows
from core.games import Position, Rules
from core.games.bitboard import geometry, has_line, iter_bits

GOMOKU_9 = Rules(9, 9, 5)
GOMOKU_15 = Rules(15, 15, 5)


def cells(rules: Rules, *coords: str) -> list[int]:
    """Row-major cell indexes of coordinates like ``"e5"`` (column letter, row from the top)."""
    return [(int(c[1:]) - 1) * rules.cols + ord(c[0]) - ord("a") for c in coords]


def position(rules: Rules, first: list[int], second: list[int], extra_first: int = 0) -> Position:
    """A position with these stones (first player's list may be one longer)."""
    moves: list[int] = []
    for i in range(max(len(first), len(second))):
        if i < len(first):
            moves.append(first[i])
        if i < len(second):
            moves.append(second[i])
    return Position.from_moves(rules, moves)


def hard(p: Position, budget: float = 1.0) -> int:
    return freeboard.hard_move(p, time.perf_counter() + budget)


def wins_at_once(p: Position) -> set[int]:
    return {m for m in p.legal_moves() if p.play(m).winner == p.to_move}


# -- brute force, for small boards ---------------------------------------------------------------


@cache
def brute_score(p: Position) -> int:
    """Exact score (docs/design.md) by plain negamax over every move."""
    stones = len(p.moves)
    best = -p.rules.cells
    for move in p.legal_moves():
        child = p.play(move)
        if child.winner is not None:
            return (p.rules.cells + 1 - stones) // 2
        best = max(best, 0 if child.is_draw else -brute_score(child))
    return best


@pytest.mark.parametrize("rules", [Rules(3, 4, 3), Rules(4, 4, 3), Rules(3, 5, 3)])
def test_exact_move_agrees_with_brute_force(rules: Rules) -> None:
    rng = random.Random(7)
    checked = 0
    for _ in range(8):
        p = Position.start(rules)
        for _ in range(rng.randrange(5, 9)):
            if p.is_over:
                break
            p = p.play(rng.choice(p.legal_moves()))
        if p.is_over:
            continue
        solved = exact_free.exact_move(p, time.perf_counter() + 60)
        assert solved is not None
        move, score = solved
        assert score == brute_score(p)
        child = p.play(move)
        after = (
            (rules.cells + 1 - len(p.moves)) // 2
            if child.winner
            else (0 if child.is_draw else -brute_score(child))
        )
        assert after == score
        checked += 1
    assert checked >= 3


# -- the incremental board -----------------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(st.data())
def test_board_counts_stay_consistent(data: st.DataObject) -> None:
    rules = data.draw(st.sampled_from([Rules(7, 7, 4), Rules(9, 9, 5), Rules(5, 8, 3)]))
    table = windows(rules)
    geo = geometry(rules)
    board = threat_search.Board(table, (0, 0))
    played: list[tuple[int, int]] = []
    free = iter_bits(geo.board_mask)
    for step in range(data.draw(st.integers(0, 30))):
        if data.draw(st.booleans()) and played:
            bit, player = played.pop()
            board.undo(bit, player)
        else:
            bit = data.draw(st.sampled_from([b for b in free if not board.occupied >> b & 1]))
            board.play(bit, step % 2)
            played.append((bit, step % 2))
    fresh = threat_search.Board(table, (board.stones[0], board.stones[1]))
    assert board.counts == fresh.counts
    assert board.fours == fresh.fours
    assert board.threes == fresh.threes
    assert board.score == fresh.score
    for player in (0, 1):
        if has_line(board.stones[player], geo):
            continue  # finished games never reach the search
        expected = {
            b
            for b in free
            if not board.occupied >> b & 1 and has_line(board.stones[player] | 1 << b, geo)
        }
        assert set(iter_bits(board.wins(player))) == expected


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_three_makers_are_the_cells_that_make_a_double_point(data: st.DataObject) -> None:
    """The candidates of the search by threes: the cells found by reading the windows through
    each cell are those found by playing it and looking for double points on the board."""
    rules = data.draw(st.sampled_from([Rules(9, 9, 5), Rules(7, 7, 4), Rules(8, 6, 3), GOMOKU_15]))
    table = windows(rules)
    geo = geometry(rules)
    board = threat_search.Board(table, (0, 0))
    centre = geo.bit_of(rules.rows // 2, rules.cols // 2)
    # Stones near the centre, so that threes and double points are common.
    area = [b for b in iter_bits(table.near[centre] | 1 << centre)]
    for step in range(data.draw(st.integers(2, 14))):
        free = [b for b in area if not board.occupied >> b & 1]
        if not free:
            break
        board.play(data.draw(st.sampled_from(free)), step % 2)
    attacker = data.draw(st.integers(0, 1))
    if board.wins(0) or board.wins(1):
        return  # the search asks only when nobody can win at once
    search = threat_search.Search(table, board, time.perf_counter() + 60)
    fours = board.four_makers(attacker)
    near = 0
    for window in board.threes[attacker]:
        near |= table.masks[window]
    for bit in iter_bits(board.stones[attacker]):
        near |= table.near[bit]
    near &= ~board.occupied & ~fours
    expected = search._three_makers_by_trial(attacker, near)
    assert search.three_makers(attacker, fours) == expected


# -- forced wins and blocks on big boards --------------------------------------------------------


def test_takes_the_win_of_an_open_four() -> None:
    r = GOMOKU_9
    p = position(r, cells(r, "c5", "d5", "e5", "f5"), cells(r, "a1", "a3", "i9"))
    assert hard(p, 0.2) in set(cells(r, "b5", "g5"))


def test_blocks_a_four() -> None:
    r = GOMOKU_9
    # Second player has four in column b (b2..b5, b1 taken): the first player must take b6.
    p = position(r, cells(r, "b1", "e5", "h9", "e6"), cells(r, "b2", "b3", "b4", "b5"))
    assert p.to_move == 1
    assert hard(p, 0.2) == cells(r, "b6")[0]


def test_makes_an_open_four_from_an_open_three() -> None:
    r = GOMOKU_15
    p = position(r, cells(r, "f8", "g8", "h8"), cells(r, "a1", "o15"))
    p = p.play(cells(r, "a15")[0]) if p.to_move == 2 else p
    assert p.to_move == 1
    move = hard(p, 0.5)
    # An open four (or any move from which the win is forced by fours) wins; check by fours.
    child = p.play(move)
    board = threat_search.Board(windows(r), child.stones)
    search = threat_search.Search(windows(r), board, time.perf_counter() + 10)
    assert search.threat_search(0, 6, threes=False) >= 0 or bin(board.wins(0)).count("1") >= 2


def test_finds_a_four_three() -> None:
    r = GOMOKU_15
    # X: a closed three on row 8 (blocked left at e8) and an open two on column i
    # crossing at i8 (empty): i8 makes a four on the row and an open three on the column.
    x = cells(r, "f8", "g8", "h8", "i6", "i7")
    o = cells(r, "e8", "a1", "o15", "a15", "o1")
    p = Position.from_moves(r, [m for pair in zip(x, o, strict=True) for m in pair])
    assert p.to_move == 1
    move = hard(p, 1.0)
    child = p.play(move)
    board = threat_search.Board(windows(r), child.stones)
    search = threat_search.Search(windows(r), board, time.perf_counter() + 30)
    # After our move the opponent is to move and loses to continuous threats.
    assert search._defends_in_vain(0, 6, threes=True)


def test_finds_a_double_four() -> None:
    r = GOMOKU_15
    x = cells(r, "d8", "e8", "f8", "h5", "h6", "h7")
    o = cells(r, "c8", "h4", "a1", "o15", "a15", "o1")
    p = Position.from_moves(r, [m for pair in zip(x, o, strict=True) for m in pair])
    # Both lines are closed at one end (c8, h4); h8 makes a four on each, with two winning cells.
    assert hard(p, 0.5) == cells(r, "h8")[0]


def test_refutes_the_opponents_open_three() -> None:
    r = GOMOKU_15
    # O (to move next after ours) has an open three on row 8; X has nothing forcing.
    x = cells(r, "a1", "o15", "a15")
    o = cells(r, "f8", "g8", "h8")
    p = Position.from_moves(r, [m for pair in zip(x, o, strict=True) for m in pair])
    assert p.to_move == 1
    move = hard(p, 0.5)
    child = p.play(move)
    board = threat_search.Board(windows(r), child.stones)
    search = threat_search.Search(windows(r), board, time.perf_counter() + 30)
    assert search.threat_search(1, 4, threes=True) < 0


def test_tiny_budget_still_gives_a_legal_safe_move() -> None:
    rng = random.Random(3)
    for rules in (Rules(25, 25, 5), Rules(10, 10, 5), Rules(7, 7, 4), Rules(5, 5, 4)):
        p = Position.start(rules)
        for _ in range(30):
            if p.is_over:
                break
            p = p.play(rng.choice(p.legal_moves()))
        if p.is_over:
            continue
        for budget in (0.0, 0.001):
            move = hard(p, budget)
            assert move in p.legal_moves()


@settings(max_examples=25, deadline=None)
@given(st.data())
def test_never_misses_a_win_nor_a_needed_block(data: st.DataObject) -> None:
    rules = data.draw(
        st.sampled_from([Rules(7, 7, 4), Rules(9, 9, 5), Rules(6, 6, 3), Rules(5, 5, 4)])
    )
    rng = random.Random(data.draw(st.integers(0, 10**6)))
    p = Position.start(rules)
    for _ in range(data.draw(st.integers(0, 24))):
        if p.is_over:
            break
        p = p.play(rng.choice(p.legal_moves()))
    if p.is_over:
        return
    move = hard(p, 0.01)
    assert move in p.legal_moves()
    if wins_at_once(p):
        assert p.play(move).winner == p.to_move
        return
    child = p.play(move)
    if not child.is_over and wins_at_once(child):
        # Losing at once is only allowed when every move does.
        assert all(wins_at_once(p.play(m)) for m in p.legal_moves())

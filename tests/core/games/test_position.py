"""The rules, pinned by exhaustive counts and by a brute-force checker written here."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.games import (
    CONNECT_FOUR,
    TICTACTOE,
    IllegalMove,
    Outcome,
    Position,
    Rules,
    Termination,
)

DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


def brute_force_lines(grid: list[list[int]], k: int) -> dict[int, set[frozenset[int]]]:
    """Every k-run of each player, as sets of row-major cells: the slow, obvious way."""
    rows, cols = len(grid), len(grid[0])
    found: dict[int, set[frozenset[int]]] = {1: set(), 2: set()}
    for r in range(rows):
        for c in range(cols):
            for dr, dc in DIRECTIONS:
                cells = [(r + i * dr, c + i * dc) for i in range(k)]
                if not all(0 <= rr < rows and 0 <= cc < cols for rr, cc in cells):
                    continue
                marks = {grid[rr][cc] for rr, cc in cells}
                if len(marks) == 1 and (mark := marks.pop()) != 0:
                    found[mark].add(frozenset(rr * cols + cc for rr, cc in cells))
    return found


def test_tictactoe_perft() -> None:
    """Every game from the empty board: 255,168 games over 5,478 positions."""
    games = 0
    positions: set[Position] = set()

    def walk(position: Position) -> None:
        nonlocal games
        positions.add(position)
        if position.is_over:
            games += 1
            return
        for move in position.legal_moves():
            walk(position.play(move))

    walk(Position.start(TICTACTOE))
    assert games == 255_168
    assert len(positions) == 5_478


def test_tictactoe_outcomes_by_kind() -> None:
    """The known split of the 255,168 games: 131,184 X wins, 77,904 O wins, 46,080 draws."""
    counts = {1: 0, 2: 0, None: 0}

    def walk(position: Position) -> None:
        if position.is_over:
            counts[position.winner] += 1
            return
        for move in position.legal_moves():
            walk(position.play(move))

    walk(Position.start(TICTACTOE))
    assert counts == {1: 131_184, 2: 77_904, None: 46_080}


@st.composite
def games(draw: st.DrawFn) -> tuple[Rules, list[int]]:
    rows = draw(st.integers(3, 8))
    cols = draw(st.integers(3, 8))
    k = draw(st.integers(3, max(rows, cols)))
    rules = Rules(rows, cols, k, gravity=draw(st.booleans()))
    position = Position.start(rules)
    length = draw(st.integers(0, rules.cells))
    for _ in range(length):
        if position.is_over:
            break
        position = position.play(draw(st.sampled_from(position.legal_moves())))
    return rules, list(position.moves)


@settings(max_examples=300, deadline=None)
@given(games())
def test_random_games_agree_with_brute_force(game: tuple[Rules, list[int]]) -> None:
    rules, moves = game
    grid = [[0] * rules.cols for _ in range(rules.rows)]
    position = Position.start(rules)
    for index, move in enumerate(moves):
        player = index % 2 + 1
        assert position.to_move == player
        if rules.gravity:
            row = max(r for r in range(rules.rows) if grid[r][move] == 0)
            grid[row][move] = player
        else:
            grid[move // rules.cols][move % rules.cols] = player
        position = position.play(move)
        lines = brute_force_lines(grid, rules.k)
        assert not lines[3 - player], "only the mover can complete a line"
        won = bool(lines[player])
        assert position.winner == (player if won else None)
        if won:
            last = position.last_cell
            through_last = set().union(*(line for line in lines[player] if last in line))
            assert set(position.winning_line) == through_last
            assert index == len(moves) - 1, "the game stops at the first line"
        else:
            assert position.winning_line == ()
    for r in range(rules.rows):
        for c in range(rules.cols):
            assert position.cell(r, c) == grid[r][c]
    full = all(grid[r][c] for r in range(rules.rows) for c in range(rules.cols))
    assert position.is_draw == (full and position.winner is None)
    assert position.is_over == (full or position.winner is not None)
    expected_legal = (
        ()
        if position.is_over
        else tuple(
            m
            for m in range(rules.move_count)
            if (grid[0][m] == 0 if rules.gravity else grid[m // rules.cols][m % rules.cols] == 0)
        )
    )
    assert position.legal_moves() == expected_legal
    assert Position.from_moves(rules, moves) == position


def test_positions_are_values() -> None:
    start = Position.start(TICTACTOE)
    after = start.play(4)
    assert start.moves == () and after.moves == (4,)
    assert Position.from_moves(TICTACTOE, [0, 4, 8]) == Position.from_moves(TICTACTOE, [8, 4, 0])
    assert (
        len({Position.from_moves(TICTACTOE, [0, 4, 8]), Position.from_moves(TICTACTOE, [8, 4, 0])})
        == 1
    )
    assert eval(repr(after)) == after  # the repr is meant to be pasted back


def test_connect_four_gravity_and_winning_line() -> None:
    position = Position.from_moves(CONNECT_FOUR, [3, 3, 4, 4, 5, 5, 6])
    assert position.winner == 1
    assert position.outcome == Outcome(Termination.WIN, 1)
    assert position.winning_line == (38, 39, 40, 41)  # bottom row, columns 3..6
    assert position.cell(5, 3) == 1 and position.cell(4, 3) == 2 and position.cell(3, 3) == 0


def test_winning_line_joins_two_lines_through_the_last_stone() -> None:
    # X completes a row and a column at once with the corner cell 0.
    position = Position.from_moves(TICTACTOE, [1, 4, 2, 5, 3, 8, 6, 7, 0])
    assert position.winner == 1
    assert position.winning_line == (0, 1, 2, 3, 6)


@pytest.mark.parametrize(
    ("rules", "moves", "message"),
    [
        (TICTACTOE, [4, 4], "cell 4 is occupied"),
        (TICTACTOE, [9], "cell 9 is off the board (cells 0..8)"),
        (TICTACTOE, [-1], "cell -1 is off the board (cells 0..8)"),
        (CONNECT_FOUR, [7], "column 7 is off the board (columns 0..6)"),
        (CONNECT_FOUR, [0] * 7, "column 0 is full"),
        (TICTACTOE, [0, 3, 1, 4, 2, 5], "the game is over"),
    ],
)
def test_illegal_moves_say_why(rules: Rules, moves: list[int], message: str) -> None:
    with pytest.raises(IllegalMove, match=message.replace("(", r"\(").replace(")", r"\)")):
        Position.from_moves(rules, moves)


def test_illegal_move_is_a_value_error_and_leaves_the_position() -> None:
    position = Position.from_moves(TICTACTOE, [4])
    with pytest.raises(ValueError):
        position.play(4)
    with pytest.raises(IllegalMove, match="whole number"):
        position.play(True)
    assert position.moves == (4,)


def test_draw() -> None:
    position = Position.from_moves(TICTACTOE, [0, 1, 2, 4, 3, 5, 7, 6, 8])
    assert position.is_draw and position.is_over and position.winner is None
    assert position.outcome == Outcome(Termination.DRAW) and position.legal_moves() == ()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((2, 3, 3), "rows must be between 3 and 25, got 2"),
        ((3, 26, 3), "cols must be between 3 and 25, got 26"),
        ((3, 3, 4), "k must be between 3 and 3 on a 3x3 board, got 4"),
        ((3, 3, 2), "k must be between 3 and 3"),
        ((3.0, 3, 3), "rows must be a whole number, got 3.0"),
    ],
)
def test_rules_are_validated(args: tuple[object, ...], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Rules(*args)  # type: ignore[arg-type]


def test_largest_board() -> None:
    rules = Rules(25, 25, 25)
    position = Position.from_moves(rules, list(range(0, 50)))
    # X took the even cells of rows 0 and 1, O the odd ones: no 25 in a row.
    assert position.winner is None
    position = Position.from_moves(
        rules, [c if i % 2 == 0 else 25 + c for c in range(25) for i in (0, 1)][:49]
    )
    assert position.winner == 1 and position.winning_line == tuple(range(25))

"""The pattern evaluation of free boards: line patterns, the incremental board, its search."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.ai import _gomoku_kernel as kernel
from core.ai import _solver_jit, freeboard, pattern_board
from core.ai._gomoku_kernel import LEAF_VCF_DEPTH
from core.ai.pattern_board import PatternBoard
from core.ai.pattern_search import WIN_SCORE, PatternSearch
from core.ai.patterns import (
    B3,
    B4,
    BLOCKED,
    DEAD,
    EMPTY,
    F2,
    F3,
    F4,
    F5,
    FLEX4,
    FOUR,
    OWN,
    THREAT_CLASSES,
    THREAT_VALUES,
    classify,
    patterns,
)
from core.games import Position, Rules
from core.games.bitboard import geometry, has_line, iter_bits

GOMOKU_15 = Rules(15, 15, 5)


def line(text: str) -> tuple[int, ...]:
    """A line from text: ``x`` own (the middle one is the cell), ``.`` empty, ``o`` blocked."""
    return tuple({"x": OWN, ".": EMPTY, "o": BLOCKED}[c] for c in text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("..xxxxx..", F5),
        ("..xxxx...", F4),
        ("...xx.x..", F3),  # a broken three: the gap makes a flex four
        ("...xxx...", F3),
        ("..oxxx...", B3),  # closed on one side: at best a four
        ("..oxxxx..", B4),
        ("..xxx.x..", B4),  # the gap is its one completion
        ("..x.x....", F2),
        ("o...xo...", DEAD),  # four cells of room
        ("ooo.xo...", DEAD),
        ("xx.xx.xx.", F4),  # each gap completes a five through the cell
    ],
)
def test_lines_are_classified_as_a_player_names_them(text: str, expected: int) -> None:
    assert classify(line(text), 5) == expected


def test_every_k_has_its_tables() -> None:
    for k in (4, 5):
        tables = patterns(k)
        assert len(tables.line) == 3 ** (2 * k - 2)
    with pytest.raises(ValueError, match="pattern tables"):
        patterns(6)


def snapshot(board: PatternBoard) -> tuple[object, ...]:
    # A stone's cell keeps the patterns it had when it was played (right again once it is
    # taken back): only the empty cells' are the board's.
    occupied = board.occupied
    empty_packed = [
        [-1 if occupied >> here & 1 else v for here, v in enumerate(row)] for row in board.packed
    ]
    return (
        board.total,
        board.fives,
        board.fours,
        board.flex,
        empty_packed,
        board.hash,
        board.keys,
        board.to_move,
        board.occupied,
    )


@settings(max_examples=30, deadline=None)
@given(st.data())
def test_the_incremental_board_equals_one_built_from_scratch(data: st.DataObject) -> None:
    rules = data.draw(st.sampled_from([Rules(9, 9, 5), Rules(7, 7, 4), Rules(8, 10, 5), GOMOKU_15]))
    board = PatternBoard(rules, (0, 0), 0)
    start = snapshot(board)
    geo = geometry(rules)
    free = iter_bits(geo.board_mask)
    played = 0
    for _ in range(data.draw(st.integers(0, 40))):
        if data.draw(st.booleans()) and played:
            board.undo()
            played -= 1
        else:
            bit = data.draw(
                st.sampled_from([b for b in free if not board.occupied >> board.index_of(b) & 1])
            )
            board.play(board.index_of(bit))
            played += 1
    stones = tuple(sum(1 << board.bit_of(here) for here in board.stones[p]) for p in (0, 1))
    fresh = PatternBoard(rules, (stones[0], stones[1]), board.to_move)
    assert snapshot(board) == snapshot(fresh)
    for player in (0, 1):
        if has_line(stones[player], geo):
            continue  # a finished game is never searched
        occupied = stones[0] | stones[1]
        expected = {
            board.index_of(b)
            for b in free
            if not occupied >> b & 1 and has_line(stones[player] | 1 << b, geo)
        }
        assert board.fives[player] == expected
        if expected:
            continue
        # A flex cell is one after which the player completes a line in two places.
        to_move = board.to_move
        for here in board.fours[player]:
            board.to_move = player
            board.play(here)
            completions = len(board.fives[player])
            board.undo()
            assert (completions >= 2) == (here in board.flex[player])
        board.to_move = to_move
    for _ in range(played):
        board.undo()
    assert snapshot(board) == start


@settings(max_examples=30, deadline=None)
@given(st.data())
def test_threat_stones_move_the_classes_and_leave_the_rest(data: st.DataObject) -> None:
    """The stones a win by fours puts (``gk_put(..., 0)``) class every cell as full stones do,
    and once taken back leave every word of the board as it was."""
    rules = data.draw(st.sampled_from([Rules(9, 9, 5), Rules(7, 7, 4), GOMOKU_15]))
    free = list(iter_bits(geometry(rules).board_mask))
    before = data.draw(st.lists(st.sampled_from(free), unique=True, max_size=20))
    light = data.draw(
        st.lists(st.sampled_from([b for b in free if b not in before]), unique=True, max_size=8)
    )
    board = PatternBoard(rules, (0, 0), 0)
    for bit in before:
        board.play(board.index_of(bit))
    words = list(board.w)
    full = PatternBoard(rules, (0, 0), 0)
    for bit in before + light:
        full.play(full.index_of(bit))
    put, take = board.fn["gk_put"], board.fn["gk_take"]
    for bit in light:
        put(board.tab, board.w, board.index_of(bit), 0)
    counts = slice(kernel.W_COUNTS, kernel.W_COUNTS + 16)
    assert list(board.w[counts]) == list(full.w[counts])
    assert board.classes == full.classes
    assert (board.fives, board.fours, board.flex) == (full.fives, full.fours, full.flex)
    for _ in light:
        take(board.tab, board.w, 0)
    # The list of moves played keeps the last ones past its end, as after a full undo.
    past = int(board.w[kernel.W_PLAYED]) + len(before)
    assert list(board.w[:past]) == words[:past]
    assert list(board.w[past + len(light) :]) == words[past + len(light) :]


def test_cells_are_classed_by_their_threats() -> None:
    # Black: a three on row 7 (columns 3 to 5) and one on column 7 (rows 4 to 6).
    rules = GOMOKU_15
    board = PatternBoard(rules, (0, 0), 0)
    geo = geometry(rules)

    def play(player: int, row: int, col: int) -> None:
        board.to_move = player
        board.play(board.index_of(geo.bit_of(row, col)))

    for row, col in [(7, 3), (7, 4), (7, 5), (4, 7), (5, 7), (6, 7)]:
        play(0, row, col)
    here = board.index_of(geo.bit_of(7, 6))
    corner = board.index_of(geo.bit_of(7, 7))
    assert board.classes[0][here] == FLEX4  # an open four on the row
    assert board.classes[0][corner] == FLEX4  # a broken four on the row, an open four up
    play(1, 3, 7)  # closes the column from above
    assert board.classes[0][corner] == FLEX4  # two fours: a double four
    play(1, 7, 2)  # closes the row on the left
    assert board.classes[0][here] == FOUR
    assert here in board.fours[0] and here not in board.flex[0]
    assert corner in board.flex[0]


def plain(board: PatternBoard, search: PatternSearch, depth: int, ply: int) -> int:
    """The search's value without a transposition table, move order or cut-offs."""
    me, other = board.to_move, 1 - board.to_move
    if board.fives[me]:
        return WIN_SCORE - ply
    if len(board.fives[other]) >= 2:
        return -(WIN_SCORE - ply - 1)
    if not board.fives[other] and board.flex[me] and not board.fours[other]:
        return WIN_SCORE - ply - 2
    if depth <= 0 and not board.fives[other]:
        if board.fours[me] and search.vcf(LEAF_VCF_DEPTH) >= 0:
            return WIN_SCORE - ply - 2 * LEAF_VCF_DEPTH
        return board.evaluate()
    moves, _ = search.moves_at(kernel.INNER_WIDTH)
    best = -WIN_SCORE
    for here in moves:
        board.play(here)
        # a block costs depth, but one at the horizon is still read out
        best = max(best, -plain(board, search, max(depth - 1, 0), ply + 1))
        board.undo()
    return best


@settings(max_examples=15, deadline=None)
@given(st.data())
def test_the_search_finds_the_value_of_a_plain_search(data: st.DataObject) -> None:
    """Alpha-beta with the table and the threat order changes how fast, not what is found."""
    rules = Rules(9, 9, 5)
    p = Position.start(rules)
    for _ in range(data.draw(st.integers(3, 9))):
        move = data.draw(st.sampled_from([m for m in p.legal_moves()]))
        if p.play(move).is_over:
            break
        p = p.play(move)
    board = PatternBoard(rules, p.stones, p.to_move - 1)
    search = PatternSearch(board, time.perf_counter() + 3600)
    before = snapshot(board)
    for depth in (1, 2):
        search.forget()  # a deeper entry of an earlier search would answer for a shallower one
        found = search.negamax(depth, -WIN_SCORE - 1, WIN_SCORE + 1, 0)
        assert found == plain(board, search, depth, 0)
    assert snapshot(board) == before


def test_hard_answers_the_centre_next_to_it() -> None:
    """The second player's first stone touches the centre (a stone two away is a lost tempo)."""
    p = Position.start(GOMOKU_15).play(7 * 15 + 7)
    reply = freeboard.hard_move(p, time.perf_counter() + 0.2)
    assert max(abs(reply // 15 - 7), abs(reply % 15 - 7)) == 1


def test_the_pattern_search_takes_a_four_three() -> None:
    # Black to move: (7, 6) makes a four on row 7 and an open three on column 6.
    rules = GOMOKU_15
    geo = geometry(rules)
    moves = []
    black = [(7, 3), (7, 4), (7, 5), (5, 6), (6, 6)]
    white = [(7, 2), (0, 0), (0, 14), (14, 0), (14, 14)]
    for b, w in zip(black, white, strict=True):
        moves += [b[0] * 15 + b[1], w[0] * 15 + w[1]]
    p = Position.from_moves(rules, moves)
    board = PatternBoard(rules, p.stones, 0)
    search = PatternSearch(board, time.perf_counter() + 3600)
    best = search.root()
    assert board.bit_of(best) == geo.bit_of(7, 6)
    assert search.depth == 1  # seen as a win at the first iteration


def test_the_plain_kernel_is_the_compiled_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``CHATBOTS_JIT=0`` the same kernel runs on lists: the same values and wins."""
    rules = Rules(9, 9, 5)
    cells = [40, 41, 31, 49, 32, 50, 23, 30, 22]
    p = Position.from_moves(rules, cells)

    def read() -> tuple[int, ...]:
        board = PatternBoard(rules, p.stones, p.to_move - 1)
        search = PatternSearch(board, time.perf_counter() + 3600)
        search.forget()
        value = search.negamax(2, -WIN_SCORE - 1, WIN_SCORE + 1, 0)
        return value, search.vcf(4), search.vct(2, 300), board.evaluate(), board.hash

    compiled = read()
    monkeypatch.setattr(pattern_board, "functions", lambda: (_solver_jit.plain_functions(), False))
    assert read() == compiled


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_the_evaluation_adds_the_value_of_the_positions_threats(data: st.DataObject) -> None:
    """The mask the kernel reads is the one the board's cell classes give, and the evaluation
    with the threat table is the one without it plus that mask's value (a rule-of-thumb k 4
    table adds nothing)."""
    rules = data.draw(st.sampled_from([GOMOKU_15, Rules(9, 9, 5), Rules(9, 9, 4)]))
    board = PatternBoard(rules, (0, 0), 0)
    free = iter_bits(geometry(rules).board_mask)
    for _ in range(data.draw(st.integers(0, 30))):
        empty = [b for b in free if not board.occupied >> board.index_of(b) & 1]
        board.play(board.index_of(data.draw(st.sampled_from(empty))))
    me = board.to_move
    empty_cells = [board.index_of(b) for b in free if not board.occupied >> board.index_of(b) & 1]
    classes = board.classes
    mask = 0
    for b, cls in enumerate(THREAT_CLASSES):
        for side, shift in ((me, 0), (1 - me, len(THREAT_CLASSES))):
            if any(classes[side][here] == cls for here in empty_cells):
                mask |= 1 << (b + shift)
    assert board.fn["gk_threats"](board.w) == mask
    evaluate = board.fn["gk_evaluate"]
    with_threats = int(evaluate(board.tab, board.w))
    table = board.tab[kernel.T_THREAT]
    saved = board.tab[table + mask]
    board.tab[table + mask] = 0
    try:
        without = int(evaluate(board.tab, board.w))
    finally:
        board.tab[table + mask] = saved
    assert with_threats - without == THREAT_VALUES.get(rules.k, {}).get(mask, 0)

"""How cells and moves are named in text: one coordinate for a cell on any board (a winning
line, a threat), and a move as players type it (a column number under gravity)."""

from __future__ import annotations

from core.commands import MoveText, parse, resolve_move
from core.games import CONNECT_FOUR, TICTACTOE, Rules
from core.render import cell_name, move_label

FREE = Rules(15, 15, 5, gravity=False)


def test_a_cell_is_its_column_letter_and_row_from_the_top_on_every_board() -> None:
    assert [cell_name(TICTACTOE, c) for c in (0, 4, 8)] == ["a1", "b2", "c3"]
    assert cell_name(CONNECT_FOUR, 38) == "d6"  # the bottom row of a gravity board too
    assert cell_name(FREE, 15 * 14 + 14) == "o15"


def test_a_move_is_named_as_players_type_it() -> None:
    assert [move_label(CONNECT_FOUR, m) for m in (0, 3, 6)] == ["1", "4", "7"]
    for rules in (TICTACTOE, FREE):
        for move in range(rules.rows * rules.cols):
            label = move_label(rules, move)
            assert label == cell_name(rules, move)
            typed = parse(label)  # what a player who copies it types
            assert isinstance(typed, MoveText) and resolve_move(typed, rules) == move

"""The plain body lines up in a proportional font: every board row measures the same.

Clients draw emoji from an emoji font, where every emoji has one width, and the rest from the
text font, which is proportional in previews, reply quotes and notifications. The measure does
the same: emoji at one width, every other character at its width in a proportional font
(Pillow's bundled Aileron, so the test needs no font of the system).
"""

from __future__ import annotations

import random
import re
import unicodedata

import pytest
from PIL import ImageFont

from adapters.matrix.render import board_body, board_rows, keycaps_for, move_hint
from core.games import CONNECT_FOUR, TICTACTOE, Position, Rules
from core.render import board_text
from core.replies import BoardView
from core.sessions import board_view
from core.store import Seat, Session, Status

FONT = ImageFont.load_default(size=20)
EMOJI_WIDTH = 24.0
# A keycap, a character with its emoji variation selector, or one character.
_UNITS = re.compile("[0-9#]\ufe0f\u20e3|.\ufe0f?", re.DOTALL)


def width(line: str) -> float:
    total = 0.0
    for unit in _UNITS.findall(line):
        if len(unit) > 1 or unicodedata.category(unit) == "So":
            total += EMOJI_WIDTH
        else:
            total += FONT.getlength(unit)
    return total


def played(rules: Rules, seed: int) -> BoardView:
    """A board of ``rules`` played out at random (to a win where one comes)."""
    rng = random.Random(seed)
    position = Position.start(rules)
    while not position.is_over and len(position.moves) < rules.rows * rules.cols * 2 // 3:
        position = position.play(rng.choice(position.legal_moves()))
    session = Session(
        id="abc123",
        platform="matrix",
        chat_id="!room:example.org",
        seats=(Seat.person("@alice:example.org", "alice"), Seat.person("@bob:example.org", "bob")),
        rules=rules,
        moves=position.moves,
        status=Status.FINISHED if position.is_over else Status.ACTIVE,
        version=len(position.moves) + 1,
        created_at=0.0,
        updated_at=0.0,
        expires_at=1e12,
        outcome=position.outcome,
    )
    return board_view(session)


BOARDS = [
    TICTACTOE,
    CONNECT_FOUR,
    Rules(9, 9, 5, gravity=False),
    Rules(15, 15, 5, gravity=False),
    Rules(10, 12, 4, gravity=True),
    Rules(25, 25, 5, gravity=False),
    Rules(25, 25, 4, gravity=True),
]


@pytest.mark.parametrize(
    "rules", BOARDS, ids=lambda r: f"{r.rows}x{r.cols}{'g' if r.gravity else ''}"
)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_row_of_the_plain_board_has_the_same_width(rules: Rules, seed: int) -> None:
    board = played(rules, seed)
    rows = board_rows(board)
    assert len(rows) == rules.rows + 1
    assert board_body(board, "en").startswith("\n".join(rows))
    widths = {round(width(row), 3) for row in rows}
    assert len(widths) == 1, rows


def test_the_measure_tells_a_text_board_that_drifts() -> None:
    # The layout the body had before: letters and digits in a proportional font drift.
    rows = board_text(played(Rules(15, 15, 5, gravity=False), 1)).split("\n")
    assert len({round(width(row), 3) for row in rows}) > 1


def test_the_hint_names_reactions_only_where_every_move_has_a_key() -> None:
    assert "1\ufe0f\u20e3" in move_hint(TICTACTOE, "en")
    assert "1\ufe0f\u20e3" in move_hint(CONNECT_FOUR, "en")
    for big in (Rules(9, 9, 5, gravity=False), Rules(15, 15, 5, gravity=False)):
        assert keycaps_for(big) == ()
        assert "react" not in move_hint(big, "en")

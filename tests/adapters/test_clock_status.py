"""The clock in the status line: Discord as a relative timestamp it counts down by itself,
Matrix and the console in words as of the time the board is drawn."""

from __future__ import annotations

from dataclasses import replace

from adapters.console.adapter import render_board
from adapters.discord.layout import board_message, status_line
from adapters.matrix.render import board_body, board_html
from core.i18n import LOCALES
from core.render import status_line as words
from core.replies import BoardView
from core.sessions import board_view
from tests.core.store.helpers import NOW, make_session


def timed(deadline: float | None = NOW + 240) -> BoardView:
    session = replace(make_session(), clock=300.0, deadline=deadline)
    return board_view(session)


def test_discord_shows_a_relative_timestamp() -> None:
    board = timed()
    line = status_line(board, "en")
    assert line == f"Alice (X) to move. Time runs out <t:{int(NOW) + 240}:R>."
    assert f"<t:{int(NOW) + 240}:R>" in board_message(board, "en").content
    for locale in LOCALES:
        assert f"<t:{int(NOW) + 240}:R>" in status_line(board, locale)
    assert "<t:" not in status_line(timed(None), "en")


def test_matrix_and_the_console_write_the_time_left_in_words() -> None:
    board = timed()
    assert words(board, "en", now=NOW) == "Alice (X) to move. Time left: 4 minutes."
    assert words(board, "ru", now=NOW + 200) == "Ходит Alice (X). Осталось: 40 секунд."
    assert words(timed(None), "en", now=NOW) == "Alice (X) to move."
    # Drawn now: the real clock is far past NOW, so the least is left.
    assert "Time left: 1 second." in board_body(board, "en")
    assert "Time left: 1 second." in board_html(board, "en")
    assert "Time left: 1 second." in render_board(board, "en")

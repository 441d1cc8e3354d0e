"""Board, edit and notice contents (pure)."""

from __future__ import annotations

from dataclasses import replace

from adapters.matrix.render import (
    KEYCAPS,
    actions_hint,
    board_body,
    board_content,
    board_html,
    edit_content,
    keycaps_for,
    notice_content,
    reaction_move,
    reaction_number,
)
from core.ai import Level
from core.games import CONNECT_FOUR, TICTACTOE, Position, Rules
from core.i18n import LOCALES
from core.replies import ActionKind
from core.sessions import board_view
from core.store import Seat, Session, Status


def _session(moves: tuple[int, ...], rules: Rules = TICTACTOE) -> Session:
    position = Position.from_moves(rules, moves)
    return Session(
        id="abc123",
        platform="matrix",
        chat_id="!room:example.org",
        seats=(Seat.person("@alice:example.org", "alice"), Seat.person("@bob:example.org", "bob")),
        rules=rules,
        moves=position.moves,
        status=Status.FINISHED if position.is_over else Status.ACTIVE,
        version=len(moves) + 1,
        created_at=0.0,
        updated_at=0.0,
        expires_at=1e12,
        outcome=position.outcome,
    )


def test_plain_body_is_emoji_with_coordinates_then_status_and_seats() -> None:
    view = board_view(_session((4, 0)))
    body = board_body(view, "en")
    lines = body.split("\n")
    assert lines[:4] == [
        "#\ufe0f\u20e3 🇦 🇧 🇨",
        "1\ufe0f\u20e3 ⭕ ⬜ ⬜",
        "2\ufe0f\u20e3 ⬜ ❌ ⬜",
        "3\ufe0f\u20e3 ⬜ ⬜ ⬜",
    ]
    assert lines[4] == view.status.render("en")
    assert lines[5] == "X: alice · O: bob"


def test_html_has_coordinates_marks_the_winning_line_and_hints_only_while_playable() -> None:
    running = board_html(board_view(_session((4, 0))), "en")
    assert running.startswith("<pre>  a b c\n1 <u>O</u> · ·\n2 · X ·\n3 · · ·</pre>")
    assert "1\ufe0f\u20e3" in running  # the hint names the keycaps
    won = board_html(board_view(_session((0, 3, 1, 4, 2))), "en")
    # Struck through and bold: not told apart by weight alone.
    assert "1 <del><b>X</b></del> <del><b>X</b></del> <del><b>X</b></del>" in won
    assert "<em>" not in won


def test_the_bot_seat_names_its_level_once() -> None:
    session = _session((4,))
    against_bot = replace(session, seats=(session.seats[0], Seat.bot(Level.EASY)))
    assert board_body(board_view(against_bot), "en").endswith("X: alice · O: Bot (easy)")


def test_html_escapes_names() -> None:
    session = _session((4,))
    evil = replace(session, seats=(Seat.person("@e:example.org", "<i>eve</i>"), session.seats[1]))
    html = board_html(board_view(evil), "en")
    assert "<i>" not in html and "&lt;i&gt;eve&lt;/i&gt;" in html


def test_board_content_is_a_notice_with_html() -> None:
    content = board_content(board_view(_session(())), "en")
    assert content["msgtype"] == "m.notice"
    assert content["format"] == "org.matrix.custom.html"
    assert content["m.mentions"] == {}


def test_edit_points_at_the_original_and_carries_the_new_content() -> None:
    new = board_content(board_view(_session((4,))), "en")
    edit = edit_content("$original", new)
    assert edit["m.relates_to"] == {"rel_type": "m.replace", "event_id": "$original"}
    assert edit["m.new_content"] is new
    assert edit["body"] == "* " + new["body"]
    assert edit["formatted_body"].startswith("* <pre>")


def test_notice_replies_when_asked() -> None:
    assert notice_content("hi") == {"msgtype": "m.notice", "body": "hi"}
    assert notice_content("hi", "$e")["m.relates_to"] == {"m.in_reply_to": {"event_id": "$e"}}


def test_keycaps_with_or_without_the_variation_selector() -> None:
    assert [reaction_number(key) for key in KEYCAPS] == list(range(1, 11))
    assert reaction_number("5\u20e3") == 5
    assert reaction_number("👍") is None
    assert reaction_number("0\ufe0f\u20e3") is None
    assert reaction_move("\U0001f51f") == 9
    assert keycaps_for(CONNECT_FOUR) == KEYCAPS[:7]
    assert keycaps_for(TICTACTOE) == KEYCAPS[:9]


def test_gravity_hint_and_rematch_hint_in_every_locale() -> None:
    for locale in LOCALES:
        html = board_html(board_view(_session((3,), CONNECT_FOUR)), locale)
        assert "1\u20137" in html  # columns 1 to 7
        hint = actions_hint((ActionKind.REMATCH,), locale)
        assert hint is not None and "!rematch" in hint
    assert actions_hint((ActionKind.ACCEPT, ActionKind.DECLINE), "en") is None


def test_an_open_games_finished_board_says_how_to_block_its_opponent() -> None:
    # Matrix has no Block button: the board names the command, which blocks the latest
    # opponent of an open game played here (a Discord player has no Matrix id to mention).
    for locale in LOCALES:
        hint = actions_hint((ActionKind.REMATCH, ActionKind.BLOCK), locale)
        assert hint is not None and "!block" in hint

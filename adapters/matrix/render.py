"""Matrix message contents for boards, edits and notices (pure functions, no I/O).

A board is one ``m.notice``: a monospace plain ``body`` (``core.render.board_text``, then the
status line and the seats) and an HTML ``formatted_body`` (a ``<pre>`` block with coordinates,
the winning line in bold, the last stone underlined). Moves replace it with ``m.replace`` edits
of the original event. Notices are short texts, as replies to the player's message.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

from core.games import Rules
from core.i18n import render
from core.render import COLUMN_LETTERS, MARKS, board_text
from core.replies import ActionKind, BoardView, CellView

Content = dict[str, Any]

HTML_FORMAT = "org.matrix.custom.html"
COMMAND_PREFIX = "!"  # Element keeps "/" for its own commands
# Keycaps 1..9 (digit, VS16, combining enclosing keycap) and the keycap ten.
KEYCAPS: tuple[str, ...] = (*(f"{digit}\ufe0f\u20e3" for digit in "123456789"), "\U0001f51f")
_HTML_MARKS = ("·", "X", "O")
_SEAT_EMOJI = ("❌", "⭕")


def reaction_number(key: str) -> int | None:
    """The number 1..10 a keycap reaction stands for, or None for any other key.

    Accepts the keycaps with or without the emoji variation selector (clients differ).
    """
    plain = key.replace("\ufe0f", "")
    if plain == "\U0001f51f":
        return 10
    if len(plain) == 2 and plain[1] == "\u20e3" and plain[0] in "123456789":
        return int(plain[0])
    return None


def reaction_move(key: str) -> int | None:
    """The 0-based move (cell, or column with gravity) of a keycap reaction, or None."""
    number = reaction_number(key)
    return None if number is None else number - 1


def keycaps_for(rules: Rules) -> tuple[str, ...]:
    """The keycaps that are moves on this board: one per column (gravity), one per cell."""
    count = rules.cols if rules.gravity else rules.rows * rules.cols
    return KEYCAPS[: min(count, len(KEYCAPS))]


def board_body(board: BoardView, locale: str) -> str:
    """The plain body: the board lines of ``core.render``, the status line, the seats."""
    return "\n".join([board_text(board), board.status.render(locale), _seats(board)])


def board_html(board: BoardView, locale: str) -> str:
    """The HTML body: coordinates and marks in a ``<pre>`` block, then status and seats."""
    rules = board.rules
    width = len(str(rules.rows))
    lines = [(" " * width + " " + " ".join(COLUMN_LETTERS[: rules.cols])).rstrip()]
    for number, row in enumerate(board.rows, start=1):
        cells = " ".join(_html_cell(cell) for cell in row)
        lines.append(f"{number:>{width}} {cells}")
    parts = [
        "<pre>" + "\n".join(lines) + "</pre>",
        f"<p>{html.escape(board.status.render(locale))}<br>"
        f"{html.escape(_seats(board, emoji=True))}</p>",
    ]
    if board.playable:
        parts.append(f"<p><em>{html.escape(move_hint(board.rules, locale))}</em></p>")
    return "".join(parts)


def _html_cell(cell: CellView) -> str:
    mark = _HTML_MARKS[cell.mark]
    if cell.winning:
        return f"<b>{mark}</b>"
    if cell.last:
        return f"<u>{mark}</u>"
    return mark


def _seats(board: BoardView, *, emoji: bool = False) -> str:
    seats = []
    for index, player in enumerate(board.players):
        symbol = MARKS[index + 1]
        if emoji:
            symbol = f"{_SEAT_EMOJI[index]} {symbol}"
        # The bot's seat is named with its level already ("Bot (easy)").
        seats.append(f"{symbol}: {player.name}")
    return " · ".join(seats)


def move_hint(rules: Rules, locale: str) -> str:
    """How to move on this board: typed moves, and the keycap reactions where they reach."""
    if rules.gravity:
        return render(
            "matrix.hint.gravity",
            locale,
            cols=rules.cols,
            keycaps=_keycap_range(rules),
        )
    return render(
        "matrix.hint.cells",
        locale,
        cells=rules.rows * rules.cols,
        coord=f"{COLUMN_LETTERS[min(1, rules.cols - 1)]}{min(2, rules.rows)}",
        keycaps=_keycap_range(rules),
    )


def _keycap_range(rules: Rules) -> str:
    keys = keycaps_for(rules)
    return f"{keys[0]}\u2013{keys[-1]}" if len(keys) > 1 else keys[0]


def board_content(board: BoardView, locale: str) -> Content:
    """A new board message."""
    return {
        "msgtype": "m.notice",
        "body": board_body(board, locale),
        "format": HTML_FORMAT,
        "formatted_body": board_html(board, locale),
        "m.mentions": {},
    }


def edit_content(original_event_id: str, new_content: Content) -> Content:
    """An ``m.replace`` edit of ``original_event_id`` (always the original, never an edit).

    The top level carries the ``* `` fallback for clients without edits; ``m.new_content`` is
    what clients that understand edits show.
    """
    content: Content = {
        "msgtype": new_content["msgtype"],
        "body": "* " + new_content["body"],
        "m.new_content": new_content,
        "m.relates_to": {"rel_type": "m.replace", "event_id": original_event_id},
        "m.mentions": {},
    }
    if "formatted_body" in new_content:
        content["format"] = HTML_FORMAT
        content["formatted_body"] = "* " + new_content["formatted_body"]
    return content


def notice_content(text: str, reply_to: str | None = None) -> Content:
    """A short ``m.notice``, as a reply to ``reply_to`` when given."""
    content: Content = {"msgtype": "m.notice", "body": text}
    if reply_to is not None:
        content["m.relates_to"] = {"m.in_reply_to": {"event_id": reply_to}}
    return content


def reaction_content(target_event_id: str, key: str) -> Content:
    """An ``m.reaction`` annotation of ``target_event_id`` with ``key``."""
    return {"m.relates_to": {"rel_type": "m.annotation", "event_id": target_event_id, "key": key}}


def actions_hint(actions: Sequence[ActionKind], locale: str) -> str | None:
    """What to type for the offered actions (Matrix has no buttons), or None.

    Accept and Decline need no hint: the challenge text names both commands already.
    """
    hints = []
    if ActionKind.REMATCH in actions:
        hints.append(render("matrix.actions.rematch", locale, rematch=f"{COMMAND_PREFIX}rematch"))
    if ActionKind.REVIEW in actions:
        hints.append(render("matrix.actions.review", locale, review=f"{COMMAND_PREFIX}review"))
    return " ".join(hints) or None

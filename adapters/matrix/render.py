"""Matrix message contents for boards, edits and notices (pure functions, no I/O).

A board is one ``m.notice``: a plain ``body`` made of emoji (cells, and coordinates as
regional-indicator letters and keycap numbers), which keep one width in every font, so it lines
up in previews, reply quotes and notifications too; then the status line and the seats. The HTML
``formatted_body`` is a ``<pre>`` block with coordinates, the winning line struck through in
bold, the last stone underlined. Moves replace it with ``m.replace`` edits of the original event.
Notices are short texts, as replies to the player's message; a challenge is an ``m.text`` that
mentions the challenged player (:func:`mention_content`).
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

from core.games import Rules
from core.i18n import render
from core.render import COLUMN_LETTERS, MARKS, link_lines, status_line
from core.replies import ActionKind, BoardView, CellView, WebLink

Content = dict[str, Any]

HTML_FORMAT = "org.matrix.custom.html"
COMMAND_PREFIX = "!"  # Element keeps "/" for its own commands
# Keycaps 1..9 (digit, VS16, combining enclosing keycap) and the keycap ten.
KEYCAPS: tuple[str, ...] = (*(f"{digit}\ufe0f\u20e3" for digit in "123456789"), "\U0001f51f")
_HTML_MARKS = ("·", "X", "O")
_SEAT_EMOJI = ("❌", "⭕")
# Plain-body cells: empty, first, second; and the same on the winning line.
_FREE_CELLS = ("⬜", "❌", "⭕")
_FREE_WINNING = ("⬜", "❎", "🅾\ufe0f")
_GRAVITY_CELLS = ("⚪", "🔴", "🟡")
_GRAVITY_WINNING = ("⚪", "🟥", "🟨")
_DIGIT_KEYCAPS = tuple(f"{digit}\ufe0f\u20e3" for digit in "0123456789")
_CORNER = "#\ufe0f\u20e3"
# Regional indicator letters: one emoji width each; spaces keep two of them from making a flag.
_COLUMN_EMOJI = tuple(chr(0x1F1E6 + ord(letter) - ord("a")) for letter in COLUMN_LETTERS)


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
    """The keycaps under a board: one per move, where every move has one (tic-tac-toe's
    cells, Connect Four's columns); none on bigger boards, where typing is the way."""
    count = rules.cols if rules.gravity else rules.rows * rules.cols
    return KEYCAPS[:count] if count <= len(KEYCAPS) else ()


def board_rows(board: BoardView) -> list[str]:
    """The board as emoji rows, column letters on top and row numbers on the left.

    Every row is the same number of emoji and spaces, and emoji have one width in any font, so
    the rows line up in proportional fonts too (up to 25x25).
    """
    rules = board.rules
    digits = len(str(rules.rows))
    plain, winning = (
        (_GRAVITY_CELLS, _GRAVITY_WINNING) if rules.gravity else (_FREE_CELLS, _FREE_WINNING)
    )
    lines = [" ".join([_CORNER * digits, *_COLUMN_EMOJI[: rules.cols]])]
    for number, row in enumerate(board.rows, start=1):
        label = "".join(_DIGIT_KEYCAPS[int(d)] for d in f"{number:0{digits}d}")
        cells = [(winning if cell.winning else plain)[cell.mark] for cell in row]
        lines.append(" ".join([label, *cells]))
    return lines


def board_body(
    board: BoardView,
    locale: str,
    note: str | None = None,
    intro: str | None = None,
    links: Sequence[WebLink] = (),
) -> str:
    """The plain body: the emoji board, ``intro`` (how the game began), the status line, the
    seats (and ``note``), then ``links`` to the web pages."""
    lines = [*board_rows(board), *([intro] if intro else []), status_line(board, locale)]
    lines.append(_seats(board))
    if note:
        lines.append(note)
    lines.extend(link_lines(links, locale))
    return "\n".join(lines)


def board_html(
    board: BoardView,
    locale: str,
    note: str | None = None,
    intro: str | None = None,
    links: Sequence[WebLink] = (),
) -> str:
    """The HTML body: coordinates and marks in a ``<pre>`` block, then ``intro``, status and
    seats, then how to move (or ``note``: what to type next), then ``links``."""
    rules = board.rules
    width = len(str(rules.rows))
    lines = [(" " * width + " " + " ".join(COLUMN_LETTERS[: rules.cols])).rstrip()]
    for number, row in enumerate(board.rows, start=1):
        cells = " ".join(_html_cell(cell) for cell in row)
        lines.append(f"{number:>{width}} {cells}")
    intro_html = f"{html.escape(intro)}<br>".replace("\n", "<br>") if intro else ""
    parts = [
        "<pre>" + "\n".join(lines) + "</pre>",
        f"<p>{intro_html}{html.escape(status_line(board, locale))}<br>"
        f"{html.escape(_seats(board, emoji=True))}</p>",
    ]
    if note:
        parts.append(f"<p><em>{html.escape(note)}</em></p>")
    elif board.playable:
        parts.append(f"<p><em>{html.escape(move_hint(board.rules, locale))}</em></p>")
    if links:
        shown = (
            f'{html.escape(link.label.render(locale))}: <a href="{html.escape(link.url)}">'
            f"{html.escape(link.url)}</a>"
            for link in links
        )
        parts.append(f"<p>{'<br>'.join(shown)}</p>")
    return "".join(parts)


def _html_cell(cell: CellView) -> str:
    mark = _HTML_MARKS[cell.mark]
    if cell.winning:
        # Struck through, as on paper: told apart without telling bold from regular.
        return f"<del><b>{mark}</b></del>"
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
    """How to move on this board: typed moves, and the keycap reactions only where every move
    has one (on a 9x9 board they would reach a1 to a2 only)."""
    keys = keycaps_for(rules)
    reactions = ".reactions" if keys else ""
    keycaps = f"{keys[0]}\u2013{keys[-1]}" if len(keys) > 1 else "".join(keys)
    if rules.gravity:
        return render(f"matrix.hint.gravity{reactions}", locale, cols=rules.cols, keycaps=keycaps)
    return render(
        f"matrix.hint.cells{reactions}",
        locale,
        cells=rules.rows * rules.cols,
        coord=f"{COLUMN_LETTERS[min(1, rules.cols - 1)]}{min(2, rules.rows)}",
        keycaps=keycaps,
    )


def board_content(
    board: BoardView,
    locale: str,
    note: str | None = None,
    intro: str | None = None,
    links: Sequence[WebLink] = (),
) -> Content:
    """A board message; ``note`` (what to type next) replaces the move hint; ``intro`` (how
    the game began: started, accepted, a rematch) goes above the status line; ``links`` to
    the web pages (:attr:`core.replies.Reply.links`) close it."""
    return {
        "msgtype": "m.notice",
        "body": board_body(board, locale, note, intro, links),
        "format": HTML_FORMAT,
        "formatted_body": board_html(board, locale, note, intro, links),
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
    # A picture's fallback is the new picture itself (adapters/matrix/pictures.py).
    content.update(
        {k: new_content[k] for k in ("url", "file", "info", "filename") if k in new_content}
    )
    return content


def notice_content(text: str, reply_to: str | None = None) -> Content:
    """A short ``m.notice``, as a reply to ``reply_to`` when given."""
    content: Content = {"msgtype": "m.notice", "body": text}
    if reply_to is not None:
        content["m.relates_to"] = {"m.in_reply_to": {"event_id": reply_to}}
    return content


def mention_content(text: str, user_id: str, reply_to: str | None = None) -> Content:
    """An ``m.text`` that notifies ``user_id``: ``m.mentions`` names them and the HTML carries a
    pill. Default push rules silence every ``m.notice``, mentions included, so a message that
    must reach a person (a challenge) cannot be a notice."""
    link = f'<a href="https://matrix.to/#/{html.escape(user_id)}">{html.escape(user_id)}</a>'
    escaped = html.escape(text)
    if html.escape(user_id) in escaped:
        formatted = escaped.replace(html.escape(user_id), link, 1)  # the id written as a pill
    else:
        text, formatted = f"{user_id}: {text}", f"{link}: {escaped}"
    content: Content = {
        "msgtype": "m.text",
        "body": text,
        "format": HTML_FORMAT,
        "formatted_body": formatted.replace("\n", "<br>"),
        "m.mentions": {"user_ids": [user_id]},
    }
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
    if ActionKind.BLOCK in actions:
        hints.append(render("matrix.actions.block", locale, block=f"{COMMAND_PREFIX}block"))
    return " ".join(hints) or None

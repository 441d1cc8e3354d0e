"""A neutral reply drawn as a Discord message: content text and rows of buttons.

Pure functions from :class:`~core.replies.BoardView` (and a reply's actions) to a
:class:`MessageSpec`; :mod:`adapters.discord.views` turns a spec into discord.py components.
Nothing here decides game logic: which cells can be played comes from the board view.

Discord allows 5 action rows of 5 buttons. The layout (docs/design.md, "Discord"):

- free boards up to 5x5: one button per cell, in rows of the board's width;
- gravity boards up to 25 columns: the board drawn as emoji in the text, one button per column
  (5 to a row: Connect Four's 7 columns take two rows);
- larger free boards: the board as monospace text, played with ``/move``;
- Actions (Accept, Decline, Rematch, any :class:`~core.replies.ActionKind`: each is a button
  labelled ``discord.button.<kind>``) sit in a row of their own under the board. When that row
  does not fit (a 5x5 board, or more than 20 columns), a pending challenge keeps its
  Accept/Decline buttons and shows the board only as text, and a finished game names the
  commands (``/rematch``) instead of buttons.

Marks are emoji (❌ ⭕), never colour alone; the winning line is green and keeps its marks, the
last move is blue, and every button is disabled once the game is over.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass

import discord

from adapters.discord.ids import ActionId, MoveId
from core.i18n import catalogue, render
from core.render import COLUMN_LETTERS, board_text
from core.replies import ActionKind, BoardView, CellView, PlayerView

MAX_ROWS = 5  # action rows in one message
MAX_PER_ROW = 5  # buttons in one action row
MAX_CONTENT = 2000  # characters of message content

MARK_EMOJI = ("", "❌", "⭕")
WINNING_EMOJI = ("", "❎", "🅾️")  # marks on the winning line, drawn as text (gravity boards)
EMPTY_EMOJI = "⚫"
KEYCAPS = ("1️⃣", "2️⃣", "3️⃣", "4️⃣", "5️⃣", "6️⃣", "7️⃣", "8️⃣", "9️⃣", "🔟")
BLANK_LABEL = "\u200b"  # a button needs a label or an emoji; an empty cell shows neither

# Actions not named here (a new ActionKind) get a plain grey button.
_ACTION_STYLES = {
    ActionKind.ACCEPT: discord.ButtonStyle.success,
    ActionKind.DECLINE: discord.ButtonStyle.danger,
    ActionKind.REMATCH: discord.ButtonStyle.primary,
}


class BoardMode(enum.Enum):
    """How a board is played on Discord."""

    CELLS = "cells"  # a button per cell
    COLUMNS = "columns"  # a button per column, the board drawn as emoji
    TEXT = "text"  # the board as text, moves with /move


@dataclass(frozen=True, slots=True)
class ButtonSpec:
    """One button: where it goes and what it shows."""

    custom_id: str
    row: int
    style: discord.ButtonStyle = discord.ButtonStyle.secondary
    label: str | None = None
    emoji: str | None = None
    disabled: bool = False


@dataclass(frozen=True, slots=True)
class MessageSpec:
    """A whole message: its text and its buttons (in row order)."""

    content: str
    buttons: tuple[ButtonSpec, ...] = ()

    @property
    def rows(self) -> int:
        return 1 + max((b.row for b in self.buttons), default=-1)


def board_mode(board: BoardView) -> BoardMode:
    """How ``board`` is played: by cell buttons, column buttons, or ``/move``."""
    rules = board.rules
    if rules.gravity:
        return BoardMode.COLUMNS if rules.cols <= MAX_ROWS * MAX_PER_ROW else BoardMode.TEXT
    if rules.rows <= MAX_ROWS and rules.cols <= MAX_PER_ROW:
        return BoardMode.CELLS
    return BoardMode.TEXT


def board_message(
    board: BoardView,
    locale: str,
    *,
    actions: Sequence[ActionKind] = (),
    text: str | None = None,
) -> MessageSpec:
    """The message that shows ``board``, with ``actions`` as buttons under it.

    Args:
        board: the board to draw.
        locale: our locale for the texts (the reader who caused the message).
        actions: buttons to offer for this session at this version.
        text: a message to put above the board (a result or a challenge), if any.
    """
    mode = board_mode(board)
    board_rows = _button_rows(board, mode)
    action_buttons = list(actions)
    hints: list[str] = []
    show_board_as_text = mode is BoardMode.TEXT
    if action_buttons and board_rows + 1 > MAX_ROWS:
        if not board.finished:
            # A pending challenge: nothing can be played yet, so Accept/Decline win the space.
            board_rows = 0
            show_board_as_text = mode is not BoardMode.COLUMNS
        else:
            # A finished game keeps its cells; its actions are named as commands instead.
            hints.extend(_action_hint(action, locale) for action in action_buttons)
            action_buttons = []

    lines: list[str] = []
    if text:
        lines.append(text)
    lines.append(_players_line(board.players, locale))
    if mode is BoardMode.COLUMNS:
        lines.extend(emoji_board(board))
    elif show_board_as_text:
        lines.append(f"```\n{board_text(board)}\n```")
    lines.append(board.status.render(locale))
    if mode is BoardMode.TEXT and not board.finished and board.playable:
        example = _example_move(board)
        lines.append(render("discord.hint.move", locale, command="/move", example=example))
    lines.extend(hints)

    buttons: list[ButtonSpec] = []
    if board_rows:
        buttons.extend(_cell_buttons(board) if mode is BoardMode.CELLS else _column_buttons(board))
    if action_buttons:
        row = board_rows
        buttons.extend(
            _action_button(board.session_id, board.version, action, row, locale)
            for action in action_buttons
        )
    return MessageSpec(_clip("\n".join(lines)), tuple(buttons))


def text_message(
    text: str,
    locale: str,
    *,
    session_id: str | None = None,
    version: int | None = None,
    actions: Sequence[ActionKind] = (),
) -> MessageSpec:
    """A message without a board: ``text``, and ``actions`` as buttons if a session is named."""
    if not actions or session_id is None or version is None:
        return MessageSpec(_clip(text))
    buttons = tuple(_action_button(session_id, version, a, 0, locale) for a in actions)
    return MessageSpec(_clip(text), buttons)


def emoji_board(board: BoardView) -> list[str]:
    """The board as lines of emoji, with keycap column numbers above when there are ten or
    fewer columns (the column buttons are numbered the same way)."""
    lines: list[str] = []
    if board.rules.cols <= len(KEYCAPS):
        lines.append("".join(KEYCAPS[: board.rules.cols]))
    for row in board.rows:
        lines.append("".join(_cell_emoji(cell) for cell in row))
    return lines


def _cell_emoji(cell: CellView) -> str:
    if cell.mark == 0:
        return EMPTY_EMOJI
    return (WINNING_EMOJI if cell.winning else MARK_EMOJI)[cell.mark]


def _button_rows(board: BoardView, mode: BoardMode) -> int:
    if mode is BoardMode.CELLS:
        return board.rules.rows
    if mode is BoardMode.COLUMNS:
        return -(-board.rules.cols // MAX_PER_ROW)
    return 0


def _cell_buttons(board: BoardView) -> list[ButtonSpec]:
    playable = set(board.playable)
    buttons = []
    for cell in board.cells:
        if cell.winning:
            style = discord.ButtonStyle.success
        elif cell.last:
            style = discord.ButtonStyle.primary
        else:
            style = discord.ButtonStyle.secondary
        can_play = not board.finished and cell.clickable and cell.index in playable
        buttons.append(
            ButtonSpec(
                custom_id=MoveId(board.session_id, board.version, cell.index).encode(),
                row=cell.row,
                style=style,
                label=None if cell.mark else BLANK_LABEL,
                emoji=MARK_EMOJI[cell.mark] or None,
                disabled=not can_play,
            )
        )
    return buttons


def _column_buttons(board: BoardView) -> list[ButtonSpec]:
    playable = set(board.playable)
    return [
        ButtonSpec(
            custom_id=MoveId(board.session_id, board.version, col).encode(),
            row=col // MAX_PER_ROW,
            label=str(col + 1),
            disabled=board.finished or col not in playable,
        )
        for col in range(board.rules.cols)
    ]


def _action_button(
    session_id: str, version: int, action: ActionKind, row: int, locale: str
) -> ButtonSpec:
    """The button of any :class:`ActionKind`: labelled ``discord.button.<kind>``."""
    return ButtonSpec(
        custom_id=ActionId(session_id, version, action).encode(),
        row=row,
        style=_ACTION_STYLES.get(action, discord.ButtonStyle.secondary),
        label=render(f"discord.button.{action.value}", locale),
    )


def _action_hint(action: ActionKind, locale: str) -> str:
    """An action named as the command that does the same (``/rematch``, ``/review``): the
    text ``discord.hint.<kind>``, or the bare command where there is none."""
    command = f"/{action.value}"
    key = f"discord.hint.{action.value}"
    return render(key, locale, command=command) if key in catalogue() else command


def _players_line(players: tuple[PlayerView, PlayerView], locale: str) -> str:
    x, o = (f"{MARK_EMOJI[i + 1]} {_player_name(p)}" for i, p in enumerate(players))
    return render("discord.players", locale, x=x, o=o)


def _player_name(player: PlayerView) -> str:
    name = player.name
    if player.user_id is None:
        return f"🤖 {name}"
    return name


def _example_move(board: BoardView) -> str:
    move = board.playable[len(board.playable) // 2]
    if board.rules.gravity:
        return f"/move cell:{move + 1}"
    row, col = divmod(move, board.rules.cols)
    return f"/move cell:{COLUMN_LETTERS[col]}{row + 1}"


def _clip(content: str) -> str:
    if len(content) <= MAX_CONTENT:
        return content
    return content[: MAX_CONTENT - 1] + "…"

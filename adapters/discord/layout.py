"""A neutral reply drawn as a Discord message: content text and rows of buttons.

Pure functions from :class:`~core.replies.BoardView` (and a reply's actions) to a
:class:`MessageSpec`; :mod:`adapters.discord.views` turns a spec into discord.py components.
Nothing here decides game logic: which cells can be played comes from the board view.

Discord allows 5 action rows of 5 buttons. The layout (docs/design.md, "Discord"):

- free boards up to 5x5: one button per cell, in rows of the board's width;
- gravity boards up to 25 columns: the board drawn as emoji in the text, one button per column
  (5 to a row: Connect Four's 7 columns take two rows);
- larger free boards: the board as a picture (``core.pictures``) in a Components V2 layout,
  played with two select menus, a column then a cell of it (:mod:`adapters.discord.selects`),
  or with ``/move``;
- gravity boards whose game has a theme (the starter's own, or the chat's ``theme`` setting):
  the picture in a Components V2 layout with the column buttons under it. Discord lets a
  message gain the V2 flag but never lose it: a plain board becomes a picture once its game
  gets a theme, and a board shown as a picture stays one (``keep_picture``) even when the
  theme goes back to ``auto``;
- Actions (Accept, Decline, Rematch, any :class:`~core.replies.ActionKind`: each is a button
  labelled ``discord.button.<kind>``) sit in a row of their own under the board. When that row
  does not fit (a 5x5 board, or more than 20 columns), a pending challenge keeps its
  Accept/Decline buttons and shows the board only as text, and a finished game names the
  commands (``/rematch``) instead of buttons.

Marks are emoji (❌ ⭕, or the game's theme's), never colour alone; the winning line is green
and keeps its marks, the last move is blue, and every button is disabled once the game is over.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass

import discord

from adapters.discord.ids import ActionId, CellPick, Column, ColumnPick, MoveId
from core.i18n import catalogue, render
from core.pictures import CLASSIC, THEMES, Theme, board_png, default_theme
from core.render import COLUMN_LETTERS, board_text
from core.replies import ActionKind, BoardView, PlayerView

MAX_ROWS = 5  # action rows in one message
MAX_PER_ROW = 5  # buttons in one action row
MAX_CONTENT = 2000  # characters of message content
MAX_TEXT_DISPLAY = 4000  # characters of a Components V2 message's text displays

# The classic theme's emoji: a board drawn without a theme (tests read a board by them).
MARK_EMOJI = ("", *CLASSIC.mark_emoji)
WINNING_EMOJI = ("", *CLASSIC.winning_emoji)
EMPTY_EMOJI = CLASSIC.empty_emoji
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
    PICTURE = "picture"  # the board as a picture with select menus (Components V2)


@dataclass(frozen=True, slots=True)
class ButtonSpec:
    """One button: where it goes and what it shows; a link button (``url``, the link style)
    has no ``custom_id`` (empty here)."""

    custom_id: str
    row: int
    style: discord.ButtonStyle = discord.ButtonStyle.secondary
    label: str | None = None
    emoji: str | None = None
    disabled: bool = False
    url: str | None = None


@dataclass(frozen=True, slots=True)
class SelectSpec:
    """A select menu: its id, its hint, and its options as (label, value)."""

    custom_id: str
    placeholder: str
    options: tuple[tuple[str, str], ...]
    disabled: bool = False


@dataclass(frozen=True, slots=True)
class PictureSpec:
    """The picture part of a Components V2 board: the PNG and the menus under it."""

    png: bytes
    filename: str
    selects: tuple[SelectSpec, ...] = ()


@dataclass(frozen=True, slots=True)
class MessageSpec:
    """A whole message: its text and its buttons (in row order).

    With a ``picture`` it is a Components V2 message: ``content`` is its text display, and the
    picture, the menus and the buttons (in one row) follow it.
    """

    content: str
    buttons: tuple[ButtonSpec, ...] = ()
    picture: PictureSpec | None = None

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
    return BoardMode.PICTURE


def board_message(
    board: BoardView,
    locale: str,
    *,
    actions: Sequence[ActionKind] = (),
    text: str | None = None,
    theme: str | None = None,
    keep_picture: bool = False,
) -> MessageSpec:
    """The message that shows ``board``, with ``actions`` as buttons under it.

    Args:
        board: the board to draw.
        locale: our locale for the texts (the reader who caused the message).
        actions: buttons to offer for this session at this version.
        text: a message to put above the board (a result or a challenge), if any.
        theme: the game's theme (a name of ``core.pictures.THEMES``); None for the game's own.
        keep_picture: the message to edit is a Components V2 picture board already.
    """
    mode = board_mode(board)
    if mode is BoardMode.PICTURE:
        return picture_message(board, locale, actions=actions, text=text, theme=theme)
    if mode is BoardMode.COLUMNS and (theme is not None or keep_picture):
        return columns_picture_message(board, locale, actions=actions, text=text, theme=theme)
    look = _emoji_theme(theme)
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
    lines.append(_players_line(board.players, locale, look))
    if mode is BoardMode.COLUMNS:
        lines.extend(emoji_board(board, look))
    elif show_board_as_text:
        lines.append(f"```\n{board_text(board)}\n```")
    lines.append(status_line(board, locale))
    if mode is BoardMode.TEXT and not board.finished and board.playable:
        example = _example_move(board)
        lines.append(render("discord.hint.move", locale, command="/move", example=example))
    lines.extend(hints)

    buttons: list[ButtonSpec] = []
    if board_rows:
        buttons.extend(
            _cell_buttons(board, look) if mode is BoardMode.CELLS else _column_buttons(board)
        )
    if action_buttons:
        row = board_rows
        buttons.extend(
            _action_button(board.session_id, board.version, action, row, locale)
            for action in action_buttons
        )
    return MessageSpec(_clip("\n".join(lines)), tuple(buttons))


def picture_message(
    board: BoardView,
    locale: str,
    *,
    actions: Sequence[ActionKind] = (),
    text: str | None = None,
    theme: str | None = None,
) -> MessageSpec:
    """A board too big for a button per cell: its picture, then a menu of the columns that
    have a free cell and a menu of that column's cells (filled once a column is picked, see
    :func:`cell_menu`), then ``actions`` as buttons in one row."""
    lines = [text] if text else []
    lines.append(_players_line(board.players, locale, _emoji_theme(theme)))
    lines.append(status_line(board, locale))
    selects: tuple[SelectSpec, ...] = ()
    if not board.finished and board.playable:
        lines.append(render("discord.hint.pick", locale, example=_example_move(board)))
        selects = (column_menu(board, locale), cell_menu(board, locale, None))
    buttons = tuple(
        _action_button(board.session_id, board.version, action, 0, locale) for action in actions
    )
    return MessageSpec(
        _clip("\n".join(lines), MAX_TEXT_DISPLAY), buttons, _picture(board, theme, selects)
    )


def columns_picture_message(
    board: BoardView,
    locale: str,
    *,
    actions: Sequence[ActionKind] = (),
    text: str | None = None,
    theme: str | None = None,
) -> MessageSpec:
    """A gravity board as a picture in its theme, with a button per column under it (rows of
    five), then ``actions`` in a row of their own (Components V2 holds 40 components: 25
    columns in 5 rows and the actions' row fit)."""
    lines = [text] if text else []
    lines.append(_players_line(board.players, locale, _emoji_theme(theme, board)))
    lines.append(status_line(board, locale))
    buttons = _column_buttons(board)
    row = _button_rows(board, BoardMode.COLUMNS)
    buttons.extend(
        _action_button(board.session_id, board.version, action, row, locale) for action in actions
    )
    return MessageSpec(
        _clip("\n".join(lines), MAX_TEXT_DISPLAY), tuple(buttons), _picture(board, theme)
    )


def _picture(
    board: BoardView, theme: str | None, selects: tuple[SelectSpec, ...] = ()
) -> PictureSpec:
    look = THEMES.get(theme) if theme else None
    png = board_png(board, look)
    return PictureSpec(png, f"board-{board.session_id}-{board.version}.png", selects)


def _emoji_theme(theme: str | None, board: BoardView | None = None) -> Theme:
    """Whose emoji text boards and the players' line show: the game's theme where it has one
    (a picture's own theme where it is drawn in the game's: ``board``), else the classic."""
    if theme is not None and theme in THEMES:
        return THEMES[theme]
    return default_theme(board.rules) if board is not None else CLASSIC


def column_menu(board: BoardView, locale: str) -> SelectSpec:
    """The menu of the columns with a free cell; each value names the column's free rows."""
    rules = board.rules
    playable = set(board.playable)
    options = []
    for col in range(rules.cols):
        free = tuple(row for row in range(rules.rows) if row * rules.cols + col in playable)
        if free:
            value = Column(col, rules.cols, free).encode()
            options.append((COLUMN_LETTERS[col], value))
    return SelectSpec(
        ColumnPick(board.session_id, board.version).encode(),
        render("discord.pick.column", locale),
        tuple(options),
    )


def cell_menu(board_or_id: BoardView | CellPick, locale: str, column: Column | None) -> SelectSpec:
    """The menu of the free cells of ``column`` (disabled until a column is picked)."""
    pick = (
        CellPick(board_or_id.session_id, board_or_id.version)
        if isinstance(board_or_id, BoardView)
        else board_or_id
    )
    if column is None or not column.free_rows:
        # A menu needs an option even while disabled.
        hint = render("discord.pick.cell", locale)
        return SelectSpec(pick.encode(), hint, (("-", "-"),), disabled=True)
    letter = COLUMN_LETTERS[column.col]
    options = tuple(
        (f"{letter}{row + 1}", str(cell))
        for row, cell in zip(column.free_rows, column.cells(), strict=True)
    )
    hint = render("discord.pick.cell_in", locale, column=letter)
    return SelectSpec(pick.encode(), hint, options)


def status_line(board: BoardView, locale: str) -> str:
    """The line under the board; in a game on a clock it ends with the deadline as a relative
    timestamp, which Discord counts down in every reader's client without an edit."""
    line = board.status.render(locale)
    if board.deadline is None:
        return line
    when = f"<t:{int(board.deadline)}:R>"
    return f"{line} {render('game.clock_until', locale, when=when)}"


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


def emoji_board(board: BoardView, theme: Theme = CLASSIC) -> list[str]:
    """The board as lines of ``theme``'s emoji, with keycap column numbers above when there
    are ten or fewer columns (the column buttons are numbered the same way)."""
    lines: list[str] = []
    if board.rules.cols <= len(KEYCAPS):
        lines.append("".join(KEYCAPS[: board.rules.cols]))
    for row in board.rows:
        lines.append("".join(theme.emoji(cell.mark, winning=cell.winning) for cell in row))
    return lines


def _button_rows(board: BoardView, mode: BoardMode) -> int:
    if mode is BoardMode.CELLS:
        return board.rules.rows
    if mode is BoardMode.COLUMNS:
        return -(-board.rules.cols // MAX_PER_ROW)
    return 0


def _cell_buttons(board: BoardView, theme: Theme) -> list[ButtonSpec]:
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
                emoji=theme.emoji(cell.mark) if cell.mark else None,
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


def _players_line(
    players: tuple[PlayerView, PlayerView], locale: str, theme: Theme = CLASSIC
) -> str:
    x, o = (f"{theme.emoji(i + 1)} {_player_name(p)}" for i, p in enumerate(players))
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


def _clip(content: str, limit: int = MAX_CONTENT) -> str:
    if len(content) <= limit:
        return content
    return content[: limit - 1] + "…"

"""A finished game's picture for link previews (``og:image``): its final board drawn by
:mod:`core.pictures`, with both names as the page shows them and the result under it. A
puzzle's page draws its position the same way (:func:`position_png`)."""

from __future__ import annotations

from core.games import Position
from core.i18n import Text
from core.pages.game import ENGLISH, GamePage
from core.pictures import board_png
from core.replies import BoardView, CellView, PlayerView
from core.store.models.archive import ArchivedGame


def game_png(game: ArchivedGame, page: GamePage) -> bytes:
    """The PNG of ``game``'s final board, captioned with ``page``'s names and result (a
    hidden player is "anonymous" there too). CPU only: tens of ms on the biggest boards."""
    position = Position.from_moves(game.rules, game.moves)
    x, o = page.seats
    caption = page.result.render(ENGLISH)
    return position_png(position, (x.name, o.name), caption, game.public_id)


def position_png(position: Position, names: tuple[str, str], caption: str, key: str) -> bytes:
    """The PNG of ``position`` (its last move and any winning line marked), the two sides
    named under it, then ``caption``; ``key`` names the board (it is not drawn)."""
    rules = position.rules
    winning = frozenset(position.winning_line)
    last = position.last_cell
    cells = tuple(
        CellView(
            index=index,
            row=index // rules.cols,
            col=index % rules.cols,
            mark=position.cell(index // rules.cols, index % rules.cols),
            clickable=False,
            winning=index in winning,
            last=index == last,
        )
        for index in range(rules.cells)
    )
    board = BoardView(
        session_id=key,
        version=0,
        rules=rules,
        cells=cells,
        playable=(),
        players=(PlayerView(names[0], None, None), PlayerView(names[1], None, None)),
        to_move=None,
        finished=True,
        status=Text("game.name.tictactoe"),  # not drawn: the caption is
    )
    return board_png(board, caption=caption)

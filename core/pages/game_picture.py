"""A finished game's picture for link previews (``og:image``): its final board drawn by
:mod:`core.pictures`, with both names as the page shows them and the result under it."""

from __future__ import annotations

from core.games import Position
from core.i18n import Text
from core.pages.game import GamePage
from core.pictures import board_png
from core.replies import BoardView, CellView, PlayerView
from core.store.models.archive import ArchivedGame


def game_png(game: ArchivedGame, page: GamePage) -> bytes:
    """The PNG of ``game``'s final board, captioned with ``page``'s names and result (a
    hidden player is "anonymous" there too). CPU only: tens of ms on the biggest boards."""
    position = Position.from_moves(game.rules, game.moves)
    rules = game.rules
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
    x, o = page.seats
    board = BoardView(
        session_id=game.public_id,
        version=0,
        rules=rules,
        cells=cells,
        playable=(),
        players=(PlayerView(x.name, None, None), PlayerView(o.name, None, None)),
        to_move=None,
        finished=True,
        status=Text("game.name.tictactoe"),  # not drawn: the caption is
    )
    return board_png(board, caption=page.result)

"""Which rating a game counts for: a pool per game that plays differently.

Pool names are stored with every rating: never change one, add new ones.
"""

from __future__ import annotations

TICTACTOE = "tictactoe"
CONNECT4 = "connect4"
GRAVITY = "gravity"
BIG_FREE_CELLS = 100
"""Free boards of at least this many cells (10x10 and up) share a pool per line length."""


def pool_of(rows: int, cols: int, k: int, gravity: bool) -> str:
    """The rating pool of a game played on these rules (``core.games.Rules``' fields).

    - ``tictactoe``: 3x3, three in a row.
    - ``connect4``: 6x7 Connect Four, four in a row, stones fall.
    - ``gravity``: every other board where stones fall. One pool: each other size is a game few
      people play, and a ladder per size would hold a player or two; kept apart from 6x7 so a
      tiny board cannot be farmed for a Connect Four rating.
    - ``free-RxC-kK`` for a smaller free board (fewer than ``BIG_FREE_CELLS`` cells), such as
      ``free-4x4-k3``: on a small board the size changes the game (some are forced wins for the
      first player, some draws). A board and its rotation are one pool (``free-4x5-k4`` for
      both 4x5 and 5x4).
    - ``free-big-kK`` for bigger free boards: away from the edges a 15x15 and a 19x19 board
      play alike, so they share one rating per line length (five in a row is gomoku; three in
      a row is another game entirely).
    """
    if gravity:
        return CONNECT4 if (rows, cols, k) == (6, 7, 4) else GRAVITY
    if (rows, cols, k) == (3, 3, 3):
        return TICTACTOE
    if rows * cols >= BIG_FREE_CELLS:
        return f"free-big-k{k}"
    short, long = sorted((rows, cols))
    return f"free-{short}x{long}-k{k}"

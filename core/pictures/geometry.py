"""Where everything sits in a board picture: cells, coordinates, the caption.

Sizes are chosen so that a whole board is about 650 pixels wide whatever its side (a 3x3 board
is smaller: its cells stop growing at :data:`MAX_PITCH`), which a phone shows at a readable
scale and which stays well under Discord's size limits.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

BOARD_PIXELS = 650  # the board's side for the largest boards
MIN_PITCH = 26  # a 25x25 board's cells
MAX_PITCH = 100  # small boards stop growing here
# Coordinates on the far edges too, from this side on: the near edge is far away by then.
BOTH_EDGES_FROM = 10

Box = tuple[int, int, int, int]  # left, top, right, bottom (right and bottom excluded)


@dataclass(frozen=True, slots=True)
class Geometry:
    """The layout of one board's picture.

    Attributes:
        rows, cols, gravity: the board.
        pitch: the distance from one cell to the next, grid line included.
        gap: the width of a grid line.
        left, top: the board's top-left corner (its outer grid line).
        margin: the space for coordinates on each edge that has them.
        label_size: the coordinates' font size.
        labels_far: coordinates on the bottom (and, for free boards, the right) edge too.
        width, height: the picture without a caption.
    """

    rows: int
    cols: int
    gravity: bool
    pitch: int
    gap: int
    left: int
    top: int
    margin: int
    label_size: int
    labels_far: bool
    width: int
    height: int

    @property
    def tile(self) -> int:
        """The side of a cell's inside (the cell without its grid line)."""
        return self.pitch - self.gap

    @property
    def board_box(self) -> Box:
        """The board, outer grid lines included."""
        return (
            self.left,
            self.top,
            self.left + self.cols * self.pitch + self.gap,
            self.top + self.rows * self.pitch + self.gap,
        )

    def cell_box(self, row: int, col: int) -> Box:
        """The inside of the cell at ``row`` (0 is the top) and ``col``."""
        x = self.left + col * self.pitch + self.gap
        y = self.top + row * self.pitch + self.gap
        return (x, y, x + self.tile, y + self.tile)

    def centre(self, row: int, col: int) -> tuple[int, int]:
        """The pixel at the middle of a cell."""
        x0, y0, _, _ = self.cell_box(row, col)
        half = self.tile // 2
        return (x0 + half, y0 + half)


@lru_cache(maxsize=64)
def geometry(rows: int, cols: int, gravity: bool) -> Geometry:
    """The layout of a ``rows`` x ``cols`` board's picture."""
    side = max(rows, cols)
    pitch = max(MIN_PITCH, min(MAX_PITCH, BOARD_PIXELS // side))
    gap = max(1, pitch // 24)
    label_size = max(12, min(22, round(pitch * 0.42)))
    margin = label_size + label_size // 2 + 4
    labels_far = side >= BOTH_EDGES_FROM
    # Gravity boards are played by column: their edges carry column numbers, above (and below)
    # the board, and nothing at the sides but a little air.
    side_margin = margin if not gravity else label_size // 2 + 4
    left = side_margin
    top = margin
    board_width = cols * pitch + gap
    board_height = rows * pitch + gap
    right = side_margin if (labels_far or gravity) else label_size // 2 + 4
    bottom = margin if labels_far else label_size // 2 + 4
    return Geometry(
        rows=rows,
        cols=cols,
        gravity=gravity,
        pitch=pitch,
        gap=gap,
        left=left,
        top=top,
        margin=margin,
        label_size=label_size,
        labels_far=labels_far,
        width=left + board_width + right,
        height=top + board_height + bottom,
    )

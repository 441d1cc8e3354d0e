"""A board as a PNG picture: a pure function of the board, the theme and an optional caption.

What a picture shows:

- the coordinates a player types, on the edges: column letters ``a``..``y`` and row numbers
  ``1``..``25`` from the top for free boards, column numbers for gravity boards;
- the marks (a cross and a ring, in every theme), the last move framed, the winning line
  struck through on a highlighted background;
- when the picture stands alone (a caption is given), the players with their marks and the
  caption (the status, a clock) under the board.

The same board, theme and caption always give the same bytes, and the last few hundred pictures
are kept (:func:`board_png`'s cache), so showing a board twice draws it once.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from core.games import Rules
from core.pictures.geometry import Geometry, geometry
from core.pictures.text import drawable, fit, font, wrap_paragraphs
from core.pictures.themes import RGB, Theme, default_theme
from core.pictures.tiles import cell_tile, mark_icon, stroke, stroke_box
from core.render import COLUMN_LETTERS
from core.replies import BoardView

CACHE_SIZE = 256  # pictures kept: about 5 MB at the largest boards' 20 KB each
_DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))
# A caption's lines: a long status wraps to three, a result and its ratings line keep theirs.
CAPTION_PARAGRAPH_LINES = 3
CAPTION_LINES = 5
# zlib's fast matching (1-3) takes a quarter less of a cold render's CPU than its default (6),
# the link preview's first request waits for it; a Connect Four picture with its caption is then
# about 21 KB instead of 16 KB, far below what any chat takes.
_PNG_LEVEL = 3


@dataclass(frozen=True, slots=True)
class _State:
    """What a picture depends on, and nothing else: the key of the cache."""

    rows: int
    cols: int
    k: int
    gravity: bool
    marks: bytes  # one byte a cell, row-major: 0, 1, 2
    winning: frozenset[int]
    last: int | None
    players: tuple[str, str] | None  # drawn only with a caption
    caption: str | None
    theme: Theme


def board_png(board: BoardView, theme: Theme | None = None, *, caption: str | None = None) -> bytes:
    """The board as PNG bytes.

    Args:
        board: the board to draw.
        theme: how it looks; None for the board's default (:func:`default_theme`).
        caption: for a picture that stands alone (no text beside it): a line to write under the
            board (the status, a clock), drawn with the players' names and marks. None draws the
            board alone.

    Returns:
        A palette PNG, the same bytes for the same board, theme and caption.
    """
    rules = board.rules
    last = next((cell.index for cell in board.cells if cell.last), None)
    state = _State(
        rows=rules.rows,
        cols=rules.cols,
        k=rules.k,
        gravity=rules.gravity,
        marks=bytes(cell.mark for cell in board.cells),
        winning=frozenset(cell.index for cell in board.cells if cell.winning),
        last=last,
        players=(board.players[0].name, board.players[1].name) if caption is not None else None,
        caption=caption,
        theme=theme or default_theme(rules),
    )
    return _render(state)


def picture_geometry(rules: Rules) -> Geometry:
    """Where the cells of a board with ``rules`` sit in its picture (for probes and maps)."""
    return geometry(rules.rows, rules.cols, rules.gravity)


@lru_cache(maxsize=CACHE_SIZE)
def _render(state: _State) -> bytes:
    # Assembled from pieces already in the theme's palette, so a picture is mapped to the
    # palette only where it is drawn afresh (a stroke, the caption): a third of the bytes to
    # paste, and most of the mapping done once per piece rather than once per picture.
    layout = geometry(state.rows, state.cols, state.gravity)
    theme = state.theme
    image = _indexed_board(theme, layout).copy()
    # Looked up once a picture, not once a cell: each lookup hashes the whole theme.
    pieces = {
        (mark, winning): _indexed_tile(theme, layout.tile, mark, winning)
        for mark in (0, 1, 2)
        for winning in (False, True)
    }
    for index, mark in enumerate(state.marks):
        winning = index in state.winning
        if mark or winning:
            row, col = divmod(index, state.cols)
            image.paste(pieces[mark, winning], layout.cell_box(row, col)[:2])
    for start, end in _winning_runs(state):
        _stroke(image, layout, theme, start, end)
    if state.last is not None:  # after the stroke, which may cross a corner of the frame
        _frame(image, layout, theme, *divmod(state.last, state.cols))
    if state.caption is not None and state.players is not None:
        image = _with_caption(image, theme, state.players, state.caption)
    return png_bytes(image)


def png_bytes(image: Image.Image) -> bytes:
    """``image`` as a PNG file, at the compression every picture of ours is saved with."""
    out = io.BytesIO()
    image.save(out, "PNG", compress_level=_PNG_LEVEL)
    return out.getvalue()


@lru_cache(maxsize=64)
def _empty_board(theme: Theme, layout: Geometry) -> Image.Image:
    """The background, the board, its empty cells and the coordinates. Shared: copy first."""
    image = Image.new("RGB", (layout.width, layout.height), theme.background)
    draw = ImageDraw.Draw(image)
    x0, y0, x1, y1 = layout.board_box
    draw.rectangle((x0, y0, x1 - 1, y1 - 1), fill=theme.grid)
    empty = cell_tile(theme, layout.tile, 0, False)
    for row in range(layout.rows):
        for col in range(layout.cols):
            image.paste(empty, layout.cell_box(row, col)[:2])
    _coordinates(draw, layout, theme)
    return image


@lru_cache(maxsize=64)
def _indexed_board(theme: Theme, layout: Geometry) -> Image.Image:
    """:func:`_empty_board` in the theme's palette. Shared: copy first."""
    return _indexed(_empty_board(theme, layout), theme)


@lru_cache(maxsize=512)
def _indexed_tile(theme: Theme, size: int, mark: int, winning: bool) -> Image.Image:
    """:func:`~core.pictures.tiles.cell_tile` in the theme's palette. Shared: never draw on it."""
    return _indexed(cell_tile(theme, size, mark, winning), theme)


def _stroke(
    image: Image.Image, layout: Geometry, theme: Theme, start: tuple[int, int], end: tuple[int, int]
) -> None:
    """The winning line from cell ``start`` to cell ``end``: drawn in colour over its own box
    (its smooth edges blend with the cells under it), then put back in the palette."""
    width = max(4, layout.pitch // 7)
    first, last = layout.centre(*start), layout.centre(*end)
    box = stroke_box(first, last, width)
    x0, y0 = box[:2]
    region = image.crop(box).convert("RGB")
    shifted = ((first[0] - x0, first[1] - y0), (last[0] - x0, last[1] - y0))
    stroke(region, *shifted, width, theme.winning_line, theme.outline)
    image.paste(_indexed(region, theme), (x0, y0))


def _coordinates(draw: ImageDraw.ImageDraw, layout: Geometry, theme: Theme) -> None:
    face = font(layout.label_size)
    x0, y0, x1, y1 = layout.board_box
    above = y0 - layout.margin // 2
    below = y1 + layout.margin // 2
    for col in range(layout.cols):
        label = str(col + 1) if layout.gravity else COLUMN_LETTERS[col]
        x = layout.centre(0, col)[0]
        draw.text((x, above), label, fill=theme.label, font=face, anchor="mm")
        if layout.labels_far:
            draw.text((x, below), label, fill=theme.label, font=face, anchor="mm")
    if layout.gravity:
        return  # played by column: the rows have no name
    for row in range(layout.rows):
        y = layout.centre(row, 0)[1]
        draw.text(
            (x0 - layout.margin // 2, y), str(row + 1), fill=theme.label, font=face, anchor="mm"
        )
        if layout.labels_far:
            draw.text(
                (x1 + layout.margin // 2, y), str(row + 1), fill=theme.label, font=face, anchor="mm"
            )


def _frame(image: Image.Image, layout: Geometry, theme: Theme, row: int, col: int) -> None:
    """The last move: a frame inside its cell, over a thin outline on its inner side."""
    x0, y0, x1, y1 = layout.cell_box(row, col)
    width = max(2, layout.pitch // 14)
    draw = ImageDraw.Draw(image)
    draw.rectangle((x0, y0, x1 - 1, y1 - 1), outline=_index(theme, theme.last), width=width)
    inner = max(1, width // 3)
    draw.rectangle(
        (x0 + width, y0 + width, x1 - 1 - width, y1 - 1 - width),
        outline=_index(theme, theme.outline),
        width=inner,
    )


def _winning_runs(state: _State) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Each completed line as its first and last cell: runs of at least ``k`` winning cells in
    one direction (a move may complete two lines; a longer run is one line)."""
    runs = []
    rows, cols = state.rows, state.cols

    def winning(row: int, col: int) -> bool:
        return 0 <= row < rows and 0 <= col < cols and row * cols + col in state.winning

    for index in sorted(state.winning):
        row, col = divmod(index, cols)
        for dr, dc in _DIRECTIONS:
            if winning(row - dr, col - dc):
                continue  # not the start of its run
            length = 1
            while winning(row + dr * length, col + dc * length):
                length += 1
            if length >= state.k:
                end = (row + dr * (length - 1), col + dc * (length - 1))
                runs.append(((row, col), end))
    return runs


def _with_caption(
    board: Image.Image, theme: Theme, players: tuple[str, str], caption: str
) -> Image.Image:
    """``board`` (in the palette) with the players (mark and name) and the caption under it."""
    size = 18 if board.width >= 400 else 15
    face = font(size)
    line_height = round(size * 1.5)
    pad = max(8, size // 2)
    width = board.width - 2 * pad
    icon = round(size * 1.2)
    names = [fit(drawable(name), size, width - icon - pad) for name in players]
    text_lines = wrap_paragraphs(
        caption, size, width, per_paragraph=CAPTION_PARAGRAPH_LINES, max_lines=CAPTION_LINES
    )
    under = Image.new(
        "RGB", (board.width, (len(names) + len(text_lines)) * line_height + pad), theme.background
    )
    draw = ImageDraw.Draw(under)
    y = 0
    for mark, name in enumerate(names, start=1):
        middle = y + line_height // 2
        under.paste(mark_icon(theme, icon, mark), (pad, middle - icon // 2))
        draw.text((pad + icon + pad // 2, middle), name, fill=theme.caption, font=face, anchor="lm")
        y += line_height
    for line in text_lines:
        draw.text((pad, y + line_height // 2), line, fill=theme.caption, font=face, anchor="lm")
        y += line_height
    image = board.crop((0, 0, board.width, board.height + under.height))
    image.paste(_indexed(under, theme), (0, board.height))
    return image


@lru_cache(maxsize=8)
def _palette_image(theme: Theme) -> Image.Image:
    palette = theme.palette()
    image = Image.new("P", (1, 1))
    flat = [channel for colour in palette for channel in colour]
    image.putpalette(flat + flat[:3] * (256 - len(palette)))
    return image


def _indexed(image: Image.Image, theme: Theme) -> Image.Image:
    """``image`` in one byte a pixel over the theme's fixed palette: a third of the data to
    compress, and a palette that no picture's content can change, so the bytes follow from the
    state alone. Each pixel is mapped alone (no dithering), so pieces mapped apart and then put
    together are the whole mapped at once."""
    return image.quantize(palette=_palette_image(theme), dither=Image.Dither.NONE)


@lru_cache(maxsize=256)
def _index(theme: Theme, colour: RGB) -> int:
    """The palette entry a pixel of ``colour`` is mapped to."""
    return _indexed(Image.new("RGB", (1, 1), colour), theme).tobytes()[0]

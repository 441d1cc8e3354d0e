"""The pieces a picture is assembled from, each drawn once and kept: cells, the winning stroke.

Shapes are drawn four times larger and reduced, which smooths their edges; the pieces are then
pasted into the picture, so a render costs a copy and a few hundred pastes, not a drawing.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from core.pictures.geometry import Box
from core.pictures.themes import RGB, Shape, Theme

SUPERSAMPLE = 4
# Strokes are drawn for each won board, over several cells: half the smoothing, a quarter of the
# pixels to draw.
STROKE_SUPERSAMPLE = 2


@lru_cache(maxsize=512)
def cell_tile(theme: Theme, size: int, mark: int, winning: bool) -> Image.Image:
    """The inside of one cell, ``size`` pixels square: empty (``mark`` 0) or holding the mark of
    player 1 or 2, on the winning line's background or not. Shared: never draw on it."""
    big = size * SUPERSAMPLE
    image = Image.new("RGB", (big, big), _ground(theme, winning))
    draw = ImageDraw.Draw(image)
    centre = big / 2
    if theme.holes:
        radius = big * 0.42
        disc = theme.cell if mark == 0 else theme.marks[mark - 1].disc or theme.cell
        draw.ellipse(_around(centre, radius), fill=disc)
    if mark:
        style = theme.marks[mark - 1]
        on_disc = style.disc is not None
        reach = big * (0.19 if on_disc else 0.28)
        width = max(2, round(big * (0.085 if on_disc else 0.12)))
        if style.shape is Shape.CROSS:
            _cross(draw, centre, reach, width, style.colour)
        else:
            draw.ellipse(_around(centre, reach + width / 2), outline=style.colour, width=width)
    return image.reduce(SUPERSAMPLE)


def mark_icon(theme: Theme, size: int, mark: int) -> Image.Image:
    """A player's mark standing alone (the caption's), on the caption's background."""
    return cell_tile(theme, size, mark, False) if theme.holes else _bare_icon(theme, size, mark)


@lru_cache(maxsize=64)
def _bare_icon(theme: Theme, size: int, mark: int) -> Image.Image:
    big = size * SUPERSAMPLE
    image = Image.new("RGB", (big, big), theme.background)
    draw = ImageDraw.Draw(image)
    style = theme.marks[mark - 1]
    centre, reach = big / 2, big * 0.32
    width = max(2, round(big * 0.13))
    if style.shape is Shape.CROSS:
        _cross(draw, centre, reach, width, style.colour)
    else:
        draw.ellipse(_around(centre, reach + width / 2), outline=style.colour, width=width)
    return image.reduce(SUPERSAMPLE)


def stroke(
    image: Image.Image,
    start: tuple[int, int],
    end: tuple[int, int],
    width: int,
    colour: RGB,
    outline: RGB,
) -> None:
    """Draws a smooth line with round ends from ``start`` to ``end`` on ``image``, in
    ``colour`` over a thin ``outline`` that keeps it visible on any cell."""
    scale = STROKE_SUPERSAMPLE
    border = _border(width)
    x0, y0, x1, y1 = stroke_box(start, end, width)
    size = ((x1 - x0) * scale, (y1 - y0) * scale)
    points = [((x - x0) * scale, (y - y0) * scale) for x, y in (start, end)]
    for fill, thickness in ((outline, width + 2 * border), (colour, width)):
        mask = Image.new("L", size, 0)
        draw = ImageDraw.Draw(mask)
        big = thickness * scale
        draw.line(points, fill=255, width=big)
        for x, y in points:
            draw.ellipse(_around_point(x, y, big / 2), fill=255)
        image.paste(fill, (x0, y0, x1, y1), mask.reduce(scale))


def stroke_box(start: tuple[int, int], end: tuple[int, int], width: int) -> Box:
    """The pixels :func:`stroke` may touch, outline and round ends included."""
    pad = width + _border(width)
    return (
        min(start[0], end[0]) - pad,
        min(start[1], end[1]) - pad,
        max(start[0], end[0]) + pad,
        max(start[1], end[1]) + pad,
    )


def _border(width: int) -> int:
    return max(1, width // 3)


def _ground(theme: Theme, winning: bool) -> RGB:
    if winning:
        return theme.winning_cell
    return theme.grid if theme.holes else theme.cell


def _cross(draw: ImageDraw.ImageDraw, centre: float, reach: float, width: int, colour: RGB) -> None:
    a, b = centre - reach, centre + reach
    for line in (((a, a), (b, b)), ((a, b), (b, a))):
        draw.line(line, fill=colour, width=width)
        for x, y in line:  # round ends
            draw.ellipse(_around_point(x, y, width / 2), fill=colour)


def _around(centre: float, radius: float) -> tuple[float, float, float, float]:
    return _around_point(centre, centre, radius)


def _around_point(x: float, y: float, radius: float) -> tuple[float, float, float, float]:
    return (x - radius, y - radius, x + radius, y + radius)

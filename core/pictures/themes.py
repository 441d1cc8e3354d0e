"""How boards look: colours and shapes for pictures, and emoji for text boards.

A theme never relies on colour alone: the first player's mark is a cross and the second's a
ring in every theme (on a disc in the Connect Four theme), the last move is framed and the
winning line is struck through. Every picture carries its own opaque background, so its
contrast is the same in Discord's light and dark modes; :func:`contrast` is the WCAG ratio the
tests hold each theme to.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from itertools import combinations

from core.games import Rules
from core.replies import THEME_NAMES

RGB = tuple[int, int, int]


class Shape(enum.Enum):
    """The shape that tells a mark apart without its colour."""

    CROSS = "cross"
    RING = "ring"


@dataclass(frozen=True, slots=True)
class MarkStyle:
    """One player's mark.

    Attributes:
        shape: the cross or the ring.
        colour: the shape's colour.
        disc: the colour of a disc under the shape (Connect Four), or None for a bare shape.
    """

    shape: Shape
    colour: RGB
    disc: RGB | None = None


@dataclass(frozen=True, slots=True)
class Theme:
    """A look for boards: the picture's colours and marks, and the text board's emoji.

    Attributes:
        name: the theme's key (what a setting names).
        background: the margin around the board, where the coordinates are.
        label: the coordinates' colour.
        grid: the lines between cells, or the board holding the holes (``holes``).
        cell: an empty cell, or an empty hole.
        holes: cells are round holes in a board (Connect Four) rather than squares.
        marks: the first player's mark (X), then the second's (O).
        winning_cell: the background of a cell on the winning line.
        winning_line: the stroke through the winning line (drawn over a darker outline).
        outline: the outline of the winning stroke, and of the last move's frame.
        last: the frame around the last move.
        caption: the text under the board when the picture stands alone.
        empty_emoji, mark_emoji, winning_emoji: the text board's cells: empty, the marks (X
            then O), the marks on the winning line.
    """

    name: str
    background: RGB
    label: RGB
    grid: RGB
    cell: RGB
    holes: bool
    marks: tuple[MarkStyle, MarkStyle]
    winning_cell: RGB
    winning_line: RGB
    outline: RGB
    last: RGB
    caption: RGB
    empty_emoji: str
    mark_emoji: tuple[str, str]
    winning_emoji: tuple[str, str]

    def emoji(self, mark: int, *, winning: bool = False) -> str:
        """The text board's emoji for ``mark`` (0 empty, 1, 2), on the winning line or not."""
        if mark == 0:
            return self.empty_emoji
        return (self.winning_emoji if winning else self.mark_emoji)[mark - 1]

    def colours(self) -> tuple[RGB, ...]:
        """Every colour the theme draws with, each once, in a fixed order."""
        found: list[RGB] = []
        for colour in (
            self.background,
            self.label,
            self.grid,
            self.cell,
            self.winning_cell,
            self.winning_line,
            self.outline,
            self.last,
            self.caption,
            *(c for mark in self.marks for c in (mark.colour, mark.disc) if c is not None),
        ):
            if colour not in found:
                found.append(colour)
        return tuple(found)

    def palette(self) -> tuple[RGB, ...]:
        """The picture's palette: the theme's colours and three blends of every pair, for the
        anti-aliased edges. At most 256 colours, so a picture is one byte a pixel."""
        base = self.colours()
        blends = [_mix(a, b, step / 4) for a, b in combinations(base, 2) for step in (1, 2, 3)]
        palette = list(base)
        for colour in blends:
            # A blend close to a colour already there adds nothing, and would take that
            # colour's place: pixels are mapped to the palette at a coarser precision.
            if min(_distance(colour, other) for other in palette) >= _DISTINCT:
                palette.append(colour)
        if len(palette) > 256:
            raise ValueError(f"theme {self.name!r} has too many colours for one palette")
        return tuple(palette)


_DISTINCT = 12  # the smallest channel difference between two colours of a palette


def _distance(a: RGB, b: RGB) -> int:
    return max(abs(x - y) for x, y in zip(a, b, strict=True))


def _mix(a: RGB, b: RGB, t: float) -> RGB:
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def luminance(colour: RGB) -> float:
    """The relative luminance of an sRGB colour (WCAG 2)."""

    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: RGB, b: RGB) -> float:
    """The WCAG contrast ratio of two colours, from 1 (none) to 21 (black on white)."""
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


CLASSIC = Theme(
    name="classic",
    background=(233, 228, 216),
    label=(60, 56, 50),
    grid=(120, 113, 102),
    cell=(250, 248, 243),
    holes=False,
    # Blue and orange stay apart for every common colour blindness; the shapes do the rest.
    marks=(MarkStyle(Shape.CROSS, (29, 78, 160)), MarkStyle(Shape.RING, (184, 72, 12))),
    winning_cell=(206, 236, 204),
    winning_line=(22, 128, 61),
    outline=(18, 18, 18),
    last=(124, 58, 237),
    caption=(33, 31, 28),
    empty_emoji="⚫",
    mark_emoji=("❌", "⭕"),
    winning_emoji=("❎", "🅾️"),
)

DISCS = Theme(
    name="discs",
    background=(226, 232, 240),
    label=(30, 41, 59),
    grid=(29, 78, 216),
    cell=(241, 245, 249),
    holes=True,
    # A light cross on the red disc, a dark ring on the yellow one: colour is never the only cue.
    marks=(
        MarkStyle(Shape.CROSS, (255, 255, 255), disc=(200, 30, 30)),
        MarkStyle(Shape.RING, (92, 64, 0), disc=(250, 204, 21)),
    ),
    winning_cell=(134, 239, 172),
    winning_line=(255, 255, 255),
    outline=(15, 23, 42),
    last=(255, 255, 255),  # the frame sits on the blue board, around the disc
    caption=(15, 23, 42),
    empty_emoji="⚪",
    mark_emoji=("🔴", "🟡"),
    winning_emoji=("🟥", "🟨"),
)

HIGH_CONTRAST = Theme(
    name="contrast",
    background=(0, 0, 0),
    label=(255, 255, 255),
    grid=(200, 200, 200),
    cell=(0, 0, 0),
    holes=False,
    marks=(MarkStyle(Shape.CROSS, (255, 255, 255)), MarkStyle(Shape.RING, (255, 221, 0))),
    winning_cell=(0, 90, 40),
    winning_line=(0, 255, 255),
    outline=(0, 0, 0),
    last=(255, 0, 255),
    caption=(255, 255, 255),
    empty_emoji="🔳",
    mark_emoji=("❎", "🅾️"),
    winning_emoji=("❌", "⭕"),
)

THEMES: dict[str, Theme] = dict(zip(THEME_NAMES, (CLASSIC, DISCS, HIGH_CONTRAST), strict=True))


def theme_named(name: str) -> Theme:
    """The theme called ``name`` (case-insensitive).

    Raises:
        KeyError: no theme has that name.
    """
    return THEMES[name.strip().lower()]


def default_theme(rules: Rules) -> Theme:
    """The theme a board gets when nobody chose one: discs for gravity games, else classic."""
    return DISCS if rules.gravity else CLASSIC

"""Themes: readable without colour, with contrast that holds whatever the reader's client."""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops

from core.games import CONNECT_FOUR, TICTACTOE
from core.pictures import (
    CLASSIC,
    DISCS,
    THEMES,
    Shape,
    Theme,
    contrast,
    default_theme,
    theme_named,
)
from core.pictures.picture import _palette_image
from core.pictures.tiles import cell_tile
from core.replies import THEME_NAMES

ALL_THEMES = tuple(THEMES.values())
NON_TEXT = 3.0  # WCAG's least contrast for shapes and the parts of a graphic
TEXT = 4.5  # WCAG's least contrast for text


def test_there_are_the_classic_the_discs_and_the_high_contrast_themes() -> None:
    assert set(THEMES) == {"classic", "discs", "contrast"}
    # the names the settings and the replies know (core.replies), each its own theme's
    assert tuple(THEMES) == THEME_NAMES
    assert all(theme.name == name for name, theme in THEMES.items())
    assert theme_named(" Discs ") is DISCS
    with pytest.raises(KeyError):
        theme_named("neon")
    assert default_theme(TICTACTOE) is CLASSIC and default_theme(CONNECT_FOUR) is DISCS


@pytest.mark.parametrize("theme", ALL_THEMES, ids=lambda t: t.name)
def test_marks_differ_by_shape_not_only_by_colour(theme: Theme) -> None:
    assert [mark.shape for mark in theme.marks] == [Shape.CROSS, Shape.RING]
    # In grey, as a reader who sees no colour would: the two marks still differ in a good part
    # of the cell, and each differs from an empty cell.
    size = 60
    grey = [cell_tile(theme, size, mark, False).convert("L") for mark in (0, 1, 2)]
    for a, b in ((0, 1), (0, 2), (1, 2)):
        difference = ImageChops.difference(grey[a], grey[b]).point(lambda v: 255 if v > 40 else 0)
        assert difference.histogram()[255] > size * size * 0.08, (theme.name, a, b)


@pytest.mark.parametrize("theme", ALL_THEMES, ids=lambda t: t.name)
def test_contrast_is_enough_for_shapes_and_text(theme: Theme) -> None:
    for mark in theme.marks:
        ground = mark.disc or theme.cell
        assert contrast(mark.colour, ground) >= NON_TEXT, theme.name
        assert contrast(mark.colour, theme.winning_cell) >= NON_TEXT or mark.disc, theme.name
        # An occupied cell stands out from an empty one, by its disc or by its shape.
        assert max(contrast(ground, theme.cell), contrast(mark.colour, theme.cell)) >= NON_TEXT
    assert contrast(theme.label, theme.background) >= TEXT
    assert contrast(theme.caption, theme.background) >= TEXT
    assert contrast(theme.winning_line, theme.outline) >= NON_TEXT
    frame_ground = theme.grid if theme.holes else theme.cell
    assert contrast(theme.last, frame_ground) >= NON_TEXT
    assert contrast(theme.last, theme.outline) >= NON_TEXT
    if not theme.holes:
        assert contrast(theme.grid, theme.cell) >= NON_TEXT / 2  # lines between cells


@pytest.mark.parametrize("theme", ALL_THEMES, ids=lambda t: t.name)
def test_every_colour_of_a_theme_survives_its_palette(theme: Theme) -> None:
    assert len(theme.palette()) <= 256
    colours = theme.colours()
    strip = Image.new("RGB", (len(colours), 1))
    for x, colour in enumerate(colours):
        strip.putpixel((x, 0), colour)
    back = strip.quantize(palette=_palette_image(theme), dither=Image.Dither.NONE).convert("RGB")
    assert [back.getpixel((x, 0)) for x in range(len(colours))] == list(colours)


def test_every_theme_has_its_own_emoji_for_text_boards() -> None:
    seen = set()
    for theme in ALL_THEMES:
        emoji = (theme.emoji(0), theme.emoji(1), theme.emoji(2))
        winning = (theme.emoji(1, winning=True), theme.emoji(2, winning=True))
        assert len(set(emoji)) == 3 and len(set(winning)) == 2
        assert not set(winning) & set(emoji)
        assert emoji not in seen
        seen.add(emoji)

"""Boards as pictures: PNG bytes from a neutral :class:`~core.replies.BoardView` and a theme.

Pure (no I/O, no platform): adapters upload the bytes where their platform shows images.
Themes also carry the emoji of the text boards, so a chat's look is one choice.
"""

from core.pictures.picture import board_png, picture_geometry
from core.pictures.themes import (
    CLASSIC,
    DISCS,
    HIGH_CONTRAST,
    THEMES,
    MarkStyle,
    Shape,
    Theme,
    contrast,
    default_theme,
    theme_named,
)

__all__ = [
    "CLASSIC",
    "DISCS",
    "HIGH_CONTRAST",
    "THEMES",
    "MarkStyle",
    "Shape",
    "Theme",
    "board_png",
    "contrast",
    "default_theme",
    "picture_geometry",
    "theme_named",
]

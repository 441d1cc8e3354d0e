"""An event's picture for link previews (``og:image``): its title, its status and the top of
its standings, drawn with :mod:`core.pictures`' font and theme (names transliterated as the
board pictures write them). Its words are English, as the game pictures': one picture serves
every reader's preview. CPU only: a few ms."""

from __future__ import annotations

from PIL import Image, ImageDraw

from core.i18n import DEFAULT_LOCALE
from core.pages.event import EventPage
from core.pictures.picture import png_bytes
from core.pictures.text import drawable, fit, font
from core.pictures.themes import CLASSIC

WIDTH, HEIGHT = 600, 315
"""The size link previews show whole (about 1.91:1)."""
SHOWN = 8
"""Players drawn: the top of the table."""


def event_png(page: EventPage) -> bytes:
    """The PNG of ``page``'s title, status and top :data:`SHOWN` players with their points."""
    theme = CLASSIC
    image = Image.new("RGB", (WIDTH, HEIGHT), theme.background)
    draw = ImageDraw.Draw(image)
    pad, size = 20, 22
    title = fit(drawable(page.title.render(DEFAULT_LOCALE)), size, WIDTH - 2 * pad)
    draw.text((pad, pad), title, fill=theme.caption, font=font(size))
    small = 17
    status = fit(
        drawable(f"{page.status.render(DEFAULT_LOCALE)}; {page.clock.render(DEFAULT_LOCALE)}"),
        small,
        WIDTH - 2 * pad,
    )
    draw.text((pad, pad + 32), status, fill=theme.caption, font=font(small))
    y = pad + 70
    line = 26
    if not page.standings:
        draw.text((pad, y), "No player yet.", fill=theme.caption, font=font(small))
    for row in page.standings[:SHOWN]:
        points = drawable(row.points.replace("½", ".5"))
        name = fit(drawable(row.name), small, WIDTH - 2 * pad - 130)
        draw.text((pad, y), f"{row.rank}.", fill=theme.caption, font=font(small))
        draw.text((pad + 45, y), name, fill=theme.caption, font=font(small))
        draw.text((WIDTH - pad, y), points, fill=theme.caption, font=font(small), anchor="ra")
        y += line
    return png_bytes(image)

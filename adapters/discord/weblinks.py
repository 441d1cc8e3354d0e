"""A reply's links to the web pages (:attr:`core.replies.Reply.links`) as Discord link
buttons: a button of the link style carries its ``url`` and no ``custom_id`` (Discord refuses
a link button with one), and a press on it opens the page without reaching the bot.

They sit in a row of their own under the message's other buttons; where the message has no
row left (a 5x5 board with its actions) they join the last row if it has room, else the
addresses are written under the text. A picture board (Components V2) holds 40 components
at most: the same rule, with the addresses written out when the buttons would pass it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import discord

from adapters.discord.layout import (
    MAX_CONTENT,
    MAX_PER_ROW,
    MAX_ROWS,
    MAX_TEXT_DISPLAY,
    ButtonSpec,
    MessageSpec,
)
from core.render import link_lines
from core.replies import WebLink

MAX_LABEL = 80
"""Characters of a button's label, at most (Discord's limit)."""
MAX_URL = 512
"""Characters of a link button's address, at most (Discord's limit)."""
MAX_COMPONENTS = 40
"""Components of a Components V2 message, nested ones included (Discord's limit)."""
_V2_FIXED = 3
"""A picture board's components besides its rows: the container, its text, the gallery."""


def with_links(spec: MessageSpec, links: Sequence[WebLink], locale: str) -> MessageSpec:
    """``spec`` with ``links`` as link buttons (see the module docstring)."""
    if not links:
        return spec
    row = _row_for(spec, len(links))
    if row is None or any(len(link.url) > MAX_URL for link in links):
        lines = "\n".join(link_lines(links, locale))
        limit = MAX_CONTENT if spec.picture is None else MAX_TEXT_DISPLAY
        if len(spec.content) + 1 + len(lines) > limit:
            return spec  # the board's own text matters more than its links
        return dataclasses.replace(spec, content=f"{spec.content}\n{lines}")
    buttons = tuple(
        ButtonSpec(
            custom_id="",
            row=row,
            style=discord.ButtonStyle.link,
            label=_clip(link.label.render(locale)),
            url=link.url,
        )
        for link in links
    )
    return dataclasses.replace(spec, buttons=spec.buttons + buttons)


def _row_for(spec: MessageSpec, count: int) -> int | None:
    """The row ``count`` link buttons go in, or None when the message has no room."""
    if count > MAX_PER_ROW:
        return None
    rows = spec.rows
    row: int | None = None
    if rows < MAX_ROWS:
        row = rows
    elif sum(1 for b in spec.buttons if b.row == rows - 1) + count <= MAX_PER_ROW:
        row = rows - 1
    if row is None or spec.picture is None:
        return row
    # A picture board: each row is a component besides its buttons, each menu a row of one.
    used = _V2_FIXED + 2 * len(spec.picture.selects) + len(spec.buttons)
    used += len({b.row for b in spec.buttons} | {row})
    return row if used + count <= MAX_COMPONENTS else None


def _clip(label: str) -> str:
    return label if len(label) <= MAX_LABEL else label[: MAX_LABEL - 1] + "…"

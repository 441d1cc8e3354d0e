"""discord.py objects for picture boards (Components V2), and the keyword arguments that send
or edit any :class:`~adapters.discord.layout.MessageSpec`.

A picture board is a ``LayoutView``: a container holding the text, a media gallery with the PNG
(uploaded as an attachment of the same request), the two select menus and the action buttons.
Its selects are answered like the buttons, from their ``custom_id`` alone, so they keep working
after a restart. The IS_COMPONENTS_V2 flag, which discord.py sets for a ``LayoutView``, cannot
be removed from a message: a board's size never changes, and a Connect Four board shown as a
picture is drawn as one from then on (the presenter passes ``keep_picture``), so a board shown
as a picture stays one.
"""

from __future__ import annotations

import io
from typing import Any

import discord

from adapters.discord.ids import CellPick, Column, Pick, parse_custom_id
from adapters.discord.layout import MessageSpec, SelectSpec, cell_menu
from adapters.discord.views import build_view, drawn_button


class _DrawnSelect(discord.ui.Select[Any]):
    """A menu as sent: a pick reaches the client's ``on_interaction`` (see
    :mod:`adapters.discord.views`)."""

    def is_dispatchable(self) -> bool:
        return False


def build_layout(spec: MessageSpec) -> discord.ui.LayoutView:
    """The Components V2 view of a picture board."""
    picture = spec.picture
    assert picture is not None
    gallery: discord.ui.MediaGallery[Any] = discord.ui.MediaGallery(
        discord.MediaGalleryItem(f"attachment://{picture.filename}")
    )
    container: discord.ui.Container[Any] = discord.ui.Container(
        discord.ui.TextDisplay(spec.content), gallery
    )
    for select in picture.selects:
        container.add_item(discord.ui.ActionRow(_select(select)))
    # The buttons in their rows: a gravity board's columns (five to a row), then the actions.
    for index in range(spec.rows):
        row: discord.ui.ActionRow[Any] = discord.ui.ActionRow()
        for button in (b for b in spec.buttons if b.row == index):
            row.add_item(drawn_button(button))
        if row.children:
            container.add_item(row)
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(container)
    return view


def _select(spec: SelectSpec) -> discord.ui.Item[Any]:
    if not isinstance(parse_custom_id(spec.custom_id), Pick):
        raise ValueError(f"not one of our select ids: {spec.custom_id!r}")
    return _DrawnSelect(
        custom_id=spec.custom_id,
        placeholder=spec.placeholder,
        options=[discord.SelectOption(label=label, value=value) for label, value in spec.options],
        disabled=spec.disabled,
    )


def with_cells(
    message: discord.Message, pick: Pick, column: Column, locale: str
) -> discord.ui.LayoutView:
    """``message`` (a picture board) with its cell menu showing the free cells of ``column``;
    the rest, the picture included, stays as it is."""
    view = discord.ui.LayoutView.from_message(message, timeout=None)
    for gallery in view.walk_children():
        if isinstance(gallery, discord.ui.MediaGallery):
            for shown in gallery.items:
                shown.media = _uploaded(message, shown.media.url)
    menu = cell_menu(CellPick(pick.session_id, pick.version), locale, column)
    for item in view.walk_children():
        if isinstance(item, discord.ui.Select) and isinstance(
            parse_custom_id(item.custom_id), CellPick
        ):
            item.custom_id = menu.custom_id
            item.placeholder = menu.placeholder
            item.options = [
                discord.SelectOption(label=label, value=value) for label, value in menu.options
            ]
            item.disabled = menu.disabled
    return view


def _uploaded(message: discord.Message, url: str) -> str:
    """``url`` as the message's own attachment (``attachment://NAME``) when it shows one: a
    message read back names its pictures by their CDN address, signed and expiring, which an
    edit must not keep (the picture would break once it expired)."""
    name = url.split("?", 1)[0].rsplit("/", 1)[-1]
    if any(a.filename == name for a in message.attachments):
        return f"attachment://{name}"
    return url


def _file(spec: MessageSpec) -> discord.File:
    assert spec.picture is not None
    return discord.File(io.BytesIO(spec.picture.png), filename=spec.picture.filename)


def send_kwargs(spec: MessageSpec) -> dict[str, Any]:
    """What ``send``/``send_message``/``followup.send`` take to show ``spec`` anew."""
    if spec.picture is not None:
        return {"view": build_layout(spec), "file": _file(spec)}
    if spec.buttons:
        return {"content": spec.content, "view": build_view(spec)}
    return {"content": spec.content}


def edit_kwargs(spec: MessageSpec) -> dict[str, Any]:
    """What ``edit``/``edit_message``/``edit_original_response`` take to show ``spec`` in place
    of a message (a picture replaces the message's attachments)."""
    if spec.picture is not None:
        # A V2 message has no content: a challenge's text goes when its board comes.
        return {"content": None, "view": build_layout(spec), "attachments": [_file(spec)]}
    return {"content": spec.content, "view": build_view(spec)}

"""Boards as pictures on Matrix: a room's ``board_style: picture`` setting.

The board is an ``m.image`` whose picture (``core.pictures``, in the game's theme, with the
players and the status drawn under it, as it may be seen alone) is uploaded to the homeserver's
media repository. Its ``body`` is the text board that every other room gets (the emoji grid,
the status line, the seats), so clients without images, notifications and reply quotes still
read the board; with ``filename`` set, clients that know captions (Matrix 1.10) show the
``formatted_body`` under the picture as its caption: the status, the seats and what to type.

How it is kept current (tried on Synapse, ``tests/e2e/test_matrix_pictures.py``): each move
uploads the new picture and sends one ``m.replace`` edit of the original image whose
``m.new_content`` is the new ``m.image``. The other way, a new image per move with the previous
one redacted, was not taken: it costs two events a move under the account's ``rc_message``
budget (about 0.2 a second) where an edit costs one, the send queue coalesces edits of one board
but could not coalesce new events, every new image notifies the room (edits are silenced by the
default ``.m.rule.suppress_edits`` push rule), and it leaves a "message deleted" placeholder per
move. Clients that apply edits (Element Web and Element X) show the latest picture in place;
Synapse bundles the latest edit with the original (``unsigned.m.relations.m.replace``), so a
client that opens the room later sees it too. An edit's top level repeats the new picture with a
``* `` caption (:func:`adapters.matrix.render.edit_content`), so a client without edits shows
each state as a new image. See docs/matrix.md.

A finished game's board that links to its web page (:attr:`core.replies.Reply.links`) is drawn
as a picture in every room (:func:`with_picture`): Matrix clients often show no preview of a
link (Synapse's URL previews are off by default; encrypted rooms never preview), so the message
carries the picture the page's preview would show. It costs an upload and no event: the final
edit of the board is the ``m.image`` itself (an edit may change the ``msgtype``; clients that
apply edits show the picture in place of the text board, with the text as its caption), so a
bot that does not know its homeserver's limits spends nothing more of its ``rc_message``
budget. A failed upload leaves the text board, links included.

Uploads have a rate limit of their own (Synapse's ``rc_media_create``): a refused or failed
upload is tried again a few times with the adapter's back-off, then that board goes out as text,
never lost. In an encrypted room the picture is uploaded encrypted (``file``, not ``url``).
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import struct
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any, Protocol, runtime_checkable

from adapters.matrix.backoff import delay_for
from adapters.matrix.render import Content
from adapters.matrix.transport import MatrixError
from core.pictures import THEMES, board_png
from core.render import status_line
from core.replies import BoardView, Reply

log = logging.getLogger(__name__)

TRIES = 4
"""Uploads of one picture before its board goes out as text."""

SHOWN: contextvars.ContextVar[Reply | None] = contextvars.ContextVar("matrix_shown", default=None)
"""The reply whose board is being shown. Set by ``Output.apply`` for each reply: a room's
worker shows its replies in a task of its own, so rooms shown at once do not see each other's."""


@runtime_checkable
class Uploader(Protocol):
    """A transport that can put a file in the media repository (``NioTransport``)."""

    async def upload(
        self, room_id: str, data: bytes, content_type: str, filename: str
    ) -> dict[str, Any]: ...


@dataclass(frozen=True, slots=True)
class Picture:
    """A board's picture, uploaded: its PNG, its file name and where it is (``url`` or
    ``file``)."""

    png: bytes
    filename: str
    media: dict[str, Any]


async def uploaded(
    transport: object,
    room_id: str,
    board: BoardView,
    locale: str,
    *,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
) -> Picture | None:
    """The picture of ``board``, uploaded for ``room_id``, when the reply being shown
    (:data:`SHOWN`) asks for pictures; None for the text board (not asked for, or no upload got
    through: see the module docstring)."""
    reply = SHOWN.get()
    if reply is None or not reply.picture or not isinstance(transport, Uploader):
        return None
    theme = THEMES.get(reply.theme) if reply.theme else None
    png = board_png(board, theme, caption=status_line(board, locale))
    filename = f"board-{board.session_id}-{board.version}.png"
    for attempt in range(TRIES):
        try:
            media = await transport.upload(room_id, png, "image/png", filename)
        except MatrixError as error:
            if not error.transient or attempt + 1 == TRIES:
                log.warning("matrix: a board picture was not uploaded (%s); sent as text", error)
                return None
            await sleep(delay_for(error, attempt))
        else:
            return Picture(png, filename, media)
    return None  # pragma: no cover (the loop returns)


def with_picture(reply: Reply) -> Reply:
    """``reply``, asking for its board's picture where it is a finished game's that links to
    the game's page (see the module docstring)."""
    board = reply.board
    if board is None or reply.picture or not board.finished or not reply.links:
        return reply
    return replace(reply, picture=True)


def shown_as(content: Content, picture: Picture | None) -> Content:
    """A board's text ``content`` as the room shows boards: itself, or ``picture``'s image."""
    return content if picture is None else picture_content(content, picture)


def picture_content(content: Content, picture: Picture) -> Content:
    """The ``m.image`` of a board from its text ``content`` and its uploaded picture."""
    png = picture.png
    width, height = struct.unpack(">II", png[16:24])  # the PNG's IHDR chunk
    caption = str(content.get("formatted_body", ""))
    # The caption is the text board's HTML without its <pre> grid: the picture is the grid.
    caption = caption.split("</pre>", 1)[-1]
    return {
        "msgtype": "m.image",
        "body": content["body"],
        "filename": picture.filename,
        "format": content.get("format"),
        "formatted_body": caption,
        "info": {"mimetype": "image/png", "size": len(png), "w": width, "h": height},
        **picture.media,
        "m.mentions": {},
    }

"""Matrix picture boards: when a board is an image, and what a failed upload leaves (the text
board, never nothing). The upload is a scripted edge here; tests/e2e/test_matrix_pictures.py
uploads to a real Synapse."""

from __future__ import annotations

from typing import Any

from adapters.matrix.pictures import SHOWN, Picture, picture_content, shown_as, uploaded
from adapters.matrix.render import board_content, edit_content
from adapters.matrix.transport import MatrixError
from core.games import TICTACTOE
from core.pictures import board_png
from core.replies import Reply
from tests.boards import board_of

BOARD = board_of(TICTACTOE, [4])


class Uploads:
    """Answers uploads with the scripted refusals first, then an mxc URI."""

    def __init__(self, *refusals: MatrixError) -> None:
        self.refusals = list(refusals)
        self.files: list[tuple[str, bytes, str, str]] = []

    async def upload(
        self, room_id: str, data: bytes, content_type: str, filename: str
    ) -> dict[str, Any]:
        self.files.append((room_id, data, content_type, filename))
        if self.refusals:
            raise self.refusals.pop(0)
        return {"url": f"mxc://example.org/{len(self.files)}"}


async def no_wait(seconds: float) -> None:
    return None


async def test_only_a_reply_that_asks_for_pictures_uploads_one() -> None:
    transport = Uploads()
    SHOWN.set(Reply(board=BOARD))
    assert await uploaded(transport, "!r", BOARD, "en") is None
    SHOWN.set(Reply(board=BOARD, picture=True, theme="contrast"))
    picture = await uploaded(transport, "!r", BOARD, "en")
    assert picture is not None and picture.png.startswith(b"\x89PNG")
    assert transport.files == [("!r", picture.png, "image/png", picture.filename)]

    text = board_content(BOARD, "en")
    image = shown_as(text, picture)
    assert image["msgtype"] == "m.image" and image["body"] == text["body"]
    assert image["url"] == "mxc://example.org/1" and "<pre>" not in image["formatted_body"]
    edit = edit_content("$original", image)
    assert edit["url"] == image["url"] and edit["m.new_content"] == image
    assert shown_as(text, None) is text


async def test_a_refused_upload_is_tried_again_then_the_board_goes_as_text() -> None:
    SHOWN.set(Reply(board=BOARD, picture=True))
    busy = MatrixError("upload", "slow down", "M_LIMIT_EXCEEDED", 10)
    transport = Uploads(busy, MatrixError("upload", "down", "502"))
    assert await uploaded(transport, "!r", BOARD, "en", sleep=no_wait) is not None
    assert len(transport.files) == 3
    refused = Uploads(MatrixError("upload", "too big", "M_TOO_LARGE"))
    assert await uploaded(refused, "!r", BOARD, "en", sleep=no_wait) is None
    assert len(refused.files) == 1  # a permanent refusal is not tried again


def test_the_image_says_how_big_its_picture_is() -> None:
    png = board_png(BOARD)
    image = picture_content(board_content(BOARD, "en"), Picture(png, "b.png", {"url": "mxc://x/y"}))
    assert image["info"]["size"] == len(png) and image["info"]["w"] > 100

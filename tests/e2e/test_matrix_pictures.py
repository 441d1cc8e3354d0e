"""``board_style: picture`` on a real Synapse: the board is an ``m.image`` whose picture is in the
homeserver's media repository, kept current by ``m.replace`` edits that carry a new picture each
(adapters/matrix/pictures.py says why), until the game ends.

Every wait is on an event arriving by sync, with a timeout; nothing sleeps a fixed time.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import nio
from PIL import Image

from tests.e2e.synapse import BOT, Player, Seen, SynapseServer, running_bot, synapse_server
from tests.e2e.test_matrix import edit_after, first_empty, grid, open_room, shown
from tests.e2e.test_matrix_admin import answer_to

__all__ = ["synapse_server"]  # the fixture, imported for pytest


def content(seen: Seen) -> dict[str, Any]:
    value: dict[str, Any] = seen.source.get("content", {})
    return value


def is_image_board(seen: Seen, room: str, bot: str) -> bool:
    return (
        seen.room_id == room
        and seen.source.get("sender") == bot
        and content(seen).get("msgtype") == "m.image"
        and "m.relates_to" not in content(seen)
    )


async def download(player: Player, mxc: str) -> bytes:
    """The media at ``mxc``, as a client fetches it (authenticated media)."""
    response = await player.client.download(mxc=mxc)
    assert isinstance(response, nio.DownloadResponse), response
    body = response.body
    return body if isinstance(body, bytes) else bytes(body)


async def picture_of(player: Player, image: dict[str, Any]) -> Image.Image:
    """The picture an ``m.image`` content shows, checked against what its ``info`` says."""
    data = await download(player, image["url"])
    info = image["info"]
    assert info["mimetype"] == "image/png" and info["size"] == len(data)
    picture = Image.open(io.BytesIO(data))
    assert picture.format == "PNG" and picture.size == (info["w"], info["h"])
    return picture


async def test_a_picture_game_uploads_media_edits_it_in_place_and_finishes(
    synapse_server: SynapseServer, tmp_path: Path
) -> None:
    server = synapse_server
    bot = server.user_id(BOT)
    async with (
        Player(server, "alice") as alice,
        running_bot(server, tmp_path / "bot", bot_admins=[alice.user_id]),
    ):
        room = await open_room(server, alice)
        changed = await answer_to(alice, room, "!settings board_style picture", bot)
        assert "board_style is now picture" in shown(changed)

        mark = alice.mark()
        await alice.say(room, "!tres easy")
        board = await alice.wait_for(
            lambda seen: is_image_board(seen, room, bot), after=mark, what="an image board"
        )
        original = board.source["event_id"]
        first = content(board)
        # The text board is the body (clients without images, notifications); the caption
        # (formatted_body, with filename set) holds the status and what to type, not the grid.
        assert grid(first["body"]) == [["·"] * 3] * 3 and "to move" in first["body"]
        assert first["filename"].endswith(".png") and "<pre>" not in first["formatted_body"]
        assert first["url"].startswith("mxc://")
        await picture_of(alice, first)

        urls = [first["url"]]
        body = first["body"]
        edits: list[Seen] = []
        while "wins" not in body and "draw" not in body:
            assert len(edits) < 5
            event_id = await alice.say(room, first_empty(body))
            edit = await edit_after(alice, room, board, event_id, what="the picture's edit")
            edits.append(edit)
            new = content(edit)["m.new_content"]
            assert new["msgtype"] == "m.image" and new["url"] not in urls  # a new picture
            # A client without edits shows the edit itself: the same new picture, "* " caption.
            assert content(edit)["url"] == new["url"] and content(edit)["body"].startswith("* ")
            urls.append(new["url"])
            body = new["body"]
        assert "!rematch" in body
        final = content(edits[-1])["m.new_content"]
        await picture_of(alice, final)

        # What a client that opens the room later gets: Synapse bundles the latest edit with
        # the original, so it shows the final picture in the original's place.
        fetched = await alice.client.room_get_event(room, original)
        assert isinstance(fetched, nio.RoomGetEventResponse), fetched
        relations = fetched.event.source.get("unsigned", {}).get("m.relations", {})
        assert relations["m.replace"]["event_id"] == edits[-1].source["event_id"]
        assert all(content(e)["m.relates_to"]["event_id"] == original for e in edits)


async def test_an_encrypted_rooms_picture_is_uploaded_encrypted(
    synapse_server: SynapseServer, tmp_path: Path
) -> None:
    # The media repository is not end-to-end encrypted: in an encrypted room the picture goes
    # up as an encrypted attachment, and the (encrypted) event carries its key.
    server = synapse_server
    bot = server.user_id(BOT)
    async with (
        Player(server, "alice", store_dir=tmp_path / "alice-keys") as alice,
        running_bot(server, tmp_path / "bot", bot_admins=[alice.user_id]),
    ):
        room = await open_room(server, alice, encrypted=True)
        await answer_to(alice, room, "!settings board_style picture", bot)
        mark = alice.mark()
        await alice.say(room, "!tres easy")
        board = await alice.wait_for(
            lambda seen: is_image_board(seen, room, bot), after=mark, what="an image board"
        )
        image = content(board)
        assert board.encrypted and "url" not in image
        attachment = image["file"]
        ciphertext = await download(alice, attachment["url"])
        png = nio.crypto.decrypt_attachment(
            ciphertext, attachment["key"]["k"], attachment["hashes"]["sha256"], attachment["iv"]
        )
        assert png.startswith(b"\x89PNG") and len(png) == image["info"]["size"]

        event_id = await alice.say(room, "5")
        edit = await edit_after(alice, room, board, event_id, what="the picture's edit")
        new = content(edit)["m.new_content"]
        assert edit.encrypted and new["file"]["url"] != attachment["url"]

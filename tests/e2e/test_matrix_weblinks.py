"""Links to the web pages on a real Synapse: a text board names its live page while the game
runs, and its final edit is the board's picture, uploaded to the media repository, with the
game's page written under it: Synapse takes an edit that turns the text board into an image
and bundles it with the original, which is what a client opening the room later shows.

Every wait is on an event arriving by sync, with a timeout; nothing sleeps a fixed time.
"""

from __future__ import annotations

from pathlib import Path

import nio

from core.i18n import render
from tests.e2e.synapse import BOT, Player, Seen, SynapseServer, running_bot, synapse_server
from tests.e2e.test_matrix import edit_after, first_empty, is_board, open_room
from tests.e2e.test_matrix_pictures import content, picture_of

__all__ = ["synapse_server"]  # the fixture, imported for pytest

URL = "https://games.example.org"


async def test_a_finished_board_becomes_its_picture_with_the_games_address(
    synapse_server: SynapseServer, tmp_path: Path
) -> None:
    server = synapse_server
    bot = server.user_id(BOT)
    async with (
        Player(server, "alice") as alice,
        running_bot(server, tmp_path / "bot", public_url=URL),
    ):
        room = await open_room(server, alice)
        mark = alice.mark()
        await alice.say(room, "!tres easy")
        board = await alice.wait_for(
            lambda seen: seen.room_id == room and is_board(seen, bot), after=mark, what="a board"
        )
        body = content(board)["body"]
        edits: list[Seen] = []
        while "wins" not in body and "draw" not in body:
            assert len(edits) < 5
            event_id = await alice.say(room, first_empty(body))
            edit = await edit_after(alice, room, board, event_id, what="the board's edit")
            edits.append(edit)
            body = content(edit)["m.new_content"]["body"]
        running = [content(e)["m.new_content"] for e in edits[:-1]]
        assert running and all(
            f"{render('links.live', 'en')}: {URL}/live/" in r["body"] for r in running
        )
        assert all(r["msgtype"] == "m.notice" for r in running)
        final = content(edits[-1])["m.new_content"]
        assert final["msgtype"] == "m.image" and final["url"].startswith("mxc://")
        assert f"{render('links.game', 'en')}: {URL}/game/" in final["body"]
        assert f'<a href="{URL}/game/' in final["formatted_body"]
        await picture_of(alice, final)

        fetched = await alice.client.room_get_event(room, board.source["event_id"])
        assert isinstance(fetched, nio.RoomGetEventResponse), fetched
        relations = fetched.event.source.get("unsigned", {}).get("m.relations", {})
        assert relations["m.replace"]["event_id"] == edits[-1].source["event_id"]

"""Links to the web pages on Matrix: the address written in the message (a running board's live
page, a finished game's page, ``!review``'s), and a finished game's board carrying its picture
as its final edit, one upload and not one event more. The upload is a scripted edge here
(tests/e2e/test_matrix_pictures.py uploads to a real Synapse)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from core.i18n import render
from core.sessions import GameService
from core.store import sessions
from tests.adapters.matrix.fakes import FakeTransport, Sent, power_levels, text
from tests.adapters.matrix.harness import (
    ALICE,
    BOB,
    FAST,
    ROOM,
    edit_of,
    is_board,
    notice_to,
    running,
    serving,
    state,
)

URL = "https://games.example.org"
MOVES = ((ALICE, "1"), (BOB, "4"), (ALICE, "2"), (BOB, "5"), (ALICE, "3"))  # X wins


class Uploading(FakeTransport):
    """The fake homeserver, with a media repository."""

    def __init__(self) -> None:
        super().__init__()
        self.uploads: list[str] = []

    async def upload(
        self, room_id: str, data: bytes, content_type: str, filename: str
    ) -> dict[str, Any]:
        assert data.startswith(b"\x89PNG") and content_type == "image/png"
        self.uploads.append(filename)
        return {"url": f"mxc://example.org/{len(self.uploads)}"}


async def played(
    service: GameService, *, links_off: bool = False
) -> tuple[Uploading, list[Sent], Sent]:
    """A game of tic-tac-toe between Alice and Bob in the room, then ``!review``: what was
    sent, the board's edits and the review."""
    await state(service).set_next_batch("s0")
    fake = Uploading()
    async with running(service, fake):
        if links_off:
            fake.deliver(
                (ROOM, power_levels("$pl", ALICE, {ALICE: 100})),
                (ROOM, text("$off", ALICE, "!settings web_links off")),
            )
            await fake.wait_sent(notice_to("$off"))
        fake.deliver((ROOM, text("$challenge", ALICE, "!tres @bob first")))
        await fake.wait_sent(lambda sent: BOB in str(sent.content.get("m.mentions")))
        fake.deliver((ROOM, text("$accept", BOB, "!accept")))
        [board] = await fake.wait_sent(is_board)
        for n, (who, move) in enumerate(MOVES, start=1):
            fake.deliver((ROOM, text(f"$m{n}", who, move)))
            await fake.wait_sent(edit_of(board.event_id), count=n)
        fake.deliver((ROOM, text("$review", BOB, "!review")))
        [review] = await fake.wait_sent(notice_to("$review"))
    return fake, [s for s in fake.sent if edit_of(board.event_id)(s)], review


async def test_boards_and_review_write_the_pages_addresses(tmp_path: Path) -> None:
    settings = replace(FAST, public_url=URL)
    async with serving(tmp_path / "db.sqlite3", settings=settings) as service:
        fake, edits, review = await played(service)
        game = await service.store.run(sessions.last_finished("matrix", ROOM, None))
    assert game is not None
    live = f"{render('links.live', 'en')}: {URL}/live/{game.public_id}"
    page = f"{render('links.game', 'en')}: {URL}/game/{game.public_id}"
    running_edits = [e.content["m.new_content"] for e in edits[:-1]]
    assert all(live in shown["body"] for shown in running_edits)
    assert all(
        f'<a href="{URL}/live/{game.public_id}">' in e["formatted_body"] for e in running_edits
    )
    assert all(e["msgtype"] == "m.notice" for e in running_edits)
    # The end: the picture itself, with the text board, the result and the link as its text.
    final = edits[-1].content["m.new_content"]
    assert final["msgtype"] == "m.image" and final["url"] == "mxc://example.org/1"
    assert (
        page in final["body"]
        and f'<a href="{URL}/game/{game.public_id}">' in final["formatted_body"]
    )
    assert edits[-1].content["url"] == final["url"]  # clients without edits see it too
    assert fake.uploads == [f"board-{game.id}-{game.version}.png"]
    assert page in review.content["body"]


async def test_the_picture_costs_no_event_and_web_links_off_removes_it_all(
    tmp_path: Path,
) -> None:
    async with serving(tmp_path / "plain.sqlite3") as service:
        plain, _, _ = await played(service)
    settings = replace(FAST, public_url=URL)
    async with serving(tmp_path / "linked.sqlite3", settings=settings) as service:
        linked, _, _ = await played(service)
    assert len(linked.sent) == len(plain.sent) and plain.uploads == []
    async with serving(tmp_path / "off.sqlite3", settings=settings) as service:
        off, edits, _ = await played(service, links_off=True)
    assert off.uploads == [] and edits[-1].content["m.new_content"]["msgtype"] == "m.notice"
    assert not [s for s in off.sent if URL in str(s.content)]
    assert len(off.sent) == len(plain.sent) + 1  # the setting's answer

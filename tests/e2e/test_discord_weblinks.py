"""End to end on Discord: links to the web pages as link buttons (a ``url``, no ``custom_id``:
the double refuses any other shape, as Discord does, ``tests/e2e/discord_v2.py``), on button
boards and on Components V2 picture boards; none where a server turned ``web_links`` off."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from core.i18n import render
from core.sessions import ServiceSettings
from core.store import sessions
from tests.e2e import discord_v2 as v2
from tests.e2e.discord_double import DiscordDouble, Json, Sent, button_rows, buttons
from tests.e2e.discord_harness import Harness, ManualClock, clock, double

__all__ = ["clock", "double"]  # fixtures

URL = "https://games.example.org"
LINKED = ServiceSettings(
    ai_workers=0, ai_warm_up=False, ai_budget=0.3, sweep_interval=3600.0, public_url=URL
)


@pytest.fixture
async def harness(
    double: DiscordDouble, tmp_path: Path, clock: ManualClock
) -> AsyncIterator[Harness]:
    running = Harness(double, tmp_path / "bot.sqlite3", clock=clock, settings=LINKED)
    await running.start()
    try:
        yield running
    finally:
        await running.stop()


def links(message: Json) -> list[tuple[str, str, bool]]:
    """A message's link buttons: label, address, disabled."""
    return [
        (b["label"], b["url"], bool(b.get("disabled")))
        for b in buttons(message)
        if b.get("style") == v2.LINK
    ]


def playable(message: Json) -> list[str]:
    return [
        b["custom_id"]
        for b in buttons(message)
        if ":move:" in b.get("custom_id", "") and not b.get("disabled")
    ]


def answered(sent: Sent) -> None:
    callbacks = [r for r in sent.requests if r.kind == "callback"]
    assert len(callbacks) == 1 and callbacks[0].status == 200, sent.requests
    assert all(r.status < 300 for r in sent.requests), sent.requests


async def played_out(double: DiscordDouble, board_id: int) -> list[Json]:
    """Alice plays the first free cell until the game ends; the board after each move."""
    shown = []
    while playable(double.messages[board_id]):
        click = await double.click(board_id, playable(double.messages[board_id])[0], user="alice")
        answered(click)
        shown.append(double.snapshot(board_id))
    return shown


async def test_a_board_links_its_live_page_then_its_game_page(
    harness: Harness, double: DiscordDouble
) -> None:
    start = await double.slash("tres", {"level": "hard"}, user="alice")
    answered(start)
    assert start.original_id is not None
    board_id = start.original_id
    assert links(double.messages[board_id]) == []  # nothing played yet: nothing to watch
    shown = await played_out(double, board_id)
    channel = str(double.messages[board_id]["channel_id"])
    game = await harness.service.store.run(sessions.last_finished("discord", channel, None))
    assert game is not None
    live = (render("links.live", "en"), f"{URL}/live/{game.public_id}", False)
    page = (render("links.game", "en"), f"{URL}/game/{game.public_id}", False)
    assert all(links(board) == [live] for board in shown[:-1])
    final = double.messages[board_id]
    assert links(final) == [page]
    # A row of its own, under Rematch and Review, which keep theirs.
    rows = button_rows(final)
    assert [b.get("label") for b in rows[-2]] == ["Rematch", "Review"]
    assert [b["style"] for b in rows[-1]] == [v2.LINK] and "custom_id" not in rows[-1][0]

    review_id = next(b["custom_id"] for b in rows[-2] if b["label"] == "Review")
    review = await double.click(board_id, review_id, user="bob")
    answered(review)
    [posted] = [r.message_id for r in review.requests if r.message_id is not None]
    assert links(double.messages[posted]) == [page]

    # A rematch disables the old board's buttons; its page stays open.
    rematch_id = next(b["custom_id"] for b in rows[-2] if b["label"] == "Rematch")
    answered(await double.click(board_id, rematch_id, user="alice"))
    assert links(double.messages[board_id]) == [page]
    assert all(b.get("disabled") for b in buttons(double.messages[board_id]) if "custom_id" in b)


async def test_a_picture_board_carries_its_link_button(
    harness: Harness, double: DiscordDouble
) -> None:
    start = await double.slash(
        "ratlla", {"size": "9x9", "k": 4, "level": "easy", "first": "opponent"}, user="alice"
    )
    answered(start)
    assert start.original_id is not None
    board = double.messages[start.original_id]
    assert int(board["flags"]) & v2.IS_COMPONENTS_V2 and not board["content"]
    [(label, url, disabled)] = links(board)
    assert label == render("links.live", "en") and url.startswith(f"{URL}/live/")
    assert not disabled


async def test_web_links_off_leaves_no_link_button(harness: Harness, double: DiscordDouble) -> None:
    double.grant("alice")  # Manage Server
    off = await double.slash("settings", {"key": "web_links", "value": "off"}, user="alice")
    answered(off)
    start = await double.slash("tres", {"level": "hard"}, user="alice")
    assert start.original_id is not None
    shown = await played_out(double, start.original_id)
    assert shown and not [board for board in shown if links(board)]
    top = await double.slash("stats", user="alice")
    answered(top)
    assert not [r for r in top.requests if r.message_id and links(double.messages[r.message_id])]

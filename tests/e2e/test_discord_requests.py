"""End to end on Discord: every request the bot makes is one Discord accepts.

The double refuses what Discord refuses (``tests/e2e/discord_v2.py``: a Components V2 message
never loses its flag and holds no ``content``; a channel where the bot is not a member answers
403 Missing Access) and counts the requests Discord counts against the bot (401, 403, 429:
10,000 in 10 minutes and the address is blocked).
"""

from __future__ import annotations

from pathlib import Path

from core.i18n import render
from core.sessions import ServiceSettings
from tests.e2e import discord_v2 as v2
from tests.e2e.discord_double import (
    DiscordDouble,
    Json,
    Sent,
    button_ids,
    picture,
    selects,
    text_of,
)
from tests.e2e.discord_harness import Harness, ManualClock, clock, double, harness

__all__ = ["clock", "double", "harness"]  # fixtures


def accepted(double: DiscordDouble, sent: Sent) -> None:
    """``sent`` was answered once, and Discord took every request the bot made for it."""
    callbacks = [r for r in sent.requests if r.kind == "callback"]
    assert len(callbacks) == 1 and callbacks[0].status == 200, sent.requests
    refused = [r for r in double.requests if r.status >= 300]
    assert not refused, refused


def is_v2(message: Json) -> bool:
    return bool(int(message.get("flags") or 0) & v2.IS_COMPONENTS_V2)


def is_review(text: str, game: str, x: str, o: str) -> bool:
    """Whether ``text`` is the answer to a review: the review itself, or its refusal where the
    solver could not finish in time on a busy machine (the review's text is tested in
    tests/core; here it must reach the player, and the apology for a refused request not)."""
    unavailable = render("review.unavailable", "en", game=game)
    return text.startswith(f"Review of {game} (X: {x}, O: {o})") or text == unavailable


async def test_a_connect_four_picture_board_is_reviewed_in_a_message_of_its_own(
    harness: Harness, double: DiscordDouble
) -> None:
    # Alice's theme makes her board a Components V2 picture: the review, by its button or by
    # /review, must not edit it as a plain message (Discord refuses: the flag stays for good).
    await double.slash("theme", {"theme": "contrast"}, user="alice")
    start = await double.slash("quatre", {"level": "easy"}, user="alice")
    board_id = start.original_id
    assert board_id is not None
    while not any(c.endswith(":review") for c in button_ids(double.messages[board_id])):
        board = double.messages[board_id]
        column = next(c for c in button_ids(board) if ":move:" in c and not _disabled(board, c))
        accepted(double, await double.click(board_id, column, user="alice"))
    finished = double.snapshot(board_id)
    assert is_v2(finished)

    # The review is kept as the game goes (a whole one can take seconds on a busy machine).
    await harness.service.kept_reviews_idle()
    review = next(c for c in button_ids(finished) if c.endswith(":review"))
    pressed = await double.click(board_id, review, user="bob")
    accepted(double, pressed)
    # A new message (the response, or a follow-up after a deferral): the board stays as it was.
    assert not [r for r in pressed.requests if r.kind == "original_edit"]
    [said] = pressed.public()
    assert is_review(said, "Connect Four 6x7", "Alice", "Bot (easy)"), said
    assert double.messages[board_id] == finished

    typed = await double.slash("review", user="alice")
    accepted(double, typed)
    [again] = typed.public()
    assert is_review(again, "Connect Four 6x7", "Alice", "Bot (easy)"), again
    assert double.messages[board_id] == finished
    assert not [r for r in double.requests if r.kind == "channel_edit"]


async def test_a_free_picture_board_is_reviewed_in_a_message_of_its_own(
    harness: Harness, double: DiscordDouble
) -> None:
    start = await double.slash("ratlla", {"size": "9x9", "k": 5, "level": "easy"}, user="alice")
    board_id = start.original_id
    assert board_id is not None
    columns = next(m for m in selects(double.messages[board_id]) if "c4:col:" in m["custom_id"])
    value = columns["options"][4]["value"]
    accepted(double, await double.select(board_id, columns["custom_id"], [value], user="alice"))
    cells = next(m for m in selects(double.messages[board_id]) if "c4:cell:" in m["custom_id"])
    cell = cells["options"][-1]["value"]
    accepted(double, await double.select(board_id, cells["custom_id"], [cell], user="alice"))
    accepted(double, await double.slash("final", user="alice"))  # then she resigns
    finished = double.snapshot(board_id)
    assert is_v2(finished) and "Alice resigned" in text_of(finished)

    typed = await double.slash("review", user="alice")
    accepted(double, typed)
    assert typed.public() == [render("review.unavailable", "en", game="5 in a row on 9x9")]
    assert double.messages[board_id] == finished


async def test_a_redrawn_cell_menu_names_the_picture_as_an_attachment(
    harness: Harness, double: DiscordDouble
) -> None:
    # The message read back names its picture by its CDN address, signed and expiring: an edit
    # that kept it would show a broken picture once it expired.
    start = await double.slash("ratlla", {"size": "15x15", "k": 5, "level": "easy"}, user="alice")
    board_id = start.original_id
    assert board_id is not None
    before = double.snapshot(board_id)
    columns = next(m for m in selects(before) if m["custom_id"].startswith("c4:col:"))
    picked = await double.select(
        board_id, columns["custom_id"], [columns["options"][3]["value"]], user="alice"
    )
    accepted(double, picked)
    assert picked.callback["type"] == 7
    sent = picked.callback["data"]["components"]
    urls = [
        item["media"]["url"]
        for gallery in v2.walk(sent)
        if gallery.get("type") == v2.MEDIA_GALLERY
        for item in gallery["items"]
    ]
    [attachment] = before["attachments"]
    assert urls == [f"attachment://{attachment['filename']}"]
    assert picture(double, double.messages[board_id]) == picture(double, before)


async def test_a_timeout_where_the_bot_is_not_a_member_waits_for_the_next_click(
    double: DiscordDouble, tmp_path: Path, clock: ManualClock
) -> None:
    # A user's install in a group DM: every channel request there would be refused, and
    # counted against the bot. The timeout (and a reminder before it) is shown by the next
    # click instead, and no request is made for it.
    settings = ServiceSettings(
        ai_workers=0, ai_warm_up=False, ai_budget=0.3, sweep_interval=3600.0, clock_interval=3600
    )
    running = Harness(double, tmp_path / "timed.sqlite3", clock=clock, settings=settings)
    await running.start()
    try:
        group = double.group_dm("alice", "bob")
        challenge = await double.slash(
            "tres", {"opponent": "bob", "clock": "1m"}, user="alice", group=group
        )
        board_id = challenge.original_id
        assert board_id is not None
        accept = next(c for c in button_ids(double.messages[board_id]) if c.endswith(":accept"))
        await double.click(board_id, accept, user="bob")
        stale = double.snapshot(board_id)
        # A restart: what the interactions said of the chat is kept in the store.
        await running.stop()
        await running.start()

        clock.advance(50)  # past the reminder, due when a fifth of her minute is left
        assert await running.service.sweep_clocks() == 0
        await running.service.clocks_idle()
        assert not [r for r in double.requests if r.path.startswith("/channels/")]
        clock.advance(15)  # past Alice's deadline
        assert await running.service.sweep_clocks() == 1
        await running.service.clocks_idle()
        assert not [r for r in double.requests if r.path.startswith("/channels/")]
        assert double.invalid_requests == 0
        assert double.messages[board_id] == stale

        cell = next(c for c in button_ids(stale) if ":move:" in c)
        click = await double.click(board_id, cell, user="bob")
        accepted(double, click)
        timeout = render("game.timeout", "en", player="Alice", winner="Bob")
        assert timeout in double.messages[board_id]["content"]
    finally:
        await running.stop()


def _disabled(message: Json, custom_id: str) -> bool:
    return any(
        c.get("custom_id") == custom_id and c.get("disabled")
        for c in v2.walk(message.get("components") or [])
    )

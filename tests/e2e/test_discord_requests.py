"""End to end on Discord: every request the bot makes is one Discord accepts.

The double refuses what Discord refuses (``tests/e2e/discord_v2.py``: a Components V2 message
never loses its flag and holds no ``content``; a channel where the bot is not a member answers
403 Missing Access) and counts the requests Discord counts against the bot (401, 403, 429:
10,000 in 10 minutes and the address is blocked).
"""

from __future__ import annotations

from core.i18n import render
from tests.e2e import discord_v2 as v2
from tests.e2e.discord_double import (
    DiscordDouble,
    Json,
    Sent,
    button_ids,
    picture,
    text_of,
)
from tests.e2e.discord_harness import Harness, clock, double, harness
from tests.e2e.test_discord_pictures import menu, play

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
    start = await double.slash("ratlla", {"size": "15x15", "k": 5, "level": "easy"}, user="alice")
    board_id = start.original_id
    assert board_id is not None
    await play(double, board_id, "alice", 7 * 15 + 7)  # h8, by the menus
    accepted(double, await double.slash("final", user="alice"))  # then she resigns
    finished = double.snapshot(board_id)
    assert is_v2(finished) and "Alice resigned" in text_of(finished)

    typed = await double.slash("review", user="alice")
    accepted(double, typed)
    assert typed.public() == [render("review.unavailable", "en", game="5 in a row on 15x15")]
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
    columns = menu(before, "col")
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


def _disabled(message: Json, custom_id: str) -> bool:
    return any(
        c.get("custom_id") == custom_id and c.get("disabled")
        for c in v2.walk(message.get("components") or [])
    )

"""End to end on Discord: boards too big for buttons are pictures played with two menus.

The real discord.py client and the real service against the loopback double, which accepts the
picture as a multipart upload, sets and keeps the IS_COMPONENTS_V2 flag and refuses what Discord
would (``tests/e2e/discord_v2.py``).
"""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image

from core.games import Rules
from core.i18n import render
from core.pictures import CLASSIC, DISCS, HIGH_CONTRAST, picture_geometry
from tests.e2e import discord_v2 as v2
from tests.e2e.discord_double import (
    DiscordDouble,
    Json,
    Sent,
    button_ids,
    buttons,
    picture,
    selects,
    text_of,
)
from tests.e2e.discord_harness import Harness, clock, double, harness
from tests.e2e.test_discord import WATCH_FAST

__all__ = ["clock", "double", "harness"]  # fixtures

GOMOKU = Rules(15, 15, 5, gravity=False)
LETTERS = "abcdefghijklmno"


def menu(message: Json, kind: str) -> Json:
    """The column (``col``) or cell (``cell``) menu of a picture board."""
    return next(m for m in selects(message) if m["custom_id"].startswith(f"c4:{kind}:"))


def answered(sent: Sent) -> None:
    callbacks = [r for r in sent.requests if r.kind == "callback"]
    assert len(callbacks) == 1 and callbacks[0].status == 200, sent.requests
    assert all(r.status < 300 for r in sent.requests), sent.requests


async def play(double: DiscordDouble, board_id: int, user: str, cell: int) -> Sent:
    """``user`` plays ``cell`` by the menus alone: its column, then the cell."""
    row, col = divmod(cell, GOMOKU.cols)
    columns = menu(double.messages[board_id], "col")
    [value] = [o["value"] for o in columns["options"] if o["label"] == LETTERS[col]]
    picked = await double.select(board_id, columns["custom_id"], [value], user=user)
    answered(picked)
    assert picked.callback["type"] == 7 and not picked.ephemeral()
    cells = menu(double.messages[board_id], "cell")
    assert not cells.get("disabled") and f"{LETTERS[col]}{row + 1}" in {
        o["label"] for o in cells["options"]
    }
    moved = await double.select(board_id, cells["custom_id"], [str(cell)], user=user)
    answered(moved)
    assert not moved.ephemeral(), moved.ephemeral()
    return moved


async def test_a_15x15_game_is_played_to_the_end_by_menus_alone_across_a_restart(
    harness: Harness, double: DiscordDouble
) -> None:
    challenge = await double.slash(
        "ratlla", {"size": "15x15", "k": 5, "opponent": "bob"}, user="alice"
    )
    board_id = challenge.original_id
    assert board_id is not None
    accept = next(c for c in button_ids(double.messages[board_id]) if c.endswith(":accept"))
    answered(await double.click(board_id, accept, user="bob"))
    board = double.messages[board_id]  # the challenge became the board, for good
    assert int(board["flags"]) & v2.IS_COMPONENTS_V2 and not board["content"]

    alice = [7 * 15 + col for col in range(3, 8)]  # d8 .. h8
    bob = [9 * 15 + col for col in range(3, 7)]  # d10 .. g10
    pictures = {picture(double, double.messages[board_id])}
    for turn, (mine, theirs) in enumerate(zip(alice, bob, strict=False)):
        await play(double, board_id, "alice", mine)
        if turn == 1:  # a restart in the middle of the game: the menus keep working
            await harness.stop()
            await harness.start()
        await play(double, board_id, "bob", theirs)
        pictures.add(picture(double, double.messages[board_id]))
    assert len(pictures) == 5  # a new picture for every turn
    await play(double, board_id, "alice", alice[-1])

    board = double.messages[board_id]
    assert render("game.won", "en", player="Alice", mark="X") in text_of(board)
    assert selects(board) == [] and any(c.endswith(":rematch") for c in button_ids(board))
    assert len(board["attachments"]) == 1 and int(board["flags"]) & v2.IS_COMPONENTS_V2
    image = Image.open(io.BytesIO(picture(double, board))).convert("RGB")
    layout = picture_geometry(GOMOKU)
    (xa, ya), (xb, yb) = layout.centre(7, 3), layout.centre(7, 4)
    assert image.getpixel(((xa + xb) // 2, (ya + yb) // 2)) == CLASSIC.winning_line

    rematch = next(c for c in button_ids(board) if c.endswith(":rematch"))
    again = await double.click(board_id, rematch, user="bob")
    answered(again)
    old = double.messages[board_id]
    assert buttons(old) and all(b.get("disabled") for b in buttons(old))
    assert picture(double, old) == picture(double, board)  # the finished game stays shown


async def test_stale_and_forged_selections_get_the_answers_of_stale_buttons(
    harness: Harness, double: DiscordDouble
) -> None:
    start = await double.slash("ratlla", {"size": "15x15", "k": 5, "level": "easy"}, user="alice")
    board_id = start.original_id
    assert board_id is not None
    columns = menu(double.messages[board_id], "col")
    [h] = [o["value"] for o in columns["options"] if o["label"] == "h"]
    await double.select(board_id, columns["custom_id"], [h], user="alice")
    stale = double.snapshot(board_id)  # the cells of column h at this version
    cells = menu(stale, "cell")
    answered(await double.select(board_id, cells["custom_id"], [str(7 * 15 + 7)], user="alice"))

    again = await double.select(stale, cells["custom_id"], [str(6 * 15 + 7)], user="alice")
    answered(again)
    assert again.ephemeral() == [render("error.board_changed", "en")]
    # A column of the stale board: the same answer, the menu's message shown as it now is.
    late = await double.select(stale, menu(stale, "col")["custom_id"], [h], user="alice")
    answered(late)
    assert late.ephemeral() == [render("error.board_changed", "en")]
    assert late.callback["type"] == 7  # the board updated in place, by the response itself

    now = double.snapshot(board_id)
    columns = menu(now, "col")
    forged = await double.select(board_id, columns["custom_id"], ["zz"], user="alice", forge=True)
    assert forged.ephemeral() == [render("discord.unknown_button", "en")]
    cells = menu(now, "cell")
    off = await double.select(board_id, cells["custom_id"], ["999"], user="alice", forge=True)
    assert len(off.ephemeral()) == 1
    unknown = await double.select(board_id, "c4:col:nosuchgame:1", [h], user="alice", forge=True)
    assert unknown.ephemeral() == [render("discord.unknown_button", "en")]
    assert double.messages[board_id]["attachments"] == now["attachments"]  # nothing played


async def test_the_chats_theme_setting_draws_its_pictures(
    harness: Harness, double: DiscordDouble
) -> None:
    double.grant("bob")
    [answer] = (
        await double.slash("settings", {"key": "theme", "value": "neon"}, user="bob")
    ).ephemeral()
    assert "auto, classic, discs, contrast" in answer
    await double.slash("settings", {"key": "theme", "value": "contrast"}, user="bob")
    start = await double.slash("ratlla", {"size": "9x9", "k": 5, "level": "easy"}, user="alice")
    assert start.original_id is not None
    image = Image.open(io.BytesIO(picture(double, double.messages[start.original_id])))
    assert image.convert("RGB").getpixel((0, 0)) == HIGH_CONTRAST.background


def test_the_double_refuses_what_discord_refuses() -> None:
    text = {"type": v2.TEXT_DISPLAY, "content": "x"}
    assert v2.problem({"components": [text]}, v2.IS_COMPONENTS_V2, []) is None
    assert v2.problem({"content": "hi", "components": [text]}, v2.IS_COMPONENTS_V2, [])
    many = [{"type": 17, "components": [text] * 40}]
    assert "41 components" in str(v2.problem({"components": many}, v2.IS_COMPONENTS_V2, []))
    long = [{"type": v2.TEXT_DISPLAY, "content": "x" * 4001}]
    assert "4001 characters" in str(v2.problem({"components": long}, v2.IS_COMPONENTS_V2, []))
    options = [{"label": str(n), "value": str(n)} for n in range(26)]
    menu_row = [
        {"type": 1, "components": [{"type": v2.SELECT, "custom_id": "m", "options": options}]}
    ]
    assert "1 to 25 options" in str(v2.problem({"components": menu_row}, 0, []))
    gallery = [{"type": v2.MEDIA_GALLERY, "items": [{"media": {"url": "attachment://a.png"}}]}]
    assert v2.problem({"components": gallery}, v2.IS_COMPONENTS_V2, [])
    assert v2.problem({"components": gallery}, v2.IS_COMPONENTS_V2, [{"filename": "a.png"}]) is None


def background(double: DiscordDouble, message: Json) -> tuple[int, int, int]:
    """The colour of a picture board's top-left corner (its theme's background)."""
    image = Image.open(io.BytesIO(picture(double, message))).convert("RGB")
    r, g, b = image.getpixel((0, 0))  # type: ignore[misc]
    return r, g, b


def is_v2(message: Json) -> bool:
    return bool(int(message.get("flags") or 0) & v2.IS_COMPONENTS_V2)


async def test_a_connect_four_game_shows_the_picture_theme(
    harness: Harness, double: DiscordDouble
) -> None:
    [said] = (await double.slash("theme", {"theme": "contrast"}, user="alice")).ephemeral()
    assert said.startswith("Your theme is now contrast")
    start = await double.slash("quatre", {"level": "easy"}, user="alice")
    board_id = start.original_id
    assert board_id is not None
    board = double.messages[board_id]
    columns = [c for c in button_ids(board) if ":move:" in c]
    assert is_v2(board) and len(columns) == 7 and not selects(board)
    assert background(double, board) == HIGH_CONTRAST.background
    assert "❎ Alice" in text_of(board)  # the theme's emoji name the players' marks

    answered(await double.click(board_id, columns[3], user="alice"))
    board = double.messages[board_id]
    assert is_v2(board) and background(double, board) == HIGH_CONTRAST.background
    # Her theme forgotten mid-game: the message keeps its picture layout (Discord never lets a
    # message lose the V2 flag), drawn in the game's own theme from then on.
    await double.slash("theme", {"theme": "reset"}, user="alice")
    columns = [c for c in button_ids(board) if ":move:" in c]
    answered(await double.click(board_id, columns[2], user="alice"))
    board = double.messages[board_id]
    assert is_v2(board) and background(double, board) == DISCS.background

    # Bob has no theme and the chat none: his game is the emoji board with buttons, as before.
    other = await double.slash("quatre", {"level": "easy"}, user="bob")
    assert other.original_id is not None
    message = double.messages[other.original_id]
    assert not is_v2(message) and "⚫⚫⚫⚫⚫⚫⚫" in message["content"]


async def test_only_a_player_may_pick_a_column(harness: Harness, double: DiscordDouble) -> None:
    start = await double.slash("ratlla", {"size": "15x15", "k": 5, "level": "easy"}, user="alice")
    board_id = start.original_id
    assert board_id is not None
    before = double.snapshot(board_id)
    columns = menu(before, "col")
    [h] = [o["value"] for o in columns["options"] if o["label"] == "h"]
    picked = await double.select(board_id, columns["custom_id"], [h], user="bob")
    answered(picked)
    refusal = render("error.not_your_game", "en")
    assert picked.ephemeral() == [refusal]
    assert menu(double.messages[board_id], "cell") == menu(before, "cell")  # nothing redrawn
    answered(await double.select(board_id, columns["custom_id"], [h], user="alice"))
    cells = menu(double.messages[board_id], "cell")  # column h's cells, which Alice asked for
    cell = await double.select(board_id, cells["custom_id"], [str(7 * 15 + 7)], user="bob")
    assert cell.ephemeral() == [refusal]  # the answer to his pick of a cell (a move)


async def test_a_watched_connect_four_game_keeps_its_starters_theme_move_by_move(
    tmp_path: Path, double: DiscordDouble
) -> None:
    # The moves of a bots' game come later than its command, through the platform's publish:
    # they are drawn in the starter's theme too, so every edit is the V2 picture (an edit
    # without the flag would be refused, and the game would be posted anew).
    bot = Harness(double, tmp_path / "watch.sqlite3", settings=WATCH_FAST)
    await bot.start()
    try:
        await double.slash("theme", {"theme": "contrast"}, user="alice")
        start = await double.slash("quatre", {"watch": True, "level": "easy"}, user="alice")
        board_id = start.original_id
        assert board_id is not None

        def over() -> bool:
            return any(c.endswith(":rematch") for c in button_ids(double.messages[board_id]))

        await double.wait_for(over, within=20)
    finally:
        await bot.stop()
    board = double.messages[board_id]
    assert is_v2(board) and background(double, board) == HIGH_CONTRAST.background
    path = f"/channels/{double.channel_id}/messages/{board_id}"
    edits = [r for r in double.requests if r.kind == "channel_edit" and r.path == path]
    assert len(edits) >= 7 and all(r.status == 200 for r in edits)
    # No board was posted anew: the channel got the result's text alone.
    posted = [r for r in double.requests if r.kind == "channel_create"]
    assert len(posted) == 1 and "attachments" not in str(posted[0].body)


async def test_help_is_one_private_message_and_a_topic_another(
    harness: Harness, double: DiscordDouble
) -> None:
    # In Spanish, the longest language, the overview is one message under Discord's 2,000
    # characters; the slash command's topic option answers with that topic alone, also one.
    answer = await double.slash("help", user="alice", locale="es-ES")
    parts = answer.ephemeral()
    assert len(parts) == 1 and len(parts[0]) <= 2000
    assert parts[0].startswith(render("help.title", "es")) and "/theme" in parts[0]
    assert render("help.moves", "es", prefix="/") in parts[0]
    topic = await double.slash("help", {"topic": "play"}, user="alice", locale="es-ES")
    parts = topic.ephemeral()
    assert len(parts) == 1 and len(parts[0]) <= 2000
    assert parts[0].startswith("/help play") and render("help.levels", "es") in parts[0]

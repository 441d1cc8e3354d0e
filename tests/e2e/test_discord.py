"""End to end: the real discord.py client and the real service against a loopback Discord.

Each test drives the bot the way Discord would (INTERACTION_CREATE over the gateway) and checks
what a player would see: the messages the bot created or edited, their buttons, and which
answers were ephemeral. Nothing of the bot or the service is faked.
"""

from __future__ import annotations

import asyncio
import itertools
import statistics
from pathlib import Path

import pytest

from core.i18n import render
from core.sessions import ServiceSettings
from tests.core.test_sessions_endings import HeldRunner
from tests.e2e.discord_double import (
    DiscordDouble,
    Json,
    Recorded,
    Sent,
    button_ids,
    button_rows,
    buttons,
    picture,
    selects,
    text_of,
)
from tests.e2e.discord_harness import Harness, ManualClock, clock, double, harness

__all__ = ["clock", "double", "harness"]  # fixtures

SUCCESS = 3  # ButtonStyle.success: the winning line
X_MARK, O_MARK = "❌", "⭕"


def board_of(double: DiscordDouble, sent: Sent) -> Json:
    """The message the interaction showed or updated (its current state)."""
    assert sent.original_id is not None, sent.requests
    return double.messages[sent.original_id]


def enabled(message: Json) -> list[str]:
    """The cells or columns that can be played now."""
    return [b["custom_id"] for b in cell_buttons(message) if not b.get("disabled")]


def cell_buttons(message: Json) -> list[Json]:
    return [b for b in buttons(message) if ":move:" in b["custom_id"]]


def marks(message: Json) -> list[str]:
    return [(b.get("emoji") or {}).get("name", "") for b in cell_buttons(message)]


def rematch_buttons(message: Json) -> list[Json]:
    return [b for b in buttons(message) if b.get("custom_id", "").endswith(":rematch")]


def assert_answered_once(sent: Sent) -> None:
    callbacks = [r for r in sent.requests if r.kind == "callback"]
    assert len(callbacks) == 1 and callbacks[0].status == 200, sent.requests
    assert sent.latency < 3.0
    assert all(r.status < 300 for r in sent.requests), sent.requests


async def test_tictactoe_against_hard_until_the_end(
    harness: Harness, double: DiscordDouble
) -> None:
    start = await double.slash("tres", {"level": "hard"}, user="alice")
    assert_answered_once(start)
    board = board_of(double, start)
    assert start.callback["type"] == 4 and not start.ephemeral()
    rows = button_rows(board)
    assert [len(row) for row in rows] == [3, 3, 3]  # rows of the board's width
    assert "Alice" in board["content"] and "hard" in board["content"]
    board_id = int(board["id"])

    while enabled(board):
        click = await double.click(board_id, enabled(board)[0], user="alice")
        assert_answered_once(click)
        assert click.callback["type"] == 7  # the board message itself is updated
        assert not click.ephemeral()
        board = double.messages[board_id]

    # A perfect bot: Alice, who always takes the first free cell, cannot win.
    assert render("game.won", "en", player="Alice", mark="X") not in board["content"]
    assert all(b.get("disabled") for b in cell_buttons(board))
    winning = [b for b in cell_buttons(board) if b["style"] == SUCCESS]
    if winning:  # the bot won: its line is green and keeps its marks
        assert len(winning) == 3
        assert {(b.get("emoji") or {}).get("name") for b in winning} == {O_MARK}
        assert "Bot" in click.public()[-1]
    else:
        assert render("game.draw", "en") in board["content"]
    last_row = button_rows(board)[-1]
    assert [b["label"] for b in last_row] == ["Rematch", "Review"]  # a row of their own
    assert not any(b.get("disabled") for b in last_row)

    # Anyone in the channel may ask for the review once the game is over.
    review = next(cid for cid in button_ids(board) if cid.endswith(":review"))
    board = double.snapshot(board_id)
    pressed = await double.click(board_id, review, user="bob")
    assert_answered_once(pressed)
    lines = "\n".join(pressed.public()).splitlines()
    assert any(line.startswith("Review of tic-tac-toe (X: Alice, O: Bot (hard))") for line in lines)
    moves = [line for line in lines if line[:1].isdigit()]
    assert moves[0] == "1. X a1: draw → draw"
    assert not [line for line in moves if ". O " in line and "✗" in line]  # HARD errs never
    mistakes = sum("✗" in line for line in moves)
    summary = render("review.summary", "en", mistakes=mistakes)
    assert lines[-1] == (summary if mistakes else render("review.perfect", "en"))
    assert double.messages[board_id] == board  # the board stays, its Rematch with it


async def test_connect_four_by_columns_with_a_full_column(
    harness: Harness, double: DiscordDouble
) -> None:
    start = await double.slash("quatre", {"level": "medium"}, user="alice")
    board = board_of(double, start)
    board_id = int(board["id"])
    assert [len(row) for row in button_rows(board)] == [5, 2]  # seven columns, two rows
    assert [b["label"] for b in buttons(board)] == [str(c) for c in range(1, 8)]
    assert "1️⃣2️⃣3️⃣4️⃣5️⃣6️⃣7️⃣" in board["content"]  # the board drawn above the buttons

    column = next(cid for cid in button_ids(board) if cid.endswith(":3"))
    while column in enabled(board):
        click = await double.click(board_id, column, user="alice")
        assert_answered_once(click)
        board = double.messages[board_id]
        column = next(cid for cid in button_ids(board) if cid.endswith(":3"))
    assert enabled(board), "the game should still be on when column 4 is full"
    assert board["content"].count(X_MARK) + board["content"].count(O_MARK) >= 6

    # The full column's button is disabled; a click that gets through anyway is refused.
    full = await double.click(board_id, column, user="alice")
    assert_answered_once(full)
    assert full.ephemeral() == [render("error.column_full", "en", column=4)]

    while enabled(board):
        click = await double.click(board_id, enabled(board)[0], user="alice")
        assert_answered_once(click)
        board = double.messages[board_id]
    assert all(b.get("disabled") for b in cell_buttons(board))
    assert [b["label"] for b in button_rows(board)[-1]] == ["Rematch", "Review"]


async def test_challenge_accepted_and_played_out(harness: Harness, double: DiscordDouble) -> None:
    challenge = await double.slash("tres", {"opponent": "bob"}, user="alice")
    assert_answered_once(challenge)
    message = board_of(double, challenge)
    assert [b["label"] for b in buttons(message)] == ["Accept", "Decline"]
    message_id = int(message["id"])
    accept = next(cid for cid in button_ids(message) if cid.endswith(":accept"))

    intruder = await double.click(message_id, accept, user="carol")
    assert_answered_once(intruder)
    # The user option brings Bob's display name along: the challenge names him from the start.
    assert intruder.ephemeral() == [render("error.not_challenged", "en", player="Bob")]

    accepted = await double.click(message_id, accept, user="bob")
    assert_answered_once(accepted)
    board = double.messages[message_id]  # the challenge became the board
    assert len(cell_buttons(board)) == 9
    assert render("game.accepted", "en", player="Bob") in board["content"]

    def cell(n: int) -> str:
        return next(c for c in button_ids(double.messages[message_id]) if c.endswith(f":{n}"))

    out_of_turn = await double.click(message_id, cell(4), user="bob")
    assert out_of_turn.ephemeral() == [render("error.not_your_turn", "en", player="Alice")]
    third = await double.click(message_id, cell(4), user="carol")
    assert third.ephemeral() == [render("error.not_your_game", "en")]

    for player, move in [("alice", 0), ("bob", 3), ("alice", 1), ("bob", 4), ("alice", 2)]:
        click = await double.click(message_id, cell(move), user=player)
        assert_answered_once(click)
        assert not click.ephemeral()
    board = double.messages[message_id]
    assert render("game.won", "en", player="Alice", mark="X") in board["content"]
    # The result of a rated game, then both players' new ratings.
    result, ratings = click.public()[-1].split("\n")
    assert result == render("game.won", "en", player="Alice", mark="X")
    assert ratings == "Ratings: Alice 1611? (+111) · Bob 1389? (-111)"
    styles = [b["style"] for b in cell_buttons(board)]
    assert [i for i, s in enumerate(styles) if s == SUCCESS] == [0, 1, 2]
    assert marks(board)[:3] == [X_MARK, X_MARK, X_MARK]
    assert all(b.get("disabled") for b in cell_buttons(board))

    late = await double.click(message_id, cell(5), user="carol")
    assert len(late.ephemeral()) == 1


async def test_declined_challenge_loses_its_buttons(
    harness: Harness, double: DiscordDouble
) -> None:
    challenge = await double.slash("quatre", {"opponent": "bob", "size": "5x5"}, user="alice")
    message_id = int(board_of(double, challenge)["id"])
    decline = next(c for c in button_ids(double.messages[message_id]) if c.endswith(":decline"))
    answer = await double.click(message_id, decline, user="bob")
    assert_answered_once(answer)
    message = double.messages[message_id]
    assert message["content"] == render("game.declined", "en", player="Bob")
    assert buttons(message) == []


async def test_two_clicks_at_once_apply_one_move(harness: Harness, double: DiscordDouble) -> None:
    start = await double.slash("tres", {"level": "easy", "first": "me"}, user="alice")
    board = board_of(double, start)
    target = button_ids(board)[4]
    first, second = await asyncio.gather(
        double.click(int(board["id"]), target, user="alice"),
        double.click(int(board["id"]), target, user="alice"),
    )
    for sent in (first, second):
        assert_answered_once(sent)
    assert sorted([len(first.ephemeral()), len(second.ephemeral())]) == [0, 1]
    assert marks(double.messages[int(board["id"])]).count(X_MARK) == 1


async def test_a_board_from_before_a_restart_still_plays(
    harness: Harness, double: DiscordDouble
) -> None:
    start = await double.slash("tres", {"level": "hard"}, user="alice")
    board_id = int(board_of(double, start)["id"])
    await double.click(board_id, enabled(double.messages[board_id])[0], user="alice")
    before = marks(double.messages[board_id])

    await harness.stop()
    await harness.start()
    assert double.identify_count == 2

    old_board = double.messages[board_id]
    click = await double.click(board_id, enabled(old_board)[0], user="alice")
    assert_answered_once(click)
    assert click.callback["type"] == 7 and not click.ephemeral()
    after = marks(double.messages[board_id])
    assert after.count(X_MARK) == before.count(X_MARK) + 1


async def test_final_ends_the_game_and_its_board(harness: Harness, double: DiscordDouble) -> None:
    start = await double.slash("tres", {"level": "medium"}, user="alice")
    board_id = int(board_of(double, start)["id"])
    stale = double.snapshot(board_id)

    final = await double.slash("final", user="alice")
    assert_answered_once(final)
    assert final.public() == [render("game.ended", "en", player="Alice", game="tic-tac-toe")]
    board = double.messages[board_id]  # edited in place through the channel
    assert all(b.get("disabled") for b in cell_buttons(board))
    edits = [r for r in double.requests if r.kind == "channel_edit"]
    assert edits and edits[-1].path == f"/channels/{double.channel_id}/messages/{board_id}"

    click = await double.click(stale, enabled(stale)[0], user="alice")
    assert_answered_once(click)
    assert len(click.ephemeral()) == 1

    nothing = await double.slash("final", user="alice")
    assert nothing.ephemeral() == [render("error.nothing_to_end", "en", prefix="/")]


async def test_an_expired_game_says_so(
    harness: Harness, double: DiscordDouble, clock: ManualClock
) -> None:
    start = await double.slash("tres", {"level": "easy"}, user="alice", locale="es-ES")
    board_id = int(board_of(double, start)["id"])
    clock.advance(harness.settings.game_ttl + 1)
    cell = enabled(double.messages[board_id])[0]
    click = await double.click(board_id, cell, user="alice", locale="es-ES")
    assert_answered_once(click)
    assert click.ephemeral() == [render("error.expired", "es")]

    challenge = await double.slash("tres", {"opponent": "bob"}, user="carol")
    message_id = int(board_of(double, challenge)["id"])
    accept = next(c for c in button_ids(double.messages[message_id]) if c.endswith(":accept"))
    clock.advance(harness.settings.challenge_ttl + 1)
    late = await double.click(message_id, accept, user="bob")
    assert_answered_once(late)
    assert late.ephemeral() == [render("error.challenge_expired", "en")]


async def test_unknown_buttons_get_an_answer(harness: Harness, double: DiscordDouble) -> None:
    foreign = double.create_message(
        "an old bot's board",
        [{"type": 1, "components": [{"type": 2, "style": 2, "label": "5", "custom_id": "ttt:5"}]}],
    )
    click = await double.click(int(foreign["id"]), "ttt:5", user="alice", locale="pt-BR")
    assert_answered_once(click)
    assert click.ephemeral() == [render("discord.unknown_button", "pt")]

    forged = await double.click(foreign, "c4:move:nosuchgame:1:4", user="alice", forge=True)
    assert_answered_once(forged)
    assert forged.ephemeral() == [render("discord.unknown_button", "en")]

    start = await double.slash("tres", user="alice")
    board_id = int(board_of(double, start)["id"])
    gone = await double.click(board_id, enabled(double.messages[board_id])[0], user="alice")
    await double.slash("final", user="alice")  # a resignation: the game stays, finished
    ghost = gone.payload["message"]
    click = await double.click(ghost, button_ids(ghost)[8], user="alice")
    assert click.ephemeral() == [render("error.board_changed", "en")]


async def test_garbage_options_are_explained(harness: Harness, double: DiscordDouble) -> None:
    size = await double.slash("quatre", {"size": "axb"}, user="alice")
    assert_answered_once(size)
    assert size.ephemeral() == [render("parse.bad_size", "en", size="axb")]

    k = await double.slash("ratlla", {"size": "6x7", "k": 99}, user="alice", locale="ru")
    assert k.ephemeral() == [render("parse.k_range", "ru", k="99", size="6x7", min=3, max=7)]

    level = await double.slash("tres", {"level": "godlike"}, user="alice")
    assert len(level.ephemeral()) == 1 and "godlike" in level.ephemeral()[0]

    both = await double.slash("tres", {"level": "hard", "opponent": "bob"}, user="alice")
    assert len(both.ephemeral()) == 1

    robot = await double.slash("tres", {"opponent": "@bot"}, user="alice")
    assert not robot.ephemeral() and len(cell_buttons(board_of(double, robot))) == 9


async def test_big_boards_are_pictures_and_take_a_move_command_too(
    harness: Harness, double: DiscordDouble
) -> None:
    start = await double.slash("ratlla", {"size": "7x7", "k": 4, "level": "easy"}, user="alice")
    board = board_of(double, start)
    assert buttons(board) == [] and len(selects(board)) == 2 and "/move" in text_of(board)
    before = picture(double, board)
    move = await double.slash("move", {"cell": "d4"}, user="alice")
    assert_answered_once(move)
    board = double.messages[int(board["id"])]  # edited in place, picture and all
    assert picture(double, board) != before
    assert move.ephemeral() == [render("game.turn", "en", player="Alice", mark="X")]
    bad = await double.slash("move", {"cell": "hello"}, user="alice")
    assert bad.ephemeral() == [render("discord.not_a_move", "en", text="hello")]


async def test_direct_messages_play_against_the_bot(
    harness: Harness, double: DiscordDouble
) -> None:
    start = await double.slash("tres", {"level": "hard"}, user="dana", dm=True)
    board = board_of(double, start)
    assert str(board["channel_id"]) == double.dm_channel("dana")
    click = await double.click(int(board["id"]), enabled(board)[0], user="dana", locale="ru")
    assert_answered_once(click)
    assert click.callback["type"] == 7 and not click.ephemeral()

    challenge = await double.slash("tres", {"opponent": "bob"}, user="erin", dm=True)
    assert challenge.ephemeral() == [render("discord.challenge_in_dm", "en")]


async def test_commands_are_synced_with_translations(
    harness: Harness, double: DiscordDouble
) -> None:
    names = {c["name"] for c in double.global_commands}
    assert {"help", "tres", "quatre", "ratlla", "final", "stats", "top", "move"} <= names
    assert {"link", "unlink"} <= names
    tres = double.command("tres")
    assert tres["description"] == render("help.tres", "en")
    assert tres["description_localizations"]["pt-BR"] == render("help.tres", "pt")
    assert tres["description_localizations"]["es-ES"] == render("help.tres", "es")
    assert tres["description_localizations"]["ru"] == render("help.tres", "ru")
    options = {o["name"]: o for o in tres["options"]}
    assert set(options) == {"level", "opponent", "first", "watch", "clock", "casual"}
    assert options["opponent"]["type"] == 6
    assert options["watch"]["type"] == options["casual"]["type"] == 5  # booleans
    top = {o["name"]: o for o in double.command("top")["options"]}
    assert [c["value"] for c in top["ladder"]["choices"]] == ["chat", "server", "all"]
    assert {o["name"] for o in double.command("link")["options"]} == {"code"}
    assert [c["value"] for c in options["level"]["choices"]] == ["easy", "medium", "hard"]
    easy = options["level"]["choices"][0]
    assert easy["name_localizations"]["es-ES"] == render("discord.choice.level.easy", "es")

    help_ = await double.slash("help", user="alice", locale="pt-BR")
    assert_answered_once(help_)
    assert render("help.title", "pt") in help_.ephemeral()[0]


async def test_guild_sync_reconnect_and_resume(tmp_path: Path) -> None:
    # READY names a resume URL nobody listens on: the bot must resume through the configured
    # gateway (a proxy, here the double) instead.
    async with DiscordDouble(resume_gateway_url="ws://127.0.0.1:9/") as server:
        bot = Harness(server, tmp_path / "guild.sqlite3")
        await bot.start(guild_ids=(int(server.guild_id),))
        try:
            assert server.global_commands == []
            assert server.command("tres")["guild_id"] == server.guild_id
            await server.ask_reconnect()
            await server.wait_for(lambda: server.resume_count == 1)
            start = await server.slash("tres", {"level": "hard"}, user="alice")
            assert_answered_once(start)
            assert server.identify_count == 1
        finally:
            await bot.stop()


async def test_stats_and_top(harness: Harness, double: DiscordDouble) -> None:
    none = await double.slash("stats", {"player": "bob"}, user="alice")
    assert_answered_once(none)
    assert len(none.public()) == 1
    assert "<@" not in none.public()[0]  # the player reaches core resolved, not as a mention
    top = await double.slash("top", user="alice")
    assert top.public() == [render("ratings.top_empty", "en", game="Connect Four 6x7", games=10)]
    server = await double.slash("top", {"ladder": "server", "game": "tres"}, user="alice")
    assert server.public() == [render("ratings.top_empty", "en", game="tic-tac-toe", games=10)]


async def test_rematch_button_starts_a_new_board(harness: Harness, double: DiscordDouble) -> None:
    start = await double.slash("tres", {"level": "hard", "first": "opponent"}, user="alice")
    board_id = int(board_of(double, start)["id"])
    while enabled(double.messages[board_id]):
        await double.click(board_id, enabled(double.messages[board_id])[0], user="alice")
    rematch = next(c for c in button_ids(double.messages[board_id]) if c.endswith(":rematch"))

    again = await double.click(board_id, rematch, user="alice")
    assert_answered_once(again)
    assert again.callback["type"] == 7  # the old board keeps its text, loses its buttons
    assert all(b.get("disabled") for b in buttons(double.messages[board_id]))
    followups = [r for r in again.requests if r.kind == "followup"]
    assert len(followups) == 1
    assert followups[0].message_id is not None
    new_board = double.messages[followups[0].message_id]
    assert render("game.rematch", "en") in new_board["content"]
    assert len(enabled(new_board)) == 9  # sides swapped: Alice starts this time


async def test_slow_answers_are_deferred_and_finished_before_a_stop(
    tmp_path: Path, double: DiscordDouble
) -> None:
    # The bot's move waits until the test lets it go: slow for as long as the test needs,
    # however fast or loaded the machine (7x8: beyond the opening book, so the runner is asked).
    runner = HeldRunner()
    runner.release.clear()
    bot = Harness(double, tmp_path / "slow.sqlite3", runner=runner)
    await bot.start()
    try:
        options = {"size": "7x8", "first": "opponent"}
        start = await double.slash("quatre", options, user="alice", wait=False)
        async with asyncio.timeout(3):
            await start.answered.wait()
        assert start.callback["type"] == 5  # "thinking..." within the deadline
        assert start.latency < 2.0
        assert runner.thinking.is_set() and not start.requests[1:]
        stopping = asyncio.create_task(bot.stop())  # SIGTERM now, the move still thinking
        await asyncio.wait_for(bot.bot.interactions.stopping.wait(), 5)
        # The answer in flight keeps the bot connected (a second of it is enough to see).
        with pytest.raises(TimeoutError):
            await double.wait_for(lambda: not double.shard_live(0), within=1.0)
        runner.release.set()  # then it finishes the answer, and closes
        await stopping
    finally:
        runner.release.set()
        await bot.stop()
    edits = [r for r in start.requests if r.kind == "original_edit"]
    assert len(edits) == 1 and len(buttons(edits[0].body)) == 8
    board = board_of(double, start)
    assert board["content"].count(O_MARK) == 1  # the bot's first stone
    assert board["flags"] == 0  # no longer "thinking"


WATCH_FAST = ServiceSettings(
    ai_workers=0,
    ai_warm_up=False,
    ai_budget=0.3,
    sweep_interval=3600.0,
    watch_move_interval=0.05,
    bot_vs_bot_budget=0.02,
)


def board_edits(double: DiscordDouble, message_id: int) -> list[Recorded]:
    """The channel edits of one message, in the order they arrived."""
    path = f"/channels/{double.channel_id}/messages/{message_id}"
    return [r for r in double.requests if r.kind == "channel_edit" and r.path == path]


def column_stones(message: Json) -> tuple[int, int]:
    """X's and O's stones on a board drawn as emoji (gravity boards)."""
    content = str(message["content"])
    # The players line shows each mark once more.
    return content.count(X_MARK) - 1, content.count(O_MARK) - 1


async def test_a_bots_game_plays_on_one_message_move_by_move(
    tmp_path: Path, double: DiscordDouble
) -> None:
    bot = Harness(double, tmp_path / "watch.sqlite3", settings=WATCH_FAST)
    await bot.start()
    try:
        start = await double.slash("tres", {"watch": True, "level": "easy"}, user="alice")
        assert_answered_once(start)
        board_id = int(board_of(double, start)["id"])
        assert render("game.watch", "en") in start.public()[0]

        def over() -> bool:
            return bool(rematch_buttons(double.messages[board_id]))

        await double.wait_for(over, within=10)
    finally:
        await bot.stop()
    board = double.messages[board_id]
    edits = board_edits(double, board_id)
    # One edit per move, each showing one stone more than the one before, to the end.
    counts = [len([m for m in marks(edit.body) if m]) for edit in edits]
    assert counts == list(range(1, len(edits) + 1))
    assert counts[-1] == len([m for m in marks(board) if m]) >= 5
    assert all(b.get("disabled") for b in cell_buttons(board))
    # At the pace people can follow (0.05 s here), not all at once (the first edit may wait
    # for the board message to be known, so single gaps vary).
    gaps = [b.at - a.at for a, b in itertools.pairwise(edits)]
    assert statistics.median(gaps) >= 0.04
    # The result, as after any last move: on the board, and said in the channel.
    results = [r for r in double.requests if r.kind == "channel_create"]
    assert len(results) == 1 and results[0].body["content"] in board["content"]


async def test_only_the_starter_of_a_bots_game_may_rematch_it(
    tmp_path: Path, double: DiscordDouble
) -> None:
    # A rematch replaces the finished game: Bob's press must not take Alice's game (and its
    # review) away; he is told privately, and the board stays as it is (that the game stays
    # for /review is tested on the service, tests/core/test_sessions.py).
    bot = Harness(double, tmp_path / "rematch.sqlite3", settings=WATCH_FAST)
    await bot.start()
    try:
        start = await double.slash("tres", {"watch": True, "level": "easy"}, user="alice")
        board_id = int(board_of(double, start)["id"])
        await double.wait_for(lambda: bool(rematch_buttons(double.messages[board_id])))
        rematch = rematch_buttons(double.messages[board_id])[0]["custom_id"]
        before = double.messages[board_id]["content"]

        pressed = await double.click(board_id, rematch, user="bob")
        assert_answered_once(pressed)
        assert pressed.ephemeral() == [render("error.not_your_rematch", "en", prefix="/")]
        assert not pressed.public()
        assert double.messages[board_id]["content"] == before

        again = await double.click(board_id, rematch, user="alice")
        assert_answered_once(again)
        assert not again.ephemeral()
    finally:
        await bot.stop()


async def test_final_stops_a_bots_game(tmp_path: Path, double: DiscordDouble) -> None:
    bot = Harness(double, tmp_path / "stop.sqlite3", settings=WATCH_FAST)
    await bot.start()
    try:
        start = await double.slash("quatre", {"watch": True, "level": "easy"}, user="alice")
        board_id = int(board_of(double, start)["id"])
        await double.wait_for(lambda: len(board_edits(double, board_id)) >= 2)

        final = await double.slash("final", user="alice")
        assert_answered_once(final)
        assert final.public() == [render("game.watch_stopped", "en", player="Alice")]
        edits = len(board_edits(double, board_id))
        board = double.messages[board_id]
        assert render("game.stopped", "en") in board["content"]
        assert all(b.get("disabled") for b in cell_buttons(board))
        played = column_stones(board)
        assert 2 <= sum(played) < 42
        await asyncio.sleep(0.3)  # six moves' time: the game must not go on
        assert len(board_edits(double, board_id)) == edits
        assert column_stones(double.messages[board_id]) == played
    finally:
        await bot.stop()


async def test_a_resignation_shows_the_finished_board(
    harness: Harness, double: DiscordDouble
) -> None:
    start = await double.slash("tres", {"level": "medium", "first": "me"}, user="alice")
    board_id = int(board_of(double, start)["id"])
    await double.click(board_id, enabled(double.messages[board_id])[4], user="alice")

    final = await double.slash("final", user="alice")
    assert_answered_once(final)
    resigned = render("game.resigned", "en", player="Alice", winner="Bot (medium)")
    assert final.public() == [resigned]
    board = double.messages[board_id]  # the board itself says how the game ended
    assert resigned in board["content"]
    assert len([m for m in marks(board) if m]) == 2  # the move and the bot's answer stay
    assert all(b.get("disabled") for b in cell_buttons(board))
    [rematch] = rematch_buttons(board)
    assert not rematch.get("disabled") and rematch["label"] == "Rematch"

    again = await double.click(board_id, rematch["custom_id"], user="alice")
    assert_answered_once(again)
    assert len(enabled(double.messages[board_id])) == 0
    new_board = [r for r in again.requests if r.kind == "followup"]
    assert len(new_board) == 1 and render("game.rematch", "en") in new_board[0].body["content"]


async def test_hard_moves_through_the_process_pool(tmp_path: Path, double: DiscordDouble) -> None:
    # As deployed: a worker process, warmed up at start, picks HARD's moves; they come back
    # through pickling, and the pool is shut down with the service.
    settings = ServiceSettings(ai_workers=1, ai_warm_up=True, ai_budget=0.3, sweep_interval=3600.0)
    bot = Harness(double, tmp_path / "pool.sqlite3", settings=settings)
    await bot.start()
    try:
        start = await double.slash("quatre", {"level": "hard"}, user="alice")
        assert_answered_once(start)
        board_id = int(board_of(double, start)["id"])
        for turn in range(1, 4):
            click = await double.click(
                board_id, enabled(double.messages[board_id])[0], user="alice"
            )
            assert_answered_once(click)
            assert column_stones(double.messages[board_id]) == (turn, turn)
    finally:
        await bot.stop()

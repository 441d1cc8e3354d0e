"""The Matrix adapter end to end: a real Synapse on 127.0.0.1, the real service and store, and
players as plain matrix-nio clients (see tests/e2e/synapse.py for the recipe).

Every wait is on an event arriving by sync, with a timeout; nothing sleeps a fixed time.
"""

from __future__ import annotations

import asyncio
import importlib.util
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from adapters.matrix.render import KEYCAPS
from core.i18n import render
from core.store import departures
from tests.e2e.synapse import (
    BOT,
    Player,
    Seen,
    SynapseServer,
    is_edit_of,
    is_notice_from,
    reply_target,
    running_bot,
    synapse_server,
)

__all__ = ["synapse_server"]  # the fixture, imported for pytest

_ROW = re.compile(r"^((?:\d\ufe0f\u20e3)+) (.*)$")
# The plain body's emoji, as the letters of ``core.render``.
_MARKS = {
    "⬜": "·",
    "⚪": "·",
    "❌": "X",
    "❎": "X",
    "🔴": "X",
    "🟥": "X",
    "⭕": "O",
    "🅾\ufe0f": "O",
    "🟡": "O",
    "🟨": "O",
}


def _content(seen: Seen) -> dict[str, Any]:
    content: dict[str, Any] = seen.source.get("content", {})
    return content


def shown(seen: Seen) -> str:
    """The body a client shows: the new content of an edit, else the body."""
    content = _content(seen)
    new = content.get("m.new_content")
    body = new.get("body") if isinstance(new, dict) else content.get("body")
    return body if isinstance(body, str) else ""


def grid(body: str) -> list[list[str]]:
    """The marks of a board body as ``X``, ``O`` and ``·``, one list per row."""
    rows = []
    for line in body.split("\n")[1:]:
        match = _ROW.match(line)
        if match is None:
            break
        rows.append([_MARKS[cell] for cell in match.group(2).split(" ")])
    return rows


def is_board(seen: Seen, bot: str) -> bool:
    content = _content(seen)
    return (
        is_notice_from(seen.source, bot)
        and "m.relates_to" not in content
        and "<pre>" in str(content.get("formatted_body", ""))
    )


async def open_room(
    server: SynapseServer, owner: Player, *others: Player, encrypted: bool = False
) -> str:
    """A room made by ``owner`` with the bot invited (as a moderator, so it may remove
    reactions) and ``others`` joined; returns once the bot has joined."""
    bot = server.user_id(BOT)
    mark = owner.mark()
    room = await owner.create_room(
        [bot, *(player.user_id for player in others)], moderators=[bot], encrypted=encrypted
    )
    for player in others:
        await player.join(room)
    await owner.wait_for(
        lambda seen: (
            seen.room_id == room
            and seen.source.get("type") == "m.room.member"
            and seen.source.get("state_key") == bot
            and _content(seen).get("membership") == "join"
        ),
        after=mark,
        what="the bot joining",
    )
    return room


async def start_game(server: SynapseServer, player: Player, room: str, command: str) -> Seen:
    """Send a start command; the board message the bot posts."""
    bot = server.user_id(BOT)
    mark = player.mark()
    await player.say(room, command)
    return await player.wait_for(
        lambda seen: seen.room_id == room and is_board(seen, bot), after=mark, what="a board"
    )


async def move_by_text(
    server: SynapseServer, player: Player, room: str, board: Seen, text: str
) -> tuple[str, Seen]:
    """Type a move; the bot's edit of ``board`` that answers it (and the move's event id)."""
    event_id = await player.say(room, text)
    edit = await edit_after(player, room, board, event_id, what=f"the edit answering {text!r}")
    return event_id, edit


async def edit_after(player: Player, room: str, board: Seen, event_id: str, *, what: str) -> Seen:
    """The first edit of ``board`` after the event ``event_id`` in the room's timeline (an
    answer comes after its question; earlier edits, seen late, come before it)."""
    own = await player.wait_for(
        lambda seen: seen.source.get("event_id") == event_id, what="the event itself"
    )
    after = player.events.index(own) + 1
    return await player.wait_for(
        lambda seen: seen.room_id == room and is_edit_of(seen.source, board.source["event_id"]),
        after=after,
        what=what,
    )


def first_empty(body: str) -> str:
    """The first empty cell of a free board, as a coordinate such as ``b2``."""
    for r, row in enumerate(grid(body)):
        for c, mark in enumerate(row):
            if mark == "·":
                return f"{'abcdefghijklmnopqrstuvwxy'[c]}{r + 1}"
    raise AssertionError(f"no empty cell in {body!r}")


def is_reply_notice(seen: Seen, room: str, bot: str, target: str) -> bool:
    return (
        seen.room_id == room
        and is_notice_from(seen.source, bot)
        and reply_target(seen.source) == target
    )


async def test_tictactoe_against_the_hard_bot_by_text(
    synapse_server: SynapseServer, tmp_path: Path
) -> None:
    server = synapse_server
    bot = server.user_id(BOT)
    # The real process pool, as deployed: the position and the chosen move cross a process
    # boundary (pickling), the worker is warmed up at start and shut down at the end.
    async with (
        running_bot(server, tmp_path / "bot", ai_workers=1),
        Player(server, "alice") as alice,
    ):
        room = await open_room(server, alice)

        mark = alice.mark()
        help_id = await alice.say(room, "!help")
        help_notice = await alice.wait_for(
            lambda seen: is_reply_notice(seen, room, bot, help_id), after=mark, what="help"
        )
        assert "!tres" in shown(help_notice)
        assert "!quatre" in shown(help_notice)
        assert "!help TOPIC" in shown(help_notice)  # the overview says how to ask for a topic
        mark = alice.mark()
        topic_id = await alice.say(room, "!help play")
        topic_notice = await alice.wait_for(
            lambda seen: is_reply_notice(seen, room, bot, topic_id), after=mark, what="help play"
        )
        assert shown(topic_notice).startswith("!help play") and "!tictactoe" in shown(topic_notice)

        board = await start_game(server, alice, room, "!tres hard")
        original = board.source["event_id"]
        body = shown(board)
        assert body.split("\n")[0].split() == ["#\ufe0f\u20e3", "🇦", "🇧", "🇨"]
        assert grid(body) == [["·"] * 3] * 3  # the player starts by default
        assert "<pre>" in _content(board)["formatted_body"]

        edits: list[Seen] = []
        moves = 0
        while True:
            text = (
                first_empty(body)
                if moves % 2
                else str(1 + [c for row in grid(body) for c in row].index("·"))
            )
            _, edit = await move_by_text(server, alice, room, board, text)
            moves += 1
            edits.append(edit)
            body = shown(edit)
            # The player's mark and the bot's answer are both on the one edit.
            marks = [c for row in grid(body) for c in row]
            if "wins" in body or "draw" in body:
                break
            assert marks.count("X") == moves and marks.count("O") == moves
            assert moves < 5

        # Every edit points at the original board message, never at another edit.
        assert all(_content(e)["m.relates_to"]["event_id"] == original for e in edits)
        assert all(_content(e)["m.new_content"]["msgtype"] == "m.notice" for e in edits)
        # The result, and what to type next, are in the last edit: the move cost one event.
        assert "alice (X) wins" not in body  # HARD never loses tic-tac-toe
        assert "!rematch" in body
        if "wins" in body:
            assert "<b>O</b>" in _content(edits[-1])["m.new_content"]["formatted_body"]


def is_redaction_of(seen: Seen, event_id: str) -> bool:
    source = seen.source
    redacts = source.get("redacts") or source.get("content", {}).get("redacts")
    return source.get("type") == "m.room.redaction" and redacts == event_id


def redaction_of(event_id: str) -> Callable[[Seen], bool]:
    return lambda seen: is_redaction_of(seen, event_id)


def column_count(body: str, column: int, mark: str) -> int:
    return sum(1 for row in grid(body) if row[column] == mark)


async def move_by_reaction(player: Player, room: str, board: Seen, key: str) -> tuple[str, Seen]:
    """React with ``key`` on the board; the edit that answers and the reaction's event id."""
    reaction = await player.react(room, board.source["event_id"], key)
    edit = await edit_after(player, room, board, reaction, what=f"the edit answering {key}")
    return reaction, edit


async def test_connect_four_by_reactions_with_the_same_column_twice(
    synapse_server: SynapseServer, tmp_path: Path
) -> None:
    server = synapse_server
    bot = server.user_id(BOT)
    async with running_bot(server, tmp_path / "bot"), Player(server, "alice") as alice:
        room = await open_room(server, alice)
        board = await start_game(server, alice, room, "!quatre easy")
        original = board.source["event_id"]
        assert len(grid(shown(board))) == 6
        assert "1\ufe0f\u20e3" in _content(board)["formatted_body"]  # the hint names the keys

        # The bot offers the column keys under the board.
        mark = 0
        offered = await alice.wait_for(
            lambda seen: (
                seen.source.get("type") == "m.reaction"
                and seen.source.get("sender") == bot
                and _content(seen)["m.relates_to"]["event_id"] == original
            ),
            after=mark,
            what="the bot's keycaps",
        )
        assert _content(offered)["m.relates_to"]["key"] in KEYCAPS

        four = KEYCAPS[3]
        first_reaction, edit = await move_by_reaction(alice, room, board, four)
        assert column_count(shown(edit), 3, "X") == 1
        # Consumed and removed, so the same key can be pressed again.
        await alice.wait_for(
            lambda seen: is_redaction_of(seen, first_reaction), what="the reaction removed"
        )
        second_reaction, edit = await move_by_reaction(alice, room, board, four)
        assert second_reaction != first_reaction
        assert column_count(shown(edit), 3, "X") == 2
        await alice.wait_for(
            lambda seen: is_redaction_of(seen, second_reaction), what="the reaction removed"
        )

        # Play on (any column with room) until the game ends.
        body = shown(edit)
        moves = 2
        while "wins" not in body and "draw" not in body:
            top = grid(body)[0]
            column = next(c for c in (0, 1, 2, 3, 4, 5, 6) if top[c] == "·")
            reaction, edit = await move_by_reaction(alice, room, board, KEYCAPS[column])
            body = shown(edit)
            if grid(body)[0][column] == "·" and "!rematch" not in body:
                # Still a move: removed, so that it can be pressed again.
                await alice.wait_for(redaction_of(reaction), what="the reaction removed")
            moves += 1
            assert moves <= 21
        assert "<b>" in _content(edit)["m.new_content"]["formatted_body"] or "draw" in body
        boards = [seen for seen in alice.events if seen.room_id == room and is_board(seen, bot)]
        assert len(boards) == 1  # every move edited the one board message


async def test_challenge_accepted_and_played_out_with_a_third_user(
    synapse_server: SynapseServer, tmp_path: Path
) -> None:
    server = synapse_server
    bot = server.user_id(BOT)
    async with (
        running_bot(server, tmp_path / "bot"),
        Player(server, "alice") as alice,
        Player(server, "bob") as bob,
        Player(server, "carol") as carol,
    ):
        room = await open_room(server, alice, bob, carol)

        # The challenge names bob with a pill, as Element writes it.
        mark = bob.mark()
        challenge_id = await alice.send(
            room,
            {
                "msgtype": "m.text",
                "body": "!tres bob",
                "format": "org.matrix.custom.html",
                "formatted_body": '!tres <a href="https://matrix.to/#/@bob:chatbots.test">bob</a>',
                "m.mentions": {"user_ids": [bob.user_id]},
            },
        )
        challenge = await bob.wait_for(
            lambda seen: (
                seen.room_id == room
                and seen.source.get("sender") == bot
                and reply_target(seen.source) == challenge_id
            ),
            after=mark,
            what="the challenge",
        )
        assert "!accept" in shown(challenge) and bob.user_id in shown(challenge)
        # A text that mentions bob (notices notify nobody under default push rules).
        content = _content(challenge)
        assert content["msgtype"] == "m.text"
        assert content["m.mentions"] == {"user_ids": [bob.user_id]}
        assert f'href="https://matrix.to/#/{bob.user_id}"' in content["formatted_body"]

        mark = bob.mark()
        await bob.say(room, "!accept")
        board = await bob.wait_for(
            lambda seen: seen.room_id == room and is_board(seen, bot), after=mark, what="a board"
        )
        assert "accepted" in shown(board)  # announced in the board itself
        assert "alice" in shown(board) and "bob" in shown(board)

        # A third user: a bare number is chatter, "!5" has no game, a reaction is not theirs.
        mark = carol.mark()
        chatter = await carol.say(room, "5")
        carol_move = await carol.say(room, "!5")
        await carol.wait_for(
            lambda seen: is_reply_notice(seen, room, bot, carol_move), after=mark, what="no game"
        )
        # Answers come in order within a room: had "5" been answered, it would be by now.
        assert not [seen for seen in carol.events if is_reply_notice(seen, room, bot, chatter)]
        reaction = await carol.react(room, board.source["event_id"], KEYCAPS[4])
        not_yours = await carol.wait_for(
            lambda seen: is_reply_notice(seen, room, bot, board.source["event_id"]),
            after=mark,
            what="not your game",
        )
        assert shown(not_yours).startswith("carol: ")
        await carol.wait_for(lambda seen: is_redaction_of(seen, reaction), what="the removal")

        # Out of turn.
        mark = bob.mark()
        early = await bob.say(room, "1")
        not_turn = await bob.wait_for(
            lambda seen: is_reply_notice(seen, room, bot, early), after=mark, what="not your turn"
        )
        assert "alice" in shown(not_turn)

        # alice (X, the challenger starts) wins along the top row.
        for player, move in ((alice, "1"), (bob, "4"), (alice, "b1"), (bob, "5")):
            _, edit = await move_by_text(server, player, room, board, move)
        _, edit = await move_by_text(server, alice, room, board, "3")
        final = _content(edit)["m.new_content"]
        assert "wins" in final["body"] and "alice" in final["body"]
        assert final["formatted_body"].count("<del><b>X</b></del>") == 3
        assert "!rematch" in final["body"]  # the result travels in the board


async def test_restart_mid_game_handles_missed_messages_once(
    synapse_server: SynapseServer, tmp_path: Path
) -> None:
    server = synapse_server
    bot = server.user_id(BOT)
    data = tmp_path / "bot"
    async with Player(server, "alice") as alice:
        async with running_bot(server, data) as first:
            room = await open_room(server, alice)
            board = await start_game(server, alice, room, "!tres medium")
            _, edit = await move_by_text(server, alice, room, board, "5")
            device = first.adapter.device_id

        # While the bot is down: a move and a question.
        body = shown(edit)
        mark = alice.mark()
        missed_move = await alice.say(room, first_empty(body))
        missed_help = await alice.say(room, "!help")

        async with running_bot(server, data) as second:
            assert second.adapter.device_id == device  # the saved login: no new device
            edit = await alice.wait_for(
                lambda seen: (
                    seen.room_id == room and is_edit_of(seen.source, board.source["event_id"])
                ),
                after=mark,
                what="the missed move answered",
            )
            await alice.wait_for(
                lambda seen: is_reply_notice(seen, room, bot, missed_help), what="the missed help"
            )
            # The game goes on.
            _, edit = await move_by_text(server, alice, room, board, first_empty(shown(edit)))

        # Nothing was handled twice: one board, one edit per move, one answer per command.
        mine = [seen for seen in alice.events if seen.room_id == room]
        assert len([seen for seen in mine if is_board(seen, bot)]) == 1
        edits = [seen for seen in mine if is_edit_of(seen.source, board.source["event_id"])]
        assert len(edits) == 3
        helps = [seen for seen in mine if is_reply_notice(seen, room, bot, missed_help)]
        assert len(helps) == 1
        assert not [seen for seen in mine if is_reply_notice(seen, room, bot, missed_move)]


@pytest.mark.skipif(
    importlib.util.find_spec("vodozemac") is None, reason="the e2e extra is not installed"
)
async def test_encrypted_room(synapse_server: SynapseServer, tmp_path: Path) -> None:
    server = synapse_server
    bot = server.user_id(BOT)
    async with (
        running_bot(server, tmp_path / "bot"),
        Player(server, "alice", store_dir=tmp_path / "alice-keys") as alice,
    ):
        room = await open_room(server, alice, encrypted=True)
        board = await start_game(server, alice, room, "!tres easy")
        assert board.encrypted
        _, edit = await move_by_text(server, alice, room, board, "5")
        assert edit.encrypted
        assert grid(shown(edit))[1][1] == "X"
        mark = alice.mark()
        wrong = await alice.say(room, "!5")
        error = await alice.wait_for(
            lambda seen: is_reply_notice(seen, room, bot, wrong), after=mark, what="occupied"
        )
        assert error.encrypted


async def test_garbage_unknown_command_and_a_move_without_a_game(
    synapse_server: SynapseServer, tmp_path: Path
) -> None:
    server = synapse_server
    bot = server.user_id(BOT)
    async with running_bot(server, tmp_path / "bot"), Player(server, "alice") as alice:
        room = await open_room(server, alice)
        mark = alice.mark()
        await alice.say(room, "hello there, 12x what")
        unknown = await alice.say(room, "!frobnicate")
        answer = await alice.wait_for(
            lambda seen: is_reply_notice(seen, room, bot, unknown), after=mark, what="unknown"
        )
        assert "!frobnicate" in shown(answer)
        move = await alice.say(room, "!5")
        no_game = await alice.wait_for(
            lambda seen: is_reply_notice(seen, room, bot, move), after=mark, what="no game"
        )
        assert "!tres" in shown(no_game) or "!" in shown(no_game)
        addressed = await alice.say(room, "gamebot: b2")
        hinted = await alice.wait_for(
            lambda seen: is_reply_notice(seen, room, bot, addressed), after=mark, what="mention"
        )
        # Only the three messages meant for the bot were answered; the chatter was not.
        notices = [
            seen
            for seen in alice.events[mark:]
            if seen.room_id == room and is_notice_from(seen.source, bot)
        ]
        assert notices == [answer, no_game, hinted]


def stones(seen: Seen) -> int:
    return sum(mark in "XO" for row in grid(shown(seen)) for mark in row)


def is_playable(seen: Seen) -> bool:
    """A board people can still move on: it ends with the move hint."""
    content = _content(seen)
    new = content.get("m.new_content")
    html = (new if isinstance(new, dict) else content).get("formatted_body", "")
    return "<em>Move: " in str(html)


async def test_challenging_the_bot_itself_is_a_game_against_it(
    synapse_server: SynapseServer, tmp_path: Path
) -> None:
    server = synapse_server
    bot = server.user_id(BOT)
    async with running_bot(server, tmp_path / "bot"), Player(server, "alice") as alice:
        room = await open_room(server, alice)
        mark = alice.mark()
        board = await start_game(server, alice, room, f"!tres @{BOT}")
        assert "alice" in shown(board) and "X: alice" in shown(board)
        # A game at once, not a challenge that nobody could accept.
        assert not [
            seen
            for seen in alice.events[mark:]
            if is_notice_from(seen.source, bot) and "!accept" in shown(seen)
        ]
        _, edit = await move_by_text(server, alice, room, board, "5")
        assert stones(edit) == 2  # the bot answered


async def test_final_after_a_move_resigns(synapse_server: SynapseServer, tmp_path: Path) -> None:
    server = synapse_server
    bot = server.user_id(BOT)
    async with running_bot(server, tmp_path / "bot"), Player(server, "alice") as alice:
        room = await open_room(server, alice)
        board = await start_game(server, alice, room, "!tres easy")
        _, edit = await move_by_text(server, alice, room, board, "5")
        assert is_playable(edit)

        _, ended = await move_by_text(server, alice, room, board, "!final")
        resigned = render("game.resigned", "en", player="alice", winner="Bot (easy)")
        assert resigned in shown(ended)
        assert grid(shown(ended)) == grid(shown(edit))  # the board as it was, ended
        assert not is_playable(ended)
        # The result and what to type next, in the one edit.
        assert "!rematch" in shown(ended) and "!review" in shown(ended)

        # The review of the finished game, for anyone in the room.
        asked = await alice.say(room, "!review")
        review = await alice.wait_for(
            lambda seen: is_reply_notice(seen, room, bot, asked), what="the review"
        )
        assert "Review of tic-tac-toe (X: alice, O: Bot (easy))" in shown(review)
        assert "1. X b2: draw → draw" in shown(review)

        again = await start_game(server, alice, room, "!rematch")
        assert again.source["event_id"] != board.source["event_id"]
        assert is_playable(again)


async def test_a_bots_game_is_one_board_edited_move_by_move_and_final_stops_one(
    synapse_server: SynapseServer, tmp_path: Path
) -> None:
    server = synapse_server
    bot = server.user_id(BOT)
    async with (
        running_bot(server, tmp_path / "bot") as running,
        Player(server, "alice") as alice,
    ):
        room = await open_room(server, alice)
        board = await start_game(server, alice, room, "!tres bot")
        original = board.source["event_id"]
        after = alice.events.index(board) + 1
        last = await alice.wait_for(
            lambda seen: is_edit_of(seen.source, original) and not is_playable(seen),
            after=after,
            what="the bots' game played out",
        )
        edits = [seen for seen in alice.events if is_edit_of(seen.source, original)]
        assert stones(board) == 0
        # Move by move; an edit still waiting when the next move came was replaced by it.
        counts = [stones(edit) for edit in edits]
        assert counts == sorted(set(counts)) and counts[0] >= 1
        assert edits[-1] is last
        assert "!rematch" in shown(last)  # the result travels in the board

        # Two moves, then the game stands still until "!final" is answered: at any pace, a
        # bots' game may end by itself before a "!final" sent on a slow machine arrives.
        running.runner.hold_after(2)
        board = await start_game(server, alice, room, "!quatre bot")
        original = board.source["event_id"]
        # The newest edit: with no move after it, no later edit can replace it in the queue.
        await alice.wait_for(
            lambda seen: is_edit_of(seen.source, original) and stones(seen) == 2,
            what="two moves played",
        )
        [live] = await running.service.store.run(departures.live_in_chats("matrix", [room]))
        [game] = [task for task in asyncio.all_tasks() if task.get_name() == f"watch-{live.id}"]
        final_id, stopped = await move_by_text(server, alice, room, board, "!final")
        assert render("game.stopped", "en") in shown(stopped)
        assert not is_playable(stopped) and stones(stopped) == 2
        answer = await alice.wait_for(
            lambda seen: is_reply_notice(seen, room, bot, final_id), what="stopped"
        )
        assert render("game.watch_stopped", "en", player="alice") in shown(answer)

        # The move held meanwhile is chosen now; the stop came first, so it is not played.
        running.runner.release()
        done, _ = await asyncio.wait({game}, timeout=20)
        assert done, "the bots' game did not end"
        # Answers come in order within a room: by the answer to "!help", a move played after
        # the stop would have been shown.
        help_id = await alice.say(room, "!help")
        await alice.wait_for(lambda seen: is_reply_notice(seen, room, bot, help_id), what="help")
        later = alice.events[alice.events.index(stopped) + 1 :]
        assert not [seen for seen in later if is_edit_of(seen.source, original)]

"""End to end, one process serving both platforms (``python -m chatbots run`` with the Discord
double and a real Synapse): a Discord player and a Matrix player each ``/seek connect4``, are
paired into one open game, and play it to the end, each in their own chat; both boards show
every move, the result is recorded once, and neither chat is shown the other's id or name."""

from __future__ import annotations

import functools
import sqlite3
from pathlib import Path

from adapters.discord.layout import MARK_EMOJI, WINNING_EMOJI
from tests.backends import Backends
from tests.e2e.discord_double import TOKEN, DiscordDouble, Json, buttons, text_of
from tests.e2e.synapse import (
    BOT,
    PASSWORD,
    SERVER_NAME,
    Player,
    Seen,
    SynapseServer,
    is_edit_of,
    synapse_server,
)
from tests.e2e.test_health import health_becomes, running_app
from tests.e2e.test_matrix import edit_after, is_board, open_room, shown, stones

__all__ = ["synapse_server"]  # a fixture

X_MARK, O_MARK = "❌", "⭕"


def discord_stones(message: Json) -> int:
    """Stones on a Connect Four board as the double shows it: the six rows drawn under the
    column keys, each cell a stone or the empty mark."""
    after_keys = str(message.get("content") or "").split("1️⃣2️⃣3️⃣4️⃣5️⃣6️⃣7️⃣\n")[-1]
    rows = after_keys.split("\n")[:6]
    stones = {*MARK_EMOJI, *WINNING_EMOJI} - {""}
    return sum(row.count(stone) for row in rows for stone in stones)


def discord_shows(double: DiscordDouble, board_id: int, count: int) -> bool:
    return discord_stones(double.messages[board_id]) == count


def dm_board(double: DiscordDouble, channel: str) -> int | None:
    """The message in ``channel`` that shows an open game's board (its column buttons)."""
    return next(
        (
            message_id
            for message_id, message in double.messages.items()
            if str(message.get("channel_id")) == channel
            and any(":move:" in str(b.get("custom_id", "")) for b in buttons(message))
        ),
        None,
    )


def matrix_shows(room: str, board: Seen, count: int, seen: Seen) -> bool:
    return (
        seen.room_id == room
        and is_edit_of(seen.source, board.source["event_id"])
        and stones(seen) == count
    )


def column(message: Json, index: int) -> str:
    return str(
        next(
            b["custom_id"]
            for b in buttons(message)
            if ":move:" in b["custom_id"] and b["custom_id"].endswith(f":{index}")
        )
    )


async def meet_and_play(
    server: SynapseServer, double: DiscordDouble, mia: Player
) -> tuple[str, str]:
    """A Discord player (DM) and a Matrix player (a room) seek Connect Four, are paired and
    play it to the end; both boards are checked after every move, and neither chat for the
    other's id or name. The DM channel and the room. The Matrix board opens with the
    pairing's line (names, platforms, ratings), also when another process shows it from the
    store.
    """
    bot = server.user_id(BOT)
    room = await open_room(server, mia)
    # A room is not a direct chat for these tests: its admin (the creator) turns open play on.
    mark = mia.mark()
    await mia.say(room, "!settings open_play on")
    await mia.wait_for(
        lambda seen: seen.room_id == room and "open_play" in shown(seen),
        after=mark,
        what="the setting confirmed",
    )
    mark = mia.mark()
    await mia.say(room, "!seek connect4")
    await mia.wait_for(
        lambda seen: seen.room_id == room and "Looking for an opponent" in shown(seen),
        after=mark,
        what="the seek queued",
    )
    # The Discord player seeks from a DM with the bot (open play is on there).
    sought = await double.slash("seek", {"game": "quatre"}, user="dan", dm=True)
    assert sought.original_id is not None, sought.requests
    dm_channel = double.dm_channel("dan")
    matrix_board = await mia.wait_for(
        lambda seen: seen.room_id == room and is_board(seen, bot),
        after=mark,
        what="the open game's board",
    )
    # Dan's board is the answer to his /seek when it paired at once. When a process's pass
    # held Mia's seek at that instant, his seek queued (the answer says so) and the pass paired
    # them: the board is then a message of its own in his DM, maybe from the other process's
    # outbox a pass later.
    await double.wait_for(lambda: dm_board(double, dm_channel) is not None, within=20)
    board_id = dm_board(double, dm_channel)
    assert board_id is not None
    if board_id != sought.original_id:
        assert "Looking for an opponent" in text_of(double.messages[sought.original_id])
    assert "Dan" in shown(matrix_board)
    assert "Discord" in shown(matrix_board)
    assert "alice" in text_of(double.messages[board_id])
    assert "Matrix" in text_of(double.messages[board_id])

    # Who plays first was drawn: Discord tries, and is told when it is not its turn.
    first_try = await double.click(board_id, column(double.messages[board_id], 0), user="dan")
    order = ["matrix", "discord"] if first_try.ephemeral() else ["discord", "matrix"]
    # The first player fills columns 1 to 4, the second stacks on column 7.
    plan = [(0, 0), (1, 6), (0, 1), (1, 6), (0, 2), (1, 6), (0, 3)]
    for played, (who, col) in enumerate(plan, start=1):
        if order[who] == "discord":
            if not (played == 1 and order[0] == "discord"):
                click = await double.click(
                    board_id, column(double.messages[board_id], col), user="dan"
                )
                assert not click.ephemeral(), click.ephemeral()
        else:
            await edit_after(
                mia,
                room,
                matrix_board,
                await mia.say(room, str(col + 1)),
                what=f"the answer to column {col + 1}",
            )
        # Both boards show the move, whichever chat it came from.
        await double.wait_for(functools.partial(discord_shows, double, board_id, played), within=20)
        await mia.wait_for(
            functools.partial(matrix_shows, room, matrix_board, played),
            what=f"the Matrix board with {played} stones",
        )
    final = double.messages[board_id]
    winner = "Dan" if order[0] == "discord" else "alice"
    status = next(line for line in text_of(final).split("\n") if "wins" in line)
    assert winner in status, status
    # The rated game's result: both players' new ratings, on each board.
    assert "Ratings:" in text_of(final)
    room_texts = [shown(seen) for seen in mia.events if seen.room_id == room]
    assert any("wins" in text for text in room_texts)

    # Neither chat was shown the other's id or name.
    discord_texts = [text_of(m) for m in double.messages.values()]
    assert not any(room in text or SERVER_NAME in text for text in discord_texts)
    for text in room_texts:
        assert dm_channel not in text
        assert all(g.name not in text for g in double.guilds.values())
    return dm_channel, room


def discord_settings(double: DiscordDouble) -> dict[str, str]:
    return {
        "DISCORD_TOKEN": TOKEN,
        "DISCORD_API_BASE_URL": double.api_base_url,
        "DISCORD_GATEWAY_URL": double.gateway_url,
    }


def matrix_settings(server: SynapseServer, folder: Path) -> dict[str, str]:
    return {
        "MATRIX_HOMESERVER": server.url,
        "MATRIX_USER_ID": server.user_id(BOT),
        "MATRIX_PASSWORD": PASSWORD,
        "MATRIX_STORE_PATH": str(folder / "matrix"),
    }


async def test_a_discord_and_a_matrix_player_meet_and_play_one_game(
    synapse_server: SynapseServer, tmp_path: Path
) -> None:
    server = synapse_server
    async with DiscordDouble() as double:
        settings = {**discord_settings(double), **matrix_settings(server, tmp_path)}
        async with running_app(tmp_path, **settings) as port, Player(server, "alice") as mia:
            await double.wait_ready(within=60)
            body = await health_becomes(port, 200, within=60)
            assert body["checks"] == {"store": "ok", "discord": "ok", "matrix": "ok"}
            dm_channel, room = await meet_and_play(server, double, mia)
            # Neither can mention the other on their own platform: each blocks the other as
            # they met them, Dan his latest opponent (the slash command with no option), Mia
            # by the name her board showed.
            blocked = await double.slash("block", {}, user="dan", dm=True)
            assert blocked.ephemeral() == ["You will not be paired with alice (Matrix) again."]
            mark = mia.mark()
            await mia.say(room, "!block dan")
            await mia.wait_for(
                lambda seen: (
                    seen.room_id == room
                    and "You will not be paired with Dan (Discord) again." in shown(seen)
                ),
                after=mark,
                what="the block confirmed",
            )

    # The result was recorded once, for each player in their own chat.
    db = sqlite3.connect(tmp_path / "games.sqlite3")
    try:
        rows = db.execute(
            "SELECT platform, chat_id, wins + losses + draws FROM stats ORDER BY platform"
        ).fetchall()
    finally:
        db.close()
    assert rows == [("discord", dm_channel, 1), ("matrix", room, 1)]


async def test_discord_in_one_process_and_matrix_in_another_on_one_postgresql(
    synapse_server: SynapseServer, backends: Backends, tmp_path: Path
) -> None:
    """Each board is in a chat that the other process serves: a move applied by one process
    reaches the other chat's board through the store (docs/open-play.md)."""
    server = synapse_server
    async with backends.fresh("postgres", tmp_path) as pg, DiscordDouble() as double:
        shared = {"DATABASE_URL": pg.where}
        (tmp_path / "d").mkdir()
        (tmp_path / "m").mkdir()
        async with (
            running_app(tmp_path / "d", **shared, **discord_settings(double)) as discord_port,
            running_app(tmp_path / "m", **shared, **matrix_settings(server, tmp_path)) as port,
            Player(server, "alice") as mia,
        ):
            await double.wait_ready(within=60)
            assert (await health_becomes(discord_port, 200, within=60))["checks"] == {
                "store": "ok",
                "discord": "ok",
            }
            assert (await health_becomes(port, 200, within=60))["checks"] == {
                "store": "ok",
                "matrix": "ok",
            }
            dm_channel, room = await meet_and_play(server, double, mia)
        rows = await pg.sql(
            "SELECT platform, chat_id, wins + losses + draws FROM stats ORDER BY platform"
        )
    assert rows == [("discord", dm_channel, 1), ("matrix", room, 1)]

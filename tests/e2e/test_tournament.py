"""End to end, one process serving both platforms (``python -m chatbots run`` with the Discord
double and a real Synapse): a rated Swiss event of two rounds made by a Discord server's admin,
joined by two players of that server and two Matrix players from their own rooms, played to
its end: each round's games shown in each player's own chat (an open game between a Discord
and a Matrix player), the results and scores, the final standings posted in every chat that
took part, and the ratings of the four players."""

from __future__ import annotations

import asyncio
import functools
import re
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.e2e.discord_double import DiscordDouble, Json, buttons, text_of
from tests.e2e.synapse import BOT, Player, Seen, SynapseServer, synapse_server
from tests.e2e.test_health import health_becomes, running_app
from tests.e2e.test_matrix import open_room, shown
from tests.e2e.test_open_play import discord_settings, matrix_settings

__all__ = ["synapse_server"]  # a fixture

X_WINS = (0, 3, 1, 4, 2)  # 0-based cells: the first player takes the top row


def query(path: Path, sql: str, *args: object) -> list[tuple[Any, ...]]:
    """The bot's database as it stands, read on a connection of its own."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return db.execute(sql, args).fetchall()
    finally:
        db.close()


async def until(condition: Callable[[], bool], what: str, within: float = 60.0) -> None:
    deadline = time.monotonic() + within
    while not condition():
        assert time.monotonic() < deadline, f"not in time: {what}"
        await asyncio.sleep(0.1)


STARTED = (
    "SELECT g.session_id, s.x_user, s.o_user FROM event_games AS g"
    " JOIN sessions AS s ON s.id = g.session_id WHERE g.event_id = ? AND g.round = ? ORDER BY g.seq"
)


def played(database: Path, session_id: str, moves: int) -> bool:
    """Whether the game's version says ``moves`` were played (2 once accepted, one more each)."""
    found = query(database, "SELECT version FROM sessions WHERE id = ?", session_id)
    return bool(found) and found[0][0] == 2 + moves


def said_in(room: str, words: str) -> Callable[[Seen], bool]:
    return lambda seen: seen.room_id == room and words in shown(seen)


def board_of(double: DiscordDouble, session_id: str, version: int) -> int | None:
    """The Discord message that shows the game's board at ``version`` (its cell buttons name
    the game and the version they play on: a move from the other chat edits it)."""
    shown = f":move:{session_id}:{version}:"
    return next(
        (
            message_id
            for message_id, message in double.messages.items()
            if any(shown in str(b.get("custom_id", "")) for b in buttons(message))
        ),
        None,
    )


def cell(message: Json, move: int) -> str:
    return next(
        str(b["custom_id"])
        for b in buttons(message)
        if ":move:" in str(b["custom_id"]) and str(b["custom_id"]).endswith(f":{move}")
    )


async def test_a_swiss_event_of_discord_and_matrix_players(
    synapse_server: SynapseServer, tmp_path: Path
) -> None:
    server = synapse_server
    database = tmp_path / "games.sqlite3"
    async with DiscordDouble() as double:
        settings = {**discord_settings(double), **matrix_settings(server, tmp_path)}
        async with (
            running_app(tmp_path, **settings) as port,
            Player(server, "alice") as mia,
            Player(server, "bob") as noa,
        ):
            await double.wait_ready(within=60)
            await health_becomes(port, 200, within=60)
            double.grant("ann")  # Manage Server: an admin of the server
            on = {"key": "open_play", "value": "on"}
            await double.slash("settings", on, user="ann", granted=True)
            made = await double.slash(
                "tournament",
                {"action": "swiss", "game": "tres", "length": "2", "start": "+30s"},
                user="ann",
                granted=True,
            )
            [created] = [t for t in made.public() if "tournament join" in t]
            found = re.search(r"tournament join (\S+)", created)
            assert found is not None, created
            ident = found[1]
            for name in ("ann", "ben"):
                joined = await double.slash(
                    "tournament", {"action": "join", "event": ident}, user=name
                )
                assert any("joined tournament" in t for t in joined.public()), joined.requests
            rooms: dict[str, tuple[Player, str]] = {}
            for player in (mia, noa):
                room = await open_room(server, player)
                mark = player.mark()
                await player.say(room, "!settings open_play on")
                await player.wait_for(
                    said_in(room, "open_play"),
                    after=mark,
                    what="the setting confirmed",
                )
                mark = player.mark()
                await player.say(room, f"!tournament join {ident}")
                await player.wait_for(
                    said_in(room, "joined tournament"),
                    after=mark,
                    what="the join answered",
                )
                rooms[player.user_id] = (player, room)
            discord_ids = {str(double.user(n)["id"]): n for n in ("ann", "ben")}

            for number in (1, 2):
                games = functools.partial(query, database, STARTED, ident, number)
                await until(lambda: len(games()) == 2, f"round {number}'s games")  # noqa: B023
                for session_id, x_user, o_user in games():
                    seated = [x_user, o_user]
                    for n, move in enumerate(X_WINS):
                        mover = seated[n % 2]
                        if mover in rooms:
                            player, room = rooms[mover]
                            await player.say(room, str(move + 1))
                        else:
                            shows = functools.partial(board_of, double, session_id, 2 + n)
                            await double.wait_for(lambda: shows() is not None, 20)  # noqa: B023
                            board = shows()
                            assert board is not None
                            message = double.messages[board]
                            click = await double.click(
                                board, cell(message, move), user=discord_ids[mover]
                            )
                            assert not click.ephemeral(), click.ephemeral()
                        await until(
                            functools.partial(played, database, session_id, n + 1),
                            f"move {n + 1} of {session_id}",
                        )
            await until(
                lambda: (
                    query(database, "SELECT status FROM events WHERE id = ?", ident)[0][0]
                    == "finished"
                ),
                "the event's end",
            )
            scores = query(
                database,
                "SELECT platform, user_id, score FROM event_players WHERE event_id = ?",
                ident,
            )
            assert sum(score for *_, score in scores) == 4.0
            assert max(score for *_, score in scores) == 2.0
            # Every game was rated: four players on the tic-tac-toe ladder.
            rated = query(database, "SELECT count(*) FROM ratings WHERE pool = 'tictactoe'")
            assert rated[0][0] == 4
            # The final standings in every chat that took part.
            await double.wait_for(
                lambda: any("Final standings" in text_of(m) for m in double.messages.values()),
                within=20,
            )
            for player, room in rooms.values():
                await player.wait_for(
                    said_in(room, "Final standings"),
                    after=0,
                    what="the final standings",
                )
            assert BOT  # the bot's account served both rooms

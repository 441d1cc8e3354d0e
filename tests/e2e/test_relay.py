"""End to end, two processes on one PostgreSQL (``python -m chatbots run`` twice): one runs
Discord (the double) and holds the sweeper lease, the other syncs Matrix (a real Synapse). A
Matrix game's clock runs out: the process that ends it cannot show anything on Matrix, and the
one that syncs the room edits the board to the result and says it, from the store's outbox
(docs/open-play.md). Real time: the shortest clock, 10 s."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from tests.backends import Backends
from tests.e2e.discord_double import DiscordDouble
from tests.e2e.synapse import (
    BOT,
    Player,
    SynapseServer,
    is_edit_of,
    is_notice_from,
    synapse_server,
)
from tests.e2e.test_health import health_becomes, healthz, running_app
from tests.e2e.test_matrix import _content, open_room, shown, start_game
from tests.e2e.test_open_play import discord_settings, matrix_settings

__all__ = ["synapse_server"]  # a fixture


async def holds_sweeper(port: int, within: float) -> None:
    """Return once the process on ``port`` says it holds the sweeper lease."""
    deadline = time.monotonic() + within
    body: object = None
    while time.monotonic() < deadline:
        _, body = await healthz(port)
        if isinstance(body, dict) and body.get("leases", {}).get("sweeper") == "held":
            return
        await asyncio.sleep(0.2)
    raise AssertionError(f"the sweeper lease was not held within {within} s: {body}")


async def test_a_timeout_swept_by_another_process_reaches_the_matrix_room(
    synapse_server: SynapseServer, backends: Backends, tmp_path: Path
) -> None:
    server = synapse_server
    bot = server.user_id(BOT)
    async with backends.fresh("postgres", tmp_path) as pg, DiscordDouble() as double:
        shared = {"DATABASE_URL": pg.where}
        (tmp_path / "d").mkdir()
        (tmp_path / "m").mkdir()
        # The Discord process starts first and takes the sweeper lease; the Matrix one waits.
        async with running_app(tmp_path / "d", **shared, **discord_settings(double)) as first:
            await double.wait_ready(within=60)
            await health_becomes(first, 200, within=60)
            await holds_sweeper(first, within=30)
            async with (
                running_app(tmp_path / "m", **shared, **matrix_settings(server, tmp_path)) as port,
                Player(server, "alice") as alice,
                Player(server, "bob") as bob,
            ):
                body = await health_becomes(port, 200, within=60)
                assert body["checks"] == {"store": "ok", "matrix": "ok"}
                assert body["leases"]["sweeper"] != "held"
                room = await open_room(server, alice, bob)
                await alice.say(room, f"!tres {bob.user_id} 10s")
                await bob.wait_for(
                    lambda seen: seen.room_id == room and seen.source.get("sender") == bot,
                    what="the challenge",
                )
                mark = alice.mark()  # what Alice sees from the game's start on
                board = await start_game(server, bob, room, "!accept")
                board_id = board.source["event_id"]
                # Alice, who starts, lets her 10 s run out; the other process ends the game.
                edit = await alice.wait_for(
                    lambda seen: (
                        is_edit_of(seen.source, board_id) and "ran out of time" in shown(seen)
                    ),
                    after=mark,
                    within=60,
                    what="the board's last edit",
                )
                assert "alice ran out of time. bob wins." in shown(edit)
                await alice.wait_for(
                    lambda seen: (
                        seen.room_id == room
                        and is_notice_from(seen.source, bot)
                        and "m.relates_to" not in _content(seen)
                        and shown(seen) == "alice ran out of time. bob wins."
                    ),
                    after=mark,
                    within=20,
                    what="the result's notice",
                )
        rows = await pg.sql("SELECT termination FROM sessions")
    assert rows == [("timeout",)]

"""Two bot processes (``python -m chatbots run``) configured for the same Matrix account, on the
real Synapse and one embedded PostgreSQL: only the holder of the account's lease syncs; killed
with SIGKILL, the other takes over within the bound, and a move sent during the gap is applied
exactly once. The sweeper's lease moves between the same two processes the same way.
"""

from __future__ import annotations

import time
from pathlib import Path

from core.leases import DEFAULT_TTL
from core.sessions.clocks.sweeper import SWEEPER_LEASE
from tests.backends import Backends
from tests.e2e.bot_processes import (
    BotProcess,
    lease_holder_pid,
    start_bot,
    wait_boards_stored,
    wait_holder,
)
from tests.e2e.synapse import BOT, PASSWORD, Player, SynapseServer, is_edit_of, synapse_server
from tests.e2e.test_matrix import (
    grid,
    is_board,
    is_reply_notice,
    open_room,
    shown,
    start_game,
)

__all__ = ["synapse_server"]  # the fixture, imported for pytest

TAKEOVER_BOUND = 30.0
"""Seconds from the holder's death to the other process serving (the issue's bound)."""


def bot_settings(server: SynapseServer, database_url: str, store_path: Path) -> dict[str, str]:
    # One machine here: the encryption store is shared, as it must be (a shared volume) for
    # encrypted rooms to survive a takeover on the same device.
    return {
        "DATABASE_URL": database_url,
        "MATRIX_HOMESERVER": server.url,
        "MATRIX_USER_ID": server.user_id(BOT),
        "MATRIX_PASSWORD": PASSWORD,
        "MATRIX_STORE_PATH": str(store_path),
        "LEASE_TTL_SECONDS": str(int(DEFAULT_TTL)),
    }


async def test_one_process_syncs_and_the_other_takes_over_after_a_kill_9(
    synapse_server: SynapseServer, backends: Backends, tmp_path: Path
) -> None:
    server = synapse_server
    bot = server.user_id(BOT)
    lease = f"matrix-sync:{bot}"
    async with backends.fresh("postgres", tmp_path) as db:
        settings = bot_settings(server, db.where, tmp_path / "matrix")
        first = await start_bot(tmp_path, "first", settings)
        second: BotProcess | None = None
        try:
            await wait_holder(db.sql, lease, first.pid, within=60)
            await first.wait_log("matrix: logged in", within=60)
            async with Player(server, "alice") as alice:
                room = await open_room(server, alice)
                second = await start_bot(tmp_path, "second", settings)
                await second.wait_log(f"lease {lease}: held by", within=60)
                board = await start_game(server, alice, room, "!tres easy")
                # And a game with no move yet, in a room of its own.
                quiet = await open_room(server, alice)
                unplayed = await start_game(server, alice, quiet, "!quatre easy")

                # Only the first syncs: the second never even logged in. It sweeps, too.
                assert await lease_holder_pid(db.sql, lease) == first.pid
                assert await lease_holder_pid(db.sql, SWEEPER_LEASE) == first.pid
                assert "matrix: logged in" not in second.log_text()

                await wait_boards_stored(db.sql, within=30)
                await first.kill()
                killed = time.monotonic()
                mark = alice.mark()
                move = await alice.say(room, "b2")  # during the gap: no one syncs
                took = await wait_holder(db.sql, lease, second.pid, within=TAKEOVER_BOUND)
                edit = await alice.wait_for(
                    lambda seen: (
                        seen.room_id == room and is_edit_of(seen.source, board.source["event_id"])
                    ),
                    after=mark,
                    within=TAKEOVER_BOUND,
                    what="the gap's move answered",
                )
                answered = time.monotonic()
                assert answered - killed <= TAKEOVER_BOUND
                await wait_holder(db.sql, SWEEPER_LEASE, second.pid, within=TAKEOVER_BOUND)
                print(
                    f"lease taken over {took - killed:.1f} s after the kill, the gap's move"
                    f" answered after {answered - killed:.1f} s"
                )
                # Applied once: alice's X at b2 and the bot's one answer, in the store too.
                marks = [cell for row in grid(shown(edit)) for cell in row]
                assert grid(shown(edit))[1][1] == "X"
                assert (marks.count("X"), marks.count("O")) == (1, 1)
                rows = await db.sql(
                    "SELECT moves, version FROM sessions WHERE status = 'active' AND moves <> ''"
                )
                assert len(rows) == 1 and rows[0][0].split(",")[0] == "4" and rows[0][1] == 3

                # The game goes on with the new holder, and nothing came twice.
                mark = alice.mark()
                free = next(n for n, cell in enumerate(marks, 1) if cell not in ("X", "O"))
                await alice.say(room, str(free))  # the easy bot's answer may be anywhere
                await alice.wait_for(
                    lambda seen: is_edit_of(seen.source, board.source["event_id"]),
                    after=mark,
                    what="the next move answered",
                )
                mine = [seen for seen in alice.events if seen.room_id == room]
                edits = [s for s in mine if is_edit_of(s.source, board.source["event_id"])]
                assert len(edits) == 2
                assert not [s for s in mine if is_reply_notice(s, room, bot, move)]

                # Ended before its first move (deleted, with no result to keep) by the process
                # that took over: the board the first one posted says so, no new one does.
                mark = alice.mark()
                await alice.say(quiet, "!final")
                ended = await alice.wait_for(
                    lambda seen: is_edit_of(seen.source, unplayed.source["event_id"]),
                    after=mark,
                    what="the unplayed game's board edited",
                )
                assert "alice ended the game" in shown(ended)
                assert not [s for s in alice.events[mark:] if is_board(s, bot)]
            assert second.log_text().count("matrix: logged in") == 1
            assert await second.stop() == 0
            second = None
            # Released at the clean stop: a next process would take over at once.
            assert await lease_holder_pid(db.sql, lease) is None
        finally:
            for process in (first, second):
                if process is not None:
                    await process.kill()

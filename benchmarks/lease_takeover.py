"""Matrix lease takeover: how long after the syncing process dies does the other serve again?

Two ``python -m chatbots run`` processes are configured for one Matrix account, on a real
Synapse on 127.0.0.1 and one embedded PostgreSQL; one holds the account's sync lease
(``matrix-sync:<user id>``, ``LEASE_TTL_SECONDS`` at its default), the other stands by. Each
round starts a game, SIGKILLs the holder, and at once types a move (into the gap, when no one
syncs); then a new process is started to stand by for the next round. Two figures per kill:

- **lease**: until the database names the standby as the holder (polled every 50 ms);
- **served**: until the move typed in the gap comes back answered (the board edited), which
  adds the login (the saved token), the sync from the stored token and the move.

Where the kill falls within the holder's renewal period (every ttl/3) is left to chance, so the
lease figure ranges from about 2/3 ttl to ttl. Also once: a clean stop (SIGTERM, the lease is
released). Slow (about 20 s a round): not in the default run; ``python -m benchmarks
lease_takeover``.
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from core.leases import DEFAULT_TTL
from tests.e2e.bot_processes import BotProcess, start_bot, wait_boards_stored, wait_holder
from tests.e2e.synapse import (
    BOT,
    PASSWORD,
    Player,
    Seen,
    SynapseServer,
    is_edit_of,
    synapse_missing,
)
from tests.e2e.test_matrix import open_room, start_game
from tests.pg import PostgresServer, PostgresUnavailable

IN_DEFAULT_RUN = False
BOUND = 30.0


def main(quick: bool) -> None:
    """Print the takeover figures (``quick``: 3 kills instead of 10)."""
    reason = synapse_missing()
    if reason is not None:
        print(f"skipped: {reason}")
        return
    kills = 3 if quick else 10
    with tempfile.TemporaryDirectory(prefix="lease-bench-") as folder:
        try:
            database = PostgresServer.start()
        except PostgresUnavailable as error:
            print(f"skipped: {error}")
            return
        try:
            server = SynapseServer.start(Path(folder) / "synapse")
            try:
                server.register([BOT, "alice"])
                asyncio.run(_run(server, database, Path(folder), kills))
            finally:
                server.stop()
        finally:
            database.stop()


async def _run(server: SynapseServer, database: PostgresServer, folder: Path, kills: int) -> None:
    import asyncpg

    url = database.url()

    async def sql(statement: str, *params: Any) -> list[tuple[Any, ...]]:
        conn = await asyncpg.connect(url)
        try:
            return [tuple(row) for row in await conn.fetch(statement, *params)]
        finally:
            await conn.close()

    settings = {
        "DATABASE_URL": url,
        "MATRIX_HOMESERVER": server.url,
        "MATRIX_USER_ID": server.user_id(BOT),
        "MATRIX_PASSWORD": PASSWORD,
        "MATRIX_STORE_PATH": str(folder / "matrix"),
    }
    lease = f"matrix-sync:{server.user_id(BOT)}"
    started = 0

    async def new_process() -> BotProcess:
        nonlocal started
        started += 1
        return await start_bot(folder, f"bot{started}", settings)

    holder = await new_process()
    await wait_holder(sql, lease, holder.pid, within=60)
    await holder.wait_log("matrix: logged in", within=60)
    processes = [holder]
    leased: list[float] = []
    served: list[float] = []
    try:
        async with Player(server, "alice") as alice:
            room = await open_room(server, alice)
            standby = await new_process()
            processes.append(standby)
            for _ in range(kills):
                await standby.wait_log(f"lease {lease}: held by", within=60)
                board = await _fresh_game(server, alice, room)
                await wait_boards_stored(sql, within=30)
                await holder.kill()
                killed = time.monotonic()
                mark = alice.mark()
                await alice.say(room, "b2")
                took = await wait_holder(sql, lease, standby.pid, within=BOUND)
                await alice.wait_for(
                    _edit_of(str(board.source["event_id"])),
                    after=mark,
                    within=BOUND,
                    what="the gap's move answered",
                )
                leased.append(took - killed)
                served.append(time.monotonic() - killed)
                print(f"  kill {len(leased)}: lease {leased[-1]:.2f} s, served {served[-1]:.2f} s")
                holder, standby = standby, await new_process()
                processes.append(standby)
            # One clean stop: the lease is released, the standby takes it at its next try.
            await standby.wait_log(f"lease {lease}: held by", within=60)
            stopping = time.monotonic()
            await holder.stop()
            clean = await wait_holder(sql, lease, standby.pid, within=BOUND) - stopping
    finally:
        for process in processes:
            await process.kill()
    print(f"lease ttl {DEFAULT_TTL:.0f} s (renewed every {DEFAULT_TTL / 3:.0f} s); {kills} kills")
    print(f"{'':>22} {'p50':>7} {'max':>7}")
    for name, values in (("lease taken over", leased), ("gap move answered", served)):
        print(f"{name:>22} {statistics.median(values):>6.2f}s {max(values):>6.2f}s")
    print(f"after a clean stop (SIGTERM): lease taken over in {clean:.2f} s")


def _edit_of(original: str) -> Callable[[Seen], bool]:
    return lambda seen: is_edit_of(seen.source, original)


async def _fresh_game(server: SynapseServer, alice: Player, room: str) -> Any:
    """End alice's game, if any, and start a new one; its board."""
    bot = server.user_id(BOT)
    final = await alice.say(room, "!final")
    own = await alice.wait_for(lambda seen: seen.source.get("event_id") == final, what="!final")
    await alice.wait_for(
        lambda seen: seen.room_id == room and seen.source.get("sender") == bot,
        after=alice.events.index(own) + 1,
        what="the answer to !final",
    )
    return await start_game(server, alice, room, "!tres easy")

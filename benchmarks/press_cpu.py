"""CPU per button press of the Discord bot, and where it goes.

Real parts: the loopback Discord double, PostgreSQL (the tests' embedded server), the real
service with its AI process pool; players press cells of HARD tic-tac-toe boards, so every
press is answered with the player's move and the bot's reply on the board.

- End to end, as ``discord_shards`` measures it: the bot is a ``chatbots run`` process (one
  shard, one AI worker); its CPU and its AI worker's, from /proc, divided by the presses made
  meanwhile. Two windows: presses only (the boards were posted before the window opened), and
  games played through (each ``/tres`` start counted with the presses of its game, as
  ``discord_shards`` counts).
- Where it goes: the same bot run inside this process under ``cProfile`` timed by this
  thread's CPU clock (not the wall clock: on a shared machine a socket write can wait for a
  core), the double beside it: the cumulative CPU of the functions that make up a press, and
  the CPU by library, per press. Under the profiler, so larger than the real figures: read the
  shares. The double's own work is in the process too (its aiohttp server, its JSON): the
  library table names what it shares with the bot.

Runs against any checkout (``PYTHONPATH=/path/to/checkout python benchmarks/press_cpu.py``),
so that the figure before a change is measured exactly as the one after it.
"""

from __future__ import annotations

import asyncio
import contextlib
import cProfile
import dataclasses
import logging
import pstats
import random
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, cast

from tests.e2e.discord_double import CALLBACK_DEADLINE, DiscordDouble, Guild, Sent
from tests.e2e.discord_fleet import ShardProcess, free_cells
from tests.processes import cpu_seconds, descendants

PLAYERS = 20
BOARDS_PER_MINUTE = 6000  # every board is posted in one channel: the chat's limit lifted


def main(quick: bool) -> None:
    """Print CPU per press, end to end and by part (``quick``: fewer presses)."""
    from tests.pg import PostgresServer

    logging.getLogger("core").setLevel(logging.ERROR)
    server = PostgresServer.start()
    try:
        asyncio.run(_run(server.url(), 150 if quick else 600))
    finally:
        server.stop()


async def _run(admin_url: str, presses: int) -> None:
    with tempfile.TemporaryDirectory(prefix="bench-press-") as name:
        async with _database(admin_url, "press_e2e") as url:
            await _end_to_end(Path(name), url, presses)
        async with _database(admin_url, "press_profile") as url:
            await _profiled(url, presses)


@contextlib.asynccontextmanager
async def _database(admin_url: str, name: str) -> AsyncIterator[str]:
    import asyncpg

    admin = await asyncpg.connect(admin_url)
    try:
        await admin.execute(f"CREATE DATABASE bench_{name}")
        yield admin_url.replace("/postgres?", f"/bench_{name}?")
    finally:
        await admin.execute(f"DROP DATABASE IF EXISTS bench_{name} WITH (FORCE)")
        await admin.close()


# --- end to end: the bot as its own process ------------------------------------------------


async def _end_to_end(folder: Path, url: str, presses: int) -> None:
    async with DiscordDouble(shards=1) as double:
        guild = double.add_guild("press", shard=0)
        bot = ShardProcess(double, folder / "bot", url, (0,))
        bot.process.settings |= {
            "AI_WORKERS": "1",
            "AI_BUDGET_SECONDS": "1.0",
            "BOARDS_PER_MINUTE": str(BOARDS_PER_MINUTE),
        }
        await bot.start()
        await double.wait_ready(within=60.0)  # identified is not yet synced: /tres must exist
        pid = bot.process.life.pid

        def cpu() -> tuple[float, float]:
            own = cpu_seconds(pid)
            return own, sum(cpu_seconds(child) for child in descendants(pid))

        try:
            # Warm: the AI worker's first searches, the store's first statements.
            await _play_through(double, guild, 40)
            boards = await _boards(double, guild, presses)
            before = cpu()
            pressed = await _press_boards(double, boards, presses)
            after = cpu()
            before_games = cpu()
            played = await _play_through(double, guild, presses)
            after_games = cpu()
        finally:
            await bot.stop()
    print(
        f"bot CPU per press (HARD 3x3, one AI worker, PostgreSQL), {PLAYERS} players at once,"
        " from /proc"
    )
    print(f"{'window':<34}{'presses':>8}{'bot':>10}{'AI worker':>11}{'together':>10}")
    if not pressed or not played:
        raise RuntimeError(f"no presses were answered ({pressed}, {played}): see the bot's log")
    for label, count, start, end in (
        ("presses only", pressed, before, after),
        ("games with their starts", played, before_games, after_games),
    ):
        own, workers = ((end[i] - start[i]) * 1000 / count for i in (0, 1))
        print(f"{label:<34}{count:>8}{own:>8.2f}ms{workers:>9.2f}ms{own + workers:>8.2f}ms")


async def _boards(double: DiscordDouble, guild: Guild, presses: int) -> list[tuple[str, int]]:
    """Enough fresh boards (player, message id) for ``presses`` presses (3 or more a game)."""
    boards: list[tuple[str, int]] = []
    semaphore = asyncio.Semaphore(PLAYERS)

    async def one(n: int) -> None:
        async with semaphore:
            start = await _answered(
                double,
                await double.slash(
                    "tres", {"level": "hard"}, user=f"p{n}", guild=guild, wait=False
                ),
            )
            if start.original_id is not None:
                boards.append((f"p{n}", start.original_id))

    await asyncio.gather(*(one(n) for n in range(presses // 3 + PLAYERS)))
    return boards


async def _press_boards(double: DiscordDouble, boards: list[tuple[str, int]], presses: int) -> int:
    """Players press cells of the boards given until ``presses`` were answered."""
    done = 0
    queue = list(boards)

    async def player() -> None:
        nonlocal done
        while queue and done < presses:
            user, board = queue.pop()
            rng = random.Random(board)
            while done < presses:
                free = free_cells(double.messages[board])
                if not free:
                    break
                sent = await double.click(board, rng.choice(free), user=user, wait=False)
                await _answered(double, sent)
                done += 1

    await asyncio.gather(*(player() for _ in range(PLAYERS)))
    return done


async def _play_through(double: DiscordDouble, guild: Guild, presses: int) -> int:
    """Players start games and play them out until ``presses`` presses were made."""
    done = 0

    async def player(name: str) -> None:
        nonlocal done
        rng = random.Random(name)
        while done < presses:
            start = await _answered(
                double,
                await double.slash("tres", {"level": "hard"}, user=name, guild=guild, wait=False),
            )
            if start.original_id is None:
                continue
            while True:
                free = free_cells(double.messages[start.original_id])
                if not free:
                    break
                sent = await double.click(
                    start.original_id, rng.choice(free), user=name, wait=False
                )
                await _answered(double, sent)
                done += 1

    await asyncio.gather(*(player(f"g{n}-{time.monotonic_ns()}") for n in range(PLAYERS)))
    return done


async def _answered(double: DiscordDouble, sent: Sent) -> Sent:
    with contextlib.suppress(TimeoutError):
        await double.wait_answered(sent, within=CALLBACK_DEADLINE + 1.0)
    return sent


# --- by part: the same bot in this process, profiled ---------------------------------------

# (label, file fragment, function name): cumulative time of each, per press. Coroutines are
# timed while they run, not while they wait, so each row is CPU of this process.
_PARTS = (
    ("discord.py: gateway frame to the item callback", "discord/gateway.py", "received_message"),
    ("our press path (item callback to answered)", "adapters/discord/bot.py", "handle_button"),
    ("  service: GameService.handle_move", "core/sessions/service.py", "handle_move"),
    ("    store: every operation run (SqlStore.run)", "core/store/runner.py", "run"),
    (
        "      get's own code (the one read: statement, row decoded)",
        "core/store/sessions.py",
        "get",
    ),
    ("      update's own code (each compare-and-set)", "core/store/sessions.py", "update"),
    ("    AI: runner.choose (bot side of the pool)", "core/workers/runner.py", "choose"),
    ("  presenting: the reply drawn", "adapters/discord/present.py", "show"),
    ("    interaction callback (HTTP)", "adapters/discord/responder.py", "update_source"),
    ("  board kept: BoardMessages.remember", "adapters/discord/boards.py", "remember"),
    ("  key-value writes (kv_set's own code)", "core/store/kv.py", "kv_set"),
)


async def _profiled(url: str, presses: int) -> None:
    from adapters.discord import DiscordAdapter, DiscordConfig
    from core.sessions import GameService, ServiceSettings
    from core.store.postgres import PostgresStore
    from tests.e2e.discord_double import TOKEN

    async with DiscordDouble() as double:
        guild = double.add_guild("press", shard=0)
        store: Any = await PostgresStore.open(url)
        # The chat's boards per minute: a chat default since the settings keys were defined
        # once, a field of its own before (the benchmark runs on checkouts of either).
        fields = {field.name for field in dataclasses.fields(ServiceSettings)}
        lifted: dict[str, Any] = (
            {"chat_defaults": {"boards_per_minute": BOARDS_PER_MINUTE}}
            if "chat_defaults" in fields
            else {"boards_per_minute": BOARDS_PER_MINUTE}
        )
        settings = cast(Any, ServiceSettings)(ai_workers=1, ai_budget=1.0, **lifted)
        service = GameService(store, settings=settings, rng=random.Random(1))
        await service.start()
        config = DiscordConfig(
            token=TOKEN, api_base_url=double.api_base_url, gateway_url=double.gateway_url
        )
        adapter = DiscordAdapter(service, config)
        stop = asyncio.Event()
        running = asyncio.create_task(adapter.run(stop))
        profile = cProfile.Profile(time.thread_time)
        try:
            await double.wait_ready()
            await _play_through(double, guild, 40)
            boards = await _boards(double, guild, presses)
            started = time.thread_time()
            profile.enable()
            pressed = await _press_boards(double, boards, presses)
            profile.disable()
            total = time.thread_time() - started
        finally:
            stop.set()
            await running
            await service.close()
            await store.close()
    stats = pstats.Stats(profile)
    print(
        f"\nwhere a press goes: the bot in this process under cProfile, {pressed} presses"
        f" (this process, double included: {total * 1000 / pressed:.2f} ms per press)"
    )
    print(f"{'part (cumulative CPU, profiled)':<60}{'ms/press':>10}")
    for label, fragment, function in _PARTS:
        seconds = _cumulative(stats, fragment, function)
        print(f"{label:<60}{seconds * 1000 / pressed:>10.3f}")
    print(f"{'by library (own CPU, profiled)':<60}{'ms/press':>10}")
    for library, seconds in _by_library(stats):
        print(f"{library:<60}{seconds * 1000 / pressed:>10.3f}")


def _cumulative(stats: pstats.Stats, fragment: str, function: str) -> float:
    """Cumulative seconds of every function named ``function`` in a file whose path ends with
    ``fragment``."""
    seconds = 0.0
    table: dict[Any, Any] = stats.stats  # type: ignore[attr-defined]
    for (filename, _, name), (_, _, _, cumulative, _) in table.items():
        if name == function and filename.replace("\\", "/").endswith(fragment):
            seconds += cumulative
    return seconds


_LIBRARIES = (  # first match wins: adapters/discord/ is ours, not discord.py's
    ("our code: core/", "/core/"),
    ("our code: adapters/", "/adapters/"),
    ("the double (tests/e2e/)", "/tests/e2e/"),
    ("discord.py (bot only)", "/discord/"),
    ("asyncpg (bot only)", "/asyncpg/"),
    ("aiohttp, yarl, multidict (bot and double)", "/aiohttp/"),
    ("asyncio (bot and double)", "/asyncio/"),
    ("json (bot and double)", "/json/"),
)


def _by_library(stats: pstats.Stats) -> list[tuple[str, float]]:
    """Own (not cumulative) seconds by library; C functions count with ``other``."""
    totals = dict.fromkeys([label for label, _ in _LIBRARIES] + ["other"], 0.0)
    table: dict[Any, Any] = stats.stats  # type: ignore[attr-defined]
    for (filename, _, _), (_, _, own, _, _) in table.items():
        path = filename.replace("\\", "/").replace("/yarl/", "/aiohttp/")
        path = path.replace("/multidict/", "/aiohttp/")
        label = next((label for label, part in _LIBRARIES if part in path), "other")
        totals[label] += own
    return list(totals.items())


if __name__ == "__main__":
    import sys

    main("--quick" in sys.argv)

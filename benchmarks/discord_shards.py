"""Discord shards across processes: how long a killed process's shard is away, and the
click-to-response latency of many games at once split over two processes.

Real parts only: ``chatbots run`` subprocesses on one PostgreSQL (the tests' embedded server,
``fsync=off``) behind the loopback Discord double, which routes each guild's interactions to the
process holding its shard, as Discord does (``tests/e2e/discord_fleet.py``).

- Takeover: two processes, one shard each, at the default lease lifetime. Ten times: SIGKILL
  the process of shard 0; the survivor takes its shard over (adapters/discord/takeover.py):
  time from the kill to the shard identified again, and to the first press on a board the dead
  process had posted being answered. Then a new process for shard 0 starts and gets its shard
  back: time from its start to its shard identified. The double keeps Discord's identify rate
  (one IDENTIFY per 5 s for the bot), and each kill comes at least 5 s after the last
  IDENTIFY, as a crash would.
- Latency: 200 players at once (100 in a guild of each shard), each playing HARD tic-tac-toe
  games without pause (as ``discord_latency`` does in one process), on two processes of one
  shard each (one AI worker each: the machine has two cores), and, for comparison, on one
  process holding both shards (two AI workers).
- Memory: the resident memory of one bot process (no AI worker) on a shard of 0, 1,000 and
  2,500 servers (Discord's limit per shard), each server with 20 channels and 10 roles in its
  GUILD_CREATE: discord.py keeps every server, channel and role of its shards in memory (the
  ``guilds`` intent; no members, no messages). Real servers carry more (emojis, threads,
  stickers): a floor per server, not a ceiling.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import math
import random
import statistics
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path

from adapters.discord.identify import IDENTIFY_INTERVAL
from core.leases import DEFAULT_TTL
from tests.e2e.discord_double import CALLBACK_DEADLINE, DiscordDouble, Guild, Sent
from tests.e2e.discord_fleet import ShardProcess, free_cells
from tests.processes import rss_mib, tree_cpu_seconds

KILLS = 10
PLAYERS = 200
CHANNELS, ROLES = 20, 10  # per server, in the memory run
SETTLE = 5.0  # seconds after the last GUILD_CREATE before the memory is read


def main(quick: bool) -> None:
    """Print the takeover and latency figures (``quick``: 3 kills, 60 players, fewer clicks)."""
    from tests.pg import PostgresServer

    logging.getLogger("core").setLevel(logging.ERROR)
    server = PostgresServer.start()
    try:
        asyncio.run(_run(server.url(), server.pid, quick))
    finally:
        server.stop()


async def _run(admin_url: str, server_pid: int, quick: bool) -> None:
    kills = 3 if quick else KILLS
    players = 60 if quick else PLAYERS
    clicks = 300 if quick else 2000
    with tempfile.TemporaryDirectory(prefix="bench-shards-") as name:
        folder = Path(name)
        async with _database(admin_url, "takeover") as url:
            await _takeover(folder / "takeover", url, kills)
        print(
            f"\nclick to response, {players} players at once (HARD 3x3, each click answered"
            " with the bot's move), through the double"
        )
        print(
            f"{'processes':<42}{'clicks':>7}{'median':>9}{'p90':>9}{'p99':>9}{'max':>9}"
            f"{'clicks/s':>10}{'CPU ms per click: bots':>24}{'PostgreSQL':>12}{'double':>8}"
        )
        layouts = [
            ("2 processes, 1 shard + 1 AI worker each", ((0,), (1,)), "1"),
            ("1 process, both shards, 2 AI workers", ((0, 1),), "2"),
        ]
        print("(each click goes to the process holding the shard of the player's server)")
        for label, slots, workers in layouts:
            async with _database(admin_url, f"latency{len(slots)}") as url:
                sent, cpu = await _latency(
                    folder / f"latency{len(slots)}",
                    url,
                    slots,
                    workers,
                    players,
                    clicks,
                    server_pid,
                )
            _report(label, sent, cpu)
        print(
            f"\nmemory of one process (no AI worker) by servers on its shard ({CHANNELS}"
            f" channels, {ROLES} roles each)"
        )
        print(f"{'servers':>8}{'RSS':>10}{'per server':>12}")
        base: float | None = None
        async with _database(admin_url, "memory") as url:
            for servers in (0, 500) if quick else (0, 1000, 2500):
                rss = await _memory(folder / f"memory{servers}", url, servers)
                per = (
                    ""
                    if base is None or not servers
                    else f"{(rss - base) * 1024 / servers:.1f} KiB"
                )
                base = rss if base is None else base
                print(f"{servers:>8}{rss:>7.0f} MiB{per:>12}")


@contextlib.asynccontextmanager
async def _database(admin_url: str, name: str) -> AsyncIterator[str]:
    """A fresh database on the server for one run; its URL."""
    import asyncpg

    admin = await asyncpg.connect(admin_url)
    try:
        await admin.execute(f"CREATE DATABASE bench_{name}")
        yield admin_url.replace("/postgres?", f"/bench_{name}?")
    finally:
        await admin.execute(f"DROP DATABASE IF EXISTS bench_{name} WITH (FORCE)")
        await admin.close()


async def _takeover(folder: Path, url: str, kills: int) -> None:
    async with DiscordDouble(shards=2, identify_interval=IDENTIFY_INTERVAL) as double:
        guild = double.add_guild("shard 0", shard=0)
        fleet = [ShardProcess(double, folder / f"bot{s}", url, (s,)) for s in (0, 1)]
        adopted: list[float] = []
        answered: list[float] = []
        given_back: list[float] = []
        try:
            await asyncio.gather(*(bot.start() for bot in fleet))
            # Adoption waits until a survivor has run for a lease's lifetime (processes started
            # together take their own shards first): the kills measure a fleet past that.
            await asyncio.sleep(DEFAULT_TTL)
            board = await _new_board(double, guild, "taker")
            for _ in range(kills):
                if not free_cells(double.messages[board]):
                    board = await _new_board(double, guild, "taker")
                # A crash comes later than 5 s after the bot's last IDENTIFY (else the new one
                # waits for its turn: Discord allows one per 5 s).
                quiet = time.monotonic() - double.identified_at[-1]
                await asyncio.sleep(max(0.0, IDENTIFY_INTERVAL + 0.5 - quiet))
                before = _identifies(double, 0)
                killed_at = await fleet[0].kill()
                await double.wait_for(functools.partial(_identified_since, double, before), 120)
                adopted.append(time.monotonic() - killed_at)
                cell = free_cells(double.messages[board])[0]
                await double.click(board, cell, user="taker")
                answered.append(time.monotonic() - killed_at)
                starting = time.monotonic()
                await fleet[0].start()  # up once its shard identified: given back
                given_back.append(time.monotonic() - starting)
                await double.wait_for(lambda: double.shard_live(0) and double.shard_live(1), 60)
        finally:
            for bot in fleet:
                if bot.process.uptime.up:
                    await bot.stop()
    print(
        f"shard takeover after SIGKILL by the surviving process, lease TTL {DEFAULT_TTL:.0f} s"
        f" ({kills} kills)"
    )
    print(f"{'':52}{'p50':>9}{'max':>9}")
    for label, values in [
        ("from the kill to the shard identified by the survivor", adopted),
        ("from the kill to a press on an old board answered", answered),
        ("a new process for the shard: start to shard back", given_back),
    ]:
        print(f"{label:<52}{statistics.median(values):>8.2f}s{max(values):>8.2f}s")
    print(f"(IDENTIFYs refused for coming too soon: {double.identify_refused})")


async def _memory(folder: Path, url: str, servers: int) -> float:
    """The resident memory (MiB) of a bot process on a shard of ``servers`` servers."""
    async with DiscordDouble(shards=2) as double:
        for n in range(servers):
            double.add_guild(f"server {n}", shard=0, channels=CHANNELS, roles=ROLES)
        bot = ShardProcess(double, folder, url, (0,))
        life = await bot.start()
        try:
            await asyncio.sleep(SETTLE)
            return rss_mib(life.pid)
        finally:
            await bot.stop()


def _identifies(double: DiscordDouble, shard: int) -> int:
    return sum(1 for s, _ in double.identified if s == shard)


def _identified_since(double: DiscordDouble, before: int) -> bool:
    return _identifies(double, 0) > before


async def _new_board(double: DiscordDouble, guild: Guild, player: str) -> int:
    start = await double.slash("tres", {"level": "easy"}, user=player, guild=guild)
    assert start.original_id is not None, start.requests
    return start.original_id


async def _latency(
    folder: Path,
    url: str,
    slots: tuple[tuple[int, ...], ...],
    workers: str,
    players: int,
    clicks: int,
    server_pid: int,
) -> tuple[list[Sent], tuple[float, float, float]]:
    """The timed clicks, and the CPU seconds the bot processes (with their AI workers), the
    PostgreSQL server and this process (the double, with the players) used meanwhile."""
    async with DiscordDouble(shards=2) as double:
        guilds = [double.add_guild(f"shard {s}", shard=s) for s in (0, 1)]
        fleet = [
            ShardProcess(double, folder / f"bot{n}", url, shards) for n, shards in enumerate(slots)
        ]
        for bot in fleet:
            bot.process.settings |= {"AI_WORKERS": workers, "AI_BUDGET_SECONDS": "1.0"}
        timed: list[Sent] = []

        def cpu() -> tuple[float, float, float]:
            bots = sum(tree_cpu_seconds(bot.process.life.pid) for bot in fleet)
            return bots, tree_cpu_seconds(server_pid), time.process_time()

        try:
            await asyncio.gather(*(bot.start() for bot in fleet))
            before = cpu()
            await asyncio.gather(
                *(
                    _player(double, guilds[n % 2], f"player{n}", timed, clicks)
                    for n in range(players)
                )
            )
            after = cpu()
        finally:
            for bot in fleet:
                if bot.process.uptime.up:
                    await bot.stop()
        used = (after[0] - before[0], after[1] - before[1], after[2] - before[2])
        return timed, used  # every click made while the CPU was counted


async def _player(
    double: DiscordDouble, guild: Guild, name: str, timed: list[Sent], clicks: int
) -> None:
    rng = random.Random(name)
    while len(timed) < clicks:
        start = await _answered(
            double,
            await double.slash("tres", {"level": "hard"}, user=name, guild=guild, wait=False),
        )
        if start.original_id is None:
            continue  # no answer in time: the player tries again, as a person would
        while len(timed) < clicks:
            free = free_cells(double.messages[start.original_id])
            if not free:
                break
            cell = rng.choice(free)
            click = await double.click(start.original_id, cell, user=name, wait=False)
            timed.append(await _answered(double, click))


async def _answered(double: DiscordDouble, sent: Sent) -> Sent:
    """``sent`` once answered, or once Discord's 3 s are over without an answer (a failed
    interaction for the player: counted, not fatal)."""
    with contextlib.suppress(TimeoutError):
        await double.wait_answered(sent, within=CALLBACK_DEADLINE + 1.0)
    return sent


def _report(label: str, sent: list[Sent], cpu: tuple[float, float, float]) -> None:
    # An interaction not answered within Discord's 3 s failed: it counts as the slowest.
    ms = sorted(s.latency * 1000 if s.callback_at is not None else math.inf for s in sent)
    p90 = ms[min(len(ms) - 1, int(0.90 * len(ms)))]
    p99 = ms[min(len(ms) - 1, int(0.99 * len(ms)))]
    answered = [s.callback_at for s in sent if s.callback_at is not None]
    rate = len(sent) / (max(answered) - min(s.sent_at for s in sent))
    print(
        f"{label:<42}{len(ms):>7}{statistics.median(ms):>7.1f}ms{p90:>7.1f}ms"
        f"{p99:>7.1f}ms{ms[-1]:>7.1f}ms{rate:>10.0f}"
        + "".join(
            f"{seconds * 1000 / len(sent):>{width}.1f}"
            for seconds, width in zip(cpu, (24, 12, 8), strict=True)
        )
    )
    failed = sum(1 for s in sent if s.callback_at is None)
    if failed:
        print(f"{'':<42}{failed} clicks got no answer within 3 s (interaction failed)")

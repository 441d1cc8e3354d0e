"""Click-to-response latency of the Discord bot, through the loopback Discord double.

The real discord.py client, the real service (its AI process pool included) and a SQLite store
on a temporary file; the double sends each click as INTERACTION_CREATE over the gateway and
times it until the interaction callback arrives. The bot plays HARD on 3x3, so every callback
carries the board with the player's move and the bot's answer (Discord's 3-second limit is what
the figures are compared with).

Three runs: one game at a time (one click in flight) in a server channel, the same in a group DM
reached through a user's own install (the bot is not a member there and answers through the
interaction alone), then many games at once (every game has a click in flight). Then, in the
same run, a 15x15 game shown as a picture (Components V2) and played by its menus against the
EASY bot: the column pick (the cell menu redrawn) and the cell pick (the move: the callback
carries the new picture, uploaded with it) are timed apart. Last, Connect Four against the EASY
bot by its column buttons, twice: as the emoji board (no theme), then as its picture in the
discs theme (the player's own ``/theme``: a Components V2 message whose every click uploads a
new picture).
"""

from __future__ import annotations

import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

from adapters.discord import DiscordAdapter, DiscordConfig
from core.sessions import GameService, ServiceSettings
from core.store import SqliteStore
from tests.e2e.discord_double import TOKEN, DiscordDouble, Json, Sent, buttons, selects


def main(quick: bool) -> None:
    """Print the latency figures (``quick``: fewer clicks, for a smoke run)."""
    clicks = 60 if quick else 400
    games = 10 if quick else 50
    asyncio.run(_run(clicks, games))


async def _run(clicks: int, games: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        async with DiscordDouble() as double:
            store = await SqliteStore.open(Path(folder) / "bench.sqlite3")
            # One player starts a new game every few clicks, faster than the flood limits let
            # a person (30 requests a minute, 20 boards a minute in a chat): lifted, as they
            # would otherwise answer some starts with silence, and this measures the clicks.
            lifted = {"rate_burst": 1000, "rate_per_minute": 6000, "boards_per_minute": 6000}
            settings = ServiceSettings(chat_defaults=lifted)
            service = GameService(store, settings=settings, rng=random.Random(1))
            started = time.perf_counter()
            await service.start()
            warm = time.perf_counter() - started
            config = DiscordConfig(
                token=TOKEN, api_base_url=double.api_base_url, gateway_url=double.gateway_url
            )
            adapter = DiscordAdapter(service, config)
            stop = asyncio.Event()
            running = asyncio.create_task(adapter.run(stop))
            try:
                await double.wait_ready()
                print(f"service start (pool + JIT warm-up): {warm:.1f} s")
                print(f"{'run':<28}{'clicks':>7}{'median':>9}{'p90':>9}{'p99':>9}{'max':>9}")
                one = await _players(double, 1, clicks)
                _report("1 game at a time", one)
                group = await _players(double, 1, clicks, group_dm=True)
                _report("1 game, group DM", group)
                many = await _players(double, games, clicks)
                _report(f"{games} games at once", many)
                columns, cells = await _picture_player(double, clicks // 2)
                _report("15x15 picture: column pick", columns)
                _report("15x15 picture: cell pick", cells)
                emoji = await _connect_four(double, clicks // 2, None)
                _report("6x7 emoji: column button", emoji)
                discs = await _connect_four(double, clicks // 2, "discs")
                _report("6x7 picture: column button", discs)
                timed = one + group + many + cells + emoji + discs
                deferred = sum(1 for s in timed if s.callback["type"] != 7)
                print(f"deferred instead of answered at once: {deferred}")
                assert adapter.bot is not None
                await adapter.bot.wait_idle()
            finally:
                stop.set()
                await running
                await service.close()
                await store.close()


async def _players(
    double: DiscordDouble, games: int, clicks: int, *, group_dm: bool = False
) -> list[Sent]:
    """``games`` players, each playing HARD 3x3 games, until ``clicks`` clicks were timed
    (``group_dm``: each in a group DM of their own, through their own install)."""
    timed: list[Sent] = []

    async def player(name: str) -> None:
        group = double.group_dm(name, f"{name}-friend") if group_dm else None
        while len(timed) < clicks:
            start = await double.slash("tres", {"level": "hard"}, user=name, group=group)
            assert start.original_id is not None, start.requests
            board_id = start.original_id
            while len(timed) < clicks:
                free = _free_cells(double.messages[board_id])
                if not free:
                    break
                click = await double.click(board_id, random.choice(free), user=name)
                timed.append(click)

    kind = "group" if group_dm else "server"
    await asyncio.gather(*(player(f"player{n}-{games}-{kind}") for n in range(games)))
    return timed[:clicks]


async def _picture_player(double: DiscordDouble, moves: int) -> tuple[list[Sent], list[Sent]]:
    """One player's 15x15 games against the EASY bot, by the menus, until ``moves`` moves."""
    columns: list[Sent] = []
    cells: list[Sent] = []
    rng = random.Random(2)
    while len(cells) < moves:
        options = {"size": "15x15", "k": 5, "level": "easy"}
        start = await double.slash("ratlla", options, user="painter")
        assert start.original_id is not None, start.requests
        board_id = start.original_id
        while len(cells) < moves:
            menus = selects(double.messages[board_id])
            if not menus:
                break  # the game is over
            column_menu = menus[0]
            value = rng.choice(column_menu["options"])["value"]
            columns.append(
                await double.select(board_id, column_menu["custom_id"], [value], user="painter")
            )
            cell_menu = selects(double.messages[board_id])[1]
            cell = rng.choice(cell_menu["options"])["value"]
            cells.append(
                await double.select(board_id, cell_menu["custom_id"], [cell], user="painter")
            )
    return columns, cells


async def _connect_four(double: DiscordDouble, clicks: int, theme: str | None) -> list[Sent]:
    """One player's Connect Four games against the EASY bot, by the column buttons, in
    ``theme`` (their own ``/theme``; None: none, the emoji board), until ``clicks`` clicks."""
    name = f"connect4-{theme or 'emoji'}"
    if theme is not None:
        await double.slash("theme", {"theme": theme}, user=name)
    timed: list[Sent] = []
    rng = random.Random(3)
    while len(timed) < clicks:
        start = await double.slash("quatre", {"level": "easy"}, user=name)
        assert start.original_id is not None, start.requests
        board_id = start.original_id
        while len(timed) < clicks:
            free = _free_cells(double.messages[board_id])
            if not free:
                break  # the game is over
            timed.append(await double.click(board_id, rng.choice(free), user=name))
    return timed


def _free_cells(message: Json) -> list[str]:
    return [
        b["custom_id"]
        for b in buttons(message)
        if ":move:" in b["custom_id"] and not b.get("disabled")
    ]


def _report(label: str, sent: list[Sent]) -> None:
    ms = sorted(s.latency * 1000 for s in sent)
    p90 = ms[min(len(ms) - 1, int(0.90 * len(ms)))]
    p99 = ms[min(len(ms) - 1, int(0.99 * len(ms)))]
    print(
        f"{label:<28}{len(ms):>7}{statistics.median(ms):>7.1f}ms{p90:>7.1f}ms"
        f"{p99:>7.1f}ms{ms[-1]:>7.1f}ms"
    )

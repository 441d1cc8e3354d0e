"""Several bot processes behind one reverse proxy, on one PostgreSQL (docs/web.md): two real
``chatbots run`` processes, each with its own pages' listener, serve the same ladder and the
same player page, and both show a rated game the moment it is stored, whoever stored it."""

from __future__ import annotations

import random
import socket
import time
from pathlib import Path

import aiohttp

from core.replies import Actor
from core.sessions import GameService, ServiceSettings
from tests.backends import Backends
from tests.core.pages.games import DAY, rated_game
from tests.core.test_sessions import Clock
from tests.e2e.bot_processes import BotProcess, start_bot

ALICE = Actor("discord", "c1", "alice", "Alice", server_id="g1")
BOB = Actor("discord", "c1", "bob", "Bob", server_id="g1")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def _pages(port: int, *paths: str) -> list[str]:
    async with aiohttp.ClientSession() as client:
        shown = []
        for path in paths:
            async with client.get(f"http://127.0.0.1:{port}{path}") as response:
                assert response.status == 200, (port, path, response.status)
                shown.append(await response.text())
        return shown


async def test_two_processes_on_one_postgresql_serve_the_same_pages(
    backends: Backends, tmp_path: Path
) -> None:
    paths = ("/ladder/tres", "/player/discord%3Aalice", "/")
    async with backends.fresh("postgres", tmp_path) as db, db.open() as store:
        # Ten rated games, a day apart, ending now: a ladder lists a player after ten, for 30
        # days after their last.
        clock = Clock(time.time() - 11 * DAY)
        settings = ServiceSettings(ai_workers=0, ai_warm_up=False)
        svc = GameService(store, settings=settings, clock=clock, rng=random.Random(5))
        for result in ("x",) * 7 + ("o", "draw", "x"):
            await rated_game(svc, ALICE, BOB, result)
            clock.advance(DAY)
        bots: list[BotProcess] = []
        try:
            ports = []
            for name in ("first", "second"):
                port = _free_port()
                environ = {
                    "DATABASE_URL": db.where,
                    "WEB_PORT": str(port),
                    "PUBLIC_URL": "https://games.example.org",
                }
                (tmp_path / name).mkdir()
                bots.append(await start_bot(tmp_path / name, name, environ, console=True))
                ports.append(port)
            for bot, port in zip(bots, ports, strict=True):
                await bot.wait_log(f"pages at http://127.0.0.1:{port}/", within=60)
            first, second = [await _pages(port, *paths) for port in ports]
            assert first == second
            ladder, player, _ = first
            assert "Alice" in ladder and "Bob" in ladder
            assert "Alice" in player and "won" in player

            # Another game, stored by a third party: both show it at once (nothing cached).
            await rated_game(svc, BOB, ALICE, "x")
            again = [await _pages(port, *paths) for port in ports]
            assert again[0] == again[1] and again[0][1] != player
        finally:
            for bot in bots:
                assert await bot.stop() == 0, bot.log_text()[-3000:]

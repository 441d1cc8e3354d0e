"""End to end: ``/healthz`` and ``/metrics`` of the real application (``python -m chatbots run``
in a subprocess) connected to the Discord double and to a real Synapse, over real HTTP.

- The moves of a game played through the Discord double are counted exactly.
- ``/healthz`` is 200 while Matrix syncs, 503 naming Matrix once the homeserver is stopped, and
  200 again once it is back.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from chatbots.settings import KEY_NAMES
from tests.e2e.bot_processes import start_bot
from tests.e2e.discord_double import TOKEN, DiscordDouble, buttons
from tests.e2e.synapse import BOT, PASSWORD, START_TIMEOUT, SynapseServer, synapse_server

__all__ = ["synapse_server"]  # a fixture

MARKS = ("❌", "⭕")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextlib.asynccontextmanager
async def running_app(tmp_path: Path, **settings: str) -> AsyncIterator[int]:
    """``python -m chatbots run`` with ``settings`` and a listener; yields its HTTP port.

    Stopped at the end as a supervisor would (SIGTERM), and it must exit cleanly.
    """
    port = _free_port()
    settings = {
        "DATABASE_PATH": str(tmp_path / "games.sqlite3"),
        "HTTP_PORT": str(port),
        **settings,
    }
    app = await start_bot(tmp_path, "app", settings)
    try:
        yield port
    finally:
        code = await app.stop(within=15)
        assert code == 0, app.log_text()[-4000:]


async def healthz(port: int) -> tuple[int, Any]:
    async with (
        aiohttp.ClientSession() as client,
        client.get(f"http://127.0.0.1:{port}/healthz") as response,
    ):
        return response.status, await response.json()


async def health_becomes(port: int, status: int, within: float) -> Any:
    """The body of ``/healthz`` once it answers ``status``; fails after ``within`` seconds."""
    deadline = time.monotonic() + within
    last: object = "no answer"
    while time.monotonic() < deadline:
        try:
            got, body = await healthz(port)
        except aiohttp.ClientConnectionError as error:  # not listening yet
            last = error
        else:
            if got == status:
                return body
            last = (got, body)
        await asyncio.sleep(0.2)
    raise AssertionError(f"/healthz did not answer {status} within {within} s; last: {last}")


async def samples(port: int) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    async with (
        aiohttp.ClientSession() as client,
        client.get(f"http://127.0.0.1:{port}/metrics") as response,
    ):
        assert response.status == 200
        text = await response.text()
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


async def test_metrics_count_the_moves_of_a_discord_game_exactly(tmp_path: Path) -> None:
    async with DiscordDouble() as double:
        settings = {
            "DISCORD_TOKEN": TOKEN,
            "DISCORD_API_BASE_URL": double.api_base_url,
            "DISCORD_GATEWAY_URL": double.gateway_url,
        }
        async with running_app(tmp_path, **settings) as port:
            await double.wait_ready(within=60)
            body = await health_becomes(port, 200, within=30)
            assert body == {
                "status": "ok",
                "checks": {"store": "ok", "discord": "ok"},
                # The only process syncs the slash commands, under its lease.
                "leases": {"sweeper": "held", "discord-command-sync": "held"},
                "ai": {"workers": 0, "running": 0, "queue_length": 0, "budget_seconds": 1.0},
            }

            start = await double.slash("tres", {"level": "easy"}, user="alice")
            assert start.original_id is not None
            board = double.messages[start.original_id]

            def playable() -> list[str]:
                cells = [b for b in buttons(board) if ":move:" in b["custom_id"]]
                return [b["custom_id"] for b in cells if not b.get("disabled")]

            while playable():
                await double.click(int(board["id"]), playable()[0], user="alice")
                board = double.messages[int(board["id"])]
            marks = [(b.get("emoji") or {}).get("name") for b in buttons(board)]
            played = sum(mark in MARKS for mark in marks)
            assert played >= 5  # a game of tic-tac-toe ends after five moves at the earliest

            got = await samples(port)

    discord = (("platform", "discord"),)
    tictactoe = (("game", "tictactoe"), ("platform", "discord"))
    assert got["chatbots_moves_total", discord] == played
    assert got["chatbots_games_started_total", tictactoe] == 1
    assert got["chatbots_games_finished_total", tictactoe] == 1
    assert got["chatbots_ai_think_seconds_count", (("level", "easy"),)] == played // 2
    assert got["chatbots_platform_connected", discord] == 1
    assert got["chatbots_store_operation_seconds_count", (("operation", "update"),)] >= played


def restart(server: SynapseServer) -> None:
    """Start a stopped homeserver again: same config, port, database and users."""
    config = server.workdir / "homeserver.yaml"
    with (server.workdir / "stdout.log").open("ab") as out:
        server.process = subprocess.Popen(
            [str(Path(sys.executable).parent / "synapse_homeserver"), "--config-path", str(config)],
            cwd=server.workdir,
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )
    server._wait_ready(START_TIMEOUT)


async def test_healthz_follows_the_matrix_homeserver_down_and_back(
    synapse_server: SynapseServer, tmp_path: Path
) -> None:
    server = synapse_server
    settings = {
        "MATRIX_HOMESERVER": server.url,
        "MATRIX_USER_ID": server.user_id(BOT),
        "MATRIX_PASSWORD": PASSWORD,
        "MATRIX_STORE_PATH": str(tmp_path / "matrix"),
    }
    try:
        async with running_app(tmp_path, **settings) as port:
            body = await health_becomes(port, 200, within=60)
            leases = {"sweeper": "held", f"matrix-sync:{server.user_id(BOT)}": "held"}
            assert body == {
                "status": "ok",
                "checks": {"store": "ok", "matrix": "ok"},
                "leases": leases,
                "ai": {"workers": 0, "running": 0, "queue_length": 0, "budget_seconds": 1.0},
            }

            await asyncio.to_thread(server.stop)
            body = await health_becomes(port, 503, within=30)
            assert body == {
                "status": "down",
                "checks": {"store": "ok", "matrix": "down"},
                "leases": leases,
                "ai": {"workers": 0, "running": 0, "queue_length": 0, "budget_seconds": 1.0},
            }
            got = await samples(port)
            assert got["chatbots_platform_connected", (("platform", "matrix"),)] == 0

            started = time.monotonic()
            await asyncio.to_thread(restart, server)
            back = time.monotonic() - started
            # The bot tries again with a growing backoff (0.5 s, 1 s, 2 s, ...).
            body = await health_becomes(port, 200, within=90)
            assert body["checks"] == {"store": "ok", "matrix": "ok"}
            recovered = time.monotonic() - started
            got = await samples(port)
            assert got["chatbots_platform_connected", (("platform", "matrix"),)] == 1
            print(f"homeserver answering after {back:.1f} s, /healthz 200 after {recovered:.1f} s")
    finally:
        if server.process.poll() is not None:  # the other Matrix tests need it
            await asyncio.to_thread(restart, server)


@pytest.fixture(autouse=True)
def _no_stray_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    # The subprocess gets its settings from the test only, never from the developer's shell.
    for name in KEY_NAMES:
        monkeypatch.delenv(name, raising=False)

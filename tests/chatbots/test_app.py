"""The application end to end: ``python -m chatbots`` in a subprocess, on a real SQLite file.

Every run gets its own working directory (so no ``.env`` of the developer is read) and an
environment without any of our settings but the ones a test sets.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from chatbots.app import EXIT_CONFIG, EXIT_FAILED, EXIT_OK, Shutdown, run_adapters
from chatbots.settings import KEY_NAMES
from core.i18n import render
from core.store import SqliteStore, Status, sessions

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "MTA5.fake-discord-token.value"


def environment(tmp_path: Path, **settings: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in KEY_NAMES}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env.update(DATABASE_PATH=str(tmp_path / "db" / "games.sqlite3"), AI_WORKERS="1", **settings)
    return env


def chatbots(
    tmp_path: Path, *args: str, stdin: str = "", **settings: str
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "chatbots", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=environment(tmp_path, **settings),
        timeout=30,
    )


def last_board(output: str) -> list[str]:
    """The rows of the last tic-tac-toe board printed (marks only)."""
    starts = [m.end() for m in re.finditer(r"^  a b c\n", output, re.MULTILINE)]
    assert starts, output
    rows = output[starts[-1] :].splitlines()[:3]
    return [row[2:].replace(" ", "") for row in rows]


def is_over(rows: list[str]) -> bool:
    cells = "".join(rows)
    lines = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
    won = any(cells[a] != "·" and cells[a] == cells[b] == cells[c] for a, b, c in lines)
    return won or "·" not in cells


def test_console_plays_a_whole_game_from_stdin(tmp_path: Path) -> None:
    # Every cell, in an order that takes the centre and corners first; taken cells and the
    # moves after the end get an answer each, and the end of input ends the run.
    script = "/tres easy\n" + "\n".join("519372468") + "\n"
    result = chatbots(tmp_path, "run", stdin=script, CONSOLE_NAME="ann")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "No chat platform is configured" in out and ".env.example" in out
    assert "/help" in out  # the welcome
    assert render("game.started", "en") in out
    x_name, o_name = re.search(r"^X (.+)  ·  O (.+)$", out, re.MULTILINE).groups()  # type: ignore[union-attr]
    assert x_name == "ann"
    board = last_board(out)
    assert is_over(board), board
    results = [
        render("game.won", "en", player=x_name, mark="X"),
        render("game.won", "en", player=o_name, mark="O"),
        render("game.draw", "en"),
    ]
    assert any(text in out for text in results), out
    assert "[/rematch]" in out
    assert "Traceback" not in result.stderr
    assert (tmp_path / "db" / "games.sqlite3").is_file()


def test_the_console_player_is_the_os_user_unless_console_name_says_otherwise(
    tmp_path: Path,
) -> None:
    login = {name: "" for name in ("LOGNAME", "USER", "LNAME", "USERNAME")}
    result = chatbots(tmp_path, "run", stdin="/stats\n", **{**login, "LOGNAME": "zoe"})
    assert result.returncode == EXIT_OK, result.stderr
    assert render("stats.none", "en", player="zoe") in result.stdout
    result = chatbots(tmp_path, "run", stdin="/stats\n", CONSOLE_NAME="9 lives")
    assert result.returncode == EXIT_CONFIG
    assert "CONSOLE_NAME: '9 lives' is not a name" in result.stderr, result.stderr
    assert "/stats" not in result.stdout  # refused before the console started


async def test_sigterm_stops_cleanly_and_keeps_the_game(tmp_path: Path) -> None:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "chatbots",
        "run",
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        cwd=tmp_path,
        env=environment(tmp_path, LOG_LEVEL="INFO", CONSOLE_NAME="ann"),
    )
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(b"/tres medium\n5\n")
    await process.stdin.drain()
    seen = b""
    while seen.count(b"  a b c\n") < 2:  # the new board, then the board after the move
        chunk = await asyncio.wait_for(process.stdout.read(4096), 20)
        assert chunk, seen.decode()
        seen += chunk
    # stdin stays open: only the signal may stop it.
    started = time.monotonic()
    process.send_signal(signal.SIGTERM)
    _, err = await asyncio.wait_for(process.communicate(), 10)
    elapsed = time.monotonic() - started
    assert process.returncode == 0, err.decode()
    assert elapsed < 10
    log = err.decode()
    assert 'stopping reason="signal SIGTERM"' in log, log
    # Start-up's objects are out of the collector's full passes (each walked them all).
    frozen = re.search(r"started adapters=console .*frozen=(\d+)", log)
    assert frozen is not None and int(frozen.group(1)) > 20_000, log
    assert "stopped exit_code=0" in log

    path = tmp_path / "db" / "games.sqlite3"
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    async with SqliteStore.open(path) as store:
        game = await store.run(sessions.live_game("console", "console", "ann"))
    assert game is not None and game.status is Status.ACTIVE
    assert game.moves[0] == 4 and len(game.moves) == 2  # my move and the bot's


def test_bad_settings_name_the_key_and_hide_the_token(tmp_path: Path) -> None:
    result = chatbots(tmp_path, "run", DISCORD_TOKEN=TOKEN, DISCORD_GUILD_IDS="12a")
    assert result.returncode == 2
    assert "DISCORD_GUILD_IDS: '12a' is not a list of numeric ids" in result.stderr
    assert TOKEN not in result.stderr + result.stdout


def test_env_file_in_the_working_directory_is_read(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("LOG_FORMAT=yaml\n", encoding="utf-8")
    result = chatbots(tmp_path, "check")
    assert result.returncode == 2
    assert "LOG_FORMAT: 'yaml' is not one of text, json" in result.stderr
    # The environment wins over the file.
    result = chatbots(tmp_path, "check", LOG_FORMAT="json")
    assert result.returncode == 0, result.stderr
    assert "LOG_FORMAT = json" in result.stdout


def test_check_masks_secrets(tmp_path: Path) -> None:
    result = chatbots(tmp_path, "check", DISCORD_TOKEN=TOKEN, DISCORD_GUILD_IDS="1,2")
    assert result.returncode == 0, result.stderr
    assert "DISCORD_TOKEN = ***" in result.stdout
    assert "DISCORD_GUILD_IDS = 1,2" in result.stdout
    assert "runs: discord" in result.stdout
    assert TOKEN not in result.stdout + result.stderr


def test_a_platform_that_cannot_connect_exits_non_zero_without_leaking(tmp_path: Path) -> None:
    # Nothing listens on port 9 (discard): Discord's login fails at once.
    result = chatbots(
        tmp_path,
        "run",
        stdin="/tres easy\n5\n",
        DISCORD_TOKEN=TOKEN,
        DISCORD_API_BASE_URL="http://127.0.0.1:9/api/v10",
        DISCORD_GATEWAY_URL="ws://127.0.0.1:9/",
        LOG_LEVEL="DEBUG",
    )
    assert result.returncode == EXIT_FAILED
    assert "adapter crashed adapter=discord" in result.stderr
    assert "stopped exit_code=1" in result.stderr
    assert TOKEN not in result.stderr + result.stdout
    assert result.stdout == ""  # a platform bot neither reads stdin nor plays on the console


# --- run_adapters with stand-in platforms (no network, no service needed) -------------------


class Platform:
    """A platform adapter that keeps running until stopped, as the real ones do."""

    connected = True

    def __init__(self, name: str) -> None:
        self.name = name
        self.stopped = False

    async def run(self, stop: asyncio.Event) -> None:
        await stop.wait()
        await asyncio.sleep(0.01)  # a move in flight
        self.stopped = True


class Crashing:
    name = "matrix"
    connected = False

    async def run(self, stop: asyncio.Event) -> None:
        await asyncio.sleep(0.01)
        raise ConnectionError("homeserver unreachable")


class Ending:
    connected = True

    def __init__(self, name: str) -> None:
        self.name = name

    async def run(self, stop: asyncio.Event) -> None:
        await asyncio.sleep(0.01)


async def test_a_crashed_adapter_stops_the_others_and_fails(
    caplog: pytest.LogCaptureFixture,
) -> None:
    discord = Platform("discord")
    code = await run_adapters([discord, Crashing()], Shutdown())
    assert code == EXIT_FAILED
    assert discord.stopped
    assert "adapter crashed" in caplog.text and "homeserver unreachable" in caplog.text


async def test_a_platform_ending_on_its_own_fails() -> None:
    discord = Platform("discord")
    assert await run_adapters([discord, Ending("matrix")], Shutdown()) == EXIT_FAILED
    assert discord.stopped


async def test_the_console_ending_is_a_clean_stop() -> None:
    assert await run_adapters([Ending("console")], Shutdown()) == EXIT_OK


async def test_a_stop_request_stops_every_adapter() -> None:
    shutdown = Shutdown()
    adapters = [Platform("discord"), Platform("matrix")]
    asyncio.get_running_loop().call_later(0.05, shutdown.request, "signal SIGTERM")
    assert await run_adapters(adapters, shutdown) == EXIT_OK
    assert all(a.stopped for a in adapters)


def test_a_console_start_loads_no_platform_library(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "from chatbots.__main__ import main\n"
        "from chatbots.app import plan_adapters\n"
        "from chatbots.settings import Settings\n"
        "import core.sessions\n"
        "plan_adapters(Settings(), stdin=sys.stdin, stdout=sys.stdout)\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'discord', 'nio', 'aiohttp'}))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=environment(tmp_path),
        timeout=30,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"

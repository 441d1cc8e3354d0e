"""The web pages' settings (``WEB_PORT``, ``WEB_HOST``, ``PUBLIC_URL``), checked by
``chatbots check`` with a message naming the bad key, and their listener: its own, beside the
health and metrics one, started with the bot and stopped with it."""

from __future__ import annotations

import socket
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from chatbots.app import EXIT_CONFIG
from chatbots.settings import SettingsError, load_settings
from tests.chatbots.test_app import chatbots, environment


def test_the_pages_are_off_unless_a_port_is_set() -> None:
    default = load_settings({}, None)
    assert (default.web_port, default.web_host, default.public_url) == (None, "127.0.0.1", None)
    settings = load_settings(
        {"WEB_PORT": "8080", "WEB_HOST": "::", "PUBLIC_URL": "https://example.org/games/"}, None
    )
    assert (settings.web_port, settings.web_host) == (8080, "::")
    assert settings.public_url == "https://example.org/games"  # links add a path to it
    # PUBLIC_URL alone: another process behind the same proxy serves the pages.
    assert load_settings({"PUBLIC_URL": "http://games.local"}, None).web_port is None


@pytest.mark.parametrize(
    ("environ", "problem"),
    [
        ({"WEB_PORT": "0"}, "WEB_PORT: "),
        ({"WEB_PORT": "65536"}, "WEB_PORT: "),
        ({"WEB_PORT": "80x"}, "WEB_PORT: "),
        ({"WEB_HOST": "0.0.0.0"}, "WEB_PORT: missing, but WEB_HOST is set"),
        ({"WEB_PORT": "80", "WEB_HOST": "local host"}, "WEB_HOST: 'local host' is not a host"),
        (
            {"WEB_PORT": "9464", "HTTP_PORT": "9464"},
            "WEB_PORT: 9464 is HTTP_PORT too; the pages need a listener of their own",
        ),
        ({"PUBLIC_URL": "games.example.org"}, "PUBLIC_URL: 'games.example.org' is not an http"),
        ({"PUBLIC_URL": "ftp://example.org"}, "PUBLIC_URL: 'ftp://example.org' is not an http"),
        ({"PUBLIC_URL": "https://example.org/?a=1"}, "PUBLIC_URL: 'https://example.org/?a=1' has"),
        ({"PUBLIC_URL": "https://u:p@example.org"}, "PUBLIC_URL: "),
    ],
)
def test_a_bad_value_names_its_key(environ: dict[str, str], problem: str) -> None:
    with pytest.raises(SettingsError) as raised:
        load_settings(environ, None)
    assert any(line.startswith(problem) for line in raised.value.problems), raised.value.problems


def test_the_examples_default_host_alone_asks_for_no_port() -> None:
    # A copy of .env.example holds WEB_HOST=127.0.0.1: no sign the pages are wanted.
    assert load_settings({"WEB_HOST": "127.0.0.1"}, None).web_port is None


def test_check_prints_the_three_and_refuses_a_bad_one(tmp_path: Path) -> None:
    good = chatbots(tmp_path, "check", WEB_PORT="8765", PUBLIC_URL="https://games.example.org")
    assert good.returncode == 0, good.stderr
    assert "WEB_PORT = 8765\nWEB_HOST = 127.0.0.1\nPUBLIC_URL = https://games.example.org\n" in (
        good.stdout
    )
    assert "WEB_PORT = (off)\n" in chatbots(tmp_path, "check").stdout
    bad = chatbots(tmp_path, "check", WEB_PORT="8765", PUBLIC_URL="example.org")
    assert bad.returncode == EXIT_CONFIG and "PUBLIC_URL: 'example.org' is not" in bad.stderr


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def test_run_serves_the_pages_on_their_own_listener_and_says_where(tmp_path: Path) -> None:
    web, health = _free_port(), _free_port()
    bot = subprocess.Popen(
        [sys.executable, "-m", "chatbots", "run"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
        env=environment(tmp_path, WEB_PORT=str(web), HTTP_PORT=str(health)),
    )
    try:
        assert bot.stdout is not None and bot.stdin is not None
        lines = iter(bot.stdout.readline, "")
        said = next(line for line in lines if line.startswith("pages at"))
        assert said == f"pages at http://127.0.0.1:{web}/\n"
        status, body = _get(f"http://127.0.0.1:{web}/")
        assert status == 200 and "<h1>Ladders</h1>" in body
        assert _get(f"http://127.0.0.1:{web}/healthz")[0] == 404  # never on the pages' port
        assert _get(f"http://127.0.0.1:{health}/")[0] == 404  # nor the pages on health's
        bot.stdin.close()  # the console's input ends: the bot stops, and the pages with it
        assert bot.wait(timeout=30) == 0
    finally:
        bot.kill()
        bot.wait()
    with pytest.raises(urllib.error.URLError):
        urllib.request.urlopen(f"http://127.0.0.1:{web}/", timeout=5)


def test_run_on_a_pages_port_in_use_says_so_in_one_line_and_exits_2(tmp_path: Path) -> None:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        result = chatbots(tmp_path, "run", stdin="/tres easy\n", WEB_PORT=str(port))
    assert result.returncode == EXIT_CONFIG, result.stderr
    assert "Traceback" not in result.stderr
    [line] = [line for line in result.stderr.splitlines() if "ERROR" in line]
    assert f"cannot listen on WEB_HOST=127.0.0.1 WEB_PORT={port}" in line
    assert "the port is already in use" in line

"""A listener that cannot be had: ``chatbots check`` refuses an ``HTTP_HOST`` that is no address,
and ``chatbots run`` on a port already in use says so in one ERROR line and exits 2 (a setting
to change), instead of a traceback (issue 21)."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from chatbots.app import EXIT_CONFIG
from tests.chatbots.test_app import chatbots


@pytest.mark.parametrize(
    ("host", "why"),
    [
        ("256.1.1.1", "'256.1.1.1' is not an IP address"),
        ("1.2.3", "'1.2.3' is not an IP address"),
        ("1::2::3", "'1::2::3' is not an IP address"),
        ("abc", "'abc' is not an IP address, and no address was found for it as a host name"),
    ],
)
def test_check_refuses_a_host_that_is_no_address(tmp_path: Path, host: str, why: str) -> None:
    result = chatbots(tmp_path, "check", HTTP_PORT="9464", HTTP_HOST=host)
    assert result.returncode == EXIT_CONFIG, result.stdout
    assert f"HTTP_HOST: {why}" in result.stderr


@pytest.mark.parametrize("host", ["127.0.0.1", "::1", "0.0.0.0", "localhost"])
def test_check_takes_an_address_or_a_name_that_resolves(tmp_path: Path, host: str) -> None:
    result = chatbots(tmp_path, "check", HTTP_PORT="9464", HTTP_HOST=host)
    assert result.returncode == 0, result.stderr
    assert f"HTTP_HOST = {host}\n" in result.stdout


@pytest.fixture
def taken_port() -> Iterator[int]:
    """A port another program listens on (this test, on 127.0.0.1)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        yield holder.getsockname()[1]


def test_run_on_a_port_in_use_says_so_in_one_line_and_exits_2(
    tmp_path: Path, taken_port: int
) -> None:
    result = chatbots(tmp_path, "run", stdin="/tres easy\n", HTTP_PORT=str(taken_port))
    assert result.returncode == EXIT_CONFIG, result.stderr
    assert "Traceback" not in result.stderr
    [line] = [line for line in result.stderr.splitlines() if "ERROR" in line]
    assert f"cannot listen on HTTP_HOST=127.0.0.1 HTTP_PORT={taken_port}" in line
    assert "the port is already in use" in line
    assert "a b c" not in result.stdout  # nothing was served

"""/healthz and /metrics over real HTTP on 127.0.0.1; their settings; connection states."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from chatbots.health import STORE_TIMEOUT, Connection, serving
from chatbots.metrics import Metrics
from chatbots.settings import SettingsError, load_settings
from core.store import StoreUnavailable, leases
from tests.chatbots.test_app import environment

Checks = Callable[[], Awaitable[None]]


class Link:
    def __init__(self, name: str, connected: bool = True) -> None:
        self.name = name
        self.connected = connected


async def ok() -> None:
    pass


async def get(port: int, path: str) -> tuple[int, str, str]:
    async with (
        aiohttp.ClientSession() as client,
        client.get(f"http://127.0.0.1:{port}{path}") as response,
    ):
        return response.status, response.headers["Content-Type"], await response.text()


async def healthz(port: int) -> tuple[int, Any]:
    async with (
        aiohttp.ClientSession() as client,
        client.get(f"http://127.0.0.1:{port}/healthz") as response,
    ):
        return response.status, await response.json()


def running(
    links: Sequence[Connection], store_check: Checks = ok, metrics: Metrics | None = None
) -> Any:
    return serving(
        "127.0.0.1",
        0,
        metrics=metrics or Metrics(process=False),
        store_check=store_check,
        connections=links,
    )


async def test_healthz_is_200_when_the_store_and_every_platform_answer() -> None:
    async with running([Link("discord"), Link("matrix")]) as endpoints:
        assert endpoints is not None and endpoints.port
        status, body = await healthz(endpoints.port)
    assert status == 200
    assert body == {"status": "ok", "checks": {"store": "ok", "discord": "ok", "matrix": "ok"}}


async def test_healthz_is_503_and_names_the_platform_that_is_down() -> None:
    matrix = Link("matrix", connected=False)
    async with running([Link("discord"), matrix]) as endpoints:
        status, body = await healthz(endpoints.port)
        assert status == 503
        assert body == {
            "status": "down",
            "checks": {"store": "ok", "discord": "ok", "matrix": "down"},
        }
        matrix.connected = True
        assert (await healthz(endpoints.port))[0] == 200


async def test_healthz_is_503_when_the_store_fails_or_hangs(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def unavailable() -> None:
        raise StoreUnavailable("/data/games.sqlite3", "disk I/O error")

    async with running([Link("console")], unavailable) as endpoints:
        status, body = await healthz(endpoints.port)
    assert status == 503
    assert body == {"status": "down", "checks": {"store": "down", "console": "ok"}}
    assert "/data/games.sqlite3" not in str(body)  # the cause is logged, not served
    assert any("disk I/O error" in getattr(r, "error", "") for r in caplog.records)

    async def locked() -> None:
        await asyncio.sleep(60)

    async with running([Link("console")], locked) as endpoints:
        started = asyncio.get_running_loop().time()
        status, body = await healthz(endpoints.port)
        assert asyncio.get_running_loop().time() - started < STORE_TIMEOUT + 2
    assert status == 503 and body["checks"]["store"] == "down"


async def test_a_connection_that_cannot_say_counts_as_down() -> None:
    class Broken:
        name = "discord"

        @property
        def connected(self) -> bool:
            raise RuntimeError("no client")

    async with running([Broken()]) as endpoints:
        status, body = await healthz(endpoints.port)
        assert (status, body["checks"]["discord"]) == (503, "down")
        _, _, text = await get(endpoints.port, "/metrics")
    assert 'chatbots_platform_connected{platform="discord"} 0.0' in text


async def test_metrics_are_prometheus_text_and_other_paths_are_not_found() -> None:
    metrics = Metrics(["matrix"])
    metrics.move_played("matrix")
    async with running([Link("matrix")], metrics=metrics) as endpoints:
        status, content_type, text = await get(endpoints.port, "/metrics")
        assert (await get(endpoints.port, "/"))[0] == 404
        assert (await get(endpoints.port, "/metrics/x"))[0] == 404
    assert status == 200
    assert content_type == "text/plain; version=0.0.4; charset=utf-8"
    names = {family.name for family in text_string_to_metric_families(text)}
    assert {"chatbots_moves", "chatbots_platform_connected", "process_cpu_seconds"} <= names
    assert 'chatbots_moves_total{platform="matrix"} 1.0' in text
    assert 'chatbots_platform_connected{platform="matrix"} 1.0' in text


async def test_no_port_no_listener_and_a_taken_port_is_an_error() -> None:
    async with serving(
        "127.0.0.1", None, metrics=Metrics(process=False), store_check=ok, connections=()
    ) as endpoints:
        assert endpoints is None
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(OSError):
            async with serving(
                "127.0.0.1", port, metrics=Metrics(process=False), store_check=ok, connections=()
            ):
                pass


# --- Settings ----------------------------------------------------------------------------------


def test_the_listener_is_off_by_default_and_on_with_a_port() -> None:
    default = load_settings({}, None)
    assert (default.http_port, default.http_host) == (None, "127.0.0.1")
    settings = load_settings({"HTTP_PORT": "9464", "HTTP_HOST": "0.0.0.0"}, None)
    assert (settings.http_port, settings.http_host) == (9464, "0.0.0.0")
    assert load_settings({"HTTP_PORT": "65535", "HTTP_HOST": "::1"}, None).http_host == "::1"


@pytest.mark.parametrize(
    ("environ", "message"),
    [
        ({"HTTP_PORT": "0"}, "HTTP_PORT: '0' is not a port number from 1 to 65535"),
        ({"HTTP_PORT": "65536"}, "HTTP_PORT: '65536' is not a port number from 1 to 65535"),
        ({"HTTP_PORT": "http"}, "HTTP_PORT: 'http' is not a port number from 1 to 65535"),
        ({"HTTP_PORT": "-80"}, "HTTP_PORT: '-80' is not a port number"),
        (
            {"HTTP_PORT": "80", "HTTP_HOST": "local host"},
            "HTTP_HOST: 'local host' is not a host name or IP address to listen on",
        ),
        (
            {"HTTP_PORT": "80", "HTTP_HOST": "http://x"},
            "HTTP_HOST: 'http://x' is not a host name",
        ),
        ({"HTTP_HOST": "0.0.0.0"}, "HTTP_PORT: missing, but HTTP_HOST is set"),
    ],
)
def test_a_bad_listener_setting_is_named(environ: Mapping[str, str], message: str) -> None:
    with pytest.raises(SettingsError) as caught:
        load_settings(environ, None)
    assert message in str(caught.value)


def test_check_shows_the_listener(tmp_path: Path) -> None:
    def check(**settings: str) -> str:
        result = subprocess.run(
            [sys.executable, "-m", "chatbots", "check"],
            capture_output=True,
            text=True,
            cwd=tmp_path,
            env=environment(tmp_path, **settings),
            timeout=30,
        )
        assert result.returncode == 0, result.stderr
        return result.stdout

    assert "HTTP_PORT = (off)\nHTTP_HOST = 127.0.0.1\n" in check()
    assert "HTTP_PORT = 9464\nHTTP_HOST = ::\n" in check(HTTP_PORT="9464", HTTP_HOST="::")


def test_without_a_listener_no_http_or_platform_library_is_loaded(tmp_path: Path) -> None:
    # What serve() imports on every start: a console game must stay quick to start.
    code = (
        "import sys\n"
        "import chatbots.app, chatbots.health, chatbots.metrics\n"
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


async def test_healthz_and_metrics_say_which_leases_this_process_holds(tmp_path: Path) -> None:
    import contextlib

    from core.leases import Lease, LeaseState
    from core.store import SqliteStore

    async with SqliteStore.open(tmp_path / "db.sqlite3") as store:
        mine = Lease(store, "sweeper", ttl=5)
        theirs = Lease(store, "matrix-sync:@bot:example.org", ttl=5)
        assert await store.run(leases.acquire_lease(theirs.name, "another process", 5))
        stop = asyncio.Event()

        async def work(ending: asyncio.Event) -> None:
            await ending.wait()

        tasks = [asyncio.create_task(lease.run(work, stop)) for lease in (mine, theirs)]
        try:
            for _ in range(1000):
                if mine.state is LeaseState.HELD and theirs.state is LeaseState.STANDBY:
                    break
                await asyncio.sleep(0.01)
            metrics = Metrics(process=False)
            async with serving(
                "127.0.0.1",
                0,
                metrics=metrics,
                store_check=ok,
                connections=[Link("matrix")],
                leases=[mine, theirs],
            ) as endpoints:
                assert endpoints is not None and endpoints.port
                status, body = await healthz(endpoints.port)
                _, _, text = await get(endpoints.port, "/metrics")
        finally:
            stop.set()
            with contextlib.suppress(Exception):
                await asyncio.gather(*tasks)
    assert status == 200  # standing by is not a failure
    assert body["leases"] == {"sweeper": "held", "matrix-sync:@bot:example.org": "standby"}
    held = {
        sample.labels["lease"]: sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
        if sample.name == "chatbots_lease_held"
    }
    assert held == {"sweeper": 1.0, "matrix-sync:@bot:example.org": 0.0}


async def test_healthz_shows_the_ai_queue_and_budget_without_judging_them() -> None:
    from core.workers.runner import RunnerLoad

    # A full queue is load the runner sheds by itself, not a fault: still 200.
    busy = RunnerLoad(workers=2, running=2, queued=40, budget=0.25)
    async with serving(
        "127.0.0.1",
        0,
        metrics=Metrics(process=False),
        store_check=ok,
        connections=[Link("discord")],
        load=lambda: busy,
    ) as endpoints:
        assert endpoints is not None and endpoints.port
        status, body = await healthz(endpoints.port)
    assert status == 200
    assert body["ai"] == {"workers": 2, "running": 2, "queue_length": 40, "budget_seconds": 0.25}

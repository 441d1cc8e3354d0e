"""``/healthz`` and ``/metrics`` over one small HTTP listener (opt-in with ``HTTP_PORT``).

``/healthz`` answers 200 only when the store answers and every configured platform is
connected, else 503; the body names each check either way, and says which leases this process
holds (``held``) or waits for (``standby``: another process does that work; not a failure)::

    {"status": "down", "checks": {"store": "ok", "discord": "ok", "matrix": "down"},
     "leases": {"sweeper": "held", "matrix-sync:@bot:example.org": "standby"}}

``/metrics`` is :meth:`chatbots.metrics.Metrics.render`. Neither endpoint asks who is calling:
the listener binds to ``HTTP_HOST`` (127.0.0.1 unless told otherwise) for that reason.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from chatbots.metrics import CONTENT_TYPE, Connection

if TYPE_CHECKING:
    from aiohttp import web

    from chatbots.metrics import Metrics
    from core.leases import Lease
    from core.workers.runner import RunnerLoad

__all__ = ["Connection", "HealthCheck", "HttpEndpoints", "serving"]

log = logging.getLogger(__name__)

OK, DOWN = "ok", "down"
STORE_TIMEOUT = 2.0
"""Seconds the store may take to answer a health check: a prober gives up soon after."""
SHUTDOWN_GRACE = 1.0
"""Seconds a request in flight may take to finish once the listener closes."""


class HealthCheck:
    """Whether the bot can serve: the store answers and every platform is connected.

    Args:
        store_check: raises when the store does not answer (the store's ``check``).
        connections: the running platforms.
        store_timeout: seconds after which a store that has not answered counts as down.
    """

    def __init__(
        self,
        store_check: Callable[[], Awaitable[None]],
        connections: Sequence[Connection],
        *,
        store_timeout: float = STORE_TIMEOUT,
    ) -> None:
        self._store_check = store_check
        self._connections = tuple(connections)
        self._store_timeout = store_timeout

    async def __call__(self) -> dict[str, str]:
        """Each check's state, ``ok`` or ``down``: ``store`` first, then each platform."""
        checks = {"store": await self._store()}
        for connection in self._connections:
            checks[connection.name] = OK if _connected(connection) else DOWN
        return checks

    async def _store(self) -> str:
        try:
            async with asyncio.timeout(self._store_timeout):
                await self._store_check()
        except Exception as error:
            # The reason goes to the log, not to the unauthenticated caller.
            log.warning("health: the store does not answer", extra={"error": repr(error)})
            return DOWN
        return OK


def _connected(connection: Connection) -> bool:
    try:
        return bool(connection.connected)
    except Exception:
        log.exception(
            "health: reading a connection state failed", extra={"platform": connection.name}
        )
        return False


class HttpEndpoints:
    """The listener: ``GET /healthz`` and ``GET /metrics`` (HEAD too), nothing else.

    Args:
        host, port: where to listen; port 0 picks a free one (tests), see :attr:`port`.
        health: the checks behind ``/healthz``.
        metrics: what ``/metrics`` shows.
    """

    def __init__(
        self,
        host: str,
        port: int,
        *,
        health: HealthCheck,
        metrics: Metrics,
        leases: Sequence[Lease] = (),
        load: Callable[[], RunnerLoad] | None = None,
    ) -> None:
        self._host = host
        self._load = load
        self._leases = tuple(leases)
        self._port = port
        self._health = health
        self._metrics = metrics
        # Imported here: a bot without a listener (the console game) need not load aiohttp.
        from aiohttp import web

        app = web.Application()
        app.router.add_get("/healthz", self._healthz)
        app.router.add_get("/metrics", self._render_metrics)
        # No access log: a scrape every 15 s and a probe every few seconds would drown the rest.
        # A request in flight may finish within a second of the stop: the whole shutdown has 10.
        self._runner = web.AppRunner(
            app, access_log=None, handle_signals=False, shutdown_timeout=SHUTDOWN_GRACE
        )
        self.port: int | None = None

    async def start(self) -> None:
        """Bind and serve.

        Raises:
            OSError: the address cannot be bound (in use, not ours).
        """
        from aiohttp import web

        await self._runner.setup()
        site = web.TCPSite(self._runner, self._host, self._port, reuse_address=True)
        try:
            await site.start()
        except OSError:
            await self._runner.cleanup()
            raise
        self.port = int(self._runner.addresses[0][1])
        log.info(
            "http: serving /healthz and /metrics", extra={"host": self._host, "port": self.port}
        )

    async def close(self) -> None:
        """Stop listening; a request in flight gets :data:`SHUTDOWN_GRACE` seconds to finish."""
        await self._runner.cleanup()

    async def _healthz(self, request: web.Request) -> web.Response:
        from aiohttp import web

        checks = await self._health()
        up = all(state == OK for state in checks.values())
        body: dict[str, object] = {"status": OK if up else DOWN, "checks": checks}
        if self._leases:
            body["leases"] = {lease.name: lease.state.value for lease in self._leases}
        if self._load is not None:
            # Shown, never judged: a busy AI sheds load by itself (a smaller budget, then "busy"
            # for new HARD games), so a long queue is no reason for a supervisor to restart us.
            load = self._load()
            body["ai"] = {
                "workers": load.workers,
                "running": load.running,
                "queue_length": load.queued,
                "budget_seconds": round(load.budget, 3),
            }
        return web.json_response(body, status=200 if up else 503)

    async def _render_metrics(self, request: web.Request) -> web.Response:
        from aiohttp import web

        body = await self._metrics.render()
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE})


@contextlib.asynccontextmanager
async def serving(
    host: str,
    port: int | None,
    *,
    metrics: Metrics,
    store_check: Callable[[], Awaitable[None]],
    connections: Sequence[Connection],
    load: Callable[[], RunnerLoad] | None = None,
    count_sessions: Callable[[], Awaitable[int]] | None = None,
    live_games: Callable[[], Awaitable[Mapping[str, int]]] | None = None,
    leases: Sequence[Lease] = (),
) -> AsyncIterator[HttpEndpoints | None]:
    """Serve ``/healthz`` and ``/metrics`` while the block runs; nothing when ``port`` is None.

    Args:
        host, port: where to listen (``HTTP_HOST``, ``HTTP_PORT``).
        metrics: the application's metrics.
        store_check: raises when the store does not answer.
        connections: the running platforms.
        load: the AI runner's load for the configured budget, shown at each scrape.
        count_sessions: the stored sessions, counted at each scrape.
        live_games: the live games per platform, counted at each scrape.
        leases: the leases this process takes part in, shown in both.

    Raises:
        OSError: the address cannot be bound (logged, naming the address).
    """
    if port is None:
        yield None
        return
    metrics.watch(
        connections=connections,
        load=load,
        count_sessions=count_sessions,
        live_games=live_games,
        leases=leases,
    )
    health = HealthCheck(store_check, connections)
    endpoints = HttpEndpoints(host, port, health=health, metrics=metrics, leases=leases, load=load)
    try:
        await endpoints.start()
    except OSError as error:
        log.error(
            "http: cannot listen on HTTP_HOST=%s HTTP_PORT=%d: %s",
            host,
            port,
            why_not_listening(error),
            extra={"host": host, "port": port, "error": str(error)},
        )
        raise
    try:
        yield endpoints
    finally:
        await endpoints.close()


def why_not_listening(error: OSError) -> str:
    """What an operator does about a failed bind, in words."""
    if error.errno == errno.EADDRINUSE:
        return "the port is already in use by another program: stop it, or choose another port"
    if error.errno == errno.EADDRNOTAVAIL:
        return "that address is not one of this machine's: use 127.0.0.1, or 0.0.0.0 for all"
    if error.errno == errno.EACCES:
        return "permission denied (ports below 1024 need privileges): choose a port above 1023"
    return error.strerror or str(error)

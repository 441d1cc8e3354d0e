"""The composition root: the store, the game service and every configured adapter, in one loop.

Order of life: open the store (before any adapter connects, so the first click is served),
start the service (its AI pool), run the adapters until a signal, the end of the console's input
or an adapter's failure, then stop taking input, let the moves in flight finish, close the
service and the store. The whole shutdown fits in :data:`SHUTDOWN_TIMEOUT` seconds; a watchdog
thread ends the process if anything hangs past it.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import logging
import os
import signal
import sys
import threading
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Protocol, TextIO, TypeVar

from chatbots.settings import Settings, SettingsError
from core.errors import OperatorError
from core.ports import SHUTDOWN
from core.store import stats

if TYPE_CHECKING:
    from adapters.discord import DiscordConfig
    from core.leases import Lease
    from core.sessions import GameService, ServiceSettings
    from core.store.port import Store
    from core.store.runner import SqlStore

log = logging.getLogger("chatbots")
T = TypeVar("T")

SHUTDOWN_TIMEOUT = SHUTDOWN.total
"""Seconds from the stop request to the end of the process, at most (core.ports.SHUTDOWN holds
each step's deadline; the adapters and the service read the same table)."""

EXIT_OK, EXIT_FAILED, EXIT_CONFIG = 0, 1, 2
_CONSOLE = "console"  # the one adapter that may end on its own: its input ended

CONFIGURE_HINT = """\
No chat platform is configured, so the bot plays here in the terminal.
To run it on Discord, set DISCORD_TOKEN; on Matrix, set MATRIX_HOMESERVER, MATRIX_USER_ID and
MATRIX_PASSWORD (or MATRIX_ACCESS_TOKEN). Put them in the environment or in a .env file:
every setting is described in .env.example.
"""


class Adapter(Protocol):
    """A platform connection: runs until ``stop`` is set, then stops taking input, lets the
    moves in flight finish, disconnects and returns. Returning earlier means it ended on its
    own (the console at the end of its input); raising means it failed."""

    name: str

    @property
    def connected(self) -> bool:
        """Whether the platform connection is up now (cheap; never blocks)."""
        ...

    async def run(self, stop: asyncio.Event) -> None: ...


def service_settings(settings: Settings) -> ServiceSettings:
    """The service's part of the settings."""
    from core.sessions import ServiceSettings

    return ServiceSettings(
        ai_budget=settings.ai_budget,
        ai_workers=settings.ai_workers,
        chat_defaults=settings.chat_defaults,
        lease_ttl=settings.lease_ttl,
        public_url=settings.public_url,
    )


AdapterFactory = Callable[["GameService"], Adapter]


def plan_adapters(settings: Settings, *, stdin: TextIO, stdout: TextIO) -> list[AdapterFactory]:
    """How to build one adapter per configured platform, or the console when there is none.

    The platforms' own config classes check their values here, before the store is opened or
    anything connects. Platform packages are imported only when configured, so a console game
    does not pay for loading discord.py or matrix-nio.

    Raises:
        SettingsError: a platform's config refused a value, or CONSOLE_NAME is no console name
            (the message names the setting).
    """
    try:
        factories = _platform_factories(settings)
    except ValueError as error:
        raise SettingsError([str(error)]) from error
    if factories:
        return factories
    from adapters.console import ConsoleAdapter
    from adapters.console.names import console_name

    try:
        name = console_name(settings.console_name)
    except ValueError as error:
        raise SettingsError([str(error)]) from error

    def console(service: GameService) -> Adapter:
        stdout.write(CONFIGURE_HINT)
        locale = settings.default_locale
        return ConsoleAdapter(service, stdin=stdin, stdout=stdout, user_id=name, locale=locale)

    return [console]


def _discord_adapter(service: GameService, config: DiscordConfig, lease_ttl: float) -> Adapter:
    from adapters.discord import DiscordAdapter
    from adapters.discord.bot import COMMAND_SYNC_LEASE
    from adapters.discord.identify import IdentifyGate
    from adapters.discord.takeover import ShardLeases
    from core.leases import Lease

    # One process of those sharing the store syncs the slash commands, and the shards of all
    # of them keep to Discord's identify rate together (docs/scaling.md).
    lease = Lease(service.store, COMMAND_SYNC_LEASE, ttl=lease_ttl)
    if config.shard_count is None:
        return DiscordAdapter(service, config, sync_lease=lease)
    gate = IdentifyGate(service.store, lease.holder)
    # Each shard runs under a lease: a dead process's shards are taken over by a survivor.
    shards = ShardLeases(
        service.store, config.shard_count, config.shards, holder=lease.holder, ttl=lease_ttl
    )
    return DiscordAdapter(
        service, config, sync_lease=lease, identify_gate=gate, shard_leases=shards
    )


def _platform_factories(settings: Settings) -> list[AdapterFactory]:
    factories: list[AdapterFactory] = []
    if (discord := settings.discord) is not None:
        from adapters.discord import DiscordConfig

        discord_config = DiscordConfig(
            token=discord.token.value,
            guild_ids=discord.guild_ids,
            api_base_url=discord.api_base_url,
            gateway_url=discord.gateway_url,
            shard_count=discord.shard_count,
            shard_ids=discord.shard_ids,
            member_events=discord.member_events,
        )
        factories.append(
            functools.partial(_discord_adapter, config=discord_config, lease_ttl=settings.lease_ttl)
        )
    if (matrix := settings.matrix) is not None:
        from adapters.matrix import MatrixAdapter, MatrixConfig
        from core.leases import Lease

        matrix_config = MatrixConfig(
            homeserver=matrix.homeserver,
            user_id=matrix.user_id,
            password=matrix.password.value if matrix.password else None,
            access_token=matrix.access_token.value if matrix.access_token else None,
            device_id=matrix.device_id,
            store_path=str(matrix.store_path),
            allowed_servers=matrix.allowed_servers,
            allowed_users=matrix.allowed_users,
            default_locale=settings.default_locale,
            bot_admins=matrix.bot_admins,
            exempt=matrix.exempt,
        )

        def matrix_adapter(service: GameService) -> Adapter:
            # One process syncs the account; others configured for it stand by.
            name = f"matrix-sync:{matrix_config.user_id}"
            lease = Lease(service.store, name, ttl=settings.lease_ttl)
            return MatrixAdapter(service, matrix_config, lease=lease)

        factories.append(matrix_adapter)
    return factories


class Shutdown:
    """The one stop event, and what a stop request sets going: the deadlines and the watchdog.

    Args:
        watchdog: seconds after the stop request at which a thread ends the process if it is
            still running (None: no watchdog, for tests that run the app in their own process).

    A second signal while stopping cancels the adapters at once instead of waiting for them.
    """

    def __init__(self, *, watchdog: float | None = None) -> None:
        self.stop = asyncio.Event()
        self.forced = asyncio.Event()
        self.requested_at: float | None = None
        self._watchdog_after = watchdog
        self._watchdog: threading.Timer | None = None

    def request(self, reason: str) -> None:
        """Ask everything to stop (idempotent; a repeated signal forces the stop)."""
        if self.requested_at is not None:
            if reason.startswith("signal"):
                log.warning("stop forced", extra={"reason": reason})
                self.forced.set()
            return
        log.info("stopping", extra={"reason": reason})
        self.requested_at = time.monotonic()
        self.stop.set()
        if self._watchdog_after is not None:
            self._watchdog = threading.Timer(self._watchdog_after, _hard_exit)
            self._watchdog.daemon = True
            self._watchdog.start()

    def close(self) -> None:
        """The shutdown is over: the watchdog has nothing left to guard."""
        if self._watchdog is not None:
            self._watchdog.cancel()

    def remaining(self, deadline: float) -> float:
        """Seconds left until ``deadline`` (seconds after the stop request), at least 0.1."""
        start = self.requested_at if self.requested_at is not None else time.monotonic()
        return max(0.1, start + deadline - time.monotonic())


def _hard_exit() -> None:
    log.error("shutdown took too long; exiting", extra={"timeout_s": SHUTDOWN_TIMEOUT})
    logging.shutdown()
    os._exit(EXIT_FAILED)


async def serve(
    settings: Settings, *, stdin: TextIO | None = None, stdout: TextIO | None = None
) -> int:
    """Run the bot until it is stopped; returns the process exit code.

    Args:
        settings: validated settings.
        stdin, stdout: the console's streams (``sys.stdin``/``sys.stdout``), used only when no
            platform is configured (a platform bot never reads stdin), and where the pages'
            address is written when they are served.

    Returns:
        0 after a requested stop (signal, end of the console's input); 1 when the store could
        not be opened, an adapter failed or stopped on its own, or the shutdown was not clean;
        2 when a setting must change: ``HTTP_HOST``/``HTTP_PORT`` or ``WEB_HOST``/``WEB_PORT``
        cannot be listened on (in use, not this machine's), or a platform refused its token.

    Raises:
        SettingsError: a platform's config refused a value (nothing was opened yet).
    """
    from chatbots.health import serving
    from chatbots.metrics import Metrics
    from chatbots.web import serving_pages
    from core.sessions import GameService

    factories = plan_adapters(settings, stdin=stdin or sys.stdin, stdout=stdout or sys.stdout)
    shutdown = Shutdown(watchdog=SHUTDOWN.watchdog)
    loop = asyncio.get_running_loop()
    installed = _install_signal_handlers(loop, shutdown)
    started = time.monotonic()
    try:
        try:
            store = await open_store(settings)
        except Exception as error:
            where = settings.database
            log.error("cannot open the database", extra={"store": where, "error": str(error)})
            return EXIT_FAILED
        closed = True
        try:
            metrics = Metrics(settings.platforms or (_CONSOLE,))
            store.time_operations(metrics.store_operation_done)
            service = GameService(store, settings=service_settings(settings), observer=metrics)
            try:
                await service.start()
                code = EXIT_OK
                if not shutdown.stop.is_set():  # else a signal came during start-up
                    adapters = [factory(service) for factory in factories]
                    async with contextlib.AsyncExitStack() as listening:
                        try:
                            await listening.enter_async_context(
                                serving(
                                    settings.http_host,
                                    settings.http_port,
                                    metrics=metrics,
                                    store_check=store.check,
                                    connections=adapters,
                                    load=functools.partial(service.runner.load, settings.ai_budget),
                                    count_sessions=lambda: store.run(stats.count_sessions()),
                                    live_games=functools.partial(live_games, store),
                                    leases=_leases(service, adapters),
                                )
                            )
                            await listening.enter_async_context(
                                serving_pages(settings, store, stdout or sys.stdout, service.runner)
                            )
                        except OSError:
                            # Logged by serving() in one line naming the address and why; a
                            # setting to change, so the exit code of a bad setting.
                            code = EXIT_CONFIG
                        else:
                            ms = round((time.monotonic() - started) * 1000)
                            names = ",".join(a.name for a in adapters)
                            frozen = _freeze_start_up()
                            log.info(
                                "started",
                                extra={"adapters": names, "startup_ms": ms, "frozen": frozen},
                            )
                            code = await run_adapters(adapters, shutdown)
            finally:
                shutdown.request("shutdown")  # also when start-up failed: the watchdog runs
                closing = service.close(shutdown.remaining(SHUTDOWN.drain))
                closed &= await _close("service", closing, shutdown.remaining(SHUTDOWN.service))
        finally:
            closing = store.close()
            closed &= await _close("store", closing, shutdown.remaining(SHUTDOWN.store))
        code = code if closed else EXIT_FAILED
        log.info("stopped", extra={"exit_code": code})
        return code
    finally:
        shutdown.close()
        for signum in installed:
            loop.remove_signal_handler(signum)


def _freeze_start_up() -> int:
    """Move what start-up made out of the garbage collector's reach; how many objects.

    Modules, catalogues, the clients' tables and the solver's data (some 47,000 objects for
    the console, 195,000 with both platforms' clients) live as long as the process, yet each
    of the collector's full passes walks them all: about 100 ms of CPU on the event loop with
    both clients, a stall in the middle of some player's press. Frozen,
    a full pass walks only what came later (the AI workers freeze theirs the same way)."""
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()


def _leases(service: GameService, adapters: Sequence[Adapter]) -> list[Lease]:
    """The leases of this process: the sweeper's, and any an adapter syncs under."""
    found = [service.sweeper_lease]
    for adapter in adapters:
        lease = getattr(adapter, "lease", None)  # adapters that run once per process have none
        if lease is not None:
            found.append(lease)
    return found


async def live_games(store: Store) -> dict[str, int]:
    """Live games per platform (the ``chatbots_live_games`` gauge)."""
    return {row.platform: row.live for row in await store.run(stats.totals(time.time()))}


async def open_store(settings: Settings) -> SqlStore:
    """The store the settings name: PostgreSQL when ``DATABASE_URL`` is set, else the SQLite
    file at ``DATABASE_PATH``. asyncpg is imported only in the first case.

    Raises:
        StoreUnavailable: the database cannot be used (one line naming it and why).
    """
    if settings.database_url is not None:
        from core.store.postgres import PostgresStore

        return await PostgresStore.open(settings.database_url.value)
    from core.store import SqliteStore

    return await SqliteStore.open(settings.database_path)


async def with_store(settings: Settings, work: Callable[[SqlStore], Awaitable[T]]) -> T:
    """``work`` on the store the settings name, opened for it and closed after it (the
    operator's commands, which run beside the bot).

    Raises:
        StoreError: the database cannot be opened, or failed during ``work``.
    """
    store = await open_store(settings)
    try:
        return await work(store)
    finally:
        await store.close()


async def run_adapters(adapters: Sequence[Adapter], shutdown: Shutdown) -> int:
    """Run the adapters until a stop request or until one of them ends; then stop them all.

    The console ending (its input ended) is a normal stop. A platform adapter that raises or
    returns on its own is logged as a failure and stops the others: a half-running bot is worse
    than a restart by the supervisor, which the non-zero exit code asks for. Adapters still
    running ``SHUTDOWN.adapters`` seconds after the stop request (or at a second signal)
    are cancelled.

    Returns:
        0, 1 when an adapter failed, 2 when one refused a setting (an OperatorError).
    """
    stop = shutdown.stop
    tasks = {asyncio.create_task(a.run(stop), name=f"adapter-{a.name}"): a for a in adapters}
    stopping = asyncio.create_task(stop.wait())
    await asyncio.wait([*tasks, stopping], return_when=asyncio.FIRST_COMPLETED)
    stopping.cancel()
    code = EXIT_OK  # the highest asked for: a setting to change (2) says the most
    if not stop.is_set():
        ended = [(task, adapter) for task, adapter in tasks.items() if task.done()]
        for task, adapter in ended:
            code = max(code, _report(task, adapter, early=True))
        shutdown.request(f"{ended[0][1].name} ended")
    pending = [task for task in tasks if not task.done()]
    if pending:
        finished = asyncio.create_task(asyncio.wait(pending))
        forced = asyncio.create_task(shutdown.forced.wait())
        await asyncio.wait(
            [finished, forced],
            timeout=shutdown.remaining(SHUTDOWN.adapters),
            return_when=asyncio.FIRST_COMPLETED,
        )
        finished.cancel()
        forced.cancel()
        late = [task for task in pending if not task.done()]
        for task in late:
            log.warning(
                "adapter cancelled: not stopped in time", extra={"adapter": tasks[task].name}
            )
            task.cancel()
        if late:
            await asyncio.wait(late, timeout=1.0)
        for task in pending:
            if task.done() and not task.cancelled():
                code = max(code, _report(task, tasks[task], early=False))
    return code


def _report(task: asyncio.Task[None], adapter: Adapter, *, early: bool) -> int:
    """Logs how an adapter ended; the exit code that asks for (0: a normal end)."""
    error = task.exception()
    if isinstance(error, OperatorError):
        log.error("%s", error, extra={"adapter": adapter.name})  # one line: what to change
        return EXIT_CONFIG
    if error is not None:
        log.error(
            "adapter crashed",
            exc_info=(type(error), error, error.__traceback__),
            extra={"adapter": adapter.name},
        )
        return EXIT_FAILED
    if early and adapter.name != _CONSOLE:
        log.error("adapter stopped on its own", extra={"adapter": adapter.name})
        return EXIT_FAILED
    return EXIT_OK


async def _close(what: str, awaitable: Awaitable[None], seconds: float) -> bool:
    """Awaits a ``close()`` with a timeout; False (and logged) when it fails or times out."""
    try:
        async with asyncio.timeout(seconds):
            await awaitable
    except TimeoutError:
        log.error("close timed out", extra={"what": what, "timeout_s": round(seconds, 1)})
        return False
    except Exception:
        log.exception("close failed", extra={"what": what})
        return False
    return True


def _install_signal_handlers(
    loop: asyncio.AbstractEventLoop, shutdown: Shutdown
) -> list[signal.Signals]:
    installed: list[signal.Signals] = []
    for signum in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):  # not on Windows' loop
            loop.add_signal_handler(signum, shutdown.request, f"signal {signum.name}")
            installed.append(signum)
    return installed

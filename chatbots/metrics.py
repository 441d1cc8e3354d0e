"""Prometheus metrics of the running bot: what the service reports, store latency, scrape-time
state (connections, the AI queue, stored sessions).

:class:`Metrics` owns its own :class:`~prometheus_client.CollectorRegistry` (never the global
one: two apps in one test process must not share counters) and implements
:class:`core.ports.ServiceObserver`, so ``GameService(..., observer=metrics)`` counts games,
moves, failures and thinking time; :meth:`Metrics.store_operation_done` is the store's timer
(``store.time_operations(metrics.store_operation_done)``), which keeps ``core`` free of
Prometheus. Names follow the Prometheus conventions: a ``chatbots_``
prefix, snake_case, ``_total`` on counters, base units (``_seconds``) on the rest.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Protocol, TypeVar, runtime_checkable

from prometheus_client import CollectorRegistry, Counter, Histogram, ProcessCollector
from prometheus_client.exposition import CONTENT_TYPE_PLAIN_0_0_4, generate_latest
from prometheus_client.metrics_core import CounterMetricFamily, GaugeMetricFamily, Metric

from core.games import GameKind

if TYPE_CHECKING:
    from core.leases import Lease
    from core.workers.runner import RunnerLoad

__all__ = ["CONTENT_TYPE", "GAMES", "Connection", "Metrics"]

log = logging.getLogger(__name__)

T = TypeVar("T")

CONTENT_TYPE = CONTENT_TYPE_PLAIN_0_0_4
"""The Content-Type of :meth:`Metrics.render` (Prometheus text format 0.0.4)."""

GAMES = tuple(dict.fromkeys(kind.label for kind in GameKind))
"""The ``game`` label's values: the game kinds' labels, not their sizes (bounded cardinality)."""

_ERROR_KEY = "error."
# The bot's moves take from well under a millisecond (easy) to the whole budget (hard, a second
# by default) plus the queue; store operations from tens of microseconds to a busy timeout.
_THINK_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
_STORE_BUCKETS = (
    0.0001,
    0.00025,
    0.0005,
    0.001,
    0.0025,
    0.005,
    0.01,
    0.025,
    0.05,
    0.1,
    0.25,
    0.5,
    1.0,
    2.5,
    5.0,
)
_AI_GAUGES = (
    ("queue_length", "HARD searches waiting for an AI worker."),
    ("running", "HARD searches running on AI workers now."),
    ("workers", "AI worker processes (0: the AI thinks in a thread)."),
    ("budget_seconds", "Seconds a HARD search starting now gets (shrinks as the queue grows)."),
)
_COUNT_TIMEOUT = 2.0  # a scrape must not wait out the store's busy timeout


@runtime_checkable
class Connection(Protocol):
    """A platform connection that says whether it is up now (metrics and ``/healthz``).

    Adapters implement it (``name`` is the platform, ``connected`` is cheap and never blocks);
    the console is always connected.
    """

    @property
    def name(self) -> str: ...

    @property
    def connected(self) -> bool: ...


class Metrics:
    """The application's metrics, on a registry of their own.

    Args:
        platforms: the configured platforms; their series start at 0 (so a rate is defined
            from the first scrape, before the first game).
        process: also export the ``process_*`` metrics (memory, CPU, open files) of this
            process.

    Every observer method is cheap (a dictionary lookup and a locked add) and never raises.
    """

    def __init__(self, platforms: Iterable[str] = (), *, process: bool = True) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        registry = self.registry
        self.games_started = Counter(
            "chatbots_games_started",
            "Games started (against the bot, accepted challenges, bots' games, rematches).",
            ["platform", "game"],
            registry=registry,
        )
        self.games_finished = Counter(
            "chatbots_games_finished",
            "Games finished with a result (won, drawn or resigned).",
            ["platform", "game"],
            registry=registry,
        )
        self.moves = Counter(
            "chatbots_moves",
            "Moves played and stored, the bot's included.",
            ["platform"],
            registry=registry,
        )
        self.command_errors = Counter(
            "chatbots_command_errors",
            "Requests answered with an error, by kind: a player's mistake (not_your_turn, "
            "board_changed, ...) or the system's (busy, store_unavailable, internal).",
            ["platform", "kind"],
            registry=registry,
        )
        self.rate_limited = Counter(
            "chatbots_rate_limited",
            "Requests refused by a cooldown or a live-game limit.",
            ["platform"],
            registry=registry,
        )
        self.ai_think = Histogram(
            "chatbots_ai_think_seconds",
            "Time from asking the AI for a move to having it, queue included, by level.",
            ["level"],
            buckets=_THINK_BUCKETS,
            registry=registry,
        )
        self.store_operation = Histogram(
            "chatbots_store_operation_seconds",
            "Duration of store operations, failures included, by operation.",
            ["operation"],
            buckets=_STORE_BUCKETS,
            registry=registry,
        )
        if process:
            ProcessCollector(registry=registry)
        self._state = _ScrapeState()
        registry.register(self._state)
        for platform in platforms:
            self.moves.labels(platform)
            self.rate_limited.labels(platform)
            for game in GAMES:
                self.games_started.labels(platform, game)
                self.games_finished.labels(platform, game)

    # --- core.ports.ServiceObserver ---------------------------------------------------------

    def game_started(self, platform: str, game: str) -> None:
        """A game began; ``game`` is its kind's label (``tictactoe``, ``connect4``, ``free``)."""
        self.games_started.labels(platform, game).inc()

    def game_finished(self, platform: str, game: str) -> None:
        """A game ended with a result."""
        self.games_finished.labels(platform, game).inc()

    def move_played(self, platform: str) -> None:
        """A move was stored (a player's or the bot's)."""
        self.moves.labels(platform).inc()

    def request_failed(self, platform: str, kind: str) -> None:
        """A request was answered with an error; ``kind`` is its message key or a system
        outcome (``busy``, ``store_unavailable``, ``internal``)."""
        self.command_errors.labels(platform, kind.removeprefix(_ERROR_KEY)).inc()

    def ai_thought(self, level: str, seconds: float) -> None:
        """The AI chose a move at ``level`` in ``seconds``."""
        self.ai_think.labels(level).observe(seconds)

    # --- the rest ---------------------------------------------------------------------------

    def store_operation_done(self, operation: str, seconds: float) -> None:
        """The store's timer: ``operation`` (its method's name) took ``seconds``, failures
        included."""
        self.store_operation.labels(operation).observe(seconds)

    def request_limited(self, platform: str) -> None:
        """A request was refused by a rate limit (for the limiter to call)."""
        self.rate_limited.labels(platform).inc()

    def watch(
        self,
        *,
        connections: Iterable[Connection] = (),
        load: Callable[[], RunnerLoad] | None = None,
        count_sessions: Callable[[], Awaitable[int]] | None = None,
        live_games: Callable[[], Awaitable[Mapping[str, int]]] | None = None,
        leases: Iterable[Lease] = (),
    ) -> None:
        """Say where the scrape-time values come from.

        Args:
            connections: the platforms whose state ``chatbots_platform_connected`` shows.
            load: the AI runner's load for the configured budget (``GameService.runner.load``
                with ``AI_BUDGET_SECONDS``).
            count_sessions: how many sessions the store holds (read at each scrape).
            live_games: the live games (challenges and games being played) per platform, read
                at each scrape.
            leases: the leases this process takes part in (``chatbots_lease_held``).
        """
        self._state.connections = tuple(connections)
        self._state.leases = tuple(leases)
        self._state.load = load
        self._state.count_sessions = count_sessions
        self._state.live_games = live_games

    async def render(self) -> bytes:
        """The metrics in the Prometheus text format, the store's count read now."""
        await self._state.refresh()
        return generate_latest(self.registry)


class _ScrapeState:
    """The gauges that describe the present: read when scraped, never stored between."""

    def __init__(self) -> None:
        self.connections: tuple[Connection, ...] = ()
        self.load: Callable[[], RunnerLoad] | None = None
        self.count_sessions: Callable[[], Awaitable[int]] | None = None
        self.live_games: Callable[[], Awaitable[Mapping[str, int]]] | None = None
        self.leases: tuple[Lease, ...] = ()
        self._sessions: int | None = None
        self._live: Mapping[str, int] | None = None

    async def refresh(self) -> None:
        """Read what only an ``await`` can read (collectors are called synchronously)."""
        self._sessions = await _read(self.count_sessions, "the sessions")
        self._live = await _read(self.live_games, "the live games")

    def collect(self) -> Iterable[Metric]:
        connected = GaugeMetricFamily(
            "chatbots_platform_connected",
            "1 when the platform's connection is up (Discord gateway ready, Matrix last sync "
            "succeeded), else 0.",
            labels=["platform"],
        )
        for connection in self.connections:
            up = _is_connected(connection)
            connected.add_metric([connection.name], 1.0 if up else 0.0)
        yield connected
        limited = CounterMetricFamily(
            "chatbots_homeserver_rate_limited",
            "Requests the platform refused for their rate (Matrix: 429 M_LIMIT_EXCEEDED); the "
            "bot waits them out. Exempt the bot from its homeserver's rate limits to avoid it.",
            labels=["platform"],
        )
        for connection in self.connections:
            count = getattr(connection, "rate_limited_total", None)  # adapters that count them
            if isinstance(count, int):
                limited.add_metric([connection.name], float(count))
        yield limited
        held = GaugeMetricFamily(
            "chatbots_lease_held",
            "1 while this process holds the lease (the Matrix sync of an account, the sweeper), "
            "0 while it stands by.",
            labels=["lease"],
        )
        for lease in self.leases:
            held.add_metric([lease.name], 1.0 if lease.state.value == "held" else 0.0)
        yield held
        sessions = GaugeMetricFamily(
            "chatbots_stored_sessions",
            "Sessions in the store: live games, open challenges, and finished games kept for "
            "/rematch until they expire.",
        )
        if self._sessions is not None:
            sessions.add_metric([], float(self._sessions))
        yield sessions
        live = GaugeMetricFamily(
            "chatbots_live_games",
            "Live games per platform: open challenges and games being played (in the store, "
            "so every process of the bot shows the same).",
            labels=["platform"],
        )
        for platform, count in sorted((self._live or {}).items()):
            live.add_metric([platform], float(count))
        yield live
        values: dict[str, float] = {}
        if self.load is not None:
            load = self.load()
            values = {
                "queue_length": load.queued,
                "running": load.running,
                "workers": load.workers,
                "budget_seconds": load.budget,
            }
        for suffix, text in _AI_GAUGES:
            family = GaugeMetricFamily(f"chatbots_ai_{suffix}", text)
            if suffix in values:
                family.add_metric([], values[suffix])
            yield family


async def _read(read: Callable[[], Awaitable[T]] | None, what: str) -> T | None:
    if read is None:
        return None
    try:
        async with asyncio.timeout(_COUNT_TIMEOUT):
            return await read()
    except Exception as error:
        # The series goes missing for this scrape: an absent value, not a false zero.
        log.warning(f"metrics: cannot count {what}", extra={"error": str(error)})
        return None


def _is_connected(connection: Connection) -> bool:
    try:
        return bool(connection.connected)
    except Exception:
        # A probe that fails says nothing good about the connection; a scrape must not fail.
        log.exception("reading a connection state failed", extra={"platform": connection.name})
        return False

"""Prometheus metrics of the running bot: what the service reports, store latency, scrape-time
state (connections, the AI queue, stored sessions).

:class:`Metrics` owns its own :class:`~prometheus_client.CollectorRegistry` (never the global
one: two apps in one test process must not share counters) and implements
:class:`core.ports.ServiceObserver`, so ``GameService(..., observer=metrics)`` counts games,
moves, failures and thinking time. :class:`TimedStore` wraps the store to time every operation,
which keeps ``core`` free of Prometheus. Names follow the Prometheus conventions: a ``chatbots_``
prefix, snake_case, ``_total`` on counters, base units (``_seconds``) on the rest.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, TypeVar

from prometheus_client import CollectorRegistry, Counter, Histogram, ProcessCollector
from prometheus_client.exposition import CONTENT_TYPE_PLAIN_0_0_4, generate_latest
from prometheus_client.metrics_core import GaugeMetricFamily, Metric

if TYPE_CHECKING:
    from chatbots.health import Connection
    from core.leases import Lease
    from core.store import KvEntry, LeaseHolder, Session, SessionStore, StatsRow
    from core.store.models import LiveCounts, PlatformTotals, SettingRow
    from core.workers.runner import RunnerLoad

__all__ = ["CONTENT_TYPE", "GAMES", "Metrics", "TimedStore"]

log = logging.getLogger(__name__)

T = TypeVar("T")

CONTENT_TYPE = CONTENT_TYPE_PLAIN_0_0_4
"""The Content-Type of :meth:`Metrics.render` (Prometheus text format 0.0.4)."""

GAMES = ("tictactoe", "connect_four", "k_in_a_row")
"""The ``game`` label's values: the kinds of game, not their sizes (bounded cardinality)."""

_GAME_KEY = "game.name."
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
        """A game began; ``game`` is its name's message key (``game.name.tictactoe``)."""
        self.games_started.labels(platform, _game(game)).inc()

    def game_finished(self, platform: str, game: str) -> None:
        """A game ended with a result."""
        self.games_finished.labels(platform, _game(game)).inc()

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
        return await asyncio.wait_for(read(), _COUNT_TIMEOUT)
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


def _game(key: str) -> str:
    return key.removeprefix(_GAME_KEY)


# --- The store, timed ---------------------------------------------------------------------------


class TimedStore:
    """A :class:`~core.store.SessionStore` that times every operation of the store it wraps.

    Args:
        store: the real store.
        metrics: where the durations go (``chatbots_store_operation_seconds{operation}``).
    """

    def __init__(self, store: SessionStore, metrics: Metrics) -> None:
        self._store = store
        histogram = metrics.store_operation
        self._observe: Mapping[str, Callable[[float], None]] = {
            op: histogram.labels(op).observe for op in _OPERATIONS
        }

    async def _timed(self, operation: str, awaitable: Awaitable[T]) -> T:
        started = time.perf_counter()
        try:
            return await awaitable
        finally:
            self._observe[operation](time.perf_counter() - started)

    async def create(self, session: Session, *, receipt: KvEntry | None = None) -> None:
        await self._timed("create", self._store.create(session, receipt=receipt))

    async def get(self, session_id: str) -> Session | None:
        return await self._timed("get", self._store.get(session_id))

    async def live_game(self, platform: str, chat_id: str, user_id: str) -> Session | None:
        return await self._timed("live_game", self._store.live_game(platform, chat_id, user_id))

    async def challenge_for(self, platform: str, chat_id: str, user_id: str) -> Session | None:
        return await self._timed(
            "challenge_for", self._store.challenge_for(platform, chat_id, user_id)
        )

    async def last_finished(
        self, platform: str, chat_id: str, user_id: str | None
    ) -> Session | None:
        return await self._timed(
            "last_finished", self._store.last_finished(platform, chat_id, user_id)
        )

    async def update(
        self, session: Session, *, expected_version: int, receipt: KvEntry | None = None
    ) -> bool:
        return await self._timed(
            "update",
            self._store.update(session, expected_version=expected_version, receipt=receipt),
        )

    async def delete(
        self,
        session_id: str,
        *,
        expected_version: int | None = None,
        receipt: KvEntry | None = None,
    ) -> bool:
        return await self._timed(
            "delete",
            self._store.delete(session_id, expected_version=expected_version, receipt=receipt),
        )

    async def swap(self, old: Session, new: Session, *, receipt: KvEntry | None = None) -> bool:
        return await self._timed("swap", self._store.swap(old, new, receipt=receipt))

    async def delete_expired(self, now: float) -> int:
        return await self._timed("delete_expired", self._store.delete_expired(now))

    async def player_stats(
        self, platform: str, user_id: str, chat_id: str | None = None
    ) -> StatsRow | None:
        return await self._timed(
            "player_stats", self._store.player_stats(platform, user_id, chat_id)
        )

    async def top(self, platform: str, chat_id: str, limit: int = 10) -> list[StatsRow]:
        return await self._timed("top", self._store.top(platform, chat_id, limit))

    async def kv_get(self, namespace: str, key: str) -> str | None:
        return await self._timed("kv_get", self._store.kv_get(namespace, key))

    async def kv_set(
        self,
        namespace: str,
        key: str,
        value: str,
        *,
        session_id: str | None = None,
        expires_at: float | None = None,
    ) -> None:
        await self._timed(
            "kv_set",
            self._store.kv_set(namespace, key, value, session_id=session_id, expires_at=expires_at),
        )

    async def kv_delete(self, namespace: str, key: str) -> None:
        await self._timed("kv_delete", self._store.kv_delete(namespace, key))

    async def acquire_lease(self, name: str, holder: str, ttl: float) -> bool:
        return await self._timed("acquire_lease", self._store.acquire_lease(name, holder, ttl))

    async def release_lease(self, name: str, holder: str) -> bool:
        return await self._timed("release_lease", self._store.release_lease(name, holder))

    async def lease_holder(self, name: str) -> LeaseHolder | None:
        return await self._timed("lease_holder", self._store.lease_holder(name))

    async def check(self) -> None:
        """Whether the store answers and can write now (health).

        Raises:
            StoreUnavailable: it cannot.
            StoreBusy: the database stayed locked.
        """
        await self._timed("check", self._store.check())

    async def count_sessions(self) -> int:
        return await self._timed("count_sessions", self._store.count_sessions())

    async def live_counts(self, platform: str, chat_id: str, user_id: str) -> LiveCounts:
        return await self._timed("live_counts", self._store.live_counts(platform, chat_id, user_id))

    async def totals(self, since: float) -> list[PlatformTotals]:
        return await self._timed("totals", self._store.totals(since))

    async def live_games(self) -> dict[str, int]:
        """Live games per platform (the ``chatbots_live_games`` gauge)."""
        return {row.platform: row.live for row in await self.totals(time.time())}

    async def settings_rows(self, platform: str, scopes: Sequence[str]) -> list[SettingRow]:
        return await self._timed("settings_rows", self._store.settings_rows(platform, scopes))

    async def setting_put(self, row: SettingRow) -> None:
        await self._timed("setting_put", self._store.setting_put(row))

    async def setting_delete(self, platform: str, scope: str, key: str) -> bool:
        return await self._timed("setting_delete", self._store.setting_delete(platform, scope, key))

    async def close(self) -> None:
        await self._store.close()


_OPERATIONS = (
    "create",
    "get",
    "live_game",
    "challenge_for",
    "last_finished",
    "update",
    "delete",
    "swap",
    "delete_expired",
    "player_stats",
    "top",
    "kv_get",
    "kv_set",
    "kv_delete",
    "acquire_lease",
    "release_lease",
    "lease_holder",
    "count_sessions",
    "live_counts",
    "totals",
    "settings_rows",
    "setting_put",
    "setting_delete",
    "check",
)

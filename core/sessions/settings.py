"""How the service behaves: :class:`ServiceSettings`, validated on construction."""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from core.admin.keys import Effective, check_defaults
from core.leases import DEFAULT_TTL
from core.ports import SHUTDOWN

MAX_DEFAULT_WORKERS = 64
"""The most AI workers the default (one per core) gives; the same bound as ``AI_WORKERS``."""


@dataclass(frozen=True, slots=True)
class ServiceSettings:
    """How the service behaves; validated on construction (a clear ``ValueError``).

    Attributes:
        ai_budget: seconds the bot may think on a HARD move.
        ai_workers: processes for HARD (None: one per core); 0 runs HARD in a thread instead
            (tests, tiny machines).
        sweep_interval: seconds between two sweeps of expired games.
        clock_interval: seconds between two sweeps of due move clocks (how late, at most, a
            timeout or a reminder is seen, plus the sweep's own time).
        limits: apply the rate limit, the boards per minute and the cooldowns (the settings
            that allow or refuse games always apply); off for benchmarks that measure without.
        bot_vs_bot_budget: seconds per HARD move in a bots' game (people are watching).
        watch_move_interval: seconds at least between two moves of a bots' game, so people can
            follow it.
        watch_max_seconds: a bots' game still running after this long is stopped.
        ai_warm_up: run ``core.ai.warm_up`` in every worker at start (JIT compilation).
        ai_grace: extra seconds a HARD move may take over its budget before the service gives up
            on it and plays a MEDIUM move instead.
        chat_defaults: the defaults of the chat settings (``core.admin.keys.Effective``), by
            name, where they differ from the built-in ones: the ``.env``'s
            (``GAME_TTL_SECONDS``, ``DEFAULT_PVP``...), or a test's. Each is checked by its
            setting's own parser.
        top_size: players listed by ``/top``.
        drain_timeout: seconds :meth:`GameService.close` waits for requests in flight.
        lease_ttl: seconds a lease of work that runs in one process at a time (the sweeper)
            lasts without renewal: another process takes the work over that long after the
            holder died.
        outage_grace: seconds a player has at least to move once the store is back after an
            outage that stopped his clock (:mod:`core.sessions.outages`).
        fate_wait: seconds a move whose write's fate is unknown (the connection dropped as it
            committed) waits for the store to answer again before the player is told that it
            is not known yet (:mod:`core.sessions.play.fate`).
        public_url: the address people reach the web pages at (``PUBLIC_URL``); None: no
            reply links to them (:mod:`core.sessions.players.weblinks`).
    """

    ai_budget: float = 1.0
    ai_workers: int | None = None
    sweep_interval: float = 60.0
    clock_interval: float = 1.0
    limits: bool = True
    bot_vs_bot_budget: float = 0.2
    watch_move_interval: float = 1.0
    watch_max_seconds: float = 300.0
    ai_warm_up: bool = True
    ai_grace: float = 5.0
    top_size: int = 10
    chat_defaults: Mapping[str, Any] = field(default_factory=dict)
    drain_timeout: float = SHUTDOWN.drain
    lease_ttl: float = DEFAULT_TTL
    outage_grace: float = 30.0
    fate_wait: float = 5.0
    public_url: str | None = None

    def __post_init__(self) -> None:
        for name in (
            "ai_budget",
            "sweep_interval",
            "clock_interval",
            "bot_vs_bot_budget",
            "watch_max_seconds",
            "drain_timeout",
            "lease_ttl",
            "outage_grace",
            "fate_wait",
        ):
            value = getattr(self, name)
            if not _is_number(value) or value <= 0:
                raise ValueError(f"{name} must be a positive number of seconds, got {value!r}")
        for name in ("ai_grace", "watch_move_interval"):
            value = getattr(self, name)
            if not _is_number(value) or value < 0:
                raise ValueError(f"{name} must be >= 0 seconds, got {value!r}")
        if self.ai_workers is not None and (
            not isinstance(self.ai_workers, int) or self.ai_workers < 0
        ):
            raise ValueError(f"ai_workers must be a whole number >= 0, got {self.ai_workers!r}")
        if not isinstance(self.top_size, int) or self.top_size < 1:
            raise ValueError(f"top_size must be a whole number >= 1, got {self.top_size!r}")
        check_defaults(self.chat_defaults)

    @property
    def game_ttl(self) -> float:
        """Seconds a game lives after its last move where no chat setting says (a finished one
        stays that long for a rematch and a review)."""
        return Effective.game_ttl.default_in(self.chat_defaults)

    @property
    def challenge_ttl(self) -> float:
        """Seconds a challenge waits for an answer where no chat setting says."""
        return Effective.challenge_ttl.default_in(self.chat_defaults)

    @property
    def default_locale(self) -> str:
        """For texts the service renders itself when the player's locale is unknown
        (``/help``): the default of the chat setting ``language``."""
        return Effective.language.default_in(self.chat_defaults)

    @property
    def workers(self) -> int:
        """The size of the process pool (0: none): by default one per core, at most
        :data:`MAX_DEFAULT_WORKERS` (each worker holds a few hundred MiB)."""
        if self.ai_workers is None:
            return min(os.cpu_count() or 1, MAX_DEFAULT_WORKERS)
        return self.ai_workers


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)

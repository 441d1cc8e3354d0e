"""How the service behaves: :class:`ServiceSettings`, validated on construction."""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from typing import Any, TypeVar, cast

from core.admin.keys import (
    BOARDS_BOUNDS,
    BURST_BOUNDS,
    DEFAULT_BOARDS_PER_MINUTE,
    DEFAULT_RATE_BURST,
    DEFAULT_RATE_PER_MINUTE,
    RATE_BOUNDS,
)
from core.ai.levels import Level
from core.leases import DEFAULT_TTL
from core.ports import SHUTDOWN

T = TypeVar("T")

MAX_DEFAULT_WORKERS = 64
"""The most AI workers the default (one per core) gives; the same bound as ``AI_WORKERS``."""


@dataclass(frozen=True, slots=True)
class ServiceSettings:
    """How the service behaves; validated on construction (a clear ``ValueError``).

    Attributes:
        ai_budget: seconds the bot may think on a HARD move.
        ai_workers: processes for HARD (None: one per core); 0 runs HARD in a thread instead
            (tests, tiny machines).
        game_ttl: seconds a game lives after its last move (a finished one stays that long for
            a rematch and a review).
        challenge_ttl: seconds a challenge waits for an answer.
        sweep_interval: seconds between two sweeps of expired games.
        default_locale: for texts the service renders itself when the player's locale is
            unknown (``/help``); the default of the chat setting ``language``.
        default_level: the bot's level when a start command names none; the default of the
            chat setting ``level``.
        limits: apply the rate limit, the boards per minute and the cooldowns (the settings
            that allow or refuse games always apply); off for benchmarks that measure without.
        rate_burst, rate_per_minute: a person's token bucket (commands and moves), the
            defaults of the chat settings of the same names.
        boards_per_minute: new boards a chat may get in a minute, the default of the chat
            setting of the same name.
        bot_vs_bot_budget: seconds per HARD move in a bots' game (people are watching).
        watch_move_interval: seconds at least between two moves of a bots' game, so people can
            follow it.
        watch_max_seconds: a bots' game still running after this long is stopped.
        ai_warm_up: run ``core.ai.warm_up`` in every worker at start (JIT compilation).
        ai_grace: extra seconds a HARD move may take over its budget before the service gives up
            on it and plays a MEDIUM move instead.
        chat_defaults: the defaults of other chat settings (``core.admin.keys``), by name, as
            the ``.env`` gives them (``DEFAULT_GAMES``, ``DEFAULT_PVP``...); a setting named
            nowhere has its built-in default.
        top_size: players listed by ``/top``.
        drain_timeout: seconds :meth:`GameService.close` waits for requests in flight.
        lease_ttl: seconds a lease of work that runs in one process at a time (the sweeper)
            lasts without renewal: another process takes the work over that long after the
            holder died.
    """

    ai_budget: float = 1.0
    ai_workers: int | None = None
    game_ttl: float = 86400.0
    challenge_ttl: float = 120.0
    sweep_interval: float = 60.0
    default_locale: str = "en"
    default_level: Level = Level.MEDIUM
    limits: bool = True
    rate_burst: int = DEFAULT_RATE_BURST
    rate_per_minute: int = DEFAULT_RATE_PER_MINUTE
    boards_per_minute: int = DEFAULT_BOARDS_PER_MINUTE
    bot_vs_bot_budget: float = 0.2
    watch_move_interval: float = 1.0
    watch_max_seconds: float = 300.0
    ai_warm_up: bool = True
    ai_grace: float = 5.0
    top_size: int = 10
    chat_defaults: tuple[tuple[str, Any], ...] = ()
    drain_timeout: float = SHUTDOWN.drain
    lease_ttl: float = DEFAULT_TTL

    def chat_default(self, name: str, fallback: T) -> T:
        """The default of the chat setting ``name``: the ``.env``'s, else ``fallback``."""
        for key, value in self.chat_defaults:
            if key == name:
                return cast(T, value)
        return fallback

    def __post_init__(self) -> None:
        for name in (
            "ai_budget",
            "game_ttl",
            "challenge_ttl",
            "sweep_interval",
            "bot_vs_bot_budget",
            "watch_max_seconds",
            "drain_timeout",
            "lease_ttl",
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
        for name, (low, high) in (
            ("rate_burst", BURST_BOUNDS),
            ("rate_per_minute", RATE_BOUNDS),
            ("boards_per_minute", BOARDS_BOUNDS),
        ):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
                raise ValueError(f"{name} must be a whole number {low} to {high}, got {value!r}")

    @property
    def workers(self) -> int:
        """The size of the process pool (0: none): by default one per core, at most
        :data:`MAX_DEFAULT_WORKERS` (each worker holds a few hundred MiB)."""
        if self.ai_workers is None:
            return min(os.cpu_count() or 1, MAX_DEFAULT_WORKERS)
        return self.ai_workers


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)

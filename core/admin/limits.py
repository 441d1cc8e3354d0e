"""Limits that hold against abuse: a token bucket per user, a window of new boards per chat, and
a cooldown between new games per user.

**The rate limit** (discord.py's ``CooldownMapping`` semantics, platform-neutral): each user of
a platform has a bucket of ``burst`` tokens that refills at ``per_minute`` tokens a minute; a
command, a click or a typed move takes one. The request that finds it empty is answered once
("slow down, try again in N s", N the time until the bucket is full again); from then on the
user gets no answer at all until then, so a spammer cannot make the bot spam. A legal move on
your turn in a running game never reaches the limiter (the service lets it through first).

**Across a restart** the state that matters is kept in the store, as kv rows with an expiry
(swept with the rest): a user who was silenced (``rate:<platform>:<user>``), a chat whose
boards per minute ran out (``boards:<platform>:<chat>``) and a user's cooldown
(``cooldown:<platform>:<user>``), each holding the time it ends. A process reads a user's or a
chat's row the first time it sees them, so a restart (or a second process on the same
PostgreSQL) keeps a block in force. What is not kept is a partly used bucket or window: after a
restart a user who was not blocked starts with a full bucket, at worst ``burst`` more requests
than without the restart, which is what a new user gets anyway.
"""

from __future__ import annotations

import collections
import math
from collections.abc import Callable
from dataclasses import dataclass

from core.errors import UserError
from core.store.base import KeyValueStore

NAMESPACE = "limits"
WINDOW = 60.0  # seconds: boards are counted per minute
_MAX_TRACKED = 100_000  # users or chats kept in memory; the oldest go first beyond it


class Limited(UserError):
    """A request refused by a limit; counted in ``chatbots_rate_limited_total``."""


def whole_seconds(seconds: float) -> int:
    """A wait as people read it: whole seconds, at least 1."""
    return max(1, math.ceil(seconds))


@dataclass(slots=True)
class _Bucket:
    tokens: float
    updated: float
    silent_until: float = 0.0  # after the notice: say nothing until then


class RateLimiter:
    """Token buckets per ``(platform, user)``; see the module docstring.

    Args:
        store: where blocks are kept across restarts.
        clock: seconds since the epoch (the service's clock: blocks are stored as times).
    """

    def __init__(self, store: KeyValueStore, clock: Callable[[], float]) -> None:
        self._store = store
        self._clock = clock
        self._buckets: collections.OrderedDict[tuple[str, str], _Bucket] = collections.OrderedDict()

    async def take(self, platform: str, user_id: str, burst: int, per_minute: int) -> float | None:
        """Take a token for one request.

        Returns:
            None: go ahead. ``0.0``: the user was told already; answer nothing. A positive
            number: the seconds to tell the user to wait (this is the one notice).
        """
        now = self._clock()
        key = (platform, user_id)
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = _Bucket(float(burst), now)
            stored = await self._store.kv_get(NAMESPACE, f"rate:{platform}:{user_id}")
            if stored is not None and _time(stored) > now:
                bucket = _Bucket(0.0, _time(stored), silent_until=_time(stored))
            self._remember(key, bucket)
        else:
            self._buckets.move_to_end(key)
        if now < bucket.silent_until:
            return 0.0
        rate = per_minute / 60.0
        bucket.tokens = min(float(burst), bucket.tokens + (now - bucket.updated) * rate)
        bucket.updated = now
        if bucket.tokens >= 1.0:
            bucket.tokens -= 1.0
            return None
        # Empty: one notice, then silence until the bucket is full again.
        wait = (burst - bucket.tokens) / rate
        bucket.silent_until = now + wait
        bucket.tokens, bucket.updated = float(burst), now + wait
        await self._store.kv_set(
            NAMESPACE,
            f"rate:{platform}:{user_id}",
            repr(bucket.silent_until),
            expires_at=bucket.silent_until,
        )
        return wait

    def _remember(self, key: tuple[str, str], bucket: _Bucket) -> None:
        self._buckets[key] = bucket
        if len(self._buckets) > _MAX_TRACKED:
            self._buckets.popitem(last=False)


class BoardWindow:
    """New boards per chat in the last minute; see the module docstring."""

    def __init__(self, store: KeyValueStore, clock: Callable[[], float]) -> None:
        self._store = store
        self._clock = clock
        self._posted: collections.OrderedDict[tuple[str, str], collections.deque[float]] = (
            collections.OrderedDict()
        )
        self._blocked: dict[tuple[str, str], float] = {}

    async def check(self, platform: str, chat_id: str, per_minute: int) -> None:
        """Refuse a new board in the chat if ``per_minute`` were posted in the last minute.

        Raises:
            Limited: ``limits.boards``, with the seconds until one more may be posted.
        """
        now = self._clock()
        key = (platform, chat_id)
        if key not in self._posted:
            self._posted[key] = collections.deque()
            stored = await self._store.kv_get(NAMESPACE, f"boards:{platform}:{chat_id}")
            if stored is not None:
                self._blocked[key] = _time(stored)
            if len(self._posted) > _MAX_TRACKED:
                old, _ = self._posted.popitem(last=False)
                self._blocked.pop(old, None)
        blocked = self._blocked.get(key, 0.0)
        if now < blocked:
            raise Limited("limits.boards", seconds=whole_seconds(blocked - now))
        posted = self._posted[key]
        while posted and posted[0] <= now - WINDOW:
            posted.popleft()
        if len(posted) >= per_minute:
            until = posted[len(posted) - per_minute] + WINDOW
            self._blocked[key] = until
            await self._store.kv_set(
                NAMESPACE, f"boards:{platform}:{chat_id}", repr(until), expires_at=until
            )
            raise Limited("limits.boards", seconds=whole_seconds(until - now))

    def posted(self, platform: str, chat_id: str) -> None:
        """Count a board just posted in the chat."""
        self._posted.setdefault((platform, chat_id), collections.deque()).append(self._clock())


class Cooldowns:
    """The wait between two new games of one user, kept in the store (see the module
    docstring)."""

    def __init__(self, store: KeyValueStore, clock: Callable[[], float]) -> None:
        self._store = store
        self._clock = clock

    async def check(self, platform: str, user_id: str) -> None:
        """Raises :class:`Limited` (``limits.cooldown``) while the user's cooldown runs."""
        stored = await self._store.kv_get(NAMESPACE, f"cooldown:{platform}:{user_id}")
        now = self._clock()
        if stored is not None and _time(stored) > now:
            raise Limited("limits.cooldown", seconds=whole_seconds(_time(stored) - now))

    async def started(self, platform: str, user_id: str, seconds: float) -> None:
        """The user started a game: no other for ``seconds``."""
        if seconds <= 0:
            return
        until = self._clock() + seconds
        await self._store.kv_set(
            NAMESPACE, f"cooldown:{platform}:{user_id}", repr(until), expires_at=until
        )


def _time(text: str) -> float:
    # Written by this module; a damaged row is no block rather than an error on every request.
    try:
        value = float(text)
    except ValueError:
        return 0.0
    return value if math.isfinite(value) else 0.0

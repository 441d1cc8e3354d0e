"""Live games as they change, for every spectator of this process: one poll of the store for
all the games watched here, however many spectators each has.

Every :data:`POLL` seconds, while anyone watches, :class:`LiveFeed` reads the version of every
watched game in one indexed query (:func:`core.pages.live_ops.live_versions`); a game whose
version moved is read whole once, and every spectator of it wakes on the same value. A move
made by any process, on any platform, is stored before it is shown, so the store is the one
place to watch: a spectator sees it within a poll and a read (the ``web_live`` benchmark)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

from core.pages.flight import SingleFlight
from core.pages.live import LiveGame, LiveReads

log = logging.getLogger("chatbots.web")

POLL = 0.25
"""Seconds between two polls of the watched games' versions."""


@dataclass(slots=True)
class _Watched:
    """One game watched in this process: its latest value (None once it is gone), its
    spectators, and the future they wait on for the next value."""

    game: LiveGame | None
    spectators: int = 0
    changed: asyncio.Future[None] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )

    def publish(self, game: LiveGame | None) -> None:
        self.game = game
        changed, self.changed = self.changed, asyncio.get_running_loop().create_future()
        changed.set_result(None)


class LiveFeed:
    """The watched games of this process and their one poll.

    Args:
        reads: the store's reads.
        poll: seconds between two polls.
    """

    def __init__(self, reads: LiveReads, poll: float = POLL) -> None:
        self._reads = reads
        self._poll = poll
        self._watched: dict[str, _Watched] = {}
        self._loading: SingleFlight[str, LiveGame | None] = SingleFlight()
        self._poller: asyncio.Task[None] | None = None
        self._closed = False
        self._failing = False

    @property
    def watched(self) -> int:
        """Games watched now."""
        return len(self._watched)

    async def watch(self, public_id: str) -> AsyncIterator[LiveGame | None]:
        """The game ``public_id`` now, then each new version of it, until it is finished
        (its last value is the finished game) or gone (None, the last value), or the feed
        closes. A game unknown from the start gives None alone."""
        watched = await self._join(public_id)
        try:
            while not self._closed:
                game = watched.game
                yield game
                if game is None or game.finished:
                    return
                while watched.game is game and not self._closed:
                    await asyncio.shield(watched.changed)
        finally:
            self._leave(public_id, watched)

    async def _join(self, public_id: str) -> _Watched:
        watched = self._watched.get(public_id)
        if watched is None:
            # Spectators arriving together share one read of the game.
            game = await self._loading.run(public_id, lambda: self._reads.game(public_id))
            watched = self._watched.get(public_id)
            if watched is None:
                watched = self._watched[public_id] = _Watched(game)
        watched.spectators += 1
        if self._poller is None and not self._closed:
            self._poller = asyncio.create_task(self._polling(), name="live-feed")
        return watched

    def _leave(self, public_id: str, watched: _Watched) -> None:
        watched.spectators -= 1
        if watched.spectators <= 0 and self._watched.get(public_id) is watched:
            del self._watched[public_id]

    async def _polling(self) -> None:
        try:
            while self._watched and not self._closed:
                await asyncio.sleep(self._poll)
                await self._poll_once()
        finally:
            self._poller = None

    async def _poll_once(self) -> None:
        """Read every watched game's version; read again those that moved or went."""
        current = {
            public_id: w
            for public_id, w in self._watched.items()
            if w.game is not None and not w.game.finished
        }
        try:
            versions = await self._reads.versions(tuple(current))
            for public_id, watched in current.items():
                game = watched.game
                if game is not None and versions.get(public_id) == game.version:
                    continue
                watched.publish(await self._reads.game(public_id))
        except Exception:
            # The store is down or refused: say so once, and keep polling.
            if not self._failing:
                log.warning("web: the live pages cannot read the store", exc_info=True)
            self._failing = True
            return
        if self._failing:
            log.info("web: the live pages read the store again")
        self._failing = False

    async def close(self) -> None:
        """End every spectator's watch and the poll (the pages' shutdown)."""
        self._closed = True
        for watched in list(self._watched.values()):
            watched.publish(watched.game)
        poller, self._poller = self._poller, None
        if poller is not None:
            poller.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await poller

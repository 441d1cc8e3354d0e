"""The game pages' reads of the store: a finished game from the archive, who of its players hid
themselves, and the solver's review of its moves, computed once and kept with the game.

The review comes, first found first taken, from the archive (kept by an earlier visit), else
from the AI's workers (``analyse``: off the event loop, seeded with the review the chats kept
for ``/review`` while the session lives, then kept in the archive), else, when the workers are
busy, from that ``/review`` alone (its values without "only move"; a later visit completes it).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from core.ai.review import GameReview, MoveReview
from core.games import Rules
from core.pages import ops
from core.pages.flight import SingleFlight
from core.pages.game import (
    GamePage,
    Verdict,
    decode_review,
    encode_review,
    game_page,
    has_verdicts,
)
from core.pages.kept import Kept
from core.pages.paths import player_path
from core.pages.threats import threat_verdicts
from core.sessions.reviews.review import KEEP_NAMESPACE, decode
from core.store import Status, archive, kv, sessions
from core.store.models.archive import ArchivedGame as ArchivedGame  # the pages show it

if TYPE_CHECKING:
    from core.store.runner import SqlStore

__all__ = ["RECENT", "Analyse", "ArchivedGame", "GamePages", "Live"]

log = logging.getLogger("chatbots.web")

Analyse = Callable[[Rules, tuple[int, ...], tuple[MoveReview, ...]], Awaitable[GameReview | None]]
"""The solver's review of a game with every position's optimal moves, in the AI's workers:
rules, moves, what is known already; None when it cannot be had now (the workers are busy)."""


RECENT = 256
"""Reviews this process computed lately, kept in memory for visitors who read the game before
its review was stored."""


@dataclass(frozen=True, slots=True)
class Live:
    """The game is still being played: its page is the live one."""

    public_id: str


class GamePages:
    """Finished games' pages from the store.

    Args:
        store: the store (both kinds).
        analyse: the solver's reviews in the AI's workers; None: only what is kept is shown.
    """

    def __init__(self, store: SqlStore, analyse: Analyse | None = None) -> None:
        self._store = store
        self._analyse = analyse
        # One review in flight per game in this process: visitors arriving meanwhile wait
        # for it rather than start another.
        self._reviewing: SingleFlight[str, tuple[MoveReview, ...] | None] = SingleFlight()
        self._recent: Kept[str, tuple[MoveReview, ...]] = Kept(RECENT)
        self._threats: Kept[str, tuple[Verdict, ...]] = Kept(RECENT)

    async def archived(self, public_id: str) -> ArchivedGame | Live | None:
        """The finished game ``public_id``; :class:`Live` while it is played; else None (no
        such game, a challenge, a game that ended before the archive existed)."""
        found = await self._store.run(archive.archived(public_id))
        if found is not None:
            return found
        session = await self._store.run(sessions.by_public_id(public_id))
        if session is not None and session.status is Status.ACTIVE:
            return Live(public_id)
        return None

    async def page(self, game: ArchivedGame, ply: int | None, *, reviewed: bool = True) -> GamePage:
        """The page of ``game`` at ``ply`` (None: its end); without the solver's verdicts
        unless ``reviewed`` (its picture needs none)."""
        identities = tuple(s.identity for s in game.seats if s.identity is not None)
        hidden = await self._store.run(ops.page_hidden(identities))
        paths = {identity: player_path(identity) for identity in identities}
        review = await self.review(game) if reviewed else None
        proven = await self.threats(game) if reviewed else None
        return game_page(game, hidden, review, ply, paths, proven)

    async def threats(self, game: ArchivedGame) -> tuple[Verdict, ...] | None:
        """What threats prove on a board without the solver's verdicts (None on the others),
        found in a thread once and kept in memory (the last :data:`RECENT` games)."""
        if has_verdicts(game.rules):
            return None
        found = self._threats.get(game.public_id)
        if found is None:
            found = await asyncio.to_thread(threat_verdicts, game.rules, game.moves)
            self._threats.keep(game.public_id, found)
        return found

    async def review(self, game: ArchivedGame) -> Sequence[MoveReview] | None:
        """The solver's review of ``game``'s moves (see the module), or None."""
        if not has_verdicts(game.rules):
            return None
        if game.analysis is not None:
            kept = decode_review(game.analysis, game.moves)
            if kept is not None:
                return kept
        # Looked up before any await: a visitor who read the game before the review was kept
        # finds it here, or waits for the one in flight.
        recent = self._recent.get(game.public_id)
        if recent is not None:
            return recent
        return await self._reviewing.run(game.public_id, lambda: self._reviewed(game))

    async def _reviewed(self, game: ArchivedGame) -> tuple[MoveReview, ...] | None:
        value = await self._store.run(kv.kv_get(KEEP_NAMESPACE, game.session_id))
        chats = () if value is None else decode(value, game.moves)
        whole = chats if len(chats) == len(game.moves) else None
        if self._analyse is None:
            return whole
        try:
            found = await self._analyse(game.rules, game.moves, chats)
            if found is None:
                return whole
            await self._store.run(archive.keep_analysis(game.public_id, encode_review(found.moves)))
        except Exception:
            # The page shows what it has; a later visit tries again.
            log.warning("review of game %s not kept", game.public_id, exc_info=True)
            return whole
        return self._recent.keep(game.public_id, found.moves)

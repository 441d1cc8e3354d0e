"""The pages' reads of the store, all here but the live games' (:mod:`core.pages.live`).

Each page is one operation of the store, or one per part: the home page a ladder per game and
the live games, a ladder page one ladder (the store's ``ladder``, the one ``/top all`` reads, and
who of it hid themselves), a player page :func:`core.pages.ops.page_player`, the store's
``rating_changes`` (the rated games, which the chart and the list share) and the newest games'
public ids."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, TypeVar

from core.commands import CommandError, GameKind
from core.commands.ratings import build_top
from core.games import kinds
from core.pages import ops
from core.pages.chart import chart
from core.pages.event import listed_events
from core.pages.live import LiveReads
from core.pages.names import ANONYMOUS, shown_name
from core.pages.paths import GAMES, game_path, player_path
from core.pages.views import (
    HomePage,
    LadderEntry,
    LadderPage,
    PlayerPage,
    PlayerPool,
    RecentGame,
)
from core.pages.words import Title
from core.store import archive
from core.store import ratings as store_ratings
from core.store.models.ratings import LadderRow, RatingChangeRow
from core.store.ratings import place_of_chat, place_of_server
from core.store.sql import Op

if TYPE_CHECKING:
    from core.store.runner import SqlStore

T = TypeVar("T")

LADDER_SIZE = 50
"""Players a ladder page lists; its first ten are the ones ``/top all`` lists."""
HOME_SIZE = 10
"""Players of each ladder the home page lists."""
HISTORY = 200
"""Rated games a player page reads: the chart's points and, the newest, the list."""
RECENT = 10
"""Rated games a player page lists."""


def pool_title(pool: str) -> Title:
    """A pool's name for people, as ``/stats`` names it, starting with a capital:
    ``Tic-tac-toe``, ``Connect Four 6x7``, ``4 in a row on 4x5``."""
    key, params = kinds.pool_title(pool)
    return Title(key, params)


def _game(word: str) -> GameKind | None:
    """The game ``word`` names, as ``/top`` takes it; None for a word it does not take."""
    try:
        return build_top("/top", ["all", word]).game
    except CommandError:
        return None


class Pages:
    """The pages' data from the store.

    Args:
        store: the store (both kinds).
        clock: seconds since the epoch (who a ladder lists depends on the time).
    """

    def __init__(self, store: SqlStore, clock: Callable[[], float] = time.time) -> None:
        self._store = store
        self._clock = clock
        self.live = LiveReads(store)
        """The live pages' reads."""

    @property
    def store(self) -> SqlStore:
        """The store the pages read (the game pages' reads share it)."""
        return self._store

    async def home(self) -> HomePage:
        """The top of every game's ladder, and the live games and events that may be
        listed."""
        # Side by side: on PostgreSQL each on a connection of its own, the page waits for the
        # slowest rather than for the sum.
        ladders, live, listed = await asyncio.gather(
            asyncio.gather(*(self._ladder(kind, HOME_SIZE) for kind in GAMES)),
            self.live.listed(),
            listed_events(self._store, self._clock()),
        )
        return HomePage(tuple(ladders), live, listed)

    async def ladder(self, word: str) -> LadderPage | None:
        """A game's global ladder, the game named as ``/top`` takes it (``tres``,
        ``tictactoe``, ``quatre``, ``connect4``, any case); None for any other word."""
        kind = _game(word)
        return None if kind is None else await self._ladder(kind, LADDER_SIZE)

    async def local_ladder(self, word: str, platform: str, place: str) -> LadderPage | None:
        """The ladder of a Discord server (``place`` its id) or of another platform's chat (a
        Matrix room), as ``/top server`` shows it there; None unless its admins turned
        ``public_ladder`` on (for a Discord server: for the whole server), or for a game
        ``/top`` does not take."""
        kind = _game(word)
        if kind is None or not place:
            return None
        if not await self._store.run(ops.ladder_public(platform, place)):
            return None
        server = platform == "discord"
        where = place_of_server(platform, place) if server else place_of_chat(platform, place)
        return await self._ladder(kind, LADDER_SIZE, where, "server" if server else "room")

    async def _ladder(
        self, kind: GameKind, size: int, place: str | None = None, where: str | None = None
    ) -> LadderPage:
        pool, title = GAMES[kind]
        found, hidden = await self._store.run(_ladder_rows(place, pool, self._clock(), size))
        entries = tuple(
            LadderEntry(rank, ANONYMOUS, "", row.rating.display(), None)
            if row.identity in hidden
            else LadderEntry(
                rank,
                shown_name(row.name),
                row.platform,
                row.rating.display(),
                player_path(row.identity),
            )
            for rank, row in enumerate(found, start=1)
        )
        return LadderPage(kind.word, title, entries, where)

    async def player(self, identity: str) -> PlayerPage | None:
        """A player's page, or None when ``identity`` has no rated game."""
        read = await self._store.run(_player_rows(identity))
        if read is None:
            return None
        found, changes, pages = read
        pools = []
        for row in found.pools:
            held = [c for c in reversed(changes) if c.pool == row.pool]
            ratings = [held[0].before, *(c.after for c in held)] if held else []
            pools.append(
                PlayerPool(
                    pool_title(row.pool),
                    row.rating.display(),
                    row.rating.games,
                    row.won,
                    row.lost,
                    row.drawn,
                    chart(ratings),
                )
            )
        linked = {(pool, at): public_id for pool, at, public_id in pages if public_id}
        recent = tuple(
            RecentGame(
                datetime.fromtimestamp(c.at, UTC).strftime("%Y-%m-%d"),
                pool_title(c.pool),
                "drew" if c.won is None else "won" if c.won else "lost",
                round(c.before),
                round(c.after),
                game_path(linked[c.pool, c.at]) if (c.pool, c.at) in linked else None,
            )
            for c in changes[:RECENT]
        )
        return PlayerPage(shown_name(found.name), found.platform, tuple(pools), recent)


# A page's reads as one operation: one connection of PostgreSQL's pool (one hop of SQLite's
# thread) rather than one each, whose waits made most of a page's time on a busy machine.


def _ladder_rows(
    place: str | None, pool: str, now: float, size: int
) -> Op[tuple[list[LadderRow], frozenset[str]]]:
    """A ladder's rows and who of them hid themselves."""
    found = yield from store_ratings.ladder(place, pool, now, size)
    hidden = yield from ops.page_hidden(tuple(r.identity for r in found))
    return found, hidden


def _player_rows(
    identity: str,
) -> Op[tuple[ops.PlayerRow, list[RatingChangeRow], list[tuple[str, float, str | None]]] | None]:
    """A player page's rows: the player, their last rated games, and the newest games' public
    ids; None as :func:`core.pages.ops.page_player`."""
    found = yield from ops.page_player(identity)
    if found is None:
        return None
    changes = yield from store_ratings.rating_changes(identity, HISTORY)
    pages = yield from archive.recent_pages(identity, RECENT)
    return found, changes, pages

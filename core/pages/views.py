"""What each page shows, as plain values: names already made safe to show
(:func:`core.pages.names.shown_name`), never a chat's, room's or server's id or name."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from core.i18n import Text
from core.pages.chart import Chart
from core.pages.live import LiveEntry

if TYPE_CHECKING:
    from core.pages.event import EventEntry


@dataclass(frozen=True, slots=True)
class LadderEntry:
    """One player of a ladder: place, name and platform as shown, rating as ``/top`` shows it
    ("1623 ±120"), and the path of the player's page (None for a player who hid themselves,
    shown as "anonymous" with no platform)."""

    rank: int
    name: str
    platform: str
    rating: str
    path: str | None


@dataclass(frozen=True, slots=True)
class LadderPage:
    """A game's ladder: the game's word as ``/top`` takes it (``tres``), its title, its
    players best first, and whose it is: everyone's (``where`` None), or a ``server``'s or a
    ``room``'s whose admins turned ``public_ladder`` on (never named)."""

    game: str
    title: Text
    entries: tuple[LadderEntry, ...]
    where: str | None = None


@dataclass(frozen=True, slots=True)
class HomePage:
    """The top of each game's ladder, and the games being played that may be listed (the
    latest moved first; see :meth:`core.pages.live.LiveReads.listed`)."""

    ladders: tuple[LadderPage, ...]
    live: tuple[LiveEntry, ...] = ()
    events: tuple[EventEntry, ...] = ()
    """Tournaments made where play is public (:func:`core.pages.event.listed_events`)."""


@dataclass(frozen=True, slots=True)
class PlayerPool:
    """A player's rating in one game: as shown, its rated games, their record, and the chart of
    the rating over the latest of them (None with fewer than two)."""

    title: Text
    rating: str
    games: int
    won: int
    lost: int
    drawn: int
    chart: Chart | None


@dataclass(frozen=True, slots=True)
class RecentGame:
    """One rated game of a player, newest first: when (``YYYY-MM-DD``, UTC), the game's title,
    ``won``, ``lost`` or ``drew``, the rating before and after (rounded), and the address of
    the game's page where it may be linked (None: a game from a direct chat or a room)."""

    date: str
    title: Text
    result: str
    before: int
    after: int
    path: str | None = None

    @property
    def change(self) -> str:
        """The change with its sign: ``+12``, ``-8``, ``0``."""
        delta = self.after - self.before
        return f"+{delta}" if delta > 0 else str(delta)


@dataclass(frozen=True, slots=True)
class PlayerPage:
    """A player: name and platform as shown, a rating per game (most played first), and their
    latest rated games."""

    name: str
    platform: str
    pools: tuple[PlayerPool, ...]
    recent: tuple[RecentGame, ...]

"""The store operations only the pages need, written once for both databases as
:mod:`core.store.sql` operations (PostgreSQL's spelling); :mod:`core.pages.reads` runs them.

A player's record (won, lost, drawn) is kept with their rating in each pool, counted by the
write that rates a game (the step ``page records``): a player page reads one row per pool,
whatever the number of games."""

from __future__ import annotations

from dataclasses import dataclass

from core.admin.keys import Effective
from core.admin.scopes import CHAT, SERVER
from core.ratings import Rating
from core.store import settings
from core.store.sql import Op, placeholders, rows

HIDDEN = "pages-hidden"
"""The kv namespace of the identities that ``/hide`` took off the pages (key: the identity)."""


def ladder_public(platform: str, place: str) -> Op[bool]:
    """Whether the admins of a Discord server (``place`` its id; set for the whole server) or
    of another platform's chat (a Matrix room) turned ``public_ladder`` on: its ladder then
    has a page, which the chat's ``/top`` links."""
    scope = (SERVER if platform == "discord" else CHAT) + place
    found = yield from settings.settings_rows(platform, (scope,))
    key = Effective.public_ladder
    return any(r.key == key.name and key.parse(r.value) for r in found)


@dataclass(frozen=True, slots=True)
class PoolRow:
    """A player's rating in one pool, and their record there."""

    pool: str
    rating: Rating
    won: int
    lost: int
    drawn: int


@dataclass(frozen=True, slots=True)
class PlayerRow:
    """A player with a rated game: the name and platform they last played under, and their
    pools, most played first."""

    name: str
    platform: str
    pools: tuple[PoolRow, ...]


def page_player(identity: str) -> Op[PlayerRow | None]:
    """The player ``identity`` (``platform:user`` or a linked identity), or None when no rated
    game of theirs is stored, or they hid themselves (``/hide``)."""
    # The /hide check in the same query: one round trip less on every player page.
    found = yield rows(
        "SELECT pool, rating, deviation, games, platform, name, last_rated_at, won, lost, drawn"
        " FROM ratings WHERE identity = $1 AND games > 0"
        " AND NOT EXISTS (SELECT 1 FROM kv WHERE namespace = $2 AND key = $1)"
        " ORDER BY games DESC, pool",
        identity,
        HIDDEN,
    )
    if not found:
        return None
    pools = tuple(
        PoolRow(
            str(r[0]), Rating(float(r[1]), float(r[2]), int(r[3])), int(r[7]), int(r[8]), int(r[9])
        )
        for r in found
    )
    # The name of the pool played last: the one the player goes by now.
    latest = max(found, key=lambda r: float(r[6]))
    return PlayerRow(str(latest[5]), str(latest[4]), pools)


def page_hidden(identities: tuple[str, ...]) -> Op[frozenset[str]]:
    """Which of ``identities`` hid themselves from the pages (``/hide``)."""
    if not identities:
        return frozenset()
    found = yield rows(
        f"SELECT key FROM kv WHERE namespace = $1 AND key IN ({placeholders(2, len(identities))})",
        HIDDEN,
        *identities,
    )
    return frozenset(str(r[0]) for r in found)

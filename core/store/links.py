"""Linked accounts: ``/link`` gives a one-time code, ``/link CODE`` on another platform joins
the two accounts into one identity (one rating per pool), ``/unlink`` separates them again.
Written once for SQLite and PostgreSQL (see :mod:`core.store.sql`).

How ratings merge (each step is a ``merge`` row of ``rating_changes``, so a rebuild replays
it where it happened): the account that typed the code joins the identity of the account that
asked for it. In every pool where the joining identity has a rating, the shared identity keeps
:func:`core.ratings.merged` of the two (the rating of the one with more rated games, whole),
and the joining identity's row is gone; its chats and servers count for the shared identity.

Unlinking: the identity stays with the account that asked for the first code (its ``root``).
``/unlink`` from another account takes that account out; from the root it takes every other
account out. An account taken out starts again as a new player (its old rating went into the
shared one at linking, and is not split back: a person cannot shed a bad rating by linking a
fresh account and unlinking).

Everything else keyed by the player goes with the identity in the same transaction
(:func:`_carry`, :func:`_leave`), so one person is one player before and after: the seek in the
queue (of two, the older waits on; an account taken out takes its own seek along), blocks
either way (an account taken out keeps every block the shared identity had: a blocked person
cannot shed a block by unlinking), the player's own settings (``/theme``, per account: the
root's, else the joining account's, copied to both), and the cooldown of the live-game limits
(:mod:`core.store.limits`, whose cap counts the live games of every account of the
identity), and the puzzle rating, count, streak and attempts (:func:`core.store.puzzles.carried`).

Codes live in the kv table (namespace :data:`CODES`), one row per code, kept a day past their
expiry so that an expired or used code is told apart from a wrong one.
"""

from __future__ import annotations

import json

from core.admin.scopes import PLAYER
from core.ratings import Rating, merged
from core.store import kv, puzzles
from core.store.limits import NAMESPACE as LIMITS
from core.store.limits import stored_time, user_key
from core.store.models.kv import KvEntry
from core.store.models.ratings import Linked
from core.store.ratings import identities, own_identity
from core.store.sql import Atomic, Op, count, row, rows

CODES = "link_code"
_KEPT_AFTER_EXPIRY = 24 * 3600.0


def link_code(code: str, platform: str, user_id: str, expires_at: float) -> Op[None]:
    """Store a new one-time ``/link`` code for ``(platform, user_id)``, valid until
    ``expires_at``."""
    value = json.dumps({"platform": platform, "user": user_id, "expires": expires_at})
    entry = KvEntry(CODES, code, value, expires_at=expires_at + _KEPT_AFTER_EXPIRY)
    yield from kv.put(entry)


def link(code: str, platform: str, user_id: str, now: float) -> Op[Linked]:
    """Redeem a ``/link`` code (one transaction): the account ``(platform, user_id)`` joins
    the identity of the code's owner."""
    return Linked((yield Atomic(_redeem(code, platform, user_id, now))))


def _redeem(code: str, platform: str, user_id: str, now: float) -> Op[Linked]:
    found = yield row(
        "SELECT value FROM kv WHERE namespace = $1 AND key = $2 FOR UPDATE", CODES, code
    )
    if found is None:
        return Linked.WRONG
    made = json.loads(str(found[0]))
    if made.get("used"):
        return Linked.USED
    if float(made["expires"]) <= now:
        return Linked.EXPIRED
    owner_platform, owner = str(made["platform"]), str(made["user"])
    if owner_platform == platform:
        return Linked.SAME_PLATFORM
    root = (yield from identities(owner_platform, (owner,)))[owner]
    mine = (yield from identities(platform, (user_id,)))[user_id]
    if mine == root:
        return Linked.ALREADY
    if mine != own_identity(platform, user_id) or (yield from _roots_others(mine)):
        return Linked.LINKED_ELSEWHERE
    yield count(
        "INSERT INTO links (platform, user_id, identity, linked_at) VALUES ($1, $2, $3, $4)"
        " ON CONFLICT (platform, user_id) DO NOTHING",
        owner_platform,
        owner,
        root,
        now,
    )
    yield count(
        "INSERT INTO links (platform, user_id, identity, linked_at) VALUES ($1, $2, $3, $4)",
        platform,
        user_id,
        root,
        now,
    )
    yield from _merge(mine, root, now)
    yield from _carry(mine, root)
    yield from puzzles.carried(mine, root)
    yield from _share_own_settings((owner_platform, owner), (platform, user_id))
    made["used"] = True
    yield count(
        "UPDATE kv SET value = $3 WHERE namespace = $1 AND key = $2",
        CODES,
        code,
        json.dumps(made),
    )
    return Linked.LINKED


def _roots_others(identity: str) -> Op[bool]:
    found = yield row("SELECT 1 FROM links WHERE identity = $1 LIMIT 1", identity)
    return found is not None


def _merge(source: str, into: str, now: float) -> Op[None]:
    """Every rating of ``source`` goes into ``into`` (:func:`core.ratings.merged`), logged."""
    # Both identities' rows, locked in identity order (as core.store.ratings does).
    found = yield rows(
        "SELECT identity, pool, rating, deviation, games, last_rated_at, platform, name"
        " FROM ratings WHERE identity IN ($1, $2) ORDER BY identity, pool FOR UPDATE",
        source,
        into,
    )
    theirs = {str(r[1]): r for r in found if r[0] == source}
    ours = {str(r[1]): r for r in found if r[0] == into}
    for pool, r in theirs.items():
        a = Rating(float(r[2]), float(r[3]), int(r[4]))
        kept = ours.get(pool)
        b = None if kept is None else Rating(float(kept[2]), float(kept[3]), int(kept[4]))
        result = merged(a, b)
        shown = b or Rating()
        yield count(
            "INSERT INTO rating_changes (kind, session_id, pool, at, first_identity,"
            " second_identity, winner, termination, first_rating, first_deviation, first_games,"
            " second_rating, second_deviation, second_games, first_rating_after,"
            " first_deviation_after, second_rating_after, second_deviation_after)"
            " VALUES ('merge', NULL, $1, $2, $3, $4, NULL, NULL, $5, $6, $7, $8, $9, $10, $11,"
            " $12, $11, $12)",
            pool,
            now,
            source,
            into,
            a.rating,
            a.deviation,
            a.games,
            shown.rating,
            shown.deviation,
            shown.games,
            result.rating,
            result.deviation,
        )
        last = max(float(r[5]), float(kept[5]) if kept is not None else 0.0)
        yield count(
            "INSERT INTO ratings (identity, pool, rating, deviation, games, last_rated_at,"
            " platform, name) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"
            " ON CONFLICT (identity, pool) DO UPDATE SET rating = excluded.rating,"
            " deviation = excluded.deviation, games = excluded.games,"
            " last_rated_at = excluded.last_rated_at",
            into,
            pool,
            result.rating,
            result.deviation,
            result.games,
            last,
            str(r[6]) if kept is None else str(kept[6]),
            str(r[7]) if kept is None else str(kept[7]),
        )
    yield count("DELETE FROM ratings WHERE identity = $1", source)
    yield count(
        "INSERT INTO rating_places (place, pool, identity)"
        " SELECT place, pool, $2 FROM rating_places WHERE identity = $1 ON CONFLICT DO NOTHING",
        source,
        into,
    )
    yield count("DELETE FROM rating_places WHERE identity = $1", source)


def unlink(platform: str, user_id: str) -> Op[int]:
    """``/unlink`` by ``(platform, user_id)``: how many accounts were taken out of the shared
    identity (0: the account was not linked)."""
    return int((yield Atomic(_unlink(platform, user_id))))


def _unlink(platform: str, user_id: str) -> Op[int]:
    found = yield row(
        "SELECT identity FROM links WHERE platform = $1 AND user_id = $2 FOR UPDATE",
        platform,
        user_id,
    )
    if found is None:
        return 0
    identity = str(found[0])
    leaving: list[tuple[str, str]] = [(platform, user_id)]
    if identity == own_identity(platform, user_id):  # the root: everyone else leaves
        found_all = yield rows(
            "SELECT platform, user_id FROM links WHERE identity = $1"
            " AND NOT (platform = $2 AND user_id = $3)",
            identity,
            platform,
            user_id,
        )
        leaving = [(str(p), str(u)) for p, u in found_all]
        left = yield count(
            "DELETE FROM links WHERE identity = $1 AND NOT (platform = $2 AND user_id = $3)",
            identity,
            platform,
            user_id,
        )
    else:
        left = yield count(
            "DELETE FROM links WHERE platform = $1 AND user_id = $2", platform, user_id
        )
    # The root's own row goes with its last linked account.
    yield count(
        "DELETE FROM links WHERE identity = $1 AND NOT EXISTS (SELECT 1 FROM links AS other"
        " WHERE other.identity = $1 AND other.identity <> other.platform || ':' || other.user_id)",
        identity,
    )
    yield from _leave(identity, leaving)
    return int(left)


def _carry(source: str, into: str) -> Op[None]:
    """What is keyed by the player ``source`` becomes ``into``'s (``source`` joined it)."""
    # One seek per player: of two, the one that waited longer stays.
    yield count(
        "DELETE FROM seeks WHERE player IN ($1, $2) AND id NOT IN (SELECT id FROM seeks"
        " WHERE player IN ($1, $2) ORDER BY created_at, id LIMIT 1)",
        source,
        into,
    )
    yield count("UPDATE seeks SET player = $2 WHERE player = $1", source, into)
    # Blocks either way; one between the two is gone (nobody blocks himself).
    for mine, theirs in (("player", "blocked"), ("blocked", "player")):
        yield count(
            f"INSERT INTO blocks ({mine}, {theirs}, created_at)"
            f" SELECT $2, {theirs}, created_at FROM blocks WHERE {mine} = $1 AND {theirs} <> $2"
            " ON CONFLICT (player, blocked) DO NOTHING",
            source,
            into,
        )
    yield count("DELETE FROM blocks WHERE player = $1 OR blocked = $1", source)
    # The later of the two cooldowns holds for the person.
    found = yield rows(
        "SELECT key, value, expires_at FROM kv WHERE namespace = $1 AND key IN ($2, $3)",
        LIMITS,
        user_key(source),
        user_key(into),
    )
    if found:
        _, until, expires = max(found, key=lambda r: stored_time(r[1]))
        yield from _put_cooldown(into, str(until), expires)


def _share_own_settings(root: tuple[str, str], joining: tuple[str, str]) -> Op[None]:
    """A player's own settings (``/theme``: rows of scope ``player:<user id>`` on each account's
    platform) become the person's: the root account's where it has one, else the joining
    account's, on both accounts (each keeps its row after an unlink)."""
    (root_platform, root_user), (platform, user_id) = root, joining
    for source, into, kept in (
        ((platform, user_id), (root_platform, root_user), "NOTHING"),
        (
            (root_platform, root_user),
            (platform, user_id),
            "UPDATE SET value = excluded.value, updated_at = excluded.updated_at,"
            " updated_by = excluded.updated_by",
        ),
    ):
        yield count(
            "INSERT INTO settings (platform, scope, key, value, updated_at, updated_by)"
            " SELECT $3, $4, key, value, updated_at, updated_by FROM settings"
            f" WHERE platform = $1 AND scope = $2 ON CONFLICT (platform, scope, key) DO {kept}",
            source[0],
            PLAYER + source[1],
            into[0],
            PLAYER + into[1],
        )


def _put_cooldown(identity: str, until: str, expires: object) -> Op[None]:
    yield count(
        "INSERT INTO kv (namespace, key, value, session_id, expires_at)"
        " VALUES ($1, $2, $3, NULL, $4)"
        " ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value,"
        " expires_at = excluded.expires_at",
        LIMITS,
        user_key(identity),
        until,
        expires,
    )


def _leave(identity: str, leaving: list[tuple[str, str]]) -> Op[None]:
    """The accounts ``leaving`` (platform, user id) left ``identity``: each is its own player
    again, takes its own seek along and keeps the identity's blocks either way and its
    cooldown."""
    kept = yield row(
        "SELECT value, expires_at FROM kv WHERE namespace = $1 AND key = $2",
        LIMITS,
        user_key(identity),
    )
    for platform, user_id in leaving:
        own = own_identity(platform, user_id)
        yield count(
            "UPDATE seeks SET player = $2 WHERE player = $1 AND platform = $3 AND user_id = $4",
            identity,
            own,
            platform,
            user_id,
        )
        for mine, theirs in (("player", "blocked"), ("blocked", "player")):
            yield count(
                f"INSERT INTO blocks ({mine}, {theirs}, created_at)"
                f" SELECT $2, {theirs}, created_at FROM blocks"
                f" WHERE {mine} = $1 AND {theirs} <> $2"
                " ON CONFLICT (player, blocked) DO NOTHING",
                identity,
                own,
            )
        if kept is not None:
            yield from _put_cooldown(own, str(kept[0]), kept[1])

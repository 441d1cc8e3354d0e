"""The admins' limits on new games, kept inside the transaction that writes the game.

Checking a limit and then writing the game in another transaction lets simultaneous requests
all pass the check. Here each check runs in the writing transaction after a lock on a row of
its scope, so the checks of one scope run one after another:

- the player's row ``limits/cooldown:<identity>`` (its value: when their cooldown ends; linked
  accounts are one identity, an account nobody linked is ``<platform>:<user>``) guards their
  live-game cap (the live games of every account of the identity) and their cooldown; pairing
  two seeks (:mod:`core.store.seeks`) locks both seekers' rows the same way;
- the chat's row ``limits/window:<platform>:<chat>`` (its value: the times of the chat's boards
  in the last minute) guards the chat's live-game cap and its boards per minute.

The lock is an upsert of the row (``ON CONFLICT DO UPDATE`` locks an existing row on PostgreSQL
until the transaction ends; a concurrent first insert waits on the primary key); SQLite has one
writer at a time anyway. Under READ COMMITTED each later statement sees what the previous
holder of the lock committed, so the counts after the lock are exact. A refusal raises
:class:`Limited` and rolls the whole transaction back: nothing of the game is written.
"""

from __future__ import annotations

import math

from core.store.errors import Limited, whole_seconds
from core.store.models.kv import GameLimits
from core.store.models.session import Session
from core.store.ratings import identities
from core.store.sql import Op, Query, count, value
from core.store.stats import LIVE

NAMESPACE = "limits"
WINDOW = 60.0
"""Seconds: boards are counted per minute."""


# Returns the row's value, locked until the transaction ends. A new row gets ``$3`` and an
# expiry (the sweeper's to delete); an existing one keeps its value and the later expiry.
_LOCK = (
    "INSERT INTO kv (namespace, key, value, session_id, expires_at)"
    f" VALUES ('{NAMESPACE}', $1, $2, NULL, $3)"
    " ON CONFLICT (namespace, key) DO UPDATE SET value = kv.value,"
    " expires_at = CASE WHEN kv.expires_at IS NULL OR kv.expires_at < excluded.expires_at"
    " THEN excluded.expires_at ELSE kv.expires_at END"
    " RETURNING value"
)
_SET = f"UPDATE kv SET value = $2, expires_at = $3 WHERE namespace = '{NAMESPACE}' AND key = $1"


def check(limits: GameLimits, session: Session) -> Op[list[Query]]:
    """Check ``limits`` for the new live game ``session``, inside the transaction that writes
    it and before anything else there (so every transaction takes its locks in one order:
    the user's row, the chat's row, then the game's rows).

    Returns:
        The writes that take what the game uses (its cooldown starts, its board is counted),
        for the caller to run once the game is written.

    Raises:
        Limited: a limit refuses the game (the transaction then writes nothing).
    """
    now = limits.now
    writes: list[Query] = []
    if limits.max_user_games is not None or limits.cooldown > 0:
        user = limits.user_id
        identity = (yield from identities(session.platform, (user,)))[user]
        key = user_key(identity)
        until = yield from hold_player(identity, now)
        if limits.max_user_games is not None:
            games = yield from live_games(identity, session.platform, user)
            if games >= limits.max_user_games:
                raise Limited("limits.user_games", max=limits.max_user_games)
        if limits.cooldown > 0 and until > now:
            raise Limited("limits.cooldown", seconds=whole_seconds(until - now))
        if limits.cooldown > 0:
            ends = now + limits.cooldown
            writes.append(count(_SET, key, repr(ends), ends))
    if limits.max_chat_games is not None or limits.boards_per_minute is not None:
        key = f"window:{session.platform}:{session.chat_id}"
        posted = yield value(_LOCK, key, "", now + WINDOW, writes=True)
        if limits.max_chat_games is not None:
            games = yield value(
                f"SELECT count(*) FROM sessions WHERE platform = $1 AND chat_id = $2 AND {LIVE}",
                session.platform,
                session.chat_id,
            )
            if int(games) >= limits.max_chat_games:
                raise Limited("limits.chat_games", max=limits.max_chat_games)
        per_minute = limits.boards_per_minute
        if per_minute is not None:
            times = sorted(t for t in map(stored_time, str(posted).split(",")) if t > now - WINDOW)
            if limits.check_boards and len(times) >= per_minute:
                until = times[len(times) - per_minute] + WINDOW
                raise Limited("limits.boards", seconds=whole_seconds(until - now))
            # The newest per_minute times are all a later check needs.
            kept = [*times, now][-max(per_minute, 1) :]
            writes.append(count(_SET, key, ",".join(map(repr, kept)), now + WINDOW))
    return writes


def user_key(identity: str) -> str:
    """The row (in :data:`NAMESPACE`) that guards a player's live-game cap and cooldown."""
    return f"cooldown:{identity}"


def hold_player(identity: str, now: float) -> Op[float]:
    """Lock the player's row until the transaction ends (see the module docstring); when
    their cooldown ends."""
    return stored_time((yield value(_LOCK, user_key(identity), "0", now + WINDOW, writes=True)))


def live_games(identity: str, platform: str, user_id: str) -> Op[int]:
    """The live games (open games count) of every account of ``identity``, ``(platform,
    user_id)`` one of them; exact once :func:`hold_player` holds the player's row."""
    games = yield value(
        "SELECT count(*) FROM players WHERE (platform = $1 AND user_id = $2)"
        " OR (platform, user_id) IN (SELECT platform, user_id FROM links WHERE identity = $3)",
        platform,
        user_id,
        identity,
    )
    return int(games)


def stored_time(text: object) -> float:
    # Written here; a damaged row is no block rather than an error on every new game.
    try:
        found = float(str(text))
    except ValueError:
        return 0.0
    return found if math.isfinite(found) else 0.0

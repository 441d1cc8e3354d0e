"""The store operation that gives live games back the time a store outage took from them
(:meth:`~core.store.SessionStore.pause_clocks`; why, in :mod:`core.sessions.outages`).

The outages already paused are remembered in one kv row (the end of the last one), so that
several processes that saw the same outage move each clock once: each moves it only by the part
of its outage that no other process paused yet.
"""

from __future__ import annotations

from core.store.sql import Atomic, Op, count, value

PAUSED = ("clocks", "paused_until")
"""The kv row: the end of the last outage whose clocks were paused."""

_MOVED = "CASE WHEN {t} + $2 < $3 THEN $3 ELSE {t} + $2 END"
"""A time ``t`` moved by the outage ($2), and at least to the floor ($3)."""


def pause_clocks(lowest: float, started: float, back: float, floor: float) -> Op[int]:
    """Move the clocks of live games that ran during an outage; how many games were moved.

    Every live game whose deadline (or lifetime, ``expires_at``) ends after ``lowest`` gets it
    moved by the outage's length (``back - started``), and to ``floor`` at least; its reminder
    moves with its deadline. The version is kept: the board's buttons stay valid, and a move
    written meanwhile sets a deadline of its own anyway.
    """
    moved: int = yield Atomic(_pause(lowest, started, back, floor))
    return moved


def _pause(lowest: float, started: float, back: float, floor: float) -> Op[int]:
    namespace, key = PAUSED
    # The row first, so that two processes pausing at once queue on it (on PostgreSQL a row
    # that is missing cannot be locked).
    yield count(
        "INSERT INTO kv (namespace, key, value) VALUES ($1, $2, '0')"
        " ON CONFLICT (namespace, key) DO NOTHING",
        namespace,
        key,
    )
    done = yield value(
        "SELECT value FROM kv WHERE namespace = $1 AND key = $2 FOR UPDATE", namespace, key
    )
    paused_until = float(done)
    lower = max(lowest, paused_until)
    if back <= lower:
        return 0  # another process paused this outage already
    length = max(0.0, back - max(started, paused_until))
    moved = yield count(
        "UPDATE sessions SET"
        f" deadline = CASE WHEN deadline > $1 THEN {_MOVED.format(t='deadline')}"
        " ELSE deadline END,"
        " remind_at = CASE WHEN deadline > $1 THEN remind_at + $2 ELSE remind_at END,"
        f" expires_at = CASE WHEN expires_at > $1 THEN {_MOVED.format(t='expires_at')}"
        " ELSE expires_at END"
        " WHERE status IN ('challenge', 'active') AND (deadline > $1 OR expires_at > $1)",
        lower,
        length,
        floor,
    )
    yield count(
        "UPDATE kv SET value = $3 WHERE namespace = $1 AND key = $2", namespace, key, repr(back)
    )
    return int(moved)

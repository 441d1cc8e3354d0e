"""The store operation that gives live games back the time a store outage took from them
(``pause_clocks``; why, in :mod:`core.sessions.outages`).

Several processes see the same outage, each from the moment it noticed: the span paused last
is remembered in one kv row, and each process pauses only what its own view adds to it (time
before the span's start, time after its end), so every clock is moved once by the whole outage
whichever process settles first.
"""

from __future__ import annotations

from core.store.sql import Atomic, Op, count, value

PAUSED = ("clocks", "paused")
"""The kv row: ``"start end"`` of the last outage whose clocks were paused."""

_MOVED = (
    "CASE WHEN {t} > $2 THEN (CASE WHEN {t} + $4 < $5 THEN $5 ELSE {t} + $4 END)"
    " WHEN {t} > $1 THEN (CASE WHEN {t} + $3 < $5 THEN $5 ELSE {t} + $3 END)"
    " ELSE {t} END"
)
"""A time ``t``: past $2 (paused before), moved by $4; past $1 (not yet), by the whole span $3;
either to the floor $5 at least."""


def pause_clocks(start: float, back: float, grace: float) -> Op[int]:
    """Move the clocks of live games that ran during an outage; how many games were moved.

    Every live game whose deadline (or lifetime, ``expires_at``) ends after ``start - grace``
    has it moved by the outage's length (``back - start``, merged with the span paused last),
    and to ``grace`` after its end at least; its reminder moves with its deadline. The earlier
    ``grace`` counts a deadline that passed as the outage began, before anyone noticed: with a
    working store, the sweep would have ended that game already. The version is kept: the
    board's buttons stay valid, and a move written meanwhile sets a deadline of its own anyway.
    """
    moved: int = yield Atomic(_pause(start, back, grace))
    return moved


def _pause(start: float, back: float, grace: float) -> Op[int]:
    namespace, key = PAUSED
    # The row first, so that two processes pausing at once queue on it (on PostgreSQL a row
    # that is missing cannot be locked).
    yield count(
        "INSERT INTO kv (namespace, key, value) VALUES ($1, $2, '') ON CONFLICT DO NOTHING",
        namespace,
        key,
    )
    last = yield value(
        "SELECT value FROM kv WHERE namespace = $1 AND key = $2 FOR UPDATE", namespace, key
    )
    if last:
        paused_start, paused_end = (float(t) for t in str(last).split())
    else:
        paused_start = paused_end = float("-inf")
    if start >= paused_end:  # a new outage
        paused_start = paused_end = start
    first, end = min(start, paused_start), max(back, paused_end)
    more = (paused_start - first) + (end - paused_end)
    if more <= 0:
        return 0  # another process paused all of it already
    moved = yield count(
        "UPDATE sessions SET"
        f" deadline = {_MOVED.format(t='deadline')},"
        " remind_at = CASE WHEN deadline > $2 THEN remind_at + $4"
        " WHEN deadline > $1 THEN remind_at + $3 ELSE remind_at END,"
        f" expires_at = {_MOVED.format(t='expires_at')}"
        " WHERE status IN ('challenge', 'active') AND (deadline > $1 OR expires_at > $1)",
        first - grace,
        paused_start - grace,
        end - first,
        more,
        end + grace,
    )
    yield count(
        "UPDATE kv SET value = $3 WHERE namespace = $1 AND key = $2",
        namespace,
        key,
        f"{first!r} {end!r}",
    )
    return int(moved)

"""The store's operations on sessions, each written once for SQLite and PostgreSQL (see
:mod:`core.store.sql`; the other tables' are in :mod:`core.store.table_ops`).

Each public function is one whole operation of :class:`~core.store.SessionStore`, named as the
method it serves (the name is also the ``operation`` label of its timing). Statements are in
PostgreSQL's spelling; the few places where the databases really part take ``dialect``:

- a move that keeps the status is one statement on PostgreSQL (:func:`update`): a
  ``WITH ... UPDATE`` that also writes the receipt, which SQLite cannot write (and does not
  need: its operation is one hop however many statements it has);
- a damaged row is found again by its ``rowid`` on SQLite (its id may be NULL there), by its
  id on PostgreSQL (a primary key);
- in :mod:`core.store.table_ops`, the leases read each database's own clock
  (:mod:`core.store.lease_sql`), and the schema version is ``PRAGMA user_version`` on SQLite,
  a table on PostgreSQL.

PostgreSQL's concurrency, which SQLite (one writer at a time) never meets, is in the
statements themselves, and :func:`core.store.sql.for_sqlite` drops it for SQLite:

- a refused insert aborts a PostgreSQL transaction, so "one live game per user per chat" is
  ``INSERT ... ON CONFLICT DO NOTHING RETURNING`` and a look at who holds the row;
- the compare-and-set ``UPDATE ... WHERE id = $n AND version = $m`` is re-checked by PostgreSQL
  on the newest row version after a concurrent commit (READ COMMITTED), so exactly one of two
  racing writers updates a row; ``FOR UPDATE`` makes the status read first the one replaced;
- the sweep locks the rows it deletes with ``FOR UPDATE SKIP LOCKED``: two sweepers never wait
  on each other, never delete a row twice, and leave alone a game whose move is being written.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable, Sequence
from typing import Any

from core.store import lease_sql, limit_ops, outbox_ops, rating_ops, table_ops
from core.store.base import AlreadyPlaying, GameLimits, KvEntry, StoreError
from core.store.migrations import Dialect
from core.store.models import Session, Status
from core.store.outbox import KEPT, OutboxItem
from core.store.rows import (
    PG_INSERT_SESSION,
    PG_SELECT_SESSION,
    PG_UPDATE_SESSION,
    SELECT_SESSION,
    BadRow,
    decode_session,
    row_json,
    session_row,
    stats_rows,
)
from core.store.sql import Atomic, Op, count, many, row, rows, value

log = logging.getLogger(__name__)

Clock = Callable[[], float]

_MAX_QUARANTINES_PER_READ = 100
"""A read that keeps finding damaged rows gives up: something rewrites them as fast as we move
them, and an error is better than a loop."""

# A damaged row's handle (first column of the select) and how to find the row again by it.
_SELECT = {Dialect.SQLITE: SELECT_SESSION, Dialect.POSTGRES: PG_SELECT_SESSION}
_BY_HANDLE = {Dialect.SQLITE: "rowid = $1", Dialect.POSTGRES: "id = $1 FOR UPDATE"}


# --- sessions ------------------------------------------------------------------------------------


def create(session: Session, receipt: KvEntry | None, limits: GameLimits | None) -> Op[None]:
    """Insert a session, its players rows, its result if finished, and the receipt, if it
    keeps ``limits`` (:mod:`core.store.limit_ops`).

    Raises:
        AlreadyPlaying: a live user of ``session`` plays another game in the chat.
        Limited: ``limits`` refuse it.
    """
    yield Atomic(_create(session, receipt, limits))


def _create(session: Session, receipt: KvEntry | None, limits: GameLimits | None) -> Op[None]:
    taken = [] if limits is None else (yield from limit_ops.check(limits, session))
    yield count(PG_INSERT_SESSION, *session_row(session))
    yield from _set_players(session, new=True)
    if session.status is Status.FINISHED:
        yield from _record_result(session)
    for write in taken:  # noqa: UP028 (a list cannot take the answers the driver sends)
        yield write
    yield from _put_receipt(receipt)


def update(
    dialect: Dialect,
    session: Session,
    expected_version: int,
    receipt: KvEntry | None,
    limits: GameLimits | None,
    notices: tuple[Sequence[OutboxItem], float] = ((), 0.0),
) -> Op[bool]:
    """Compare-and-set a session on its version, with ``notices`` (the items, and the time
    they are kept from) left in the outbox in the same transaction (see
    ``SessionStore.update``)."""
    # Most updates are a move that keeps the status: on PostgreSQL one statement, one round
    # trip, where a transaction would be three.
    if (
        dialect is Dialect.POSTGRES
        and limits is None
        and not notices[0]
        and (yield from _update_in_place(session, expected_version, receipt))
    ):
        return True
    return bool((yield Atomic(_update(session, expected_version, receipt, limits, notices))))


def _update(
    session: Session,
    expected_version: int,
    receipt: KvEntry | None,
    limits: GameLimits | None,
    notices: tuple[Sequence[OutboxItem], float] = ((), 0.0),
) -> Op[bool]:
    taken = [] if limits is None else (yield from limit_ops.check(limits, session))
    # FOR UPDATE: the status read here is the one the UPDATE replaces, whoever races us.
    before = yield value(
        "SELECT status FROM sessions WHERE id = $1 AND version = $2 FOR UPDATE",
        session.id,
        expected_version,
    )
    if before is None:
        return False
    if (
        yield count(PG_UPDATE_SESSION, *session_row(session)[1:], session.id, expected_version)
    ) != 1:
        return False
    # Who is live only changes with the status (accepted, finished): a plain move leaves the
    # players rows alone.
    if before != session.status.value:
        yield from _set_players(session)
    if session.status is Status.FINISHED and before != Status.FINISHED.value:
        yield from _record_result(session)
    for write in taken:  # noqa: UP028 (a list cannot take the answers the driver sends)
        yield write
    yield from _put_receipt(receipt)
    items, now = notices
    yield from outbox_ops.notices(items, now + KEPT)
    return True


def _update_in_place(session: Session, expected_version: int, receipt: KvEntry | None) -> Op[bool]:
    """PostgreSQL's common update in one statement, without a transaction of its own: a move
    that leaves the status as it was (so the players rows and the stats stay as they are),
    with its receipt in the same statement (written iff the session row was).

    Returns:
        True if applied. False says only "not this way": the session changed meanwhile, is
        gone, or changes status; :func:`_update` in a transaction then decides.
    """
    values = (*session_row(session)[1:], session.id, expected_version)
    n = len(values) + 1
    where_status = f" AND status = ${n}"
    if receipt is None:
        return bool(
            (yield count(PG_UPDATE_SESSION + where_status, *values, session.status.value)) == 1
        )
    applied = yield value(
        f"WITH moved AS ({PG_UPDATE_SESSION}{where_status} RETURNING id),"
        f" receipt AS (INSERT INTO kv (namespace, key, value, session_id, expires_at)"
        f" SELECT ${n + 1}, ${n + 2}, ${n + 3}, ${n + 4}::text, ${n + 5}::double precision"
        f" FROM moved WHERE ${n + 4}::text IS NULL OR ${n + 4}::text = moved.id"
        f" OR EXISTS (SELECT 1 FROM sessions WHERE id = ${n + 4}::text FOR KEY SHARE)"
        " ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value,"
        " session_id = excluded.session_id, expires_at = excluded.expires_at)"
        " SELECT count(*) FROM moved",
        *values,
        session.status.value,
        receipt.namespace,
        receipt.key,
        receipt.value,
        receipt.session_id,
        receipt.expires_at,
        writes=True,
    )
    return bool(applied)


def delete(session_id: str, expected_version: int | None, receipt: KvEntry | None) -> Op[bool]:
    """Delete a session (at ``expected_version`` if given); players and kv rows go with it."""
    return bool((yield Atomic(_delete(session_id, expected_version, receipt))))


def _delete(session_id: str, expected_version: int | None, receipt: KvEntry | None) -> Op[bool]:
    deleted = yield count(
        "DELETE FROM sessions WHERE id = $1 AND ($2::integer IS NULL OR version = $2)",
        session_id,
        expected_version,
    )
    if deleted != 1:
        return False
    yield from _put_receipt(receipt)
    return True


def swap(
    old: Session, new: Session, receipt: KvEntry | None, limits: GameLimits | None
) -> Op[bool]:
    """Delete ``old`` at its version and create ``new`` (if it keeps ``limits``), in one
    transaction.

    Raises:
        AlreadyPlaying: as :func:`create`; the transaction rolls back, ``old`` stays.
        Limited: as :func:`create`; ``old`` stays.
    """
    return bool((yield Atomic(_swap(old, new, receipt, limits))))


def _swap(
    old: Session, new: Session, receipt: KvEntry | None, limits: GameLimits | None
) -> Op[bool]:
    taken = [] if limits is None else (yield from limit_ops.check(limits, new))
    if new.id == old.id and new.remind_at is not None:
        # The same game moved (a room upgrade): a reminder taken since ``old`` was read
        # (take_reminder keeps the version) stays taken.
        kept = yield row(
            "SELECT remind_at FROM sessions WHERE id = $1 AND version = $2 FOR UPDATE",
            old.id,
            old.version,
        )
        if kept is not None and kept[0] is None:
            new = dataclasses.replace(new, remind_at=None)
    if not (yield from _delete(old.id, old.version, None)):
        return False
    yield from _create(new, receipt, None)
    if new.id == old.id:
        # What waits to be shown about the game follows it to its new chat.
        for before, after in {(old.chat_of(n), new.chat_of(n)) for n in (1, 2)}:
            if before != after:
                yield from outbox_ops.moved(old.id, before, after)
    for write in taken:  # noqa: UP028 (a list cannot take the answers the driver sends)
        yield write
    return True


def delete_expired(now: float) -> Op[int]:
    """Sweep expired sessions (with their players and kv rows) and expired kv rows; safe to run
    in several processes at once (see the module's notes)."""
    return int((yield Atomic(_delete_expired(now))))


def _delete_expired(now: float) -> Op[int]:
    swept = yield count(
        "DELETE FROM sessions WHERE id IN (SELECT id FROM sessions"
        " WHERE expires_at <= $1 FOR UPDATE SKIP LOCKED)",
        now,
    )
    yield count(
        "DELETE FROM kv WHERE (namespace, key) IN (SELECT namespace, key FROM kv"
        f" WHERE expires_at <= $1 AND {lease_sql.SWEEP_SPARES} FOR UPDATE SKIP LOCKED)",
        now,
    )
    yield from outbox_ops.expire(now)
    return int(swept)


def due_clocks(now: float, limit: int) -> Op[list[str]]:
    """Running games whose clock ran out (``SessionStore.due_clocks``): the deadline's partial
    index gives them in order, a few entries read."""
    found = yield rows(
        "SELECT id FROM sessions WHERE deadline <= $1 ORDER BY deadline LIMIT $2", now, limit
    )
    return [str(r[0]) for r in found]


def due_reminders(now: float, limit: int) -> Op[list[str]]:
    """Running games whose player to move is due a reminder (``SessionStore.due_reminders``)."""
    found = yield rows(
        "SELECT id FROM sessions WHERE remind_at <= $1 ORDER BY remind_at LIMIT $2", now, limit
    )
    return [str(r[0]) for r in found]


def take_reminder(
    session_id: str, version: int, notice: OutboxItem | None, now: float
) -> Op[tuple[OutboxItem, ...] | None]:
    """Clear a due reminder at ``version``, with ``notice`` left in the outbox in the same
    transaction: one caller of several processes gets what was left (the others None)."""
    left: tuple[OutboxItem, ...] | None = yield Atomic(
        _take_reminder(session_id, version, notice, now)
    )
    return left


def _take_reminder(
    session_id: str, version: int, notice: OutboxItem | None, now: float
) -> Op[tuple[OutboxItem, ...] | None]:
    taken = yield count(
        "UPDATE sessions SET remind_at = NULL"
        " WHERE id = $1 AND version = $2 AND remind_at IS NOT NULL",
        session_id,
        version,
    )
    if taken != 1:
        return None
    left: tuple[OutboxItem, ...] = yield from outbox_ops.notices(
        [] if notice is None else [notice], now + KEPT
    )
    return left


def _set_players(session: Session, *, new: bool = False) -> Op[None]:
    """Make the ``players`` rows say who lives in ``session`` (inside a transaction); ``new``:
    the session was just inserted, so it has no rows yet.

    Raises:
        AlreadyPlaying: the primary key refused a user who already has a live game here.
    """
    if not new:
        yield count("DELETE FROM players WHERE session_id = $1", session.id)
    users = list(dict.fromkeys(session.live_users))
    if not users:
        return
    # Each player lives in the chat of their seat (an open game has two; see Seat).
    places = [(*_chat_of_user(session, user_id), user_id) for user_id in users]
    # ON CONFLICT waits for a concurrent insert of the same key to commit or roll back, so the
    # rows it skips belong to a game that really exists.
    values = ", ".join(f"(${n}, ${n + 1}, $1, ${n + 2})" for n in range(2, 2 + 3 * len(users), 3))
    inserted = yield rows(
        f"INSERT INTO players (platform, chat_id, session_id, user_id) VALUES {values}"
        " ON CONFLICT (platform, chat_id, user_id) DO NOTHING RETURNING user_id",
        session.id,
        *(part for place in places for part in place),
        writes=True,
    )
    placed = {r[0] for r in inserted}
    for platform, chat_id, user_id in places:
        if user_id not in placed:
            holder = yield value(
                "SELECT session_id FROM players"
                " WHERE platform = $1 AND chat_id = $2 AND user_id = $3",
                platform,
                chat_id,
                user_id,
            )
            raise AlreadyPlaying(str(holder) if holder is not None else "?", user_id)


def _chat_of_user(session: Session, user_id: str) -> tuple[str, str]:
    """Where ``user_id`` plays ``session``: their seat's chat (the session's for a watcher)."""
    seat = session.seat_of(user_id)
    return (session.platform, session.chat_id) if seat is None else session.chat_of(seat)


def _record_result(session: Session) -> Op[None]:
    """Add a finished game to its players' stats and, if rated, its rating change (inside the
    finishing transaction: both are written, or neither)."""
    yield many(
        "INSERT INTO stats (platform, chat_id, user_id, name, wins, losses, draws,"
        " updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"
        " ON CONFLICT (platform, chat_id, user_id) DO UPDATE SET"
        " name = excluded.name, wins = stats.wins + excluded.wins,"
        " losses = stats.losses + excluded.losses, draws = stats.draws + excluded.draws,"
        " updated_at = excluded.updated_at",
        [
            (*_chat_of_user(session, result[0]), *result, session.updated_at)
            for result in stats_rows(session)
        ],
    )
    yield from rating_ops.record(session)


# --- loading, with quarantine ----------------------------------------------------------------


def load(dialect: Dialect, where: str, *params: Any, clock: Clock) -> Op[Session | None]:
    """The first session of ``SELECT ... WHERE <where>``, quarantining rows that do not load.

    A damaged row is moved to the ``quarantine`` table (its players and kv rows go with it) and
    the query runs again, so the caller sees the next valid row, or None.

    Raises:
        StoreError: damaged rows keep coming back (more than a hundred in one read).
    """
    sql = f"{_SELECT[dialect]} WHERE {where}"
    for _ in range(_MAX_QUARANTINES_PER_READ):
        found = yield row(sql, *params)
        if found is None:
            return None
        try:
            return decode_session(found)
        except BadRow:
            moved = yield Atomic(_quarantine(dialect, found[0], clock))
            # Logged after COMMIT, by the one connection whose transaction moved the row: once.
            if moved is not None:
                log.warning(
                    "session quarantined, it cannot be loaded: session=%s reason=%s", *moved
                )
    raise StoreError(f"more than {_MAX_QUARANTINES_PER_READ} damaged sessions in one read")


def _quarantine(dialect: Dialect, handle: Any, clock: Clock) -> Op[tuple[str, str] | None]:
    """Move the session row found by ``handle`` to ``quarantine`` if it still does not load.

    Returns:
        ``(session id, reason)`` if this call moved it; None if it is gone or loads now.
    """
    found = yield row(f"{_SELECT[dialect]} WHERE {_BY_HANDLE[dialect]}", handle)
    if found is None:
        return None  # someone else moved or deleted it meanwhile
    try:
        decode_session(found)
    except BadRow as bad:
        reason = str(bad)
    else:
        return None  # repaired meanwhile
    session_id = found[1] if isinstance(found[1], str) else None
    yield count(
        "INSERT INTO quarantine (session_id, row, reason, quarantined_at) VALUES ($1, $2, $3, $4)",
        session_id,
        row_json(found, handle=dialect is Dialect.SQLITE),
        reason,
        clock(),
    )
    yield count(
        f"DELETE FROM sessions WHERE {_BY_HANDLE[dialect].removesuffix(' FOR UPDATE')}", handle
    )
    return str(session_id), reason


# A game shown in the chat ($1, $2): its own, or a seat's other one (an open game).
_IN_CHAT = (
    "((platform = $1 AND chat_id = $2) OR (x_platform = $1 AND x_chat = $2)"
    " OR (o_platform = $1 AND o_chat = $2))"
)


def get(dialect: Dialect, session_id: str, clock: Clock) -> Op[Session | None]:
    return load(dialect, "id = $1", session_id, clock=clock)


def live_game(
    dialect: Dialect, platform: str, chat_id: str, user_id: str, clock: Clock
) -> Op[Session | None]:
    return load(
        dialect,
        "id = (SELECT session_id FROM players"
        " WHERE platform = $1 AND chat_id = $2 AND user_id = $3)",
        platform,
        chat_id,
        user_id,
        clock=clock,
    )


def challenge_for(
    dialect: Dialect, platform: str, chat_id: str, user_id: str, clock: Clock
) -> Op[Session | None]:
    return load(
        dialect,
        f"{_IN_CHAT} AND status = $3 AND challenged = $4 ORDER BY created_at DESC LIMIT 1",
        platform,
        chat_id,
        Status.CHALLENGE.value,
        user_id,
        clock=clock,
    )


def last_finished(
    dialect: Dialect, platform: str, chat_id: str, user_id: str | None, clock: Clock
) -> Op[Session | None]:
    # A user's games are the ones they sat at or started (watching two bots included).
    return load(
        dialect,
        f"{_IN_CHAT} AND status = $4 AND ($3::text IS NULL"
        " OR x_user = $3 OR o_user = $3 OR challenger = $3)"
        " ORDER BY updated_at DESC LIMIT 1",
        platform,
        chat_id,
        user_id,
        Status.FINISHED.value,
        clock=clock,
    )


def _put_receipt(receipt: KvEntry | None) -> Op[None]:
    """:func:`~core.store.table_ops.kv_set` when there is a receipt (inside the change's
    transaction)."""
    if receipt is not None:
        yield from table_ops.kv_set(receipt)

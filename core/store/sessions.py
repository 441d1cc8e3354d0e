"""The store's operations on sessions, each written once for SQLite and PostgreSQL (see
:mod:`core.store.sql`; the other tables' are in their features' modules: :mod:`core.store.kv`,
:mod:`core.store.stats`, :mod:`core.store.seeks`, ...).

Each public function is one whole operation, run by ``await store.run(sessions.get(id))``; its
name is the ``operation`` label of its timing. Every one raises ``StoreBusy`` when the database
stays locked and ``StoreUnavailable`` when it cannot be written or read (nothing was written in
either case; :mod:`core.store.errors`). Every change to a session is a compare-and-set on its
``version``: :func:`update`, :func:`delete` and :func:`swap` say whether they applied, so two
clicks, tasks or processes can never both apply a move. A write's ``receipt`` is stored in the
same transaction, iff it applies. Statements are in PostgreSQL's spelling; the few places where
the databases really part ask the store for its dialect (:data:`~core.store.sql.ENV`):

- a move that keeps the status is one statement on PostgreSQL (:func:`update`): a
  ``WITH ... UPDATE`` that also writes the receipt, which SQLite cannot write (and does not
  need: its operation is one hop however many statements it has);
- a damaged row is found again by its ``rowid`` on SQLite (its id may be NULL there), by its
  id on PostgreSQL (a primary key) (:mod:`core.store.quarantine`);
- elsewhere, the leases read each database's own clock (:mod:`core.store.leases`), and the
  schema version is ``PRAGMA user_version`` on SQLite, a table on PostgreSQL
  (:mod:`core.store.schema`).

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
from collections.abc import Sequence

from core.store import archive, event_results, kv, leases, limits, outbox, ratings
from core.store.errors import AlreadyPlaying
from core.store.migrations import Dialect
from core.store.models.kv import GameLimits, KvEntry
from core.store.models.outbox import KEPT, OutboxItem
from core.store.models.session import Session, Status
from core.store.quarantine import load
from core.store.rows import (
    PG_INSERT_SESSION,
    PG_UPDATE_SESSION,
    session_row,
    stats_rows,
)
from core.store.sql import ENV, Atomic, Op, count, many, row, rows, value

# --- sessions ------------------------------------------------------------------------------------


def create(
    session: Session, *, receipt: KvEntry | None = None, limits: GameLimits | None = None
) -> Op[None]:
    """Store a new session (its players rows, its result if finished, and the receipt), if it
    keeps ``limits`` (:mod:`core.store.limits`).

    Raises:
        AlreadyPlaying: a live user of ``session`` plays another game in the chat.
        Limited: ``limits`` refuse it.
    """
    yield Atomic(create_in(session, receipt, limits))


def create_in(
    session: Session, receipt: KvEntry | None = None, game_limits: GameLimits | None = None
) -> Op[None]:
    """:func:`create` inside a transaction already open (a paired seek's game)."""
    taken = [] if game_limits is None else (yield from limits.check(game_limits, session))
    yield count(PG_INSERT_SESSION, *session_row(session))
    yield from _set_players(session, new=True)
    if session.status is Status.FINISHED:
        yield from _record_result(session)
    for write in taken:  # noqa: UP028 (a list cannot take the answers the driver sends)
        yield write
    yield from _put_receipt(receipt)


def update(
    session: Session,
    *,
    expected_version: int,
    receipt: KvEntry | None = None,
    limits: GameLimits | None = None,
    notices: Sequence[OutboxItem] = (),
    now: float = 0.0,
) -> Op[bool]:
    """Replace the stored session if its version is still ``expected_version`` (and it keeps
    ``limits``), leaving ``notices`` in the outbox in the same transaction (kept from ``now``:
    what follows the change, told by the outbox's delivery). When the update moves the session
    to ``FINISHED``, the result is added to the players' stats in the same transaction (so it
    is counted exactly once).

    Returns:
        True if applied; False if the session changed meanwhile or is gone.

    Raises:
        AlreadyPlaying: a newly live user (an accepted challenge) has another live game.
        Limited: ``limits`` refused it; nothing was written.
    """
    env = yield ENV
    # Most updates are a move that keeps the status: on PostgreSQL one statement, one round
    # trip, where a transaction would be three.
    if (
        env.dialect is Dialect.POSTGRES
        and limits is None
        and not notices
        and (yield from _update_in_place(session, expected_version, receipt))
    ):
        return True
    return bool((yield Atomic(_update(session, expected_version, receipt, limits, notices, now))))


def _update(
    session: Session,
    expected_version: int,
    receipt: KvEntry | None,
    game_limits: GameLimits | None,
    notices: Sequence[OutboxItem] = (),
    now: float = 0.0,
) -> Op[bool]:
    taken = [] if game_limits is None else (yield from limits.check(game_limits, session))
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
    yield from outbox.notices(notices, now + KEPT)
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


def delete(
    session_id: str,
    *,
    expected_version: int | None = None,
    receipt: KvEntry | None = None,
    notices: Sequence[OutboxItem] = (),
    now: float = 0.0,
) -> Op[bool]:
    """Delete a session (at ``expected_version`` if given); players and kv rows go with it,
    and ``notices`` are left in the outbox in the same transaction (kept from ``now``). True if
    it was deleted."""
    return bool((yield Atomic(_delete(session_id, expected_version, receipt, notices, now))))


def _delete(
    session_id: str,
    expected_version: int | None,
    receipt: KvEntry | None,
    notices: Sequence[OutboxItem] = (),
    now: float = 0.0,
) -> Op[bool]:
    deleted = yield count(
        "DELETE FROM sessions WHERE id = $1 AND ($2::integer IS NULL OR version = $2)",
        session_id,
        expected_version,
    )
    if deleted != 1:
        return False
    yield from _put_receipt(receipt)
    yield from outbox.notices(notices, now + KEPT)
    return True


def swap(
    old: Session,
    new: Session,
    *,
    receipt: KvEntry | None = None,
    limits: GameLimits | None = None,
    notices: Sequence[OutboxItem] = (),
    now: float = 0.0,
) -> Op[bool]:
    """Delete ``old`` at its version and create ``new`` (if it keeps ``limits``), in one
    transaction, with ``notices`` left in the outbox (kept from ``now``).

    Returns:
        True if done; False, with nothing written, if ``old`` changed meanwhile or is gone.

    Raises:
        AlreadyPlaying: as :func:`create`; the transaction rolls back, ``old`` stays.
        Limited: as :func:`create`; ``old`` stays.
    """
    return bool((yield Atomic(_swap(old, new, receipt, limits, notices, now))))


def _swap(
    old: Session,
    new: Session,
    receipt: KvEntry | None,
    game_limits: GameLimits | None,
    notices: Sequence[OutboxItem],
    now: float,
) -> Op[bool]:
    taken = [] if game_limits is None else (yield from limits.check(game_limits, new))
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
    yield from create_in(new, receipt, None)
    if new.id == old.id:
        # What waits to be shown about the game follows it to its new chat.
        for before, after in {(old.chat_of(n), new.chat_of(n)) for n in (1, 2)}:
            if before != after:
                yield from outbox.moved(old.id, before, after)
    for write in taken:  # noqa: UP028 (a list cannot take the answers the driver sends)
        yield write
    yield from outbox.notices(notices, now + KEPT)
    return True


def delete_expired(now: float) -> Op[int]:
    """Delete every session whose ``expires_at`` is at or before ``now``, with its kv rows, and
    every kv row whose own ``expires_at`` has passed; safe to run in several processes at once
    (see the module's notes). Returns how many sessions were deleted."""
    return int((yield Atomic(_delete_expired(now))))


def _delete_expired(now: float) -> Op[int]:
    swept = yield count(
        "DELETE FROM sessions WHERE id IN (SELECT id FROM sessions"
        " WHERE expires_at <= $1 FOR UPDATE SKIP LOCKED)",
        now,
    )
    yield count(
        "DELETE FROM kv WHERE (namespace, key) IN (SELECT namespace, key FROM kv"
        f" WHERE expires_at <= $1 AND {leases.SWEEP_SPARES} FOR UPDATE SKIP LOCKED)",
        now,
    )
    yield from outbox.expire(now)
    return int(swept)


def due_clocks(now: float, limit: int) -> Op[list[str]]:
    """Ids of at most ``limit`` running games whose clock ran out at or before ``now``, the
    earliest first: the deadline's partial index gives them in order, a few entries read.
    Ending one is a compare-and-set (:func:`update`), so a move racing it gives one outcome."""
    found = yield rows(
        "SELECT id FROM sessions WHERE deadline <= $1 ORDER BY deadline LIMIT $2", now, limit
    )
    return [str(r[0]) for r in found]


def due_reminders(now: float, limit: int) -> Op[list[str]]:
    """Ids of at most ``limit`` running games whose player to move is due a reminder."""
    found = yield rows(
        "SELECT id FROM sessions WHERE remind_at <= $1 ORDER BY remind_at LIMIT $2", now, limit
    )
    return [str(r[0]) for r in found]


def take_reminder(
    session_id: str, version: int, *, notice: OutboxItem | None = None, now: float = 0.0
) -> Op[tuple[OutboxItem, ...] | None]:
    """Claim the reminder of ``session_id`` at ``version``, for exactly one caller of every
    process (None for the others), while the move it is about is still the one to play (the
    version is not bumped: the board's buttons stay valid). ``notice`` (the reminder to show)
    is left in the outbox in the same transaction (kept from ``now``); what was left, with its
    id."""
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
    left: tuple[OutboxItem, ...] = yield from outbox.notices(
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
    """Add a finished game to its players' stats and, if rated, its rating change, archive it
    for its web page, and a tournament game's result to its event (inside the finishing
    transaction: all are written, or none)."""
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
    yield from ratings.record(session)
    yield from archive.archive_in(session)
    yield from event_results.record(session)


# A game shown in the chat ($1, $2): its own, or a seat's other one (an open game).
_IN_CHAT = (
    "((platform = $1 AND chat_id = $2) OR (x_platform = $1 AND x_chat = $2)"
    " OR (o_platform = $1 AND o_chat = $2))"
)


def get(session_id: str) -> Op[Session | None]:
    """The session, or None when there is none with that id (or it could not be loaded)."""
    return (yield from load("id = $1", session_id))


def by_public_id(public_id: str) -> Op[Session | None]:
    """The session whose web page is ``public_id`` (:attr:`Session.public_id`), or None."""
    return (yield from load("public_id = $1", public_id))


def live_game(platform: str, chat_id: str, user_id: str) -> Op[Session | None]:
    """The user's live game in the chat (active, or a challenge they sent), if any."""
    return (
        yield from load(
            "id = (SELECT session_id FROM players"
            " WHERE platform = $1 AND chat_id = $2 AND user_id = $3)",
            platform,
            chat_id,
            user_id,
        )
    )


def challenge_for(platform: str, chat_id: str, user_id: str) -> Op[Session | None]:
    """The latest pending challenge addressed to the user in the chat, if any."""
    return (
        yield from load(
            f"{_IN_CHAT} AND status = $3 AND challenged = $4 ORDER BY created_at DESC LIMIT 1",
            platform,
            chat_id,
            Status.CHALLENGE.value,
            user_id,
        )
    )


def last_finished(platform: str, chat_id: str, user_id: str | None) -> Op[Session | None]:
    """The most recently finished game in the chat that the user played or started (any
    user's when ``user_id`` is None), if any."""
    # A user's games are the ones they sat at or started (watching two bots included).
    return (
        yield from load(
            f"{_IN_CHAT} AND status = $4 AND ($3::text IS NULL"
            " OR x_user = $3 OR o_user = $3 OR challenger = $3)"
            " ORDER BY updated_at DESC LIMIT 1",
            platform,
            chat_id,
            user_id,
            Status.FINISHED.value,
        )
    )


def _put_receipt(receipt: KvEntry | None) -> Op[None]:
    """:func:`core.store.kv.put` when there is a receipt (inside the change's transaction)."""
    if receipt is not None:
        yield from kv.put(receipt)

"""The matchmaking queue's operations, written once for SQLite and PostgreSQL (see
:mod:`core.store.sql`): a seek waits in the ``seeks`` table, never in one process's memory.

Pairing is exactly once across processes because a seek leaves the queue only in the
transaction that makes its game (or expires it, or cancels it), under a row lock:

- a new seek (:func:`seek`) locks the compatible seeks waiting for its game with ``FOR UPDATE
  SKIP LOCKED``: seeks another process is pairing are skipped, never waited for; the one
  chosen is deleted and the game written in the same transaction, or the new seek is queued;
- a pass over the queue (:func:`pair_waiting`) locks a batch of the oldest seeks the same way
  and pairs them with :func:`core.pairing.seeks.pair_up` (windows widen while seeks wait, so pairs
  appear with time, and two seeks that arrived in the same instant in two processes, each
  queued without seeing the other, are paired here);
- SQLite has one writer at a time: the locks are dropped there and the transaction does it.

A process killed in the middle rolls its transaction back: every seek is still queued and no
game is half made. A game is built by the caller's ``make`` (who plays first, the clock, the
lifetime are the service's to choose), from two seeks, inside the transaction.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from core.games import Rules
from core.pairing.seeks import Seek, choose, pair_up
from core.ratings.rating import START_DEVIATION, Rating
from core.store import limits, outbox
from core.store.errors import Limited
from core.store.models.outbox import KEPT, JsonValue, Kind, OutboxItem
from core.store.models.seeks import AlreadySeeking, MakeGame, Paired, Queued, SeekResult
from core.store.models.session import Session
from core.store.sessions import create_in, get
from core.store.sql import Atomic, Op, count, placeholders, row, rows, value

log = logging.getLogger(__name__)

CANDIDATES = 64
"""Waiting seeks a new seek looks at (the oldest of its game): enough for a rating to find its
window, few enough that the locks it holds leave the rest of the queue to other processes."""

SEEK_COLUMNS = (
    "player",
    "id",
    "platform",
    "chat_id",
    "user_id",
    "name",
    "rows",
    "cols",
    "k",
    "gravity",
    "rated",
    "clock",
    "rating",
    "created_at",
    "expires_at",
    "server_id",
    "deviation",
    "games",
    "max_games",
)
_COLUMNS = ", ".join(SEEK_COLUMNS)

PAGES = 20
"""Batches one pass looks through while none pairs anybody."""
_SELECT = f"SELECT {_COLUMNS} FROM seeks"


def seek_row(s: Seek) -> tuple[Any, ...]:
    r = s.rules
    return (
        s.player,
        s.id,
        s.platform,
        s.chat_id,
        s.user_id,
        s.name,
        r.rows,
        r.cols,
        r.k,
        int(r.gravity),
        int(s.rated),
        s.clock,
        s.rating,
        s.created_at,
        s.expires_at,
        s.server_id,
        s.deviation,
        s.games,
        s.max_games,
    )


def decode_seek(found: Sequence[Any]) -> Seek | None:
    """A ``seeks`` row back to a :class:`Seek`; None for a row that does not make one (it is
    left out of pairing and goes at its expiry: a seek is cheap to lose, a crash is not)."""
    try:
        (player, id_, platform, chat_id, user_id, name, rows_, cols, k, gravity, rated) = found[:11]
        clock, rating, created_at, expires_at = (float(v) for v in found[11:15])
        if not all(isinstance(v, str) for v in (player, id_, platform, chat_id, user_id, name)):
            return None
        rules = Rules(int(rows_), int(cols), int(k), gravity=bool(gravity))
        # Seeks written before the open seats and seek caps steps (queued, or in an outbox
        # item) have none.
        server_id, deviation, games, cap = (*found[15:19], None, None, None, None)[:4]
        if not isinstance(server_id, str | None):
            return None
        max_games = None if cap is None else int(cap)
        whole = Rating(
            rating,
            START_DEVIATION if deviation is None else float(deviation),
            0 if games is None else int(games),
        )
    except (TypeError, ValueError):
        return None
    return Seek(
        id=id_,
        player=player,
        platform=platform,
        chat_id=chat_id,
        user_id=user_id,
        name=name,
        rules=rules,
        rated=bool(rated),
        clock=clock,
        rating=rating,
        created_at=created_at,
        expires_at=expires_at,
        deviation=whole.deviation,
        games=whole.games,
        server_id=server_id,
        max_games=max_games,
    )


def _decoded(found: Sequence[Sequence[Any]]) -> list[Seek]:
    return [s for s in map(decode_seek, found) if s is not None]


# --- a new seek ----------------------------------------------------------------------------------


def seek(new: Seek, make: MakeGame, *, max_user_games: int | None = None) -> Op[SeekResult]:
    """Pair ``new`` with a compatible waiting seek (their game stored), or queue it (one
    transaction).

    Raises:
        Limited: the player already has ``max_user_games`` live games (open games count).
    """
    result: SeekResult = yield Atomic(_seek(new, make, max_user_games))
    return result


def _seek(new: Seek, make: MakeGame, max_user_games: int | None) -> Op[SeekResult]:
    existing = _decoded((yield rows(f"{_SELECT} WHERE player = $1", new.player)))
    if existing:
        return AlreadySeeking(existing[0])
    new = replace(new, max_games=max_user_games)
    # The seeker's row of the limits first, as every check of the limits takes it; a
    # partner's after the seeks' rows, as every pairing takes them.
    if max_user_games is not None and not (yield from _under_cap(new, new.created_at)):
        raise Limited("limits.user_games", max=max_user_games)
    r = new.rules
    candidates = _decoded(
        (
            yield rows(
                f"{_SELECT} WHERE rows = $1 AND cols = $2 AND k = $3 AND gravity = $4"
                " AND rated = $5 AND player <> $6 AND expires_at > $7"
                f" ORDER BY created_at LIMIT {CANDIDATES} FOR UPDATE SKIP LOCKED",
                r.rows,
                r.cols,
                r.k,
                int(r.gravity),
                int(new.rated),
                new.player,
                new.created_at,
            )
        )
    )
    blocked = yield from _blocks([new.player], [c.player for c in candidates])
    while candidates:
        other = choose(new, candidates, new.created_at, blocked)
        if other is None:
            break
        candidates.remove(other)
        if not ((yield from _free(other)) and (yield from _under_cap(other, new.created_at))):
            continue  # its player started a game meanwhile: it waits
        yield count("DELETE FROM seeks WHERE id = $1", other.id)
        session = make(other, new)
        yield from create_in(session)
        return (yield from _paired(session, (other, new), new.created_at, new))
    # Two seeks of one player at once (two chats, two processes): the second waits for the
    # first to commit, then finds it.
    queued = yield count(
        f"INSERT INTO seeks ({_COLUMNS}) VALUES ({placeholders(1, len(SEEK_COLUMNS))})"
        " ON CONFLICT (player) DO NOTHING",
        *seek_row(new),
    )
    if queued != 1:
        first = yield from seek_of(new.player)
        return Queued(new) if first is None else AlreadySeeking(first)
    return Queued(new)


def _paired(
    session: Session, seeks: tuple[Seek, Seek], now: float, asked: Seek | None
) -> Op[Paired]:
    """The pairing's notices left in its transaction: the new board, under the pairing line
    (written from both seeks), in each of the game's chats but the one of the seek ``asked``
    (answered by the request)."""
    detail: dict[str, JsonValue] = {"seeks": [list(seek_row(seek)) for seek in seeks]}
    answered = None if asked is None else (asked.platform, asked.chat_id)
    items = [
        OutboxItem(Kind.PAIRED, platform, chat_id, session.id, session.version, detail=detail)
        for platform, chat_id in session.chats
        if (platform, chat_id) != answered
    ]
    notices = yield from outbox.notices(items, now + KEPT)
    return Paired(session, seeks, notices)


def blocks_among(players: Sequence[str]) -> Op[set[tuple[str, str]]]:
    """The blocks between any two of ``players`` (a tournament's field; either way)."""
    return (yield from _blocks(players, players))


def _blocks(players: Sequence[str], others: Sequence[str]) -> Op[set[tuple[str, str]]]:
    """The blocks between any of ``players`` and any of ``others`` (either way)."""
    everyone = list(dict.fromkeys([*players, *others]))
    if not others or not everyone:
        return set()
    n = len(everyone)
    found = yield rows(
        "SELECT player, blocked FROM blocks"
        f" WHERE player IN ({placeholders(1, n)}) AND blocked IN ({placeholders(n + 1, n)})",
        *everyone,
        *everyone,
    )
    return {(str(a), str(b)) for a, b in found}


def _under_cap(s: Seek, now: float) -> Op[bool]:
    """Whether the seeker holds fewer live games than their cap (every account of their
    identity), under the lock of their row of the limits (:mod:`core.store.limits`)."""
    if s.max_games is None:
        return True
    yield from limits.hold_player(s.player, now)
    return (yield from limits.live_games(s.player, s.platform, s.user_id)) < s.max_games


def _free(s: Seek) -> Op[bool]:
    """Whether the seeker has no live game in the chat they sought from."""
    busy = yield value(
        "SELECT session_id FROM players WHERE platform = $1 AND chat_id = $2 AND user_id = $3",
        s.platform,
        s.chat_id,
        s.user_id,
    )
    return busy is None


# --- the queue -----------------------------------------------------------------------------------


def pair_waiting(now: float, make: MakeGame, *, batch: int = 500) -> Op[list[Paired]]:
    """One pass: the oldest ``batch`` waiting seeks that no other process is pairing, paired
    among themselves (one transaction)."""
    made: list[Paired] = yield Atomic(_pair_waiting(now, make, batch))
    return made


def _pair_waiting(now: float, make: MakeGame, batch: int) -> Op[list[Paired]]:
    made: list[Paired] = []
    after = float("-inf")
    for _ in range(PAGES):
        waiting = _decoded(
            (
                yield rows(
                    f"{_SELECT} WHERE expires_at > $1 AND created_at > $2"
                    f" ORDER BY created_at LIMIT {int(batch)} FOR UPDATE SKIP LOCKED",
                    now,
                    after,
                )
            )
        )
        if len(waiting) >= 2:
            made += yield from _pair_batch(waiting, now, make)
        if made or len(waiting) < batch:
            return made
        # A full batch that paired nobody (seeks out of every window): the next one, so the
        # oldest misfits never stop younger seeks from meeting.
        after = waiting[-1].created_at
    return made


def _pair_batch(waiting: list[Seek], now: float, make: MakeGame) -> Op[list[Paired]]:
    players = [s.player for s in waiting]
    blocked = yield from _blocks(players, players)
    made: list[Paired] = []
    for first, second in pair_up(waiting, now, blocked):
        if not ((yield from _free(first)) and (yield from _free(second))):
            continue
        # Both rows of the limits, in one order (the key's) for every pairing.
        low, high = sorted((first, second), key=lambda s: s.player)
        if not ((yield from _under_cap(low, now)) and (yield from _under_cap(high, now))):
            continue
        yield count("DELETE FROM seeks WHERE id IN ($1, $2)", first.id, second.id)
        session = make(first, second)
        yield from create_in(session)
        made.append((yield from _paired(session, (first, second), now, None)))
    return made


def expire_seeks(now: float) -> Op[list[Seek]]:
    """Delete the seeks that expired by ``now``, each with its notice to its player left in
    the outbox in the same transaction; each is returned to exactly one caller (the one whose
    statement deleted it)."""
    gone: list[Seek] = yield Atomic(_expire(now))
    return gone


def _expire(now: float) -> Op[list[Seek]]:
    found = yield rows(
        f"DELETE FROM seeks WHERE player IN (SELECT player FROM seeks WHERE expires_at <= $1"
        f" FOR UPDATE SKIP LOCKED) RETURNING {_COLUMNS}",
        now,
        writes=True,
    )
    gone = _decoded(found)
    yield from _gone_notices(gone, now, {})
    return gone


def _gone_notices(gone: Sequence[Seek], now: float, detail: dict[str, JsonValue]) -> Op[None]:
    """Each seek's notice to its seeker, in the chat they sought from, left in the outbox by
    the transaction that took it out of the queue (the pass that follows shows it)."""
    items = [
        OutboxItem(
            Kind.SEEK_EXPIRED, s.platform, s.chat_id, detail={"seek": list(seek_row(s)), **detail}
        )
        for s in gone
    ]
    yield from outbox.notices(items, now + KEPT)


def cancel_seek(player: str) -> Op[Seek | None]:
    """Take the player's seek out of the queue; it, or None when none waits."""
    found = yield row(
        f"DELETE FROM seeks WHERE player = $1 RETURNING {_COLUMNS}", player, writes=True
    )
    return None if found is None else decode_seek(found)


def seeks_in(platform: str, chat_id: str, server_id: str | None) -> Op[list[Seek]]:
    """The seeks from the chat, or from every chat of the Discord server ``server_id``."""
    found = yield rows(
        f"{_SELECT} WHERE platform = $1 AND (chat_id = $2 OR server_id = $3)",
        platform,
        chat_id,
        server_id,
    )
    return _decoded(found)


def drop_seeks(ids: Sequence[str], now: float) -> Op[list[Seek]]:
    """Take the seeks ``ids`` out of the queue, each with its notice (withdrawn) left in the
    outbox in the same transaction; those that were still there."""
    if not ids:
        return []
    gone: list[Seek] = yield Atomic(_drop_seeks(ids, now))
    return gone


def _drop_seeks(ids: Sequence[str], now: float) -> Op[list[Seek]]:
    found = yield rows(
        f"DELETE FROM seeks WHERE id IN ({placeholders(1, len(ids))}) RETURNING {_COLUMNS}",
        *ids,
        writes=True,
    )
    gone = _decoded(found)
    yield from _gone_notices(gone, now, {"withdrawn": True})
    return gone


def seek_of(player: str) -> Op[Seek | None]:
    """The player's waiting seek, if any."""
    found = yield row(f"{_SELECT} WHERE player = $1", player)
    return None if found is None else decode_seek(found)


def waiting_seeks(now: float, limit: int = 50) -> Op[list[Seek]]:
    """The oldest waiting seeks (what ``/seek`` shows)."""
    found = yield rows(
        f"{_SELECT} WHERE expires_at > $1 ORDER BY created_at LIMIT {int(limit)}", now
    )
    return _decoded(found)


def any_seeks() -> Op[bool]:
    """Whether the queue holds any seek (a pass over an empty queue writes nothing)."""
    return (yield value("SELECT 1 FROM seeks LIMIT 1")) is not None


# --- blocks --------------------------------------------------------------------------------------


def open_games_of(platform: str, chat_id: str, user_id: str, limit: int = 10) -> Op[list[Session]]:
    """The latest open games (still kept: live, or finished and not yet swept) in which
    ``user_id`` played from that chat, newest first: whom ``/block`` may mean there."""
    # The player's seat in the session's own chat, or in the seat's other chat: each part
    # served by an index (sessions_chat, sessions_x_chat, sessions_o_chat).
    found = yield rows(
        "SELECT id, updated_at FROM sessions WHERE platform = $1 AND chat_id = $2 AND"
        " ((x_user = $3 AND x_chat IS NULL AND o_chat IS NOT NULL)"
        " OR (o_user = $3 AND o_chat IS NULL AND x_chat IS NOT NULL))"
        " UNION ALL SELECT id, updated_at FROM sessions"
        " WHERE x_platform = $1 AND x_chat = $2 AND x_user = $3"
        " UNION ALL SELECT id, updated_at FROM sessions"
        " WHERE o_platform = $1 AND o_chat = $2 AND o_user = $3"
        f" ORDER BY updated_at DESC LIMIT {int(limit)}",
        platform,
        chat_id,
        user_id,
    )
    games: list[Session] = []
    for session_id, _ in found:
        # One at a time through the quarantine: a damaged row must not hide the others.
        session = yield from get(str(session_id))
        if session is not None:
            games.append(session)
    return games


def block(player: str, blocked: str, now: float) -> Op[bool]:
    """``player`` never meets ``blocked`` again; False if that block was already there."""
    added = yield count(
        "INSERT INTO blocks (player, blocked, created_at) VALUES ($1, $2, $3)"
        " ON CONFLICT (player, blocked) DO NOTHING",
        player,
        blocked,
        now,
    )
    return bool(added)


def unblock(player: Sequence[str], blocked: Sequence[str]) -> Op[bool]:
    """``player`` may meet ``blocked`` again; False if there was no block to remove.

    Each side is given in every form of identity its blocks may be stored under (the account's
    linked identity and its own): ``/link`` carries blocks to the shared identity, ``/unlink``
    copies them to the account's own, and a block left under a form the account no longer has
    would come back with the next ``/unlink``.
    """
    players, others = list(dict.fromkeys(player)), list(dict.fromkeys(blocked))
    if not players or not others:
        return False
    n = len(players)
    removed = yield count(
        f"DELETE FROM blocks WHERE player IN ({placeholders(1, n)})"
        f" AND blocked IN ({placeholders(n + 1, len(others))})",
        *players,
        *others,
    )
    return bool(removed)


def blocked(a: str, b: str) -> Op[bool]:
    """Whether either of two players blocked the other."""
    found = yield value(
        "SELECT count(*) FROM blocks WHERE (player = $1 AND blocked = $2)"
        " OR (player = $2 AND blocked = $1)",
        a,
        b,
    )
    return int(found) > 0

"""Tournaments' operations, written once for SQLite and PostgreSQL (see :mod:`core.store.sql`;
the values are :mod:`core.store.models.events`; a game's result is written where the game
ends, :mod:`core.store.event_results`).

Every change a director makes to an event is one transaction, a compare-and-set on the event's
``version`` (:func:`advance`): two processes that both think they direct it cannot both pair a
round. A join or a withdrawal bumps the version too, so a start or a wave computed from the
players before it is refused and computed again: a player who joined at the start instant is
in the first round or refused, never registered and left out. A pairing is stored before its
game (:func:`start_game` writes the session and marks the pairing started in one transaction),
so a process killed between the two leaves a pairing that the next pass starts, never a game
without its pairing nor a pairing twice started.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from core.games import Rules
from core.store import event_results, outbox, sessions
from core.store.models.events import (
    Event,
    EventBye,
    EventGame,
    EventPlayer,
    EventStatus,
    Format,
)
from core.store.models.outbox import KEPT, OutboxItem
from core.store.models.session import Session
from core.store.sql import Atomic, Op, count, many, row, rows

_EVENT = (
    "id, format, rows, cols, k, gravity, length, clock, rated, open, starts_at, platform,"
    " chat_id, server_id, created_by, name, status, round, version, reminded, created_at,"
    " public_id, berserk"
)
_PLAYER = (
    "event_id, player, platform, user_id, chat_id, server_id, name, rating, score, joined,"
    " withdrawn, berserk"
)
_GAME = (
    "event_id, round, session_id, x, o, seq, started, x_score, o_score, plies, finished_at, berserk"
)


def _event_row(e: Event) -> tuple[Any, ...]:
    r = e.rules
    return (
        e.id,
        e.format.value,
        r.rows,
        r.cols,
        r.k,
        int(r.gravity),
        e.length,
        e.clock,
        int(e.rated),
        int(e.open),
        e.starts_at,
        e.platform,
        e.chat_id,
        e.server_id,
        e.created_by,
        e.name,
        e.status.value,
        e.round,
        e.version,
        int(e.reminded),
        e.created_at,
        e.public_id,
        int(e.berserk),
    )


def _event(found: Sequence[Any]) -> Event:
    (id_, fmt, rows_, cols, k, gravity, length, clock, rated, open_, starts_at, platform) = found[
        :12
    ]
    (chat_id, server_id, created_by, name, status, round_, version, reminded, created) = found[
        12:21
    ]
    return Event(
        id=str(id_),
        format=Format(fmt),
        rules=Rules(int(rows_), int(cols), int(k), gravity=bool(gravity)),
        length=float(length),
        clock=float(clock),
        rated=bool(rated),
        open=bool(open_),
        starts_at=float(starts_at),
        platform=str(platform),
        chat_id=str(chat_id),
        server_id=None if server_id is None else str(server_id),
        created_by=str(created_by),
        name=str(name),
        status=EventStatus(status),
        round=int(round_),
        version=int(version),
        reminded=bool(reminded),
        created_at=float(created),
        public_id=str(found[21]),
        berserk=bool(found[22]),
    )


def _player(found: Sequence[Any]) -> EventPlayer:
    (event_id, player, platform, user_id, chat_id, server_id, name, rating) = found[:8]
    score, joined, withdrawn, berserk = found[8:]
    return EventPlayer(
        event_id=str(event_id),
        player=str(player),
        platform=str(platform),
        user_id=str(user_id),
        chat_id=str(chat_id),
        server_id=None if server_id is None else str(server_id),
        name=str(name),
        rating=float(rating),
        score=float(score),
        joined=int(joined),
        withdrawn=bool(withdrawn),
        berserk=bool(berserk),
    )


def _game(found: Sequence[Any]) -> EventGame:
    event_id, round_, session_id, x, o, seq, started, x_score, o_score, plies, finished = found[:11]
    return EventGame(
        event_id=str(event_id),
        round=int(round_),
        session_id=str(session_id),
        x=str(x),
        o=str(o),
        seq=int(seq),
        started=bool(started),
        x_score=None if x_score is None else float(x_score),
        o_score=None if o_score is None else float(o_score),
        plies=int(plies),
        finished_at=None if finished is None else float(finished),
        berserk=int(found[11]),
    )


# --- events --------------------------------------------------------------------------------------


def create_event(event: Event) -> Op[None]:
    """Store a new event."""
    yield count(
        f"INSERT INTO events ({_EVENT}) VALUES ({', '.join(f'${i}' for i in range(1, 24))})",
        *_event_row(event),
    )


def get_event(event_id: str) -> Op[Event | None]:
    found = yield row(f"SELECT {_EVENT} FROM events WHERE id = $1", event_id)
    return None if found is None else _event(found)


def event_by_public_id(public_id: str) -> Op[Event | None]:
    """The event whose web page is ``/event/<public_id>``."""
    found = yield row(f"SELECT {_EVENT} FROM events WHERE public_id = $1", public_id)
    return None if found is None else _event(found)


def live_events() -> Op[list[Event]]:
    """The events scheduled or running, the soonest first (what the directors direct)."""
    found = yield rows(
        f"SELECT {_EVENT} FROM events WHERE status IN ('scheduled', 'running')"
        " ORDER BY starts_at, id"
    )
    return [_event(one) for one in found]


def recent_events(since: float, limit: int) -> Op[list[Event]]:
    """The events scheduled or running, and those finished that started after ``since``: the
    latest start first, at most ``limit`` (the home page keeps the public ones)."""
    found = yield rows(
        f"SELECT {_EVENT} FROM events WHERE status IN ('scheduled', 'running')"
        " OR (status = 'finished' AND starts_at >= $1)"
        f" ORDER BY starts_at DESC, id LIMIT {int(limit)}",
        since,
    )
    return [_event(one) for one in found]


def chat_events(platform: str, chat_id: str, limit: int = 5) -> Op[list[Event]]:
    """The events made in a chat, the newest first."""
    found = yield rows(
        f"SELECT {_EVENT} FROM events WHERE platform = $1 AND chat_id = $2"
        f" ORDER BY created_at DESC, id LIMIT {int(limit)}",
        platform,
        chat_id,
    )
    return [_event(one) for one in found]


def player_events(platform: str, user_id: str) -> Op[list[Event]]:
    """The live events an account plays in, the soonest first."""
    found = yield rows(
        f"SELECT {', '.join('e.' + c.strip() for c in _EVENT.split(','))} FROM events AS e"
        " JOIN event_players AS p ON p.event_id = e.id WHERE p.platform = $1 AND p.user_id = $2"
        " AND p.withdrawn = 0 AND e.status IN ('scheduled', 'running') ORDER BY e.starts_at, e.id",
        platform,
        user_id,
    )
    return [_event(one) for one in found]


def players(event_id: str) -> Op[list[EventPlayer]]:
    found = yield rows(
        f"SELECT {_PLAYER} FROM event_players WHERE event_id = $1 ORDER BY player", event_id
    )
    return [_player(one) for one in found]


def games(event_id: str) -> Op[list[EventGame]]:
    """The event's pairings in the order they were made."""
    found = yield rows(
        f"SELECT {_GAME} FROM event_games WHERE event_id = $1 ORDER BY seq", event_id
    )
    return [_game(one) for one in found]


def byes(event_id: str) -> Op[list[EventBye]]:
    found = yield rows(
        "SELECT event_id, round, player, points FROM event_byes WHERE event_id = $1"
        " ORDER BY round, player",
        event_id,
    )
    return [EventBye(str(e), int(r), str(p), float(points)) for e, r, p, points in found]


def game_of(session_id: str) -> Op[EventGame | None]:
    """The pairing a game was made for, if it was."""
    found = yield row(f"SELECT {_GAME} FROM event_games WHERE session_id = $1", session_id)
    return None if found is None else _game(found)


# --- joining and leaving -------------------------------------------------------------------------


class Joined(enum.Enum):
    JOINED = "joined"
    BACK = "back"
    """A player who had left an event that has started came back (an arena)."""
    ALREADY = "already"
    CLOSED = "closed"
    """Over, or started where a late join is not allowed (Swiss, round robin)."""


def join(player: EventPlayer) -> Op[Joined]:
    """Register ``player`` (his ``joined`` round set to the next one)."""
    done: Joined = yield Atomic(_join(player))
    return done


def _join(player: EventPlayer) -> Op[Joined]:
    # Bumping the version locks the event against its start (a start read before this join
    # is refused and read again), and tells a director that the field changed.
    found = yield row(
        "UPDATE events SET version = version + 1 WHERE id = $1"
        " AND (status = 'scheduled' OR (status = 'running' AND format = 'arena'))"
        " RETURNING round",
        player.event_id,
        writes=True,
    )
    if found is None:
        return Joined.CLOSED
    was = yield row(
        "SELECT withdrawn FROM event_players WHERE event_id = $1 AND player = $2",
        player.event_id,
        player.player,
    )
    if was is not None:
        if not was[0]:
            return Joined.ALREADY
        yield count(
            "UPDATE event_players SET withdrawn = 0, chat_id = $3, server_id = $4"
            " WHERE event_id = $1 AND player = $2",
            player.event_id,
            player.player,
            player.chat_id,
            player.server_id,
        )
        return Joined.BACK
    yield count(
        f"INSERT INTO event_players ({_PLAYER})"
        " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
        player.event_id,
        player.player,
        player.platform,
        player.user_id,
        player.chat_id,
        player.server_id,
        player.name,
        player.rating,
        0.0,
        int(found[0]) + 1,
        0,
        0,
    )
    return Joined.JOINED


class Left(enum.Enum):
    LEFT = "left"
    """Taken off an event not started yet."""
    WITHDRAWN = "withdrawn"
    """Not paired again; his results stay."""
    NOT_IN = "not_in"


@dataclass(frozen=True, slots=True)
class Leaving:
    """What :func:`leave` did, and the game he was playing (the caller resigns it)."""

    left: Left
    playing: str | None = None


def leave(event_id: str, player: str, now: float) -> Op[Leaving]:
    done: Leaving = yield Atomic(_leave(event_id, player, now))
    return done


def _leave(event_id: str, player: str, now: float) -> Op[Leaving]:
    status = yield row(
        "UPDATE events SET version = version + 1 WHERE id = $1"
        " AND status IN ('scheduled', 'running') RETURNING status",
        event_id,
        writes=True,
    )
    there = yield row(
        "SELECT withdrawn FROM event_players WHERE event_id = $1 AND player = $2",
        event_id,
        player,
    )
    if status is None or there is None or there[0]:
        return Leaving(Left.NOT_IN)
    if status[0] == EventStatus.SCHEDULED.value:
        yield count(
            "DELETE FROM event_players WHERE event_id = $1 AND player = $2", event_id, player
        )
        return Leaving(Left.LEFT)
    yield count(
        "UPDATE event_players SET withdrawn = 1, berserk = 0 WHERE event_id = $1 AND player = $2",
        event_id,
        player,
    )
    # A pairing whose game was not written yet is lost by the one who left.
    forfeited = yield rows(
        "UPDATE event_games SET started = 1, finished_at = $3,"
        " x_score = CASE WHEN x = $2 THEN 0 ELSE 1 END,"
        " o_score = CASE WHEN o = $2 THEN 0 ELSE 1 END"
        " WHERE event_id = $1 AND started = 0 AND (x = $2 OR o = $2) RETURNING x, o",
        event_id,
        player,
        now,
        writes=True,
    )
    if forfeited:
        yield from event_results.rescore(event_id, [p for pair in forfeited for p in pair])
    playing = yield row(
        "SELECT session_id FROM event_games WHERE event_id = $1 AND started = 1"
        " AND x_score IS NULL AND (x = $2 OR o = $2)",
        event_id,
        player,
    )
    return Leaving(Left.WITHDRAWN, None if playing is None else str(playing[0]))


# --- directing ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Advance:
    """One step of an event, written at once: its new status and round, the pairings and byes
    it makes, and the notices that follow it (left in the outbox in the same transaction)."""

    status: EventStatus
    round: int
    reminded: bool
    games: Sequence[EventGame] = ()
    byes: Sequence[EventBye] = ()
    notices: Sequence[OutboxItem] = ()


def advance(
    event_id: str, expected_version: int, step: Advance, now: float
) -> Op[tuple[OutboxItem, ...] | None]:
    """Apply ``step`` if the event is still at ``expected_version``: the notices left (with
    their ids, to show at once), or None when the event changed meanwhile (nothing written)."""
    done: tuple[OutboxItem, ...] | None = yield Atomic(
        _advance(event_id, expected_version, step, now)
    )
    return done


def _advance(
    event_id: str, expected_version: int, step: Advance, now: float
) -> Op[tuple[OutboxItem, ...] | None]:
    if (
        yield count(
            "UPDATE events SET status = $3, round = $4, reminded = $5, version = version + 1"
            " WHERE id = $1 AND version = $2",
            event_id,
            expected_version,
            step.status.value,
            step.round,
            int(step.reminded),
        )
    ) != 1:
        return None
    if step.games:
        yield many(
            "INSERT INTO event_games (event_id, round, session_id, x, o, started, plies)"
            " VALUES ($1, $2, $3, $4, $5, 0, 0)",
            [(event_id, g.round, g.session_id, g.x, g.o) for g in step.games],
        )
    if step.byes:
        yield many(
            "INSERT INTO event_byes (event_id, round, player, points) VALUES ($1, $2, $3, $4)",
            [(event_id, b.round, b.player, b.points) for b in step.byes],
        )
        yield from event_results.rescore(event_id, [b.player for b in step.byes])
    left: tuple[OutboxItem, ...] = yield from outbox.notices(step.notices, now + KEPT)
    return left


def start_game(
    session: Session, notices: Sequence[OutboxItem], now: float
) -> Op[tuple[OutboxItem, ...] | None]:
    """Write the game of a stored pairing (``session.id`` is the pairing's) and leave its
    notices; None when it was written already (by another pass).

    Raises:
        AlreadyPlaying: a player has another live game in his chat (nothing written: the next
            pass tries again).
    """
    done: tuple[OutboxItem, ...] | None = yield Atomic(_start_game(session, notices, now))
    return done


def _start_game(
    session: Session, notices: Sequence[OutboxItem], now: float
) -> Op[tuple[OutboxItem, ...] | None]:
    if (
        yield count(
            "UPDATE event_games SET started = 1 WHERE session_id = $1 AND started = 0", session.id
        )
    ) != 1:
        return None
    yield from sessions.create_in(session)
    left: tuple[OutboxItem, ...] = yield from outbox.notices(notices, now + KEPT)
    return left


def forfeit_gone(event_id: str, now: float) -> Op[int]:
    """End with no result the event's games whose session is gone without one (quit before a
    move, which deletes a game; swept): how many."""
    done: int = yield Atomic(_forfeit_gone(event_id, now))
    return done


def _forfeit_gone(event_id: str, now: float) -> Op[int]:
    gone = yield rows(
        "UPDATE event_games SET x_score = 0, o_score = 0, finished_at = $2"
        " WHERE event_id = $1 AND started = 1 AND x_score IS NULL AND NOT EXISTS"
        " (SELECT 1 FROM sessions WHERE sessions.id = event_games.session_id) RETURNING x, o",
        event_id,
        now,
        writes=True,
    )
    if gone:
        yield from event_results.rescore(event_id, [p for pair in gone for p in pair])
    return len(gone)

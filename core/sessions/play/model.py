"""A session's life as one table: which event moves which status where (pure, no I/O).

Every change the service makes to a stored session goes through :func:`transition`, so the
status changes in one place and each change bumps ``version`` (the compare-and-set the store
applies) and pushes ``expires_at`` forward. Events that end a session without a result (a
declined or withdrawn challenge, a game quit before any move, a finished game consumed by its
rematch) delete it instead; :data:`REMOVALS` says when that is allowed.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import replace
from typing import Protocol

from core.games import Outcome, Position, Rules, Termination
from core.store import Seat, Session, Status, new_session_id

REMINDED_FROM = 60.0
"""Clocks of at least this many seconds remind the player to move; a shorter one is watched."""

REMIND_AT_LEFT = 0.2
"""The reminder comes when this share of the mover's time is left."""

CLOCK_GRACE = 3600.0
"""A running timed game expires at the earliest this long after its deadline (the clock's sweep
ends it long before; a bot down for longer ends it at start-up, before the expiry sweep)."""


class Event(enum.Enum):
    """Something that happens to a session."""

    ACCEPT = "accept"  # the challenged player said yes
    MOVE = "move"  # a stone was placed and the game goes on
    FINISH = "finish"  # a stone won the game or filled the board
    RESIGN = "resign"  # a player ended a game in which a move was played: the other side wins
    STOP = "stop"  # a bots' game was stopped by its watcher, or ran out of time
    TIMEOUT = "timeout"  # the player to move let their clock run out: the other side wins
    DECLINE = "decline"  # the challenged player said no
    WITHDRAW = "withdraw"  # the challenger took the challenge back
    ABANDON = "abandon"  # a game ended before anyone moved: no result
    LEAVE = "leave"  # a player, or the bot, left the chat: abandoned
    REMATCH = "rematch"  # a finished game gave way to its rematch
    BERSERK = "berserk"  # a player of an arena game took half his clock (before his first move)


class InvalidTransition(RuntimeError):
    """The service asked for a change the table does not allow (a bug, not a player's error)."""


TRANSITIONS: Mapping[tuple[Status, Event], Status] = {
    (Status.CHALLENGE, Event.ACCEPT): Status.ACTIVE,
    (Status.ACTIVE, Event.MOVE): Status.ACTIVE,
    (Status.ACTIVE, Event.FINISH): Status.FINISHED,
    (Status.ACTIVE, Event.RESIGN): Status.FINISHED,
    (Status.ACTIVE, Event.STOP): Status.FINISHED,
    (Status.ACTIVE, Event.LEAVE): Status.FINISHED,
    (Status.ACTIVE, Event.TIMEOUT): Status.FINISHED,
    (Status.ACTIVE, Event.BERSERK): Status.ACTIVE,
}
"""Status changes of a session that stays stored."""

REMOVALS: frozenset[tuple[Status, Event]] = frozenset(
    {
        (Status.CHALLENGE, Event.DECLINE),
        (Status.CHALLENGE, Event.WITHDRAW),
        (Status.CHALLENGE, Event.LEAVE),
        (Status.ACTIVE, Event.ABANDON),
        (Status.FINISHED, Event.REMATCH),
    }
)
"""Events that delete a session (it ends with no result to keep)."""


def transition(
    session: Session,
    event: Event,
    *,
    now: float,
    ttl: float,
    moves: tuple[int, ...] | None = None,
    outcome: Outcome | None = None,
    seats: tuple[Seat, Seat] | None = None,
    berserk: int = 0,
) -> Session:
    """The session after ``event``, one version later, alive ``ttl`` seconds from ``now``
    (``berserk``: the seats, a bit each, that go berserk with it).

    Raises:
        InvalidTransition: the table has no such change from the session's status, or the
            outcome is missing for a finished session (or given for one that goes on).
    """
    target = TRANSITIONS.get((session.status, event))
    if target is None:
        raise InvalidTransition(f"no transition from {session.status.value} on {event.value}")
    if (outcome is None) == (target is Status.FINISHED):
        raise InvalidTransition(f"{event.value} to {target.value} with outcome {outcome!r}")
    deadline = remind_at = None
    expires_at = now + ttl
    after = replace(session, berserk=session.berserk | berserk)
    played = session.moves if moves is None else moves
    mover = 1 + len(played) % 2
    clock = after.clock_of(mover)
    if target is Status.ACTIVE and clock is not None:
        # Each move starts the next player's clock (a berserk seat's is half the clock). The
        # game outlives its deadline, so the expiry sweep never takes a timed game away before
        # its clock has ended it.
        deadline = now + clock
        if event is Event.BERSERK and session.deadline is not None:
            # The mover's turn started before: his deadline comes nearer by what he gave up.
            deadline = session.deadline - (session.clock_of(mover) or 0.0) + clock
        reminded = event is Event.BERSERK and session.remind_at is None
        if clock >= REMINDED_FROM and not reminded:
            remind_at = deadline - clock * REMIND_AT_LEFT
        expires_at = max(expires_at, deadline + CLOCK_GRACE)
    return replace(
        after,
        status=target,
        moves=played,
        outcome=outcome,
        seats=session.seats if seats is None else seats,
        version=session.version + 1,
        updated_at=now,
        expires_at=expires_at,
        deadline=deadline,
        remind_at=remind_at,
    )


def check_removal(session: Session, event: Event) -> None:
    """Refuse to delete a session for an event the table does not allow.

    Raises:
        InvalidTransition: the session may not end that way from its status.
    """
    if (session.status, event) not in REMOVALS:
        raise InvalidTransition(f"a {session.status.value} session cannot end on {event.value}")


def played(session: Session, position: Position, *, now: float, ttl: float) -> Session:
    """The session after the move that led to ``position``."""
    outcome = position.outcome
    event = Event.MOVE if outcome is None else Event.FINISH
    return transition(session, event, now=now, ttl=ttl, moves=position.moves, outcome=outcome)


def resigned(session: Session, quitter: int, *, now: float, ttl: float) -> Session:
    """The session after seat ``quitter`` (1 or 2) gave up: the other seat wins."""
    outcome = Outcome(Termination.RESIGNATION, 3 - quitter)
    return transition(session, Event.RESIGN, now=now, ttl=ttl, outcome=outcome)


def timed_out(session: Session, *, now: float, ttl: float) -> Session:
    """The session after the player to move let their clock run out: the other seat wins."""
    outcome = Outcome(Termination.TIMEOUT, 3 - session.position().to_move)
    return transition(session, Event.TIMEOUT, now=now, ttl=ttl, outcome=outcome)


def berserked(session: Session, seat: int, *, now: float, ttl: float) -> Session:
    """The session after seat ``seat`` (1 or 2) went berserk: half the clock for his moves,
    the one he may be thinking about included."""
    return transition(session, Event.BERSERK, now=now, ttl=ttl, berserk=seat)


def stopped(session: Session, *, now: float, ttl: float) -> Session:
    """A bots' game stopped before its end: finished, with no winner."""
    return transition(session, Event.STOP, now=now, ttl=ttl, outcome=Outcome(Termination.STOPPED))


def abandoned(session: Session, winner: int | None, *, now: float, ttl: float) -> Session:
    """A game ended because someone left the chat: seat ``winner`` (1 or 2) stayed and wins, or
    None: nobody stayed to claim it."""
    outcome = Outcome(Termination.ABANDONED, winner)
    return transition(session, Event.LEAVE, now=now, ttl=ttl, outcome=outcome)


def new_session(
    *,
    platform: str,
    chat_id: str,
    seats: tuple[Seat, Seat],
    rules: Rules,
    status: Status,
    now: float,
    ttl: float,
    challenger: str | None,
    challenged: str | None = None,
    clock: float | None = None,
    server_id: str | None = None,
    casual: bool = False,
) -> Session:
    """A session at version 1, born now (a clock starts when the game does; see
    :class:`Session` for ``server_id`` and ``casual``)."""
    return Session(
        id=new_session_id(),
        platform=platform,
        chat_id=chat_id,
        seats=seats,
        rules=rules,
        moves=(),
        status=status,
        version=1,
        created_at=now,
        updated_at=now,
        expires_at=now + ttl,
        challenger=challenger,
        challenged=challenged,
        clock=clock,
        server_id=server_id,
        casual=casual,
    )


class Placed(Protocol):
    """A person and the chat they play from (a seek, a tournament's player)."""

    @property
    def platform(self) -> str: ...
    @property
    def chat_id(self) -> str: ...
    @property
    def server_id(self) -> str | None: ...
    @property
    def user_id(self) -> str: ...
    @property
    def name(self) -> str: ...


def agreed_game(
    x: Placed,
    o: Placed,
    *,
    rules: Rules,
    now: float,
    ttl: float,
    challenger: str,
    challenged: str,
    clock: float | None,
    casual: bool,
) -> Session:
    """A game two people both asked for (a paired seek, a tournament's pairing), ``x`` first:
    the session belongs to ``x``'s chat and ``o``'s seat sits in its own chat when it is
    another one (an open game). Born as a challenge both accepted: the accepting transition
    starts the first player's clock, as for any game between people."""
    away = (o.platform, o.chat_id) != (x.platform, x.chat_id)
    seats = (
        Seat.person(x.user_id, x.name),
        Seat(
            o.name,
            o.user_id,
            platform=o.platform if away else None,
            chat_id=o.chat_id if away else None,
            server_id=o.server_id if away else None,
        ),
    )
    offered = new_session(
        platform=x.platform,
        chat_id=x.chat_id,
        seats=seats,
        rules=rules,
        status=Status.CHALLENGE,
        now=now,
        ttl=ttl,
        challenger=challenger,
        challenged=challenged,
        clock=clock,
        casual=casual,
        server_id=x.server_id,
    )
    return transition(offered, Event.ACCEPT, now=now, ttl=ttl)

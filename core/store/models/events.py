"""Tournaments as the store keeps them: an event, its players, its games and its byes (the
operations are :mod:`core.store.events`; the rules of scoring and pairing are the pure
:mod:`core.tournaments` and :mod:`core.pairing`)."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from core.games import Rules
from core.store.models.session import new_public_id


class Format(enum.Enum):
    """How an event pairs its players and scores them."""

    ARENA = "arena"
    SWISS = "swiss"
    ROUNDROBIN = "roundrobin"


class EventStatus(enum.Enum):
    SCHEDULED = "scheduled"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


LIVE_EVENTS = (EventStatus.SCHEDULED, EventStatus.RUNNING)


@dataclass(frozen=True, slots=True)
class Event:
    """One tournament.

    Attributes:
        length: rounds (Swiss; a round robin's is set from its players at the start), or
            seconds (an arena's duration).
        clock: seconds per move of each game.
        open: joinable from any chat where ``open_play`` is on (else from its own chat).
        platform, chat_id, server_id: the chat that made it.
        round: the round being played (0 before the start); an arena's waves.
        version: bumped by every change the director makes (a compare-and-set).
        reminded: whether the reminder before the start went out.
        public_id: the address of its web page (``/event/<public_id>``): 128 random bits, as a
            game's, never the short ``id`` the chats type.
        berserk: its players may go berserk (an arena's option): half the clock, +1 for a win.
        name: what the chats call it: the name it was made with (cleaned and cut as a display
            name is), else its id.
    """

    id: str
    format: Format
    rules: Rules
    length: float
    clock: float
    rated: bool
    open: bool
    starts_at: float
    platform: str
    chat_id: str
    server_id: str | None
    created_by: str
    name: str
    status: EventStatus = EventStatus.SCHEDULED
    round: int = 0
    version: int = 1
    reminded: bool = False
    created_at: float = 0.0
    public_id: str = field(default_factory=new_public_id)
    berserk: bool = False

    @property
    def given_name(self) -> str | None:
        """The name it was made with; None when it has none (its ``name`` is its id)."""
        return None if self.name == self.id else self.name

    @property
    def ends_at(self) -> float:
        """When an arena stops pairing (its start plus its duration)."""
        return self.starts_at + self.length

    @property
    def rounds(self) -> int:
        return int(self.length)

    @property
    def live(self) -> bool:
        return self.status in LIVE_EVENTS


@dataclass(frozen=True, slots=True)
class EventPlayer:
    """A registered player: ``player`` is his identity (linked accounts are one), his account
    and the chat he joined from are where his games and notices go.

    Attributes:
        joined: the first round he may be paired in (a late join in an arena: any).
        withdrawn: he left; not paired again (his games stay counted).
        berserk: unused (always False): berserk is per game, chosen in it
            (``Session.berserk``, kept on its pairing as ``EventGame.berserk``).
    """

    event_id: str
    player: str
    platform: str
    user_id: str
    chat_id: str
    server_id: str | None
    name: str
    rating: float
    score: float = 0.0
    joined: int = 1
    withdrawn: bool = False
    berserk: bool = False


@dataclass(frozen=True, slots=True)
class EventGame:
    """A pairing of a round (a wave in an arena) and, once it ends, its result.

    Attributes:
        seq: its place among the event's pairings (an arena sheet's order).
        x, o: the players (``x`` plays first).
        started: its session was written (a pairing is stored first, its game after).
        x_score, o_score: points of the game (1, 0.5, 0); None while it is played. Both 0 when
            it ended with no result (its game went without a winner).
        plies: the moves it lasted.
        berserk: the seats that went berserk, a bit each (1 ``x``, 2 ``o``; written with its
            result).
    """

    event_id: str
    round: int
    session_id: str
    x: str
    o: str
    seq: int = 0
    started: bool = False
    x_score: float | None = None
    o_score: float | None = None
    plies: int = 0
    finished_at: float | None = None
    berserk: int = 0

    @property
    def done(self) -> bool:
        return self.x_score is not None

    @property
    def played(self) -> bool:
        """Over with a result: a game that ended with nothing for either side (both 0) was not
        played; it scores nothing, breaks no arena streak and counts in no tie-break, as FIDE
        counts an unplayed game."""
        return bool(self.x_score or self.o_score)


@dataclass(frozen=True, slots=True)
class EventBye:
    """A round without a game: the odd player out, or one whose opponent left."""

    event_id: str
    round: int
    player: str
    points: float

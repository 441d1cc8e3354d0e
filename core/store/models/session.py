"""What the store keeps: sessions (one game in one chat), seats, results, stats rows.

Plain frozen values; the service builds new ones with :func:`dataclasses.replace` and the store
persists them with a compare-and-set on :attr:`Session.version`.
"""

from __future__ import annotations

import enum
import secrets
from collections import OrderedDict
from dataclasses import dataclass, field

from core.ai.levels import Level
from core.games import Outcome, Position, Rules, Variant


class Status(enum.Enum):
    """Where a session is in its life."""

    CHALLENGE = "challenge"  # a player was challenged and has not answered yet
    ACTIVE = "active"  # moves are being played
    FINISHED = "finished"  # won or drawn; kept (until it expires) for a rematch


OPEN_GAMES = "open"
"""The platform column of ``chatbots stats`` and the metrics' platform label for open games
(matchmaking): one game between two chats, counted once whichever platforms they are on. Each
player's results stay under their own platform."""


@dataclass(frozen=True, slots=True)
class Seat:
    """One side of the board: a person (``user_id`` set) or the bot (``level`` set).

    ``platform`` and ``chat_id`` are set only for a seat that sits in another chat than its
    session's (an open game, paired by matchmaking): that player sees the board and plays
    there. None: the session's own chat, as every game that stays in one chat. ``server_id``:
    that other chat's Discord server (None where chats stand alone), as
    :attr:`Session.server_id` is the session's own chat's.
    """

    name: str
    user_id: str | None = None
    level: Level | None = None
    platform: str | None = None
    chat_id: str | None = None
    server_id: str | None = None

    def __post_init__(self) -> None:
        if (self.user_id is None) == (self.level is None):
            raise ValueError("a seat is either a person (user_id) or the bot (level)")
        if (self.platform is None) != (self.chat_id is None):
            raise ValueError("a seat in another chat names both its platform and its chat")
        if self.server_id is not None and self.chat_id is None:
            raise ValueError("only a seat in another chat names that chat's server")
        if self.platform is not None and self.user_id is None:
            raise ValueError("only a person sits in another chat")

    @classmethod
    def person(cls, user_id: str, name: str) -> Seat:
        return cls(name=name, user_id=user_id)

    @classmethod
    def bot(cls, level: Level) -> Seat:
        return cls(name=f"Bot ({level.value})", level=level)

    @property
    def is_bot(self) -> bool:
        return self.level is not None


_REPLAYS: OrderedDict[tuple[Rules, tuple[int, ...]], Position] = OrderedDict()
_REPLAYS_SIZE = 4096


def replay(rules: Rules, moves: tuple[int, ...]) -> Position:
    """``Position.from_moves``, with a small LRU cache: a request looks at its game's position
    several times, and each move extends a history seen a moment ago, so most replays cost one
    ``play`` (or nothing).

    Raises:
        IllegalMove: a move of the history is not legal where it is played.
    """
    key = (rules, moves)
    position = _REPLAYS.get(key)
    if position is not None:
        _REPLAYS.move_to_end(key)
        return position
    before = _REPLAYS.get((rules, moves[:-1])) if moves else None
    position = Position.from_moves(rules, moves) if before is None else before.play(moves[-1])
    _REPLAYS[key] = position
    if len(_REPLAYS) > _REPLAYS_SIZE:
        _REPLAYS.popitem(last=False)
    return position


def new_public_id() -> str:
    """A game's public id: 128 random bits (32 hex digits) for the address of its web page,
    which is unlisted, so the id is its only protection; never the session's short id, which
    travels in every button."""
    return secrets.token_hex(16)


def new_session_id() -> str:
    """A short, random, URL-safe id (8 characters, 48 bits: fits a Discord ``custom_id``)."""
    return secrets.token_urlsafe(6)


@dataclass(frozen=True, slots=True)
class Session:
    """One game in one chat, as stored.

    Attributes:
        seats: X (plays first), then O.
        moves: the moves played so far, 0-based (cells, or columns with gravity).
        version: bumped by every change; changes are compare-and-set on it.
        created_at, updated_at, expires_at: seconds since the epoch (the service's clock).
        challenger: user id of who started the game (None for nobody in particular).
        challenged: user id of the challenged player (player-vs-player games only).
        outcome: how a finished game ended (set exactly when ``status`` is FINISHED).
        clock: seconds each player has per move (games between people), or None: no clock.
        deadline: when the player to move runs out of time (a running game with a clock),
            seconds since the epoch; the sweep of due clocks ends the game then.
        remind_at: when the player to move is reminded, None once reminded (or never).
        server_id: the Discord server the chat belongs to (None where chats stand alone), so
            that what is said later, with nobody's request to go by (a clock's reminder), is
            said with the chat's settings, and whose ladder its rating counts for.
        casual: never rated (the ``casual`` start option, or a chat whose ``rated`` setting
            was off when the game started); other games are rated as ``core.ratings.is_rated``
            decides when they end.
        public_id: the game's unguessable id on the web pages (:func:`new_public_id`): each
            game has its own (a rematch is a new session), kept when it is archived.
        berserk: the seats that went berserk (an arena event's game), a bit each (1 X, 2 O):
            their moves get half the clock (:meth:`clock_of`).
    """

    id: str
    platform: str
    chat_id: str
    seats: tuple[Seat, Seat]
    rules: Rules
    moves: tuple[int, ...]
    status: Status
    version: int
    created_at: float
    updated_at: float
    expires_at: float
    challenger: str | None = None
    challenged: str | None = None
    outcome: Outcome | None = None
    clock: float | None = None
    deadline: float | None = None
    remind_at: float | None = None
    server_id: str | None = None
    casual: bool = False
    public_id: str = field(default_factory=new_public_id)
    berserk: int = 0

    @property
    def winner(self) -> int | None:
        """1 or 2 once a finished game was won (a line, a resignation, a clock), else None."""
        return None if self.outcome is None else self.outcome.winner

    @property
    def variant(self) -> Variant:
        """Which game this is (tic-tac-toe, Connect Four, k in a row on a free board)."""
        return Variant.of(self.rules)

    def position(self) -> Position:
        """The position after :attr:`moves` (raises ``IllegalMove`` on a corrupt history)."""
        return replay(self.rules, self.moves)

    def berserked(self, seat: int) -> bool:
        """Whether seat ``seat`` (1 or 2) went berserk."""
        return bool(self.berserk & seat)

    def clock_of(self, seat: int) -> float | None:
        """Seconds seat ``seat`` (1 or 2) has per move: the clock, halved for a berserk seat."""
        if self.clock is None:
            return None
        return self.clock / 2 if self.berserked(seat) else self.clock

    def seat_of(self, user_id: str) -> int | None:
        """1 or 2 for a player of this game, else None (nobody sits twice: the service refuses
        a challenge to oneself)."""
        for number, seat in enumerate(self.seats, start=1):
            if seat.user_id is not None and seat.user_id == user_id:
                return number
        return None

    def chat_of(self, seat: int) -> tuple[str, str]:
        """``(platform, chat id)`` where seat ``seat`` (1 or 2) sees the board and plays."""
        place = self.seats[seat - 1]
        if place.platform is None or place.chat_id is None:
            return self.platform, self.chat_id
        return place.platform, place.chat_id

    def server_of(self, seat: int) -> str | None:
        """The Discord server of the chat where seat ``seat`` (1 or 2) plays, or None."""
        place = self.seats[seat - 1]
        return self.server_id if place.chat_id is None else place.server_id

    @property
    def counted_platform(self) -> str:
        """What totals and metrics count this game under: its platform, or :data:`OPEN_GAMES`
        for an open game (shown in two chats, maybe on two platforms: counted once)."""
        return self.platform if len(self.chats) < 2 else OPEN_GAMES

    @property
    def chats(self) -> tuple[tuple[str, str], ...]:
        """Every chat that shows this game: the session's own first, then a seat's other one
        (an open game, see :class:`Seat`)."""
        return tuple(dict.fromkeys((self.chat_of(1), self.chat_of(2))))

    def shown_in(self, platform: str, chat_id: str) -> bool:
        """Whether this game is shown and played in that chat."""
        return (platform, chat_id) in self.chats

    def seat_in(self, platform: str, chat_id: str, user_id: str) -> int | None:
        """1 or 2 for the player ``user_id`` of ``platform`` seated in that chat, else None."""
        for number, seat in enumerate(self.seats, start=1):
            if seat.user_id == user_id and self.chat_of(number) == (platform, chat_id):
                return number
        return None

    @property
    def humans(self) -> tuple[str, ...]:
        """User ids of the people seated, in seat order."""
        return tuple(seat.user_id for seat in self.seats if seat.user_id is not None)

    @property
    def live_users(self) -> tuple[str, ...]:
        """People for whom this is *the* game in this chat (one per user per chat): both players
        of an active game (the watcher of a bots' game), only the challenger of a pending
        challenge, nobody once finished."""
        if self.status is Status.ACTIVE:
            # A bots' game is its watcher's game in the chat: one at a time, ended by /final.
            if self.humans or self.challenger is None:
                return self.humans
            return (self.challenger,)
        if self.status is Status.CHALLENGE and self.challenger is not None:
            return (self.challenger,)
        return ()


@dataclass(frozen=True, slots=True)
class StatsRow:
    """Results of one player (on a platform, or in one chat)."""

    user_id: str
    name: str
    wins: int
    losses: int
    draws: int

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.draws


@dataclass(frozen=True, slots=True)
class SettingRow:
    """One setting an admin set for one scope (see ``core.admin.scopes``).

    Attributes:
        scope: ``server:<id>``, ``channel:<id>`` or ``chat:<id>``.
        value: as ``core.admin.keys`` shows it (parsed again when read).
        updated_at: seconds since the epoch; updated_by: who set it (a user id, or
            ``cli:<user>`` for the operator CLI).
    """

    platform: str
    scope: str
    key: str
    value: str
    updated_at: float
    updated_by: str


@dataclass(frozen=True, slots=True)
class LiveCounts:
    """Live games (challenges and games being played) of one user and of one chat."""

    user: int  # the user's live games on the platform, in every chat
    chat: int  # live games in the chat, everyone's


@dataclass(frozen=True, slots=True)
class PlatformTotals:
    """What ``chatbots stats`` shows for one platform (or for :data:`OPEN_GAMES`: their live
    and finished games and moves; their results are each player's platform's).

    Attributes:
        live: challenges and games being played now.
        finished: finished games still kept (for a rematch or a review, until they expire).
        results: results recorded in the stats, one per player per finished game (a game
            between two people counts twice), kept for ever.
        moves_since: moves in the stored games changed since the time asked for (games that
            expired and were swept are no longer counted).
    """

    platform: str
    live: int
    finished: int
    results: int
    moves_since: int

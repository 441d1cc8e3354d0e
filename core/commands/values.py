"""The commands' value types, their errors and the vocabulary players type (CONTRACT: the names
and fields of the value types ``GameKind`` .. ``Command`` are stable; core.sessions and the
adapters use them)."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from core.admin.keys import Effective
from core.admin.scopes import SettingsScope as SettingsScope  # part of this module's contract
from core.ai.levels import Level
from core.errors import UserError
from core.games import Rules
from core.games.kinds import GameKind as GameKind  # part of this module's contract

# --- The value types (CONTRACT) ---------------------------------------------------------------


class First(enum.Enum):
    """Who plays first, from the point of view of the one who starts the game."""

    ME = "me"
    OPPONENT = "opponent"
    RANDOM = "random"


@dataclass(frozen=True, slots=True)
class VsBot:
    level: Level


@dataclass(frozen=True, slots=True)
class VsUser:
    """A challenged player.

    Attributes:
        user: as written in text (``@bob``, ``@bob:example.org``) when ``name`` is None, and the
            platform resolves it; the user id itself when an adapter resolved it already (a
            slash command's user option), with ``name`` the person's display name.
        name: see ``user``.
    """

    user: str
    name: str | None = None


@dataclass(frozen=True, slots=True)
class BotVsBot:
    """Two bots play each other for people to watch."""

    first: Level
    second: Level


Opponent = VsBot | VsUser | BotVsBot


@dataclass(frozen=True, slots=True)
class Start:
    """A new game.

    Attributes:
        level_named: the player named the bot's level; when False the level in ``opponent`` is
            :data:`DEFAULT_LEVEL` and the service puts the chat's default level instead. Not
            compared: ``/tres`` and ``/tres medium`` are the same game where no admin changed
            the default.
        clock: see below.
    """

    kind: GameKind
    rules: Rules
    opponent: Opponent
    first: First
    level_named: bool = field(default=True, compare=False)
    clock: float | None = None
    """Seconds per move asked for (``/tres @bob 2m``), within ``core.admin.durations``'
    bounds; None: the chat's own clock. Only games between people run on a clock."""
    casual: bool = False
    """Never rated (the ``casual`` option); a game between people is rated otherwise, where
    the chat allows it (``core.ratings.is_rated``)."""


@dataclass(frozen=True, slots=True)
class Help:
    topic: str | None = None
    """The topic of ``core.commands.topics.HELP_TOPICS`` asked for; None: the overview."""


@dataclass(frozen=True, slots=True)
class Accept:
    pass


@dataclass(frozen=True, slots=True)
class Decline:
    pass


@dataclass(frozen=True, slots=True)
class Rematch:
    pass


@dataclass(frozen=True, slots=True)
class Final:
    pass


@dataclass(frozen=True, slots=True)
class Stats:
    """Results of a player.

    Attributes:
        user: None for the speaker; else as :attr:`VsUser.user`: as written in text when
            ``name`` is None, the user id itself when an adapter resolved it already.
        name: the resolved player's display name, with ``user`` their id.
    """

    user: str | None = None
    name: str | None = None


class Ladder(enum.Enum):
    """Which players ``/top`` ranks."""

    CHAT = "chat"  # those who played rated games in this chat
    SERVER = "server"  # in any channel of this Discord server (elsewhere: this chat)
    ALL = "all"  # everyone, on every chat and platform


@dataclass(frozen=True, slots=True)
class Top:
    """A ladder by rating, in one game's rating pool (``core.ratings.pool_of``).

    Attributes:
        ladder: whose ladder.
        game: the game; None: Connect Four.
    """

    ladder: Ladder = Ladder.CHAT
    game: GameKind | None = None


@dataclass(frozen=True, slots=True)
class Link:
    """``/link``: a one-time code for this account (``code`` None), or join the account that
    made ``code`` (typed on another platform)."""

    code: str | None = None


@dataclass(frozen=True, slots=True)
class Unlink:
    """``/unlink``: separate this account from the accounts it was linked with."""


@dataclass(frozen=True, slots=True)
class Hide:
    """``/hide [on|off]``: leave the web pages, where the player then shows as "anonymous"
    (``on``, the default), or come back to them (``off``)."""

    hidden: bool = True


class PuzzleAsk(enum.Enum):
    """What ``/puzzle`` asks for."""

    TODAY = "today"  # the day's puzzle, the same everywhere
    NEXT = "next"  # a rated puzzle near the player's puzzle rating
    STATS = "stats"  # the player's puzzle rating, count solved and streak
    TOP = "top"  # the best solvers


@dataclass(frozen=True, slots=True)
class Puzzle:
    """``/puzzle [next|stats|top]``."""

    ask: PuzzleAsk = PuzzleAsk.TODAY


@dataclass(frozen=True, slots=True)
class Review:
    """Every move of the last finished game here, with its exact value and the mistakes."""


@dataclass(frozen=True, slots=True)
class Settings:
    """``/settings``: show every setting, show one, set one or reset one (admins only).

    Attributes:
        key: the setting (one of ``core.admin.keys.SETTING_NAMES``); None shows them all.
        value: the new value as typed (words joined by one space); None shows ``key``.
        reset: forget the value set here, so the one from above applies again.
        scope: the whole server (or room), or this channel only; None when not named: a
            change goes to the whole server, and showing shows what applies here (this
            channel's values over the server's, each with where it comes from).
    """

    key: str | None = None
    value: str | None = None
    reset: bool = False
    scope: SettingsScope | None = None


@dataclass(frozen=True, slots=True)
class PersonalTheme:
    """``/theme``: show, set or forget the player's own board theme, which wins in the games
    they start (over the chat's ``theme`` setting).

    Attributes:
        theme: a theme of ``core.pictures.THEMES`` or ``auto`` (each game its own); None shows
            the player's theme and the chat's.
        reset: forget the player's theme, so the chat's applies again.
    """

    theme: str | None = None
    reset: bool = False


@dataclass(frozen=True, slots=True)
class MoveText:
    """A move as typed: a number (``5``: a cell 1..n, or a column 1..cols with gravity) or a
    coordinate (``b2``: column letter, row number from the top), both kept 1-based/as typed
    until :func:`resolve_move` knows the rules."""

    text: str
    number: int | None = None
    coord: tuple[int, int] | None = None  # (col, row), 0-based


class SeekAction(enum.Enum):
    """What ``/seek`` does."""

    JOIN = "join"  # wait for an opponent from any chat that allows open play
    SHOW = "show"  # what is waiting (``/seek`` alone)
    CANCEL = "cancel"  # leave the queue


@dataclass(frozen=True, slots=True)
class Seek:
    """``/seek [game] [rated|casual] [clock]``, ``/seek``, ``/seek cancel``: matchmaking.

    Attributes:
        rules: the game sought (JOIN only).
        rated: True or False as the player said; None: rated where the chat allows it.
        clock: seconds a move may take, as the player said; None: open play's default.
    """

    action: SeekAction = SeekAction.SHOW
    kind: GameKind | None = None
    rules: Rules | None = None
    rated: bool | None = None
    clock: float | None = None


@dataclass(frozen=True, slots=True)
class Block:
    """``/block @player``: never be paired with them again. Without a player of this platform
    (the opponent of an open game may be on the other one): ``/block NAME``, the recent
    opponent of an open game played from this chat who is called so, or ``/block`` alone,
    the latest one.

    Attributes:
        user: as :attr:`VsUser.user` (written, or the id an adapter resolved, then ``name``);
            None when no player of this platform is named.
        name: the resolved player's display name; with no ``user``, the recent opponent's
            name as their board showed it (None: the latest opponent).
    """

    user: str | None = None
    name: str | None = None


@dataclass(frozen=True, slots=True)
class Unblock:
    """``/unblock @player``, ``/unblock NAME`` or ``/unblock`` alone: undo a :class:`Block` of
    the same player (named as ``/block`` names them, with the same attributes)."""

    user: str | None = None
    name: str | None = None


class TournamentAction(enum.Enum):
    """What ``/tournament`` does."""

    CREATE = "create"  # an admin makes an event in the chat
    JOIN = "join"
    LEAVE = "leave"
    SHOW = "show"  # the standings (``/tournament`` alone)
    BERSERK = "berserk"  # a player takes half his clock in his arena game, for +1 on a win


@dataclass(frozen=True, slots=True)
class Tournament:
    """``/tournament arena|swiss|roundrobin GAME [rounds or duration] [clock] [start]
    [rated|casual] [berserk]``, ``/tournament join|leave [ID]``, ``/tournament berserk``,
    ``/tournament [ID]``: events.

    Attributes:
        format: ``arena``, ``swiss`` or ``roundrobin`` (CREATE only).
        length: rounds (Swiss) or seconds (an arena's duration), as given; None: the default.
        clock: seconds a move may take, as given; None: the default.
        start_in: seconds from now to the start (``+30m``); ``start_at``: the UTC time of
            day (``18:30``), the next one; neither: the default.
        rated: True or False as said; None: rated where the chat allows it.
        event_id: the event named (JOIN, LEAVE, SHOW); None: the chat's, or the player's.
        berserk: an arena whose players may go berserk (CREATE only).
        name: the event's name as typed (CREATE only: every word after ``name``); None: its id.
    """

    action: TournamentAction = TournamentAction.SHOW
    format: str | None = None
    kind: GameKind | None = None
    rules: Rules | None = None
    length: float | None = None
    clock: float | None = None
    start_in: float | None = None
    start_at: tuple[int, int] | None = None
    rated: bool | None = None
    event_id: str | None = None
    berserk: bool = False
    name: str | None = None


Command = (
    Start
    | Help
    | Accept
    | Decline
    | Rematch
    | Final
    | Stats
    | Top
    | Review
    | Settings
    | MoveText
    | Seek
    | Block
    | Unblock
    | Link
    | Unlink
    | Hide
    | PersonalTheme
    | Tournament
    | Puzzle
)


# --- Errors -----------------------------------------------------------------------------------


class CommandError(UserError):
    """The text is not a valid command or move; the message names the input and what was
    expected. Keys start with ``parse.`` (catalogue ``core/i18n/messages/parse.py``)."""


class NotACommand(CommandError):
    """Text without a prefix that is neither a command nor a move: most likely people talking.

    Adapters that read every message of a room (Matrix) can ignore it silently instead of
    answering chatter with an error.
    """


# --- Vocabulary -------------------------------------------------------------------------------

PREFIXES: tuple[str, ...] = ("/", "!")
"""Accepted command prefixes (Element reserves ``/`` for its own commands, so Matrix uses ``!``)."""

MAX_LENGTH = 500
"""Longer input is refused before any other work, so no message can make the parser slow."""

_LEVELS: dict[str, Level] = {level.value: level for level in Level}
_FIRSTS: dict[str, First] = {
    "first": First.ME,
    "me": First.ME,  # Discord's choice names (option ``first``: me, opponent, random)
    "second": First.OPPONENT,
    "opponent": First.OPPONENT,
    "random": First.RANDOM,
}
_FIRST_WORDS: dict[First, str] = {
    First.ME: "first",
    First.OPPONENT: "second",
    First.RANDOM: "random",
}
_BOT = "bot"
_CASUAL = "casual"
_SIZE_SEPARATORS = ("\u00d7", "x")  # multiplication sign; "6X7" is lower-cased to "x"
_MAX_MOVE_DIGITS = 3  # the largest board has 625 cells
_SUGGEST_MAX_LENGTH = 32  # no close match is worth comparing a long token for
DEFAULT_LEVEL = Effective.level.default
"""The bot's level when a start command names none: the built-in default of the chat setting
``level`` (the service puts the chat's own where it has one)."""
_DEFAULT_FIRST = First.ME

RESET = "reset"
"""The value that forgets a setting (``/settings level reset``)."""

_OPPONENT_SYNTAX = "[easy|medium|hard|@player|bot]"
_FIRST_SYNTAX = "[first|second|random]"

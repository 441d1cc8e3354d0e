"""The settings admins change per chat, each declared once, as an attribute of :class:`Effective`:
its name (the attribute's), the kind of value it takes (parser, bounds, display) and its
built-in default. Everything else is derived from that table: the names ``/settings`` takes
(:data:`SETTING_NAMES`), the order it shows them, the defaults the ``.env`` may override, and
reading a chat's value (``chat.pvp``). A new setting is one line in :class:`Effective` and its
description in the catalogue (``settings.key.NAME`` in ``core/i18n/messages/admin.py``).

Values are stored as the text :meth:`Key.show` gives, so what ``/settings`` shows can be typed
back and a stored value parses to the same value (a property test checks the round trip). A bad
value raises :class:`~core.errors.UserError` ``settings.bad_value`` naming the key, the value
and what was expected, in the reader's language.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, cast, overload

from core.admin.daily import Daily
from core.admin.durations import CLOCK_MAX, CLOCK_MIN, parse_duration, show_duration
from core.admin.kind import Kind, _Bad, whole
from core.admin.scopes import Source
from core.admin.zones import UTC, zone_named
from core.ai.levels import Level
from core.errors import UserError
from core.games.kinds import STARTERS, WORDS, GameKind
from core.games.rules import MAX_SIDE, MIN_SIDE
from core.i18n import DEFAULT_LOCALE, LOCALES, Text
from core.replies import THEME_NAMES

T = TypeVar("T")

DECIMAL = re.compile(r"\+?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]{1,3})?")
"""A plain decimal number: what ``float()`` takes, without ``inf``, ``nan``, ``1_0`` or
non-ASCII digits."""

NONE = "none"
HERE = "here"
AUTO = "auto"  # the theme and clock settings' "each game its own"
BOARD_STYLES = ("text", "picture")  # the board_style setting's words (Matrix)
DAY = 86400
_ON = {"on": True, "yes": True, "true": True, "1": True}
_OFF = {"off": False, "no": False, "false": False, "0": False}
_MAX_WORDS = 100  # the longest list a value may be (allowed chats)


# --- kinds of value: parser, bounds and display ------------------------------------------------


def _number(value: float) -> str:
    # Whole seconds as admins type them; any other value as the shortest text that reads back
    # as the same float.
    return str(int(value)) if float(value).is_integer() else repr(float(value))


@dataclass(frozen=True, slots=True)
class Seconds(Kind[float]):
    """A number of seconds from ``low`` to ``high``."""

    low: float
    high: float

    def read(self, text: str) -> float:
        if not DECIMAL.fullmatch(text) or not self.low <= float(text) <= self.high:
            limits = {"low": _number(self.low), "high": _number(self.high)}
            raise _Bad(Text("settings.expected.seconds", limits))
        return float(text)

    def show(self, value: float) -> str:
        return _number(value)

    @property
    def bounds(self) -> tuple[float, float]:
        return self.low, self.high


def _duration(text: str, low: float, high: float) -> float | None:
    # A duration with its unit (5m, 1d) or, as every other time setting, plain seconds.
    seconds = parse_duration(text)
    if seconds is None and DECIMAL.fullmatch(text):
        seconds = float(text)
    return seconds if seconds is not None and low <= seconds <= high else None


@dataclass(frozen=True, slots=True)
class Duration(Kind[float]):
    """A duration from ``low`` to ``high`` seconds, written ``90s``, ``5m``, ``2h``, ``1d`` or
    as plain seconds; shown in its largest whole unit."""

    low: float
    high: float

    def read(self, text: str) -> float:
        seconds = _duration(text, self.low, self.high)
        if seconds is None:
            limits = {"low": show_duration(self.low), "high": show_duration(self.high)}
            raise _Bad(Text("settings.expected.duration", limits))
        return seconds

    def show(self, value: float) -> str:
        return show_duration(value)

    @property
    def bounds(self) -> tuple[float, float]:
        return self.low, self.high


@dataclass(frozen=True, slots=True)
class Clock(Kind[float | str | None]):
    """A move clock: ``auto`` (each game's own default, see :func:`core.admin.clocks`), ``off``,
    or a duration within the clock's bounds."""

    def read(self, text: str) -> float | str | None:
        word = text.lower()
        if word == AUTO:
            return AUTO
        if word in _OFF:
            return None
        seconds = _duration(word, CLOCK_MIN, CLOCK_MAX)
        if seconds is None:
            limits = {"low": show_duration(CLOCK_MIN), "high": show_duration(CLOCK_MAX)}
            raise _Bad(Text("settings.expected.clock", limits))
        return seconds

    def show(self, value: float | str | None) -> str:
        if value is None:
            return "off"
        return value if isinstance(value, str) else show_duration(value)

    @property
    def bounds(self) -> tuple[float, float]:
        return CLOCK_MIN, CLOCK_MAX


@dataclass(frozen=True, slots=True)
class Whole(Kind[int]):
    """A whole number from ``low`` to ``high``."""

    low: int
    high: int

    def read(self, text: str) -> int:
        value = whole(text, self.low, self.high)
        if value is None:
            raise _Bad(Text("settings.expected.whole", {"low": self.low, "high": self.high}))
        return value

    @property
    def bounds(self) -> tuple[float, float]:
        return self.low, self.high


@dataclass(frozen=True, slots=True)
class Cap(Kind[int | None]):
    """A whole number from ``low`` to ``high``, or ``none`` for no cap at all."""

    low: int
    high: int

    def read(self, text: str) -> int | None:
        if text.lower() == NONE:
            return None
        value = whole(text, self.low, self.high)
        if value is None:
            limits = {"low": self.low, "high": self.high}
            raise _Bad(Text("settings.expected.whole_or_none", limits))
        return value

    def show(self, value: int | None) -> str:
        return NONE if value is None else str(value)

    @property
    def bounds(self) -> tuple[float, float]:
        return self.low, self.high


@dataclass(frozen=True, slots=True)
class Switch(Kind[bool]):
    """On or off (``on``/``off``, ``yes``/``no``, ``true``/``false``, ``1``/``0``)."""

    def read(self, text: str) -> bool:
        word = text.lower()
        if word in _ON:
            return True
        if word in _OFF:
            return False
        raise _Bad(Text("settings.expected.switch"))

    def show(self, value: bool) -> str:
        return "on" if value else "off"


@dataclass(frozen=True, slots=True)
class Levels(Kind[Level]):
    """The bot's level, by its name."""

    def read(self, text: str) -> Level:
        try:
            return Level(text.lower())
        except ValueError:
            choices = ", ".join(level.value for level in Level)
            raise _Bad(Text("settings.expected.one_of", {"choices": choices})) from None

    def show(self, value: Level) -> str:
        return value.value


@dataclass(frozen=True, slots=True)
class Language(Kind[str]):
    """One of the catalogues' languages; a regional tag (``pt-BR``) means its language."""

    def read(self, text: str) -> str:
        language = text.replace("_", "-").split("-", 1)[0].lower()
        if language not in LOCALES:
            raise _Bad(Text("settings.expected.one_of", {"choices": ", ".join(LOCALES)}))
        return language


@dataclass(frozen=True, slots=True)
class Look(Kind[str]):
    """A board theme by name (``core.pictures``), or ``auto``: each game's own (discs for
    Connect Four, classic crosses and rings otherwise)."""

    def read(self, text: str) -> str:
        word = text.lower()
        if word != AUTO and word not in THEME_NAMES:
            raise _Bad(
                Text("settings.expected.one_of", {"choices": ", ".join((AUTO, *THEME_NAMES))})
            )
        return word


@dataclass(frozen=True, slots=True)
class Word(Kind[str]):
    """One of a few fixed words."""

    words: tuple[str, ...]

    def read(self, text: str) -> str:
        word = text.lower()
        if word not in self.words:
            raise _Bad(Text("settings.expected.one_of", {"choices": ", ".join(self.words)}))
        return word


@dataclass(frozen=True, slots=True)
class Games(Kind[frozenset[GameKind]]):
    """Games by the words that start them (or their English aliases), or ``none``: the kinds
    those words name (``quatre`` is Connect Four; a game of another kind is allowed when the
    kind its word names is, see :attr:`GameKind.starter`)."""

    def read(self, text: str) -> frozenset[GameKind]:
        words = text.replace(",", " ").lower().split()
        if words == [NONE]:
            return frozenset()
        kinds = [GameKind.named(word) for word in words]
        if not kinds or None in kinds:
            raise _Bad(Text("settings.expected.games", {"games": ", ".join(WORDS)}))
        return frozenset(kind for kind in kinds if kind is not None)

    def show(self, value: frozenset[GameKind]) -> str:
        return ",".join(kind.word for kind in GameKind if kind in value) or NONE


@dataclass(frozen=True, slots=True)
class Size(Kind[tuple[int, int]]):
    """A board size ``ROWSxCOLS`` within the rules' bounds."""

    def read(self, text: str) -> tuple[int, int]:
        expected = Text("settings.expected.size", {"low": MIN_SIDE, "high": MAX_SIDE})
        rows, found, cols = text.lower().replace("\u00d7", "x").partition("x")
        if not found or not all(part.isascii() and part.isdigit() for part in (rows, cols)):
            raise _Bad(expected)
        if not all(len(part) <= 2 and MIN_SIDE <= int(part) <= MAX_SIDE for part in (rows, cols)):
            raise _Bad(expected)
        return int(rows), int(cols)

    def show(self, value: tuple[int, int]) -> str:
        return f"{value[0]}x{value[1]}"


@dataclass(frozen=True, slots=True)
class Chats(Kind[frozenset[str]]):
    """Chat ids, as the service hands them over (``here`` is replaced by the chat's id and
    platform mentions by ids before this runs; see ``core.sessions.admin.settings_command``), or
    ``none``."""

    def read(self, text: str) -> frozenset[str]:
        words = text.replace(",", " ").split()
        if words == [NONE]:
            return frozenset()
        if not words or len(words) > _MAX_WORDS or any(len(word) > 255 for word in words):
            raise _Bad(Text("settings.expected.chats"))
        return frozenset(words)

    def show(self, value: frozenset[str]) -> str:
        return " ".join(sorted(value)) or NONE


@dataclass(frozen=True, slots=True)
class Zone(Kind[str]):
    """An IANA time zone name (``Europe/Madrid``, ``UTC``), in any case; kept in its own."""

    def read(self, text: str) -> str:
        zone = zone_named(text)
        if zone is None:
            raise _Bad(Text("settings.expected.zone"))
        return zone


# --- a key ------------------------------------------------------------------------------------


class Key(Generic[T]):
    """One setting, declared as an attribute of :class:`Effective`.

    Read on the class (``Effective.pvp``) it is the key; read on a chat's settings
    (``chat.pvp``) it is that chat's value.

    Attributes:
        name: as admins type it: the attribute's name.
        kind: the parser, bounds and display of its values.
        default: the value where neither a chat nor the ``.env`` sets one.
    """

    __slots__ = ("default", "kind", "name")

    def __init__(self, kind: Kind[T], default: T) -> None:
        self.name = ""
        self.kind = kind
        self.default = default

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, chat: None, owner: type | None = None) -> Key[T]: ...

    @overload
    def __get__(self, chat: Effective, owner: type | None = None) -> T: ...

    def __get__(self, chat: Effective | None, owner: type | None = None) -> Key[T] | T:
        if chat is None:
            return self
        return cast(T, chat.values[self.name])

    def __repr__(self) -> str:
        return f"Key({self.name!r}, {self.kind!r}, default={self.default!r})"

    @property
    def description(self) -> Text:
        return Text(f"settings.key.{self.name}")

    @property
    def bounds(self) -> tuple[float, float] | None:
        """See :attr:`Kind.bounds`."""
        return self.kind.bounds

    def show(self, value: T) -> str:
        """``value`` as ``/settings`` shows and stores it."""
        return self.kind.show(value)

    def parse(self, text: str) -> T:
        """The value ``text`` means for this key.

        Raises:
            UserError: ``settings.bad_value``, naming the key, the value and what is expected.
        """
        try:
            return self.kind.read(" ".join(text.split()))
        except _Bad as bad:
            raise UserError(
                "settings.bad_value", setting=self.name, value=text[:100], expected=bad.expected
            ) from None

    def default_in(self, defaults: Mapping[str, Any]) -> T:
        """This key's default where ``defaults`` (by name; the ``.env``'s) may override the
        built-in one."""
        return cast(T, defaults.get(self.name, self.default))


# --- the table --------------------------------------------------------------------------------

ALL_GAMES = frozenset(STARTERS)


@dataclass(frozen=True, slots=True)
class Effective:
    """The settings in force in one chat: each key's value and where it came from.

    The class body below the fields is the table of every setting, in the order ``/settings``
    shows them. Read a chat's value as an attribute (``chat.game_ttl``).
    """

    values: Mapping[str, Any]
    sources: Mapping[str, Source]

    games = Key(Games(), ALL_GAMES)
    max_board = Key(Size(), (MAX_SIDE, MAX_SIDE))
    pvp = Key(Switch(), True)
    bot_vs_bot = Key(Switch(), True)
    rated = Key(Switch(), True)
    level = Key(Levels(), Level.MEDIUM)
    language = Key(Language(), DEFAULT_LOCALE)
    theme = Key(Look(), AUTO)
    board_style = Key(Word(BOARD_STYLES), BOARD_STYLES[0])
    game_ttl = Key(Seconds(60, 30 * DAY), float(DAY))
    challenge_ttl = Key(Seconds(10, DAY), 120.0)
    cooldown = Key(Seconds(0, DAY), 0.0)
    # The time a player has for each move in games between people; see core.admin.clocks.
    clock = Key(Clock(), AUTO)
    max_clock = Key(Duration(CLOCK_MIN, CLOCK_MAX), CLOCK_MAX)
    max_games_per_user = Key(Cap(1, 1000), None)
    max_games_per_chat = Key(Cap(1, 1000), None)
    allowed_chats = Key(Chats(), frozenset[str]())
    rate_burst = Key(Whole(1, 1000), 10)
    rate_per_minute = Key(Whole(1, 6000), 30)
    # 20 a minute suits a channel of people; up to 100 a second lets a load test through.
    boards_per_minute = Key(Whole(1, 6000), 20)
    # Matchmaking from this chat (/seek): off unless set; a direct chat with the bot is
    # on while nobody set it (core/sessions/openplay/seeking.py reads the source).
    open_play = Key(Switch(), False)
    public_ladder = Key(Switch(), False)
    # Links to the web pages under boards, /review, /stats and /top: only where PUBLIC_URL is.
    web_links = Key(Switch(), True)
    # Puzzles (core/sessions/puzzles): /puzzle next here, and the hour (in the chat's timezone)
    # and channel of the daily post (core/admin/daily.py).
    puzzles = Key(Switch(), True)
    daily_puzzle = Key(Daily(), None)
    timezone = Key(Zone(), UTC)  # a tournament's HH:MM start, read and shown (core/admin/zones)

    def allows_chat(self, chat_id: str) -> bool:
        """Games may start in ``chat_id`` (no list: everywhere)."""
        return not self.allowed_chats or chat_id in self.allowed_chats


KEYS: tuple[Key[Any], ...] = tuple(
    value for value in vars(Effective).values() if isinstance(value, Key)
)
"""Every setting, in the order ``/settings`` shows them."""

BY_NAME: Mapping[str, Key[Any]] = {key.name: key for key in KEYS}

SETTING_NAMES: tuple[str, ...] = tuple(BY_NAME)
"""The names ``/settings`` takes, in the order it shows them."""


def check_defaults(defaults: Mapping[str, Any]) -> None:
    """Check defaults given by name (the ``.env``'s, a test's) as the keys' own parsers would.

    Raises:
        ValueError: naming the first unknown key, or value its key does not take.
    """
    for name, value in defaults.items():
        key = BY_NAME.get(name)
        if key is None:
            raise ValueError(f"{name!r} is not a chat setting; settings: {', '.join(BY_NAME)}")
        try:
            same = key.kind.read(key.show(value)) == value
        except _Bad as bad:
            expected = bad.expected.render(DEFAULT_LOCALE)
            raise ValueError(f"{name}: {value!r} is not {expected}") from None
        except (TypeError, AttributeError, ValueError):
            same = False  # not even of the right type
        if not same:
            raise ValueError(f"{name}: {value!r} is not a value of this setting")

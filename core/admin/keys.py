"""The settings admins change per chat: one table of keys, each with its parser, its bounds, how
its value is shown and where its default comes from.

Values are stored as the text :meth:`Key.show` gives, so what ``/settings`` shows can be typed
back and a stored value parses to the same value (a property test checks the round trip). A bad
value raises :class:`~core.errors.UserError` ``settings.bad_value`` naming the key, the value
and what was expected, in the reader's language.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from core.ai.levels import Level
from core.commands.values import SETTING_NAMES, GameKind
from core.errors import UserError
from core.games.rules import MAX_SIDE, MIN_SIDE
from core.i18n import LOCALES, Text

if TYPE_CHECKING:
    # Not at run time: core.sessions imports this module.
    from core.sessions.settings import ServiceSettings

T = TypeVar("T")

# The bounds of every number, inclusive. The .env keys of the same meaning use the same ones
# (chatbots/setting_values.py imports them).
GAME_TTL_BOUNDS: tuple[float, float] = (60, 30 * 86400)
CHALLENGE_TTL_BOUNDS: tuple[float, float] = (10, 86400)
COOLDOWN_BOUNDS: tuple[float, float] = (0, 86400)
GAMES_BOUNDS: tuple[int, int] = (1, 1000)
BURST_BOUNDS: tuple[int, int] = (1, 1000)
RATE_BOUNDS: tuple[int, int] = (1, 6000)
# 20 a minute suits a channel of people; up to 100 a second lets a load test through.
BOARDS_BOUNDS: tuple[int, int] = (1, 6000)

DECIMAL = re.compile(r"\+?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]{1,3})?")
"""A plain decimal number: what ``float()`` takes, without ``inf``, ``nan``, ``1_0`` or
non-ASCII digits."""

NONE = "none"
HERE = "here"
_ON = {"on": True, "yes": True, "true": True, "1": True}
_OFF = {"off": False, "no": False, "false": False, "0": False}
_GAME_WORDS: dict[str, GameKind] = {
    **{kind.value: kind for kind in GameKind},
    "tictactoe": GameKind.TRES,
    "connect4": GameKind.QUATRE,
}
_MAX_WORDS = 100  # the longest list a value may be (allowed chats)


class _Bad(ValueError):
    """A value does not fit its key; :meth:`Key.parse` names the key."""

    def __init__(self, expected: Text) -> None:
        super().__init__(expected.key)
        self.expected = expected


@dataclass(frozen=True, slots=True)
class Key(Generic[T]):
    """One setting.

    Attributes:
        name: as admins type it (one of :data:`core.commands.SETTING_NAMES`).
        read: text -> value; raises ``_Bad`` with what was expected.
        show: value -> text that :attr:`read` turns back into the same value.
        default: the value where nobody set one, from the service's settings (the ``.env``).
    """

    name: str
    read: Callable[[str], T]
    show: Callable[[T], str]
    default: Callable[[ServiceSettings], T]

    @property
    def description(self) -> Text:
        return Text(f"settings.key.{self.name}")

    def parse(self, text: str) -> T:
        """The value ``text`` means for this key.

        Raises:
            UserError: ``settings.bad_value``, naming the key, the value and what is expected.
        """
        try:
            return self.read(" ".join(text.split()))
        except _Bad as bad:
            raise UserError(
                "settings.bad_value", setting=self.name, value=text[:100], expected=bad.expected
            ) from None


# --- parsers ----------------------------------------------------------------------------------


def _number(value: float) -> str:
    # Whole seconds as admins type them; any other value as the shortest text that reads back
    # as the same float.
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def _seconds(low: float, high: float) -> Callable[[str], float]:
    expected = Text("settings.expected.seconds", {"low": _number(low), "high": _number(high)})

    def read(text: str) -> float:
        if not DECIMAL.fullmatch(text) or not low <= float(text) <= high:
            raise _Bad(expected)
        return float(text)

    return read


def _whole(low: int, high: int, *, none: bool = False) -> Callable[[str], Any]:
    key = "settings.expected.whole_or_none" if none else "settings.expected.whole"
    expected = Text(key, {"low": low, "high": high})

    def read(text: str) -> int | None:
        if none and text.lower() == NONE:
            return None
        # The length test first: int() refuses numbers of thousands of digits with its own error.
        if not (text.isascii() and text.isdigit() and len(text) <= 6 and low <= int(text) <= high):
            raise _Bad(expected)
        return int(text)

    return read


def _switch(text: str) -> bool:
    word = text.lower()
    if word in _ON:
        return True
    if word in _OFF:
        return False
    raise _Bad(Text("settings.expected.switch"))


def _level(text: str) -> Level:
    try:
        return Level(text.lower())
    except ValueError:
        choices = ", ".join(level.value for level in Level)
        raise _Bad(Text("settings.expected.one_of", {"choices": choices})) from None


def _language(text: str) -> str:
    language = text.replace("_", "-").split("-", 1)[0].lower()
    if language not in LOCALES:
        raise _Bad(Text("settings.expected.one_of", {"choices": ", ".join(LOCALES)}))
    return language


def _games(text: str) -> frozenset[GameKind]:
    words = text.replace(",", " ").lower().split()
    if words == [NONE]:
        return frozenset()
    if not words or any(word not in _GAME_WORDS for word in words):
        raise _Bad(Text("settings.expected.games"))
    return frozenset(_GAME_WORDS[word] for word in words)


def _show_games(games: frozenset[GameKind]) -> str:
    return ",".join(kind.value for kind in GameKind if kind in games) or NONE


def _size(text: str) -> tuple[int, int]:
    expected = Text("settings.expected.size", {"low": MIN_SIDE, "high": MAX_SIDE})
    rows, found, cols = text.lower().replace("\u00d7", "x").partition("x")
    if not found or not all(part.isascii() and part.isdigit() for part in (rows, cols)):
        raise _Bad(expected)
    if not all(len(part) <= 2 and MIN_SIDE <= int(part) <= MAX_SIDE for part in (rows, cols)):
        raise _Bad(expected)
    return int(rows), int(cols)


def _chats(text: str) -> frozenset[str]:
    """Chat ids, as the service hands them over (``here`` is replaced by the chat's id and
    platform mentions by ids before this runs; see ``core.admin.policy``)."""
    words = text.replace(",", " ").split()
    if words == [NONE]:
        return frozenset()
    if not words or len(words) > _MAX_WORDS or any(len(word) > 255 for word in words):
        raise _Bad(Text("settings.expected.chats"))
    return frozenset(words)


def _show_chats(chats: frozenset[str]) -> str:
    return " ".join(sorted(chats)) or NONE


def _show_optional(value: int | None) -> str:
    return NONE if value is None else str(value)


def _show_switch(value: bool) -> str:
    return "on" if value else "off"


# --- the table --------------------------------------------------------------------------------

ALL_GAMES = frozenset(GameKind)
DEFAULT_RATE_BURST = 10
DEFAULT_RATE_PER_MINUTE = 30
DEFAULT_BOARDS_PER_MINUTE = 20

KEYS: tuple[Key[Any], ...] = (
    Key("games", _games, _show_games, lambda s: s.chat_default("games", ALL_GAMES)),
    Key(
        "max_board",
        _size,
        lambda size: f"{size[0]}x{size[1]}",
        lambda s: s.chat_default("max_board", (MAX_SIDE, MAX_SIDE)),
    ),
    Key("pvp", _switch, _show_switch, lambda s: s.chat_default("pvp", True)),
    Key("bot_vs_bot", _switch, _show_switch, lambda s: s.chat_default("bot_vs_bot", True)),
    Key("level", _level, lambda level: level.value, lambda s: s.default_level),
    Key("language", _language, str, lambda s: s.default_locale),
    Key("game_ttl", _seconds(*GAME_TTL_BOUNDS), _number, lambda s: s.game_ttl),
    Key("challenge_ttl", _seconds(*CHALLENGE_TTL_BOUNDS), _number, lambda s: s.challenge_ttl),
    Key("cooldown", _seconds(*COOLDOWN_BOUNDS), _number, lambda s: s.chat_default("cooldown", 0.0)),
    Key(
        "max_games_per_user",
        _whole(*GAMES_BOUNDS, none=True),
        _show_optional,
        lambda s: s.chat_default("max_games_per_user", None),
    ),
    Key(
        "max_games_per_chat",
        _whole(*GAMES_BOUNDS, none=True),
        _show_optional,
        lambda s: s.chat_default("max_games_per_chat", None),
    ),
    Key("allowed_chats", _chats, _show_chats, lambda _: frozenset()),
    Key("rate_burst", _whole(*BURST_BOUNDS), str, lambda s: s.rate_burst),
    Key("rate_per_minute", _whole(*RATE_BOUNDS), str, lambda s: s.rate_per_minute),
    Key("boards_per_minute", _whole(*BOARDS_BOUNDS), str, lambda s: s.boards_per_minute),
)
"""Every setting, in the order ``/settings`` shows them."""

BY_NAME: Mapping[str, Key[Any]] = {key.name: key for key in KEYS}
if tuple(BY_NAME) != SETTING_NAMES:  # pragma: no cover - a programming error, caught at import
    raise RuntimeError("core.admin.keys.KEYS and core.commands.SETTING_NAMES disagree")

"""The command table: one row per command drives parsing, ``/help`` and the slash commands
adapters register; the builders that turn a row's arguments into a checked :class:`Command`."""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from core.admin.durations import (
    CLOCK_MAX,
    CLOCK_MIN,
    looks_like_duration,
    parse_duration,
    show_duration,
)
from core.admin.keys import SETTING_NAMES
from core.commands.ratings import (
    GAME_CHOICES,
    LADDER_CHOICES,
    LINK_SYNTAX,
    TOP_SYNTAX,
    build_link,
    build_top,
    build_unlink,
)
from core.commands.settings import (
    SCOPES,
    SETTINGS_SYNTAX,
    THEME_CHOICES,
    THEME_SYNTAX,
    build_settings,
    build_theme,
)
from core.commands.topics import HELP_TOPICS
from core.commands.values import (
    _BOT,
    _CASUAL,
    _DEFAULT_FIRST,
    _FIRST_SYNTAX,
    _FIRSTS,
    _LEVELS,
    _OPPONENT_SYNTAX,
    _SIZE_SEPARATORS,
    DEFAULT_LEVEL,
    PREFIXES,
    Accept,
    Block,
    BotVsBot,
    Command,
    CommandError,
    Decline,
    Final,
    GameKind,
    Help,
    Opponent,
    Rematch,
    Review,
    Seek,
    SeekAction,
    Start,
    Stats,
    VsBot,
    VsUser,
)
from core.games import CONNECT_FOUR, TICTACTOE, Rules
from core.games.rules import MAX_SIDE, MIN_K, MIN_SIDE

# --- The command table ------------------------------------------------------------------------

Builder = Callable[[str, Sequence[str]], Command]
"""Builds a command from the command as typed (prefix and name, for messages) and its
arguments (whitespace-separated tokens, as typed)."""


class OptionType(enum.Enum):
    """What an option's value is, so that a platform can ask for it in its own way."""

    TEXT = "text"  # free text, or one of the option's choices
    INTEGER = "integer"  # a whole number from ``minimum`` to ``maximum``
    USER = "user"  # a person of the platform (a slash command's user picker)
    SWITCH = "switch"  # on when given (a slash command's true/false; a word in text)


@dataclass(frozen=True, slots=True)
class Option:
    """One option of a command, for adapters that declare options (Discord slash commands).

    Attributes:
        name: the stable option name (``level``, ``opponent``, ``size``, ``k``, ``first``,
            ``player``).
        choices: the fixed values it takes, or ``()`` for free input.
        required: whether the command needs it.
        type: what its value is.
        minimum, maximum: the range of an :attr:`OptionType.INTEGER` value.
        about: the key of its description when not ``help.option.<name>``.
    """

    name: str
    choices: tuple[str, ...] = ()
    required: bool = False
    type: OptionType = OptionType.TEXT
    minimum: int | None = None
    maximum: int | None = None
    about: str | None = None

    @property
    def description(self) -> str:
        """Message key of the option's description (at most 100 characters in every locale):
        ``help.option.<name>``, or :attr:`about` where one name means another thing."""
        return self.about or f"help.option.{self.name}"


@dataclass(frozen=True, slots=True)
class CommandSpec:
    """One row of the command table.

    Attributes:
        name: the canonical name, without prefix (``tres``).
        aliases: other names that mean the same (``tictactoe``).
        syntax: the arguments as shown in ``/help`` (``""`` for none).
        options: the arguments as named options, for slash commands.
        build: makes the :class:`Command` from the arguments (raises :class:`CommandError`).
        kind: the game a start command starts, else None.
    """

    name: str
    aliases: tuple[str, ...]
    syntax: str
    options: tuple[Option, ...]
    build: Builder = field(repr=False, compare=False)
    kind: GameKind | None = None

    @property
    def names(self) -> tuple[str, ...]:
        """The name and its aliases, as typed after the prefix."""
        return (self.name, *self.aliases)

    @property
    def description(self) -> str:
        """Message key of the one-line description (at most 100 characters in every locale)."""
        return f"help.{self.name}"

    def usage(self, prefix: str = "/") -> str:
        """The command with its syntax: ``/ratlla ROWSxCOLS K [...]``."""
        return f"{prefix}{self.name} {self.syntax}".rstrip()


# --- Building commands from arguments ---------------------------------------------------------


def _no_args(value: Command) -> Builder:
    def build(typed: str, args: Sequence[str]) -> Command:
        if args:
            raise CommandError("parse.no_args", command=typed, option=args[0])
        return value

    return build


def _build_help(typed: str, args: Sequence[str]) -> Command:
    if not args:
        return Help()
    # A command name works as a topic too (/help seek): what the player just typed.
    word = args[0].lower().lstrip("/!")
    spec = _BY_NAME.get(word)
    name = spec.name if spec is not None else word
    topic = next((t for t, names in HELP_TOPICS.items() if word == t or name in names), None)
    if topic is None or len(args) > 1:
        bad = args[0] if topic is None else args[1]
        raise CommandError(
            "parse.unknown_topic", topic=bad, keys=", ".join(HELP_TOPICS), help=typed
        )
    return Help(topic)


def _build_stats(typed: str, args: Sequence[str]) -> Command:
    if not args:
        return Stats()
    if len(args) > 1 or not _is_mention(args[0]):
        bad = args[0] if not _is_mention(args[0]) else args[1]
        raise CommandError("parse.bad_option", command=typed, option=bad, usage="[@player]")
    return Stats(args[0])


def _is_mention(token: str) -> bool:
    """A player as written on a text platform: a Matrix id (``@bob:example.org``) or a name
    (``@bob``). Discord hands its picked users over as resolved ids (``adapters/discord``), so
    its mention syntax is no business of core's."""
    return token.startswith("@") and len(token) > 1


def _is_digits(text: str) -> bool:
    # str.isdigit() alone accepts "²" and other Unicode digits that int() rejects.
    return text.isascii() and text.isdigit()


def _split_size(token: str) -> tuple[str, str] | None:
    """``("6", "7")`` for a token shaped like a size (``6x7``, ``6X7``, ``6\u00d77``), else None."""
    lowered = token.lower()
    for separator in _SIZE_SEPARATORS:
        rows, found, cols = lowered.partition(separator)
        if found:
            return rows, cols
    return None


def _looks_like_size(token: str) -> bool:
    # "6x7", "6x", "x7" and "6xx7" are sizes (good or bad); "bot", "@x" or "xyz" are not.
    parts = _split_size(token)
    return parts is not None and (parts[0][:1].isdigit() or parts[1][:1].isdigit())


def _parse_size(token: str) -> tuple[int, int]:
    parts = _split_size(token)
    if parts is None or not (_is_digits(parts[0]) and _is_digits(parts[1])):
        raise CommandError("parse.bad_size", size=token)
    rows, cols = int(parts[0]), int(parts[1])
    if not (MIN_SIDE <= rows <= MAX_SIDE and MIN_SIDE <= cols <= MAX_SIDE):
        raise CommandError("parse.size_range", size=token, min=MIN_SIDE, max=MAX_SIDE)
    return rows, cols


def _start_builder(kind: GameKind, syntax: str) -> Builder:
    def build(typed: str, args: Sequence[str]) -> Command:
        return _build_start(kind, typed, args, syntax)

    return build


def _build_start(
    kind: GameKind,
    typed: str,
    args: Sequence[str],
    syntax: str,
    user: VsUser | None = None,
) -> Start:
    """A start command from its options, in any order; each token's shape says what it is.

    ``user`` is a challenged player an adapter resolved already (no token names them then).
    """
    size: str | None = None
    k: str | None = None
    first: str | None = None
    bot: str | None = None
    clock: str | None = None
    seconds: float | None = None
    levels: list[str] = []
    casual = False
    for token in args:
        word = token.lower()
        if word == _CASUAL:
            casual = True
        elif _is_clock(kind, token):
            if clock is not None:
                raise CommandError("parse.twice.clock", first=clock, second=token)
            clock, seconds = token, _parse_clock(token)  # "5 minutes": the 5 is what is wrong
        elif word in _LEVELS:
            levels.append(token)
        elif word == _BOT:
            if bot is not None:
                raise CommandError("parse.twice.opponent", first=bot, second=token)
            bot = token
        elif word in _FIRSTS:
            if first is not None:
                raise CommandError("parse.twice.first", first=first, second=token)
            first = token
        elif _is_mention(token):
            if user is not None:
                raise CommandError("parse.twice.opponent", first=_written(user), second=token)
            user = VsUser(token)
        elif kind is not GameKind.TRES and _looks_like_size(token):
            if size is not None:
                raise CommandError("parse.twice.size", first=size, second=token)
            size = token
        elif kind is GameKind.RATLLA and _is_digits(token):
            if k is not None:
                raise CommandError("parse.twice.k", first=k, second=token)
            k = token
        else:
            raise CommandError("parse.bad_option", command=typed, option=token, usage=syntax)

    opponent = _opponent(user, bot, levels)
    rules = _rules(kind, typed, size, k, syntax)
    first_player = _FIRSTS[first.lower()] if first else _DEFAULT_FIRST
    return Start(
        kind, rules, opponent, first_player, level_named=bool(levels), clock=seconds, casual=casual
    )


def _is_clock(kind: GameKind, token: str) -> bool:
    # A number alone is a clock without its unit ("5 minutes"), except where it is the line
    # length of /ratlla; a size (6x7) is a size wherever the game takes one.
    if _looks_like_size(token):
        return False
    return looks_like_duration(token) or (kind is not GameKind.RATLLA and _is_digits(token))


def _parse_clock(token: str) -> float:
    bounds = {"min": show_duration(CLOCK_MIN), "max": show_duration(CLOCK_MAX)}
    seconds = parse_duration(token)
    if seconds is None:
        raise CommandError("parse.bad_clock", clock=token, **bounds)
    if not CLOCK_MIN <= seconds <= CLOCK_MAX:
        raise CommandError("parse.clock_range", clock=token, **bounds)
    return seconds


def _written(user: VsUser) -> str:
    """How a challenged player is named in a message about the command."""
    return user.user if user.name is None else f"@{user.name}"


def _opponent(user: VsUser | None, bot: str | None, levels: Sequence[str]) -> Opponent:
    if user is not None and bot is not None:
        raise CommandError("parse.twice.opponent", first=_written(user), second=bot)
    if user is not None:
        if levels:
            raise CommandError("parse.twice.opponent", first=_written(user), second=levels[0])
        return user
    chosen = [_LEVELS[level.lower()] for level in levels]
    if bot is not None:
        # "bot" alone: medium vs medium; "bot hard": hard vs hard; "bot easy hard": as given.
        if len(chosen) > 2:
            raise CommandError("parse.bot_levels", option=levels[2])
        if not chosen:
            chosen = [DEFAULT_LEVEL]
        return BotVsBot(chosen[0], chosen[-1])
    if len(chosen) > 1:
        raise CommandError("parse.twice.opponent", first=levels[0], second=levels[1])
    return VsBot(chosen[0] if chosen else DEFAULT_LEVEL)


def _rules(kind: GameKind, typed: str, size: str | None, k: str | None, syntax: str) -> Rules:
    if kind is GameKind.TRES:
        return TICTACTOE
    if kind is GameKind.QUATRE:
        if size is None:
            return CONNECT_FOUR
        rows, cols = _parse_size(size)
        if max(rows, cols) < CONNECT_FOUR.k:
            raise CommandError("parse.size_too_small", size=size, k=CONNECT_FOUR.k)
        return _checked_rules(rows, cols, CONNECT_FOUR.k, gravity=True)
    if size is None or k is None:
        raise CommandError(
            "parse.needs_size_and_k", command=typed, usage=f"{typed} {syntax}".rstrip()
        )
    rows, cols = _parse_size(size)
    longest = max(rows, cols)
    if not MIN_K <= int(k) <= longest:  # k is ASCII digits, at most MAX_LENGTH of them
        raise CommandError("parse.k_range", k=k, size=f"{rows}x{cols}", min=MIN_K, max=longest)
    return _checked_rules(rows, cols, int(k), gravity=False)


def _checked_rules(rows: int, cols: int, k: int, *, gravity: bool) -> Rules:
    # Ranges were checked above with the player's own words; should Rules ever grow a stricter
    # check, it still reaches the player as a UserError rather than as a crash.
    try:
        return Rules(rows, cols, k, gravity=gravity)
    except ValueError as error:
        raise CommandError("parse.bad_rules", reason=str(error)) from None


_SEEK_GAMES: dict[str, tuple[GameKind, Rules]] = {
    "tres": (GameKind.TRES, TICTACTOE),
    "tictactoe": (GameKind.TRES, TICTACTOE),
    "quatre": (GameKind.QUATRE, CONNECT_FOUR),
    "connect4": (GameKind.QUATRE, CONNECT_FOUR),
}
_RATED = {"rated": True, "casual": False}
_CANCEL = "cancel"
_SEEK_SYNTAX = "[GAME] [casual] [CLOCK]|cancel"


def _build_seek(typed: str, args: Sequence[str]) -> Command:
    """``/seek``: the queue; ``/seek cancel``; ``/seek [game] [rated|casual] [clock]``, in any
    order (Connect Four when no game is named)."""
    if not args:
        return Seek()
    words = [a.lower() for a in args]
    if words[0] == _CANCEL:
        if len(args) > 1:
            raise CommandError("parse.no_args", command=f"{typed} {args[0]}", option=args[1])
        return Seek(SeekAction.CANCEL)
    game: str | None = None
    rated: str | None = None
    clock: str | None = None
    for token, word in zip(args, words, strict=True):
        if word in _SEEK_GAMES and game is None:
            game = token
        elif word in _RATED and rated is None:
            rated = token
        elif clock is None and looks_like_duration(word):
            clock = token
        else:
            raise CommandError("parse.bad_option", command=typed, option=token, usage=_SEEK_SYNTAX)
    # The clock's own words and bounds, as a start command's (parse.bad_clock, clock_range).
    seconds = None if clock is None else _parse_clock(clock)
    kind, rules = _SEEK_GAMES[(game or "quatre").lower()]
    return Seek(
        SeekAction.JOIN,
        kind,
        rules,
        None if rated is None else _RATED[rated.lower()],
        seconds,
    )


def _build_block(typed: str, args: Sequence[str]) -> Command:
    if not args:
        return Block()  # the latest opponent of an open game played here
    if len(args) == 1 and _is_mention(args[0]):
        return Block(args[0])
    mention = next((arg for arg in args if _is_mention(arg)), None)
    if mention is not None:
        # A mention among other words: not a name either; say what /block takes.
        raise CommandError("parse.bad_option", command=typed, option=mention, usage=_BLOCK)
    return Block(None, " ".join(args))  # a recent opponent's name, as the board showed it


# The table. Order is the order of /help.
_BLOCK = "[@player|NAME]"
_CLOCK_SYNTAX = "[CLOCK]"
_TRES_SYNTAX = f"{_OPPONENT_SYNTAX} {_FIRST_SYNTAX} {_CLOCK_SYNTAX} [{_CASUAL}]"
_QUATRE_SYNTAX = f"[ROWSxCOLS] {_OPPONENT_SYNTAX} {_FIRST_SYNTAX} {_CLOCK_SYNTAX} [{_CASUAL}]"
_RATLLA_SYNTAX = f"ROWSxCOLS K {_OPPONENT_SYNTAX} {_FIRST_SYNTAX} {_CLOCK_SYNTAX} [{_CASUAL}]"
_LEVEL_OPTION = Option("level", tuple(_LEVELS))
_OPPONENT_OPTION = Option("opponent", type=OptionType.USER)
_FIRST_OPTION = Option("first", ("me", "opponent", "random"))
_CLOCK_OPTION = Option("clock")
_CASUAL_OPTION = Option(_CASUAL, type=OptionType.SWITCH)

COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec("help", (), "[TOPIC]", (Option("topic", tuple(HELP_TOPICS)),), _build_help),
    CommandSpec(
        "tres",
        ("tictactoe",),
        _TRES_SYNTAX,
        (_LEVEL_OPTION, _OPPONENT_OPTION, _FIRST_OPTION, _CLOCK_OPTION, _CASUAL_OPTION),
        _start_builder(GameKind.TRES, _TRES_SYNTAX),
        GameKind.TRES,
    ),
    CommandSpec(
        "quatre",
        ("connect4",),
        _QUATRE_SYNTAX,
        (
            Option("size"),
            _LEVEL_OPTION,
            _OPPONENT_OPTION,
            _FIRST_OPTION,
            _CLOCK_OPTION,
            _CASUAL_OPTION,
        ),
        _start_builder(GameKind.QUATRE, _QUATRE_SYNTAX),
        GameKind.QUATRE,
    ),
    CommandSpec(
        "ratlla",
        (),
        _RATLLA_SYNTAX,
        (
            Option("size", required=True),
            Option("k", required=True, type=OptionType.INTEGER, minimum=MIN_K, maximum=MAX_SIDE),
            _LEVEL_OPTION,
            _OPPONENT_OPTION,
            _FIRST_OPTION,
            _CLOCK_OPTION,
            _CASUAL_OPTION,
        ),
        _start_builder(GameKind.RATLLA, _RATLLA_SYNTAX),
        GameKind.RATLLA,
    ),
    CommandSpec("accept", (), "", (), _no_args(Accept())),
    CommandSpec("decline", (), "", (), _no_args(Decline())),
    CommandSpec("rematch", (), "", (), _no_args(Rematch())),
    CommandSpec("final", ("quit",), "", (), _no_args(Final())),
    CommandSpec("review", (), "", (), _no_args(Review())),
    CommandSpec("stats", (), "[@player]", (Option("player", type=OptionType.USER),), _build_stats),
    CommandSpec(
        "top",
        (),
        TOP_SYNTAX,
        (Option("ladder", LADDER_CHOICES), Option("game", GAME_CHOICES)),
        build_top,
    ),
    CommandSpec("link", (), LINK_SYNTAX, (Option("code"),), build_link),
    CommandSpec("unlink", (), "", (), build_unlink),
    CommandSpec(
        "seek",
        (),
        _SEEK_SYNTAX,
        (
            Option("game", ("tres", "quatre", _CANCEL)),
            Option("mode", tuple(_RATED)),
            Option("clock"),
        ),
        _build_seek,
    ),
    CommandSpec(
        "block",
        (),
        _BLOCK,
        (
            Option("player", type=OptionType.USER, about="help.option.block_player"),
            Option("name", about="help.option.block_name"),
        ),
        _build_block,
    ),
    CommandSpec(
        "settings",
        (),
        SETTINGS_SYNTAX,
        (
            Option("key", SETTING_NAMES),
            Option("value"),
            Option("scope", tuple(SCOPES)),
        ),
        build_settings,
    ),
    CommandSpec("theme", (), THEME_SYNTAX, (Option("theme", THEME_CHOICES),), build_theme),
)
"""Every command: parsing, ``/help`` and slash-command registration all read this table."""


def _index(specs: Sequence[CommandSpec]) -> dict[str, CommandSpec]:
    by_name: dict[str, CommandSpec] = {}
    for spec in specs:
        for name in spec.names:
            if name in by_name:
                raise RuntimeError(f"command name {name!r} is used twice")
            by_name[name] = spec
    return by_name


_BY_NAME = _index(COMMANDS)


def find_command(name: str) -> CommandSpec | None:
    """The table row for a command name or alias (no prefix, any case), else None."""
    return _BY_NAME.get(name.lower())


def start_from_options(
    kind: GameKind,
    *,
    size: str | None = None,
    k: int | str | None = None,
    level: str | None = None,
    opponent: VsUser | None = None,
    bots: bool = False,
    first: str | None = None,
    clock: str | None = None,
    casual: bool = False,
) -> Start:
    """A start command from named options (Discord slash commands), checked like typed text.

    Args:
        kind: the game, as in the table row's ``kind``.
        size: ``ROWSxCOLS`` (``quatre``: optional, ``ratlla``: required).
        k: the line length (``ratlla`` only, required).
        level: ``easy``, ``medium`` or ``hard`` (with ``bots``: the level of both bots).
        opponent: a challenged player the platform resolved already (see :class:`VsUser`).
        bots: two bots play each other for people to watch (the text option ``bot``).
        first: ``me``/``first``, ``opponent``/``second`` or ``random``.
        clock: the time per move (``60s``, ``2m``, ``1d``).
        casual: the game is never rated.

    Raises:
        CommandError: the same errors, with the same keys, as :func:`parse`.
    """
    spec = next(spec for spec in COMMANDS if spec.kind is kind)
    typed = f"{PREFIXES[0]}{spec.name}"
    tokens: list[str] = []
    # Each value must have the shape of its own option: a size typed as "hard" is a bad size,
    # not a level.
    if size is not None:
        size = size.strip()
        if not _looks_like_size(size):
            raise CommandError("parse.bad_size", size=size)
        tokens.append(size)
    if k is not None:
        k = str(k).strip()
        if not _is_digits(k):
            raise CommandError("parse.bad_option", command=typed, option=k, usage=spec.syntax)
        tokens.append(k)
    for value, allowed in ((level, _LEVELS), (first, _FIRSTS)):
        if value is not None:
            if value.strip().lower() not in allowed:
                raise CommandError(
                    "parse.bad_option", command=typed, option=value, usage=spec.syntax
                )
            tokens.append(value.strip())
    if bots:
        tokens.append(_BOT)
    if casual:
        tokens.append(_CASUAL)
    if clock is not None:
        # Only the clock's own shape: "hard" given as a clock is a bad clock, not a level.
        seconds = _parse_clock(clock.strip())
        return replace(_build_start(kind, typed, tokens, spec.syntax, opponent), clock=seconds)
    return _build_start(kind, typed, tokens, spec.syntax, opponent)

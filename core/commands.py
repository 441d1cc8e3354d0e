"""Text -> Command: the parser, the command table and the /help text.

One table, :data:`COMMANDS`, drives everything a player can type: parsing (names, aliases, the
builder of each command), the ``/help`` text and the names and descriptions adapters register as
slash commands (maubot generates ``!help`` from its registry the same way). Text is checked once,
here; a :class:`Command` that leaves this module is valid, and the rest of ``core`` trusts it.

The parser is linear in the length of its input: it splits on whitespace and compares whole
tokens against small sets; there are no regular expressions, so no backtracking to exploit.

CONTRACT (used by core.sessions and the adapters): the names and fields of the value types
``GameKind`` .. ``Command`` are stable.
"""

from __future__ import annotations

import difflib
import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from core.ai.levels import Level
from core.errors import UserError
from core.games import CONNECT_FOUR, TICTACTOE, Rules
from core.games.rules import MAX_SIDE, MIN_K, MIN_SIDE
from core.i18n import render

__all__ = [
    "COMMANDS",
    "MAX_LENGTH",
    "PREFIXES",
    "Accept",
    "BotVsBot",
    "Command",
    "CommandError",
    "CommandSpec",
    "Decline",
    "Final",
    "First",
    "GameKind",
    "Help",
    "MoveText",
    "NotACommand",
    "Opponent",
    "Option",
    "OptionType",
    "Rematch",
    "Start",
    "Stats",
    "Top",
    "VsBot",
    "VsUser",
    "find_command",
    "format_command",
    "help_text",
    "parse",
    "resolve_move",
    "start_from_options",
]


# --- The value types (CONTRACT) ---------------------------------------------------------------


class GameKind(enum.Enum):
    """Which family of game a start command asks for (the seeds' command names)."""

    TRES = "tres"  # tic-tac-toe, 3x3 k=3
    QUATRE = "quatre"  # Connect Four, gravity, default 6x7 k=4
    RATLLA = "ratlla"  # k in a row on a free board


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
    kind: GameKind
    rules: Rules
    opponent: Opponent
    first: First


@dataclass(frozen=True, slots=True)
class Help:
    pass


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


@dataclass(frozen=True, slots=True)
class Top:
    pass


@dataclass(frozen=True, slots=True)
class Review:
    """Every move of the last finished game here, with its exact value and the mistakes."""


@dataclass(frozen=True, slots=True)
class MoveText:
    """A move as typed: a number (``5``: a cell 1..n, or a column 1..cols with gravity) or a
    coordinate (``b2``: column letter, row number from the top), both kept 1-based/as typed
    until :func:`resolve_move` knows the rules."""

    text: str
    number: int | None = None
    coord: tuple[int, int] | None = None  # (col, row), 0-based


Command = Start | Help | Accept | Decline | Rematch | Final | Stats | Top | Review | MoveText


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
_SIZE_SEPARATORS = ("\u00d7", "x")  # multiplication sign; "6X7" is lower-cased to "x"
_COLUMN_LETTERS = "abcdefghijklmnopqrstuvwxy"  # one per column, up to the widest board (25)
assert len(_COLUMN_LETTERS) == MAX_SIDE
_MAX_MOVE_DIGITS = 3  # the largest board has 625 cells
_SUGGEST_MAX_LENGTH = 32  # no close match is worth comparing a long token for
DEFAULT_LEVEL = Level.MEDIUM
"""The bot's level when a start command names none."""
_DEFAULT_FIRST = First.ME

_OPPONENT_SYNTAX = "[easy|medium|hard|@player|bot]"
_FIRST_SYNTAX = "[first|second|random]"


# --- The command table ------------------------------------------------------------------------

Builder = Callable[[str, Sequence[str]], Command]
"""Builds a command from the command as typed (prefix and name, for messages) and its
arguments (whitespace-separated tokens, as typed)."""


class OptionType(enum.Enum):
    """What an option's value is, so that a platform can ask for it in its own way."""

    TEXT = "text"  # free text, or one of the option's choices
    INTEGER = "integer"  # a whole number from ``minimum`` to ``maximum``
    USER = "user"  # a person of the platform (a slash command's user picker)


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
    """

    name: str
    choices: tuple[str, ...] = ()
    required: bool = False
    type: OptionType = OptionType.TEXT
    minimum: int | None = None
    maximum: int | None = None

    @property
    def description(self) -> str:
        """Message key of the option's description (at most 100 characters in every locale)."""
        return f"help.option.{self.name}"


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


def _build_stats(typed: str, args: Sequence[str]) -> Command:
    if not args:
        return Stats()
    if len(args) > 1 or not _is_mention(args[0]):
        bad = args[0] if not _is_mention(args[0]) else args[1]
        raise CommandError("parse.bad_option", command=typed, option=bad, usage="[@player]")
    return Stats(args[0])


def _is_mention(token: str) -> bool:
    """A player as written: a Matrix id (``@bob:example.org``), a name (``@bob``) or a Discord
    user mention (``<@123>``, ``<@!123>``; not a role ``<@&1>`` nor a channel ``<#1>``)."""
    if token.startswith("@"):
        return len(token) > 1
    if token.startswith("<@") and token.endswith(">"):
        digits = token[2:-1].removeprefix("!")
        return _is_digits(digits)
    return False


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
    levels: list[str] = []
    for token in args:
        word = token.lower()
        if word in _LEVELS:
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
    return Start(kind, rules, opponent, _FIRSTS[first.lower()] if first else _DEFAULT_FIRST)


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


# The table. Order is the order of /help.
_TRES_SYNTAX = f"{_OPPONENT_SYNTAX} {_FIRST_SYNTAX}"
_QUATRE_SYNTAX = f"[ROWSxCOLS] {_OPPONENT_SYNTAX} {_FIRST_SYNTAX}"
_RATLLA_SYNTAX = f"ROWSxCOLS K {_OPPONENT_SYNTAX} {_FIRST_SYNTAX}"
_LEVEL_OPTION = Option("level", tuple(_LEVELS))
_OPPONENT_OPTION = Option("opponent", type=OptionType.USER)
_FIRST_OPTION = Option("first", ("me", "opponent", "random"))

COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec("help", (), "", (), _no_args(Help())),
    CommandSpec(
        "tres",
        ("tictactoe",),
        _TRES_SYNTAX,
        (_LEVEL_OPTION, _OPPONENT_OPTION, _FIRST_OPTION),
        _start_builder(GameKind.TRES, _TRES_SYNTAX),
        GameKind.TRES,
    ),
    CommandSpec(
        "quatre",
        ("connect4",),
        _QUATRE_SYNTAX,
        (Option("size"), _LEVEL_OPTION, _OPPONENT_OPTION, _FIRST_OPTION),
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
    CommandSpec("top", (), "", (), _no_args(Top())),
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
    return _build_start(kind, typed, tokens, spec.syntax, opponent)


# --- Parsing ----------------------------------------------------------------------------------


def parse(text: str) -> Command:
    """Parse one chat message into a command or a move.

    Commands start with ``/`` or ``!`` (``/tres hard``, ``!connect4 7x8 @bob``); moves need no
    prefix (``5``, ``b2``; ``!5`` works too). Names and options are case-insensitive and options
    come in any order; surrounding whitespace is ignored.

    Args:
        text: the message as received.

    Returns:
        The command, or a :class:`MoveText` for :func:`resolve_move` to check against the rules.

    Raises:
        NotACommand: text without a prefix that is not a move (chatter, usually).
        CommandError: anything else that is not understood; ``key`` says what, and the message
            names the input and what was expected.
    """
    # Refuse first: everything below is linear, but there is no reason to do it on a novel.
    if len(text) > MAX_LENGTH:
        raise CommandError("parse.too_long", length=len(text), limit=MAX_LENGTH)
    stripped = text.strip()
    if not stripped:
        raise CommandError("parse.empty")
    prefix = stripped[0]
    if prefix not in PREFIXES:
        tokens = stripped.split()
        if len(tokens) == 1 and _looks_like_move(tokens[0]):
            return _parse_move(tokens[0])
        raise NotACommand("parse.not_command", text=stripped, help=f"{PREFIXES[0]}help")
    tokens = stripped[1:].split()
    if not tokens:
        raise CommandError("parse.missing_command", text=stripped, help=f"{prefix}help")
    name, args = tokens[0], tokens[1:]
    typed = f"{prefix}{name}"
    if _looks_like_move(name):
        if args:
            raise CommandError("parse.no_args", command=typed, option=args[0])
        return _parse_move(name)
    spec = find_command(name)
    if spec is None:
        raise _unknown(prefix, name)
    return spec.build(typed, args)


def _unknown(prefix: str, name: str) -> CommandError:
    typed = f"{prefix}{name}"
    if len(name) <= _SUGGEST_MAX_LENGTH:
        close = difflib.get_close_matches(name.lower(), _BY_NAME, n=1)
        if close:
            return CommandError(
                "parse.unknown_command_suggest", command=typed, suggestion=f"{prefix}{close[0]}"
            )
    return CommandError("parse.unknown_command", command=typed, help=f"{prefix}help")


def _looks_like_move(token: str) -> bool:
    """Whether a token is an attempt at a move (``5``, ``b2``, also bad ones like ``b0`` or
    ``12x``), as opposed to a word: it starts with a digit, or is one letter and digits."""
    if not token.isascii():
        return False
    if token[:1].isdigit():
        return True
    return len(token) >= 2 and token[0].isalpha() and token[1:].isdigit()


def _parse_move(token: str) -> MoveText:
    if _is_digits(token) and len(token) <= _MAX_MOVE_DIGITS:
        return MoveText(token, number=int(token))
    letter, digits = token[:1].lower(), token[1:]
    if (
        letter
        and letter in _COLUMN_LETTERS
        and _is_digits(digits)
        and len(digits) <= 2
        and int(digits) >= 1
    ):
        return MoveText(token, coord=(_COLUMN_LETTERS.index(letter), int(digits) - 1))
    raise CommandError("parse.bad_move", text=token)


def resolve_move(move: MoveText, rules: Rules) -> int:
    """The 0-based move that a typed move means under ``rules``.

    Free boards: a number is a cell ``1..rows*cols`` (row-major from the top left); a coordinate
    is that cell. Gravity: a number is a column ``1..cols``; a coordinate names its column (the
    row must be on the board, but the stone still falls).

    Returns:
        A move as :class:`core.games.Position` takes it (cell index, or column with gravity).

    Raises:
        CommandError: the move is off the board; the message names it and the valid range.
    """
    if move.number is not None:
        limit = rules.move_count
        if not 1 <= move.number <= limit:
            key = "parse.column_range" if rules.gravity else "parse.cell_range"
            raise CommandError(key, move=move.text, max=limit)
        return move.number - 1
    if move.coord is None:
        raise CommandError("parse.bad_move", text=move.text)
    col, row = move.coord
    if not (0 <= col < rules.cols and 0 <= row < rules.rows):
        raise CommandError(
            "parse.coord_range",
            move=move.text,
            last_col=_COLUMN_LETTERS[rules.cols - 1],
            rows=rules.rows,
        )
    return col if rules.gravity else row * rules.cols + col


# --- Text from commands -----------------------------------------------------------------------


def format_command(command: Command, prefix: str = "/") -> str:
    """The text that :func:`parse` turns back into ``command`` (canonical names and options).

    Useful to show a command to type (``/rematch``) or to log what was understood.
    Moves come without prefix (``b2``), as players type them.
    """
    match command:
        case MoveText(number=int() as number):
            return str(number)
        case MoveText(coord=(col, row)):
            return f"{_COLUMN_LETTERS[col]}{row + 1}"
        case MoveText():
            return command.text
        case Start():
            return " ".join([f"{prefix}{command.kind.value}", *_start_words(command)])
        case Stats(user=str() as user):
            return f"{prefix}stats {user}"
        case _:
            return f"{prefix}{_NAMES[type(command)]}"


def _start_words(start: Start) -> list[str]:
    rules = start.rules
    words: list[str] = []
    if start.kind is not GameKind.TRES:
        words.append(f"{rules.rows}x{rules.cols}")
    if start.kind is GameKind.RATLLA:
        words.append(str(rules.k))
    match start.opponent:
        case VsBot(level):
            words.append(level.value)
        case VsUser(user):
            words.append(user)
        case BotVsBot(first, second):
            words += [_BOT, first.value, second.value]
    words.append(_FIRST_WORDS[start.first])
    return words


_NAMES: dict[type, str] = {
    Help: "help",
    Accept: "accept",
    Decline: "decline",
    Rematch: "rematch",
    Final: "final",
    Stats: "stats",
    Top: "top",
}


def help_text(locale: str, prefix: str = "/") -> str:
    """The ``/help`` message in ``locale``, generated from :data:`COMMANDS`.

    Args:
        locale: a locale or platform tag (``pt-BR``); unknown ones get English.
        prefix: the prefix players type on this platform (``!`` on Matrix).

    Returns:
        Plain text: a title, one line per command (names, syntax, description), then how options
        and moves are written.
    """
    lines = [render("help.title", locale)]
    for spec in COMMANDS:
        names = ", ".join(f"{prefix}{name}" for name in spec.names)
        usage = f"{names} {spec.syntax}".rstrip()
        lines.append(f"{usage} — {render(spec.description, locale)}")
    lines.append("")
    lines.append(render("help.options", locale))
    lines.append(render("help.moves", locale, prefix=prefix))
    return "\n".join(lines)

"""The command table: one row per command drives parsing, ``/help`` and the slash commands
adapters register; the builders that turn a row's arguments into a checked :class:`Command`."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from core.admin.durations import (
    looks_like_duration,
)
from core.admin.keys import SETTING_NAMES
from core.commands.puzzles import PUZZLE_CHOICES, PUZZLE_SYNTAX, build_puzzle
from core.commands.ratings import (
    GAME_CHOICES,
    HIDE_CHOICES,
    HIDE_SYNTAX,
    LADDER_CHOICES,
    LINK_SYNTAX,
    TOP_SYNTAX,
    build_hide,
    build_link,
    build_top,
    build_unlink,
    one_board,
)
from core.commands.settings import (
    SCOPES,
    SETTINGS_SYNTAX,
    THEME_CHOICES,
    THEME_SYNTAX,
    build_settings,
    build_theme,
)
from core.commands.starts import (
    Builder,
    build_start,
    is_digits,
    is_mention,
    looks_like_size,
    parse_clock,
    start_builder,
)
from core.commands.topics import HELP_TOPICS
from core.commands.tournaments import ACTIONS as TOURNAMENT_ACTIONS
from core.commands.tournaments import SYNTAX as TOURNAMENT_SYNTAX
from core.commands.tournaments import build_tournament
from core.commands.values import (
    _BOT,
    _CASUAL,
    _FIRST_SYNTAX,
    _FIRSTS,
    _LEVELS,
    _OPPONENT_SYNTAX,
    PREFIXES,
    Accept,
    Block,
    Command,
    CommandError,
    Decline,
    Final,
    GameKind,
    Help,
    Rematch,
    Review,
    Seek,
    SeekAction,
    Start,
    Stats,
    Unblock,
    VsUser,
)
from core.games.rules import MAX_SIDE, MIN_K

# --- The command table ------------------------------------------------------------------------


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
    if len(args) > 1 or not is_mention(args[0]):
        bad = args[0] if not is_mention(args[0]) else args[1]
        raise CommandError("parse.bad_option", command=typed, option=bad, usage="[@player]")
    return Stats(args[0])


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
        if one_board(word) is not None and game is None:
            game = token
        elif word in _RATED and rated is None:
            rated = token
        elif clock is None and looks_like_duration(word):
            clock = token
        else:
            raise CommandError("parse.bad_option", command=typed, option=token, usage=_SEEK_SYNTAX)
    # The clock's own words and bounds, as a start command's (parse.bad_clock, clock_range).
    seconds = None if clock is None else parse_clock(clock)
    kind = one_board(game) if game is not None else GameKind.QUATRE
    assert kind is not None and kind.rules is not None  # the game was checked above
    return Seek(
        SeekAction.JOIN,
        kind,
        kind.rules,
        None if rated is None else _RATED[rated.lower()],
        seconds,
    )


def _build_block(typed: str, args: Sequence[str]) -> Command:
    return _blocking(Block, typed, args)


def _build_unblock(typed: str, args: Sequence[str]) -> Command:
    return _blocking(Unblock, typed, args)


def _blocking(made: type[Block | Unblock], typed: str, args: Sequence[str]) -> Command:
    """``/block`` or ``/unblock``: they name a player the same way."""
    if not args:
        return made()  # the latest opponent of an open game played here
    if len(args) == 1 and is_mention(args[0]):
        return made(args[0])
    mention = next((arg for arg in args if is_mention(arg)), None)
    if mention is not None:
        # A mention among other words: not a name either; say what the command takes.
        raise CommandError("parse.bad_option", command=typed, option=mention, usage=_BLOCK)
    return made(None, " ".join(args))  # a recent opponent's name, as the board showed it


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


def _start(kind: GameKind, syntax: str, options: tuple[Option, ...]) -> CommandSpec:
    """The row of the command that starts ``kind``: its words are the kind's."""
    return CommandSpec(kind.word, kind.aliases, syntax, options, start_builder(kind, syntax), kind)


COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec("help", (), "[TOPIC]", (Option("topic", tuple(HELP_TOPICS)),), _build_help),
    _start(
        GameKind.TRES,
        _TRES_SYNTAX,
        (_LEVEL_OPTION, _OPPONENT_OPTION, _FIRST_OPTION, _CLOCK_OPTION, _CASUAL_OPTION),
    ),
    _start(
        GameKind.QUATRE,
        _QUATRE_SYNTAX,
        (
            Option("size"),
            _LEVEL_OPTION,
            _OPPONENT_OPTION,
            _FIRST_OPTION,
            _CLOCK_OPTION,
            _CASUAL_OPTION,
        ),
    ),
    _start(
        GameKind.RATLLA,
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
    CommandSpec("hide", (), HIDE_SYNTAX, (Option("state", HIDE_CHOICES),), build_hide),
    CommandSpec("puzzle", (), PUZZLE_SYNTAX, (Option("ask", PUZZLE_CHOICES),), build_puzzle),
    CommandSpec(
        "seek",
        (),
        _SEEK_SYNTAX,
        (
            Option("game", (*GAME_CHOICES, _CANCEL)),
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
        "unblock",
        (),
        _BLOCK,
        (
            Option("player", type=OptionType.USER, about="help.option.unblock_player"),
            Option("name", about="help.option.block_name"),
        ),
        _build_unblock,
    ),
    CommandSpec(
        "tournament",
        (),
        TOURNAMENT_SYNTAX,
        (
            Option("action", TOURNAMENT_ACTIONS, about="help.option.tournament_action"),
            Option("event", about="help.option.tournament_event"),
            Option("game", GAME_CHOICES),
            Option("length", about="help.option.tournament_length"),
            Option("clock"),
            Option("start", about="help.option.tournament_start"),
            Option("mode", tuple(_RATED)),
            Option("name", about="help.option.tournament_name"),
        ),
        build_tournament,
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
        if not looks_like_size(size):
            raise CommandError("parse.bad_size", size=size)
        tokens.append(size)
    if k is not None:
        k = str(k).strip()
        if not is_digits(k):
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
        seconds = parse_clock(clock.strip())
        return replace(build_start(kind, typed, tokens, spec.syntax, opponent), clock=seconds)
    return build_start(kind, typed, tokens, spec.syntax, opponent)

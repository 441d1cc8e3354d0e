"""Text to commands and back: :func:`parse`, :func:`resolve_move`, :func:`format_command` and
the ``/help`` text. Linear in the input: whitespace splits and whole-token comparisons, no regular
expressions, so no backtracking to exploit."""

from __future__ import annotations

import difflib

from core.admin.durations import show_duration
from core.commands.starts import is_digits
from core.commands.table import _BY_NAME, COMMANDS, find_command
from core.commands.topics import HELP_TOPICS, TOPIC_NOTES
from core.commands.tournaments import tournament_words
from core.commands.values import (
    _BOT,
    _CASUAL,
    _FIRST_WORDS,
    _MAX_MOVE_DIGITS,
    _SUGGEST_MAX_LENGTH,
    MAX_LENGTH,
    PREFIXES,
    RESET,
    Accept,
    Block,
    BotVsBot,
    Command,
    CommandError,
    Decline,
    Final,
    GameKind,
    Help,
    Hide,
    Ladder,
    Link,
    MoveText,
    NotACommand,
    Puzzle,
    PuzzleAsk,
    Rematch,
    Review,
    Seek,
    SeekAction,
    Settings,
    Start,
    Stats,
    Top,
    Tournament,
    Unblock,
    Unlink,
    VsBot,
    VsUser,
)
from core.games import Rules
from core.games.rules import COLUMN_LETTERS
from core.i18n import render

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
    if is_digits(token) and len(token) <= _MAX_MOVE_DIGITS:
        return MoveText(token, number=int(token))
    letter, digits = token[:1].lower(), token[1:]
    if (
        letter
        and letter in COLUMN_LETTERS
        and is_digits(digits)
        and len(digits) <= 2
        and int(digits) >= 1
    ):
        return MoveText(token, coord=(COLUMN_LETTERS.index(letter), int(digits) - 1))
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
            last_col=COLUMN_LETTERS[rules.cols - 1],
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
            return f"{COLUMN_LETTERS[col]}{row + 1}"
        case MoveText():
            return command.text
        case Start():
            return " ".join([f"{prefix}{command.kind.word}", *_start_words(command)])
        case Stats(user=str() as user):
            return f"{prefix}stats {user}"
        case Seek():
            return " ".join([f"{prefix}seek", *_seek_words(command)])
        case Tournament():
            return " ".join([f"{prefix}tournament", *tournament_words(command)])
        case Block(user=str() as user):
            return f"{prefix}block {user}"
        case Block(name=name):
            return " ".join([f"{prefix}block", *([name] if name else [])])
        case Unblock(user=str() as user):
            return f"{prefix}unblock {user}"
        case Unblock(name=name):
            return " ".join([f"{prefix}unblock", *([name] if name else [])])
        case Top(ladder=ladder, game=game):
            words = [] if ladder is Ladder.CHAT else [ladder.value]
            return " ".join([f"{prefix}top", *words, *([game.word] if game else [])])
        case Link(code=str() as code):
            return f"{prefix}link {code}"
        case Help(topic=str() as topic):
            return f"{prefix}help {topic}"
        case Settings():
            return " ".join([f"{prefix}settings", *_settings_words(command)])
        case Hide(hidden=False):
            return f"{prefix}hide off"
        case Puzzle(ask=ask) if ask is not PuzzleAsk.TODAY:
            return f"{prefix}puzzle {ask.value}"
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
            if start.level_named:
                words.append(level.value)
        case VsUser(user):
            words.append(user)
        case BotVsBot(first, second):
            words.append(_BOT)
            if start.level_named:
                words += [first.value, second.value]
    words.append(_FIRST_WORDS[start.first])
    if start.clock is not None:
        words.append(show_duration(start.clock))
    if start.casual:
        words.append(_CASUAL)
    return words


def _seek_words(seek: Seek) -> list[str]:
    if seek.action is SeekAction.CANCEL:
        return ["cancel"]
    if seek.action is SeekAction.SHOW:
        return []
    words = [(seek.kind or GameKind.QUATRE).word]
    if seek.rated is not None:
        words.append("rated" if seek.rated else "casual")
    if seek.clock is not None:
        words.append(f"{int(seek.clock)}s")
    return words


def _settings_words(settings: Settings) -> list[str]:
    words: list[str] = []
    if settings.scope is not None:
        words.append(settings.scope.value)
    if settings.key is not None:
        words.append(settings.key)
    if settings.reset:
        words.append(RESET)
    elif settings.value is not None:
        words.append(settings.value)
    return words


_NAMES: dict[type, str] = {
    Help: "help",
    Accept: "accept",
    Decline: "decline",
    Rematch: "rematch",
    Final: "final",
    Stats: "stats",
    Top: "top",
    Review: "review",
    Link: "link",
    Unlink: "unlink",
    Hide: "hide",
    Puzzle: "puzzle",
}


def help_text(locale: str, prefix: str = "/", topic: str | None = None) -> str:
    """The ``/help`` message in ``locale``, generated from :data:`COMMANDS`: each fits one
    Discord message (2,000 characters).

    Args:
        locale: a locale or platform tag (``pt-BR``); unknown ones get English.
        prefix: the prefix players type on this platform (``!`` on Matrix).
        topic: a topic of :data:`~core.commands.topics.HELP_TOPICS`; None: the overview.

    Returns:
        Plain text. The overview: a title, one line per topic (its name, commands and what
        they are for), how to ask for a topic, then how moves are written. A topic: one line per
        command (names, syntax, description), then its notes.
    """
    by_name = {spec.name: spec for spec in COMMANDS}
    if topic is None:
        lines = [render("help.title", locale)]
        for name, commands in HELP_TOPICS.items():
            names = ", ".join(f"{prefix}{command}" for command in commands)
            lines.append(f"{name}: {names} — {render(f'help.topic.{name}', locale)}")
        lines += ["", render("help.overview", locale, prefix=prefix)]
        lines.append(render("help.moves", locale, prefix=prefix))
        return "\n".join(lines)
    lines = [f"{prefix}help {topic} — {render(f'help.topic.{topic}', locale)}"]
    for command in HELP_TOPICS[topic]:
        spec = by_name[command]
        names = ", ".join(f"{prefix}{name}" for name in spec.names)
        usage = f"{names} {spec.syntax}".rstrip()
        lines.append(f"{usage} — {render(spec.description, locale)}")
    notes = [render(key, locale, prefix=prefix) for key in TOPIC_NOTES.get(topic, ())]
    return "\n".join([*lines, *([""] if notes else []), *notes])

"""The start commands' arguments (``/tres``, ``/quatre``, ``/ratlla``): each token's shape says
what it is (a size, a line length, a clock, a level, a player), checked with the player's own
words; the table (:mod:`core.commands.table`) builds its start rows and the slash commands'
starts with them."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from core.admin.durations import (
    CLOCK_MAX,
    CLOCK_MIN,
    looks_like_duration,
    parse_duration,
    show_duration,
)
from core.commands.values import (
    _BOT,
    _CASUAL,
    _DEFAULT_FIRST,
    _FIRSTS,
    _LEVELS,
    _SIZE_SEPARATORS,
    DEFAULT_LEVEL,
    BotVsBot,
    Command,
    CommandError,
    GameKind,
    Opponent,
    Start,
    VsBot,
    VsUser,
)
from core.games import CONNECT_FOUR, TICTACTOE, Rules
from core.games.rules import MAX_SIDE, MIN_K, MIN_SIDE

Builder = Callable[[str, Sequence[str]], Command]
"""Builds a command from the command as typed (prefix and name, for messages) and its
arguments (whitespace-separated tokens, as typed)."""


def is_mention(token: str) -> bool:
    """A player as written on a text platform: a Matrix id (``@bob:example.org``) or a name
    (``@bob``). Discord hands its picked users over as resolved ids (``adapters/discord``), so
    its mention syntax is no business of core's."""
    return token.startswith("@") and len(token) > 1


def is_digits(text: str) -> bool:
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


def looks_like_size(token: str) -> bool:
    # "6x7", "6x", "x7" and "6xx7" are sizes (good or bad); "bot", "@x" or "xyz" are not.
    parts = _split_size(token)
    return parts is not None and (parts[0][:1].isdigit() or parts[1][:1].isdigit())


def _parse_size(token: str) -> tuple[int, int]:
    parts = _split_size(token)
    if parts is None or not (is_digits(parts[0]) and is_digits(parts[1])):
        raise CommandError("parse.bad_size", size=token)
    rows, cols = int(parts[0]), int(parts[1])
    if not (MIN_SIDE <= rows <= MAX_SIDE and MIN_SIDE <= cols <= MAX_SIDE):
        raise CommandError("parse.size_range", size=token, min=MIN_SIDE, max=MAX_SIDE)
    return rows, cols


def start_builder(kind: GameKind, syntax: str) -> Builder:
    def build(typed: str, args: Sequence[str]) -> Command:
        return build_start(kind, typed, args, syntax)

    return build


def build_start(
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
            clock, seconds = token, parse_clock(token)  # "5 minutes": the 5 is what is wrong
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
        elif is_mention(token):
            if user is not None:
                raise CommandError("parse.twice.opponent", first=_written(user), second=token)
            user = VsUser(token)
        elif kind is not GameKind.TRES and looks_like_size(token):
            if size is not None:
                raise CommandError("parse.twice.size", first=size, second=token)
            size = token
        elif kind is GameKind.RATLLA and is_digits(token):
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
    if looks_like_size(token):
        return False
    return looks_like_duration(token) or (kind is not GameKind.RATLLA and is_digits(token))


def parse_clock(token: str) -> float:
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

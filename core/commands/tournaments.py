"""``/tournament``'s words: an event made (its format, game, rounds or duration, clock, start
and mode, in any order after the format, then its name, the words after ``name``), joined, left
or shown. Bounds are checked here, where the text is read, each with its own answer."""

from __future__ import annotations

import re
from collections.abc import Sequence

from core.admin.durations import (
    DAY,
    MINUTE,
    looks_like_duration,
    parse_duration,
    show_duration,
)
from core.commands.ratings import one_board
from core.commands.starts import parse_clock
from core.commands.values import CommandError, GameKind, Tournament, TournamentAction

FORMATS = ("arena", "swiss", "roundrobin")
ACTIONS = (*FORMATS, "join", "leave", "berserk")
SYNTAX = (
    "[arena|swiss|roundrobin GAME [ROUNDS|DURATION] [CLOCK] [HH:MM|+WAIT] [casual] [berserk]"
    " [name NAME]|join|leave|berserk]"
)

ARENA_MIN = 10 * MINUTE
ARENA_MAX = DAY
ROUNDS_MIN = 1
ROUNDS_MAX = 15
START_MAX = 7 * DAY
"""How far ahead an event may start."""

_TIME_OF_DAY = re.compile(r"([01]?[0-9]|2[0-3]):([0-5][0-9])", re.ASCII)
_RATED = {"rated": True, "casual": False}


def build_tournament(typed: str, args: Sequence[str]) -> Tournament:
    if not args:
        return Tournament()
    word = args[0].lower()
    if word in ("join", "leave"):
        if len(args) > 2:
            raise CommandError(
                "parse.no_args", command=f"{typed} {args[0]} {args[1]}", option=args[2]
            )
        action = TournamentAction.JOIN if word == "join" else TournamentAction.LEAVE
        return Tournament(action, event_id=args[1] if len(args) > 1 else None)
    if word == "berserk":
        if len(args) > 1:
            raise CommandError("parse.no_args", command=f"{typed} {args[0]}", option=args[1])
        return Tournament(TournamentAction.BERSERK)
    if word not in FORMATS:
        if len(args) > 1:
            raise CommandError("parse.bad_option", command=typed, option=args[1], usage=SYNTAX)
        return Tournament(event_id=args[0])  # an event by its id
    return _create(typed, word, args[1:])


def _create(typed: str, fmt: str, args: Sequence[str]) -> Tournament:
    kind: GameKind | None = None
    rated: bool | None = None
    berserk = False
    durations: list[str] = []
    rounds: str | None = None
    start_in: float | None = None
    start_at: tuple[int, int] | None = None
    command = f"{typed} {fmt}"
    name: str | None = None
    for at, token in enumerate(args):
        word = token.lower()
        if word == "name" and at + 1 < len(args):
            name = " ".join(args[at + 1 :])  # the name is the rest: it may have spaces
            break
        clock_like = looks_like_duration(word)
        if kind is None and one_board(word) is not None:
            kind = one_board(word)
        elif word in _RATED and rated is None:
            rated = _RATED[word]
        elif fmt == "arena" and word == "berserk" and not berserk:
            berserk = True
        elif start_in is None and start_at is None and (found := _TIME_OF_DAY.fullmatch(word)):
            start_at = (int(found[1]), int(found[2]))
        elif start_in is None and start_at is None and word.startswith("+"):
            start_in = parse_duration(word[1:])
            if start_in is None or not 0 <= start_in <= START_MAX:
                raise CommandError("parse.event_start", start=token, max=show_duration(START_MAX))
        elif fmt == "swiss" and rounds is None and word.isdigit():
            rounds = word
        elif clock_like and len(durations) < (2 if fmt == "arena" else 1):
            durations.append(word)
        else:
            raise CommandError("parse.bad_option", command=command, option=token, usage=SYNTAX)
    length: float | None = None
    if rounds is not None:
        length = float(rounds)
        if not ROUNDS_MIN <= length <= ROUNDS_MAX:
            raise CommandError("parse.event_rounds", rounds=rounds, min=ROUNDS_MIN, max=ROUNDS_MAX)
    if fmt == "arena" and durations:
        text = durations.pop(0)
        length = parse_duration(text)
        if length is None or not ARENA_MIN <= length <= ARENA_MAX:
            raise CommandError(
                "parse.event_duration",
                duration=text,
                min=show_duration(ARENA_MIN),
                max=show_duration(ARENA_MAX),
            )
    # The clock's own words and bounds, as a start command's (parse.bad_clock, clock_range).
    clock = parse_clock(durations[0]) if durations else None
    kind = kind or GameKind.QUATRE
    return Tournament(
        TournamentAction.CREATE,
        fmt,
        kind,
        kind.rules,
        length,
        clock,
        start_in,
        start_at,
        rated,
        berserk=berserk,
        name=name,
    )


def tournament_words(command: Tournament) -> list[str]:
    """The words that :func:`build_tournament` reads back into ``command``."""
    if command.action in (TournamentAction.JOIN, TournamentAction.LEAVE):
        return [command.action.value, *([command.event_id] if command.event_id else [])]
    if command.action is TournamentAction.BERSERK:
        return ["berserk"]
    if command.action is TournamentAction.SHOW:
        return [command.event_id] if command.event_id else []
    words = [command.format or "arena", (command.kind or GameKind.QUATRE).word]
    if command.length is not None:
        words.append(
            str(int(command.length)) if command.format == "swiss" else f"{int(command.length)}s"
        )
    if command.clock is not None:
        words.append(f"{int(command.clock)}s")
    if command.start_in is not None:
        words.append(f"+{int(command.start_in)}s")
    if command.start_at is not None:
        words.append(f"{command.start_at[0]:02}:{command.start_at[1]:02}")
    if command.rated is not None:
        words.append("rated" if command.rated else "casual")
    if command.berserk:
        words.append("berserk")
    if command.name:
        words += ["name", *command.name.split()]
    return words

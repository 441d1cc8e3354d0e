"""The builders of the rating commands: ``/top [chat|server|all] [GAME]``, ``/link [CODE]`` and
``/unlink`` (their rows are in :data:`core.commands.table.COMMANDS`)."""

from __future__ import annotations

from collections.abc import Sequence

from core.commands.values import CommandError, GameKind, Hide, Ladder, Link, Top, Unlink

_LADDERS = {ladder.value: ladder for ladder in Ladder}
LADDER_CHOICES = tuple(_LADDERS)
GAME_CHOICES = tuple(kind.word for kind in GameKind if kind.rules is not None)
"""The games ``/top`` and ``/seek`` name: the words that alone mean one board (one pool)."""
TOP_SYNTAX = f"[{'|'.join(LADDER_CHOICES)}] [{'|'.join(GAME_CHOICES)}]"
LINK_SYNTAX = "[CODE]"
HIDE_SYNTAX = "[on|off]"
HIDE_CHOICES = ("on", "off")
CODE_LENGTH = 8
"""Characters of a ``/link`` code (see :data:`CODE_ALPHABET`)."""
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""Letters and digits that cannot be mistaken for each other when typed from another screen
(no 0/O, 1/I)."""


def one_board(word: str) -> GameKind | None:
    """The kind a word of :data:`GAME_CHOICES` (or an alias of one, any case) names, else
    None."""
    kind = GameKind.named(word)
    return kind if kind is not None and kind.rules is not None else None


def build_top(typed: str, args: Sequence[str]) -> Top:
    """``/top``, ``/top server``, ``/top all quatre``: the words in any order, each once."""
    ladder: Ladder | None = None
    game: GameKind | None = None
    for token in args:
        word = token.lower()
        if word in _LADDERS and ladder is None:
            ladder = _LADDERS[word]
        elif (kind := one_board(word)) is not None and game is None:
            game = kind
        else:
            raise CommandError("parse.bad_option", command=typed, option=token, usage=TOP_SYNTAX)
    return Top(ladder or Ladder.CHAT, game)


def top_from_options(ladder: str | None, game: str | None) -> Top:
    """``/top`` from named options (Discord), checked as typed text."""
    return build_top("/top", [value for value in (ladder, game) if value])


def build_link(typed: str, args: Sequence[str]) -> Link:
    """``/link`` alone asks for a code; ``/link CODE`` redeems one (any case, spaces and dashes
    ignored: people copy codes from another screen)."""
    if not args:
        return Link()
    code = "".join(args).replace("-", "").upper()
    if len(code) != CODE_LENGTH or any(char not in CODE_ALPHABET for char in code):
        raise CommandError("parse.bad_link_code", code=" ".join(args), length=CODE_LENGTH)
    return Link(code)


def build_unlink(typed: str, args: Sequence[str]) -> Unlink:
    if args:
        raise CommandError("parse.no_args", command=typed, option=args[0])
    return Unlink()


def build_hide(typed: str, args: Sequence[str]) -> Hide:
    """``/hide`` or ``/hide on`` leaves the web pages, ``/hide off`` comes back."""
    if not args:
        return Hide()
    if len(args) > 1 or args[0].lower() not in HIDE_CHOICES:
        option = args[0] if args[0].lower() not in HIDE_CHOICES else args[1]
        raise CommandError("parse.bad_option", command=typed, option=option, usage=HIDE_SYNTAX)
    return Hide(args[0].lower() == "on")

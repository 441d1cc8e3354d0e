"""The builder of ``/puzzle [next|stats|top]`` (its row is in
:data:`core.commands.table.COMMANDS`)."""

from __future__ import annotations

from collections.abc import Sequence

from core.commands.values import CommandError, Puzzle, PuzzleAsk

PUZZLE_CHOICES = tuple(ask.value for ask in PuzzleAsk if ask is not PuzzleAsk.TODAY)
PUZZLE_SYNTAX = f"[{'|'.join(PUZZLE_CHOICES)}]"


def build_puzzle(typed: str, args: Sequence[str]) -> Puzzle:
    """``/puzzle`` alone is today's puzzle; one word asks for another part."""
    if not args:
        return Puzzle()
    word = args[0].lower()
    if len(args) > 1 or word not in PUZZLE_CHOICES:
        option = args[0] if word not in PUZZLE_CHOICES else args[1]
        raise CommandError("parse.bad_option", command=typed, option=option, usage=PUZZLE_SYNTAX)
    return Puzzle(PuzzleAsk(word))

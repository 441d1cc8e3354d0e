"""The proven answer tree of each shipped puzzle, the answer checker's fast path
(``data/lines.csv``).

A puzzle's tree holds every answer :func:`core.puzzles.answer.answer` accepts from its start:
at each of the attacker's turns every move that still wins within the moves left (for a VCF,
by fours), and after each the bot's reply (the longest defence; for a VCF, the forced block),
to the win. A hold's tree is its solution and the solver's exact reply (the best, the lowest
column among equals). The checker answers a move in the tree from it (the verdict and the
reply it would search for) and searches with the solver only for a move outside it, which
loses or is illegal: every accepted answer is a lookup, and each was accepted by the solver
when the tree was made.

The tree is kept by position: lines that reach the same position in another order (Connect
Four has many) share its answer, which depends on the position only. Stored as lines from the
start, each to a win or to a reply after which the tree goes on through positions another line
reaches; the first line is the proven line the puzzle's page shows: each time the attacker's
fastest win (the lowest column among equals; for a VCF, the first four that keeps the win).
Made by :func:`tree_of` with the checker's own rules (``python -m benchmarks._puzzle_set
lines``); the suite checks a sample against the solver, the benchmark ``puzzles`` all of them.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Hashable, Iterable
from importlib import resources
from typing import TYPE_CHECKING

from core.ai.engine import SearchTimeout
from core.games.bitboard import iter_bits
from core.games.rules import Rules
from core.puzzles import vcf
from core.puzzles.facts import move_values
from core.puzzles.puzzle import Puzzle, Theme

if TYPE_CHECKING:
    from core.puzzles.answer import Attempt

LINES = "lines.csv"
HOLD_REPLY_SECONDS = 30.0
"""How long the solver may search for a hold's exact reply (none stored if it cannot)."""

Tree = dict[Hashable, int | None]
""":func:`key` of the moves from the start to an accepted attacker's move -> the bot's reply,
None where the move wins (or ends a hold without a reply)."""


def known(puzzle: Puzzle) -> tuple[int, ...] | None:
    """The proven line of ``puzzle`` (its tree's first), or None (a puzzle not shipped, or
    without a tree)."""
    found = _stored().get(puzzle.id)
    return None if found is None else _parsed(puzzle.rules, found[0])


def stored(puzzle: Puzzle) -> list[tuple[int, ...]] | None:
    """The stored lines of the tree of ``puzzle``, the proven line first, or None."""
    found = _stored().get(puzzle.id)
    return None if found is None else [_parsed(puzzle.rules, text) for text in found]


def tree(puzzle: Puzzle) -> Tree | None:
    """The answer tree of ``puzzle``, or None (a puzzle not shipped, or without one)."""
    return _tree(puzzle.id, puzzle.rules) if puzzle.id in _stored() else None


def key(rules: Rules, played: tuple[int, ...]) -> Hashable | None:
    """The position the moves ``played`` from a puzzle's start reach, as a value that is the
    same for every order of them (None for a move off the board): the cells each side took
    since the start, as two bit masks (under gravity a column's next cell counted from the
    start's height, the same in every line of one puzzle). Built without a
    :class:`~core.games.position.Position`: this is the fast path."""
    sides = [0, 0]
    heights = [0] * rules.cols
    for at, move in enumerate(played):
        cell = _cell(rules, move, heights)
        if cell is None:
            return None
        sides[at % 2] |= 1 << cell
    return len(played), sides[0], sides[1]


def _cell(rules: Rules, move: int, heights: list[int]) -> int | None:
    if not rules.gravity:
        return move
    if not 0 <= move < rules.cols:
        return None
    heights[move] += 1
    return move * (rules.rows + 1) + heights[move] - 1


# A tree is parsed the first time its puzzle is answered (the whole file holds thousands of
# lines, and a process answers few puzzles), each line from where it leaves the one before:
# the lines come out of a search in depth-first order, and most of each is the last's.
@functools.cache
def _tree(ident: str, rules: Rules) -> Tree:
    written = _stored()[ident]
    found: Tree = {}
    before: tuple[int, ...] = ()
    states = [(0, 0)]  # the sides' masks after each move of ``before``
    slot = rules.rows + 1  # a column's bits, under gravity (see key)
    column = (1 << slot) - 1
    for text in written:
        path = _parsed(rules, text)
        shared, most = 0, min(len(path), len(before))
        while shared < most and path[shared] == before[shared]:
            shared += 1
        del states[shared + 1 :]
        first, second = states[shared]
        for at in range(shared, len(path)):
            move = path[at]
            if rules.gravity:
                if not 0 <= move < rules.cols:
                    raise ValueError(f"a stored line leaves the board: {text}")
                # the column's cells fill from its first bit: its height is its length
                cell = move * slot + ((first | second) >> (move * slot) & column).bit_length()
            else:
                cell = move
            if at % 2 == 0:
                first |= 1 << cell
                found[(at + 1, first, second)] = path[at + 1] if at + 1 < len(path) else None
            else:
                second |= 1 << cell
            states.append((first, second))
        before = path
    return found


@functools.cache
def _stored() -> dict[str, list[str]]:
    text = resources.files(__package__).joinpath("data", LINES).read_text("utf-8")
    found: dict[str, list[str]] = {}
    for line in text.splitlines():
        if line.strip():
            ident, moves = line.strip().split(",")
            found.setdefault(ident, []).append(moves)
    return found


def _parsed(rules: Rules, written: str) -> tuple[int, ...]:
    return tuple([int(move) - 1 for move in (written if rules.gravity else written.split("."))])


def to_lines(puzzle: Puzzle, paths: list[tuple[int, ...]]) -> list[str]:
    """The rows of ``data/lines.csv`` for a tree: each the id, then the moves 1-based as the
    puzzle's own are written (column digits under gravity, else cell numbers joined by dots)."""
    glue = "" if puzzle.rules.gravity else "."
    return [f"{puzzle.id},{glue.join(str(move + 1) for move in path)}" for path in paths]


def tree_of(puzzle: Puzzle) -> list[tuple[int, ...]] | None:
    """The lines of the answer tree of ``puzzle``, found with the solver (see the module
    docstring), the proven line first; None for a hold whose exact reply the solver cannot find
    in :data:`HOLD_REPLY_SECONDS`.

    Raises:
        ValueError: the checker does not accept the puzzle's own solution.
    """
    from core.puzzles.answer import Attempt, Verdict, accepted, best_reply

    if puzzle.theme is Theme.HOLD:
        line = _hold_line(puzzle)
        return None if line is None else [line]
    paths: list[tuple[int, ...]] = []
    seen: set[Hashable] = set()

    def grow(attempt: Attempt, moves: Iterable[int]) -> bool:
        """Add the lines below ``attempt``; whether any was added."""
        before = attempt.position
        added = False
        for move in moves:
            played = (*attempt.played, move)
            if key(puzzle.rules, played) in seen:
                continue
            child = before.play(move)
            verdict = accepted(attempt, before, child, move)
            if verdict is Verdict.FAILED:
                continue
            seen.add(key(puzzle.rules, played))
            if verdict is Verdict.SOLVED:
                paths.append(played)
            else:
                reply = (
                    vcf.forced_reply(child, before.to_move, puzzle.solution)
                    if puzzle.theme is Theme.VCF
                    else best_reply(child)
                )
                after = Attempt(puzzle, (*played, reply))
                if not grow(after, _candidates(after)):
                    paths.append(after.played)  # the tree goes on through known positions
            added = True
        return added

    # the first move is the only one that wins: the puzzle's own fact (facts.verify)
    if not grow(Attempt(puzzle), [puzzle.solution]):
        raise ValueError(f"puzzle {puzzle.id}: its solution is not accepted")
    return paths


def _candidates(attempt: Attempt) -> list[int]:
    """The moves that may be accepted at the attempt's position, in the order the proven line
    chooses among equals: every legal one under gravity, by column; on a free board only a five
    or a four (any other move is refused by the rule itself), in the order of the VCF search's
    own moves (:func:`core.puzzles.vcf.winning_firsts`)."""
    position = attempt.position
    if position.rules.gravity:
        return list(position.legal_moves())
    me = position.to_move
    cells = vcf.win_bits(position, me) | vcf.four_makers(position, me)
    return [vcf.cell_of(position, bit) for bit in iter_bits(cells)]


def _hold_line(puzzle: Puzzle) -> tuple[int, ...] | None:
    child = puzzle.position.play(puzzle.solution)
    if child.is_over:
        return (puzzle.solution,)
    # Every reply's exact value, and the best one with the lowest column: the solver's own best
    # move may be any of equals (its table decides), and a line must be the same whenever it is
    # made.
    try:
        values = move_values(child, time.perf_counter() + HOLD_REPLY_SECONDS)
    except SearchTimeout:
        return None
    best = max(values.values())
    return (puzzle.solution, min(move for move, value in values.items() if value == best))

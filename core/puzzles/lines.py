"""The proven answer tree of each shipped puzzle, the answer checker's fast path
(``data/lines.csv``), and the refutations of the wrong moves at its positions
(``data/refutations.csv``, :mod:`core.puzzles.refutations`); an added puzzle keeps both in the
store (:attr:`~core.puzzles.puzzle.Puzzle.answers`).

A puzzle's tree holds every answer :func:`core.puzzles.answer.answer` accepts from its start:
at each of the attacker's turns every move that still wins within the moves left (for a VCF,
by fours), and after each the bot's reply (the longest defence; for a VCF, the forced block),
to the win. A hold's tree is its solution and the solver's exact reply (the best, the lowest
column among equals). The checker answers a move in the tree from it (the verdict and the
reply it would search for), a wrong move at one of its positions from the refutations, and
searches with the solver only for a move outside both (an illegal one): every answer is a
lookup, and each was judged by the solver when the tree was made.

The tree is kept by position: lines that reach the same position in another order (Connect
Four has many) share its answer, which depends on the position only. Stored as lines from the
start, each to a win or to a reply after which the tree goes on through positions another line
reaches; the first line is the proven line the puzzle's page shows: each time the attacker's
fastest win (the lowest column among equals; for a VCF, the first four that keeps the win).
Made by :func:`tree_of` and :func:`refutations_of` with the checker's own rules (``python -m
benchmarks._puzzle_set lines``, ``refutations``); the suite checks a sample against the solver,
the benchmark ``puzzles`` all of them.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING

from core.ai.engine import SearchTimeout
from core.games.bitboard import iter_bits
from core.games.rules import Rules
from core.puzzles import refutations, vcf
from core.puzzles.puzzle import Puzzle, Theme
from core.puzzles.refutations import Refutation, Wrong

if TYPE_CHECKING:
    from core.puzzles.answer import Attempt

LINES = "lines.csv"
REFUTATIONS = "refutations.csv"
HOLD_REPLY_SECONDS = 30.0
"""How long the solver may search for a hold's exact reply (none stored if it cannot)."""

Key = tuple[int, int, int]
Tree = dict[Hashable, int | None]
""":func:`key` of the moves from the start to an accepted attacker's move -> the bot's reply,
None where the move wins (or ends a hold without a reply)."""


@dataclass(frozen=True)
class _Parsed:
    tree: Tree
    wrong: dict[Hashable, str]  # :func:`key` of a position where the attacker moves -> the
    # text of its refutations (:func:`core.puzzles.refutations.refuted` reads it)
    taken: int  # on a free board, the start's cells as bits of their number (see key)


def known(puzzle: Puzzle) -> tuple[int, ...] | None:
    """The proven line of ``puzzle`` (its tree's first), or None (a puzzle without a tree)."""
    found = stored(puzzle)
    return None if found is None else found[0]


def stored(puzzle: Puzzle) -> list[tuple[int, ...]] | None:
    """The stored lines of the tree of ``puzzle``, the proven line first, or None."""
    found = _written(puzzle)
    return None if found is None else [_moves(puzzle.rules, text) for text in found[0]]


def stored_refutations(puzzle: Puzzle) -> list[Wrong] | None:
    """The stored refutations of the tree of ``puzzle``, in :func:`nodes_of`'s order, or
    None."""
    found = _written(puzzle)
    if found is None or found[1] is None:
        return None
    return refutations.decode(puzzle.rules, found[1])


def tree(puzzle: Puzzle) -> Tree | None:
    """The answer tree of ``puzzle``, or None (a puzzle without one): a shipped puzzle's from
    ``data/``, an added one's from its :attr:`~core.puzzles.puzzle.Puzzle.answers`."""
    parsed = _parsed(puzzle, puzzle.answers)
    return None if parsed is None else parsed.tree


def refutation(puzzle: Puzzle, before: tuple[int, ...], move: int) -> Refutation | None:
    """The stored refutation of ``move`` played after ``before`` (the moves from the start to
    one of the tree's positions), or None: no tree, or a move the table does not hold (see
    :mod:`core.puzzles.refutations`)."""
    parsed = _parsed(puzzle, puzzle.answers)
    if parsed is None:
        return None
    at = key(puzzle.rules, before)
    wrong = parsed.wrong.get(at)
    if wrong is None or at is None:
        return None
    return refutations.refuted(puzzle.rules, wrong, move, parsed.taken | at[1] | at[2])


def key(rules: Rules, played: tuple[int, ...]) -> Key | None:
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


def _nodes_end(puzzle: Puzzle, path: Sequence[int]) -> int:
    """Past the last index of ``path`` before which the attacker moves at one of the tree's
    positions: every even one, the end of a line after a reply included; a hold's start only
    (its one move ends it)."""
    return 1 if puzzle.theme is Theme.HOLD else len(path) + 1


def nodes_of(puzzle: Puzzle, paths: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
    """The moves to each position of the tree where the attacker moves, each once, in the order
    the lines first reach them: the order of a tree's refutations."""
    found: dict[Hashable, tuple[int, ...]] = {}
    for path in paths:
        for at in range(0, _nodes_end(puzzle, path), 2):
            found.setdefault(key(puzzle.rules, path[:at]), path[:at])
    return list(found.values())


# A tree is parsed the first time its puzzle is answered (the whole file holds thousands of
# lines, and a process answers few puzzles), each line from where it leaves the one before:
# the lines come out of a search in depth-first order, and most of each is the last's.
@functools.lru_cache(maxsize=4096)
def _parsed(puzzle: Puzzle, answers: str | None) -> _Parsed | None:
    written = _written(puzzle)
    if written is None:
        return None
    rows, refuted = written
    rules = puzzle.rules
    found: Tree = {}
    nodes: dict[Hashable, None] = {}
    before: tuple[int, ...] = ()
    states = [(0, 0)]  # the sides' masks after each move of ``before``
    slot = rules.rows + 1  # a column's bits, under gravity (see key)
    column = (1 << slot) - 1
    for text in rows:
        path = _moves(rules, text)
        shared, most = 0, min(len(path), len(before))
        while shared < most and path[shared] == before[shared]:
            shared += 1
        del states[shared + 1 :]
        first, second = states[shared]
        ends = _nodes_end(puzzle, path)
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
                if at < ends:
                    nodes[(at, first, second)] = None
                first |= 1 << cell
                found[(at + 1, first, second)] = path[at + 1] if at + 1 < len(path) else None
            else:
                second |= 1 << cell
            states.append((first, second))
        if len(path) % 2 == 0 and len(path) < ends:
            nodes[(len(path), first, second)] = None
        before = path
    wrong: dict[Hashable, str] = {}
    if refuted is not None:
        table = refuted.split(";")
        if len(table) != len(nodes):
            raise ValueError(f"puzzle {puzzle.id}: {len(table)} refutations, {len(nodes)} nodes")
        wrong = dict(zip(nodes, table, strict=True))
    taken = 0 if rules.gravity else sum(1 << move for move in set(puzzle.moves))
    return _Parsed(found, wrong, taken)


def _written(puzzle: Puzzle) -> tuple[list[str], str | None] | None:
    """The lines of the tree of ``puzzle`` as written, and its refutations' text."""
    rows = _stored().get(puzzle.id)
    if rows is not None:
        return rows, _stored_refutations().get(puzzle.id)
    if puzzle.answers is None:
        return None
    written, refuted = puzzle.answers.split("|")
    return written.split(), refuted


@functools.cache
def _stored() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for ident, moves in _rows(LINES):
        found.setdefault(ident, []).append(moves)
    return found


@functools.cache
def _stored_refutations() -> dict[str, str]:
    return dict(_rows(REFUTATIONS))


def _rows(name: str) -> list[tuple[str, str]]:
    text = resources.files(__package__).joinpath("data", name).read_text("utf-8")
    pairs = (line.strip().split(",") for line in text.splitlines() if line.strip())
    return [(ident, value) for ident, value in pairs]


def _moves(rules: Rules, written: str) -> tuple[int, ...]:
    return tuple([int(move) - 1 for move in (written if rules.gravity else written.split("."))])


def _written_moves(puzzle: Puzzle, path: tuple[int, ...]) -> str:
    glue = "" if puzzle.rules.gravity else "."
    return glue.join(str(move + 1) for move in path)


def to_refutations(puzzle: Puzzle, table: list[Wrong]) -> str:
    """The row of ``data/refutations.csv`` for a tree's refutations (in :func:`nodes_of`'s
    order): the id, then :func:`core.puzzles.refutations.encode`'s text."""
    return f"{puzzle.id},{refutations.encode(puzzle.rules, table)}"


def refutations_of(puzzle: Puzzle, paths: list[tuple[int, ...]]) -> list[Wrong]:
    """The refutations of the tree of ``paths`` (:func:`tree_of`'s), found with the solver."""
    from core.puzzles.answer import Attempt

    return [refutations.wrong_at(Attempt(puzzle, at)) for at in nodes_of(puzzle, paths)]


def answers_of(puzzle: Puzzle) -> str | None:
    """The tree of ``puzzle`` and its refutations, found with the solver, as an added puzzle
    keeps them (:attr:`~core.puzzles.puzzle.Puzzle.answers`: the lines as ``data/lines.csv``
    writes their moves, space-separated, then ``|`` and the refutations' text); None for a
    hold without a tree (see :func:`tree_of`).

    Raises:
        ValueError: the checker does not accept the puzzle's own solution.
    """
    paths = tree_of(puzzle)
    if paths is None:
        return None
    written = " ".join(_written_moves(puzzle, path) for path in paths)
    return f"{written}|{refutations.encode(puzzle.rules, refutations_of(puzzle, paths))}"


def to_lines(puzzle: Puzzle, paths: list[tuple[int, ...]]) -> list[str]:
    """The rows of ``data/lines.csv`` for a tree: each the id, then the moves 1-based as the
    puzzle's own are written (column digits under gravity, else cell numbers joined by dots)."""
    return [f"{puzzle.id},{_written_moves(puzzle, path)}" for path in paths]


def tree_of(puzzle: Puzzle) -> list[tuple[int, ...]] | None:
    """The lines of the answer tree of ``puzzle``, found with the solver (see the module
    docstring), the proven line first; None for a hold whose exact reply the solver cannot find
    in :data:`HOLD_REPLY_SECONDS`.

    Raises:
        ValueError: the checker does not accept the puzzle's own solution.
    """
    from core.puzzles.answer import Attempt, Verdict, accepted, reply

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
                answered = reply(attempt, before, child, verdict, time.perf_counter())
                assert answered is not None  # the game goes on: the move did not win
                after = Attempt(puzzle, (*played, answered))
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
    from core.puzzles.answer import best_reply

    child = puzzle.position.play(puzzle.solution)
    if child.is_over:
        return (puzzle.solution,)
    try:
        return (puzzle.solution, best_reply(child, time.perf_counter() + HOLD_REPLY_SECONDS))
    except SearchTimeout:
        return None

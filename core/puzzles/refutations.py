"""The refutations of wrong answers, stored beside the answer trees
(``data/refutations.csv``; :mod:`core.puzzles.lines` reads them).

At each position of a puzzle's answer tree where the attacker moves, every legal move that
:func:`core.puzzles.answer.accepted` refuses has its reply stored: the one
:func:`core.puzzles.answer.reply` gives, searched to the end when the table is made (the
checker's own search has a budget, and gives the same reply whenever it finishes). So a wrong
answer is a lookup too; a move the table does not hold (an illegal one, or one accepted off the
tree) goes to the solver.

Under gravity every legal wrong move is stored. On a free board (a VCF) nearly every cell is a
wrong move, and the forced reply to one that makes no four, blocks no five and takes neither the
puzzle's first cell nor the lowest free one is the same for all of them: it is stored once, as
``other``, with the replies that differ (see :func:`wrong_at`).

A position's refutations as text (``;`` between positions, in :func:`core.puzzles.lines`'s
order): under gravity one character per column, the reply's column 1-based (``0``: the move
filled the board, no reply; ``.``: not a wrong move there); on a free board ``other`` (``-``
when there is none), then ``/cell=reply`` for each stored move, 1-based.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from core.games.bitboard import iter_bits
from core.games.rules import Rules
from core.puzzles import vcf

if TYPE_CHECKING:
    from core.puzzles.answer import Attempt

SEARCH_SECONDS = 30.0
"""How long a refutation may be searched when the table is made (exact long before)."""

_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
_NONE = "."


@dataclass(frozen=True)
class Refutation:
    reply: int | None  # None: the wrong move ended the game


@dataclass(frozen=True)
class Wrong:
    """The refutations at one position of a tree: each wrong move's reply and, on a free
    board, ``other``: the reply to every other legal move that is not in the tree."""

    replies: dict[int, int | None]
    other: Refutation | None = None

    def refutation(self, rules: Rules, move: int, taken: int) -> Refutation | None:
        """The refutation of ``move`` (``taken``: the occupied cells as bits of their number,
        for a free board's ``other``), or None where the table has none."""
        if move in self.replies:
            return Refutation(self.replies[move])
        if self.other is not None and 0 <= move < rules.cells and not taken >> move & 1:
            return self.other
        return None


def _code(reply: int | None) -> int:
    return 0 if reply is None else reply + 1


def _reply(code: int) -> int | None:
    return None if code == 0 else code - 1


def encode(rules: Rules, table: list[Wrong]) -> str:
    """The text of a tree's refutations (the module docstring), its positions in order."""
    return ";".join(_encoded(rules, wrong) for wrong in table)


def _encoded(rules: Rules, wrong: Wrong) -> str:
    if rules.gravity:
        return "".join(
            _DIGITS[_code(wrong.replies[column])] if column in wrong.replies else _NONE
            for column in range(rules.cols)
        )
    other = "-" if wrong.other is None else str(_code(wrong.other.reply))
    return "/".join([other, *(f"{m + 1}={_code(r)}" for m, r in sorted(wrong.replies.items()))])


def decode(rules: Rules, text: str) -> list[Wrong]:
    """:func:`encode`'s text read back.

    Raises:
        ValueError: the text is malformed.
    """
    return [_decoded(rules, part) for part in text.split(";")] if text else []


def refuted(rules: Rules, text: str, move: int, taken: int) -> Refutation | None:
    """The refutation of ``move`` in one position's text (:func:`encode`'s part), read without
    decoding the rest: a tree is parsed on its first answer, most of its positions never
    asked (``taken`` as :meth:`Wrong.refutation` takes it)."""
    if rules.gravity:
        if not 0 <= move < len(text) or text[move] == _NONE:
            return None
        return Refutation(_reply(_DIGITS.index(text[move])))
    return _decoded(rules, text).refutation(rules, move, taken)


def _decoded(rules: Rules, text: str) -> Wrong:
    if rules.gravity:
        if len(text) != rules.cols:
            raise ValueError(f"refutations of {len(text)} columns, not {rules.cols}: {text!r}")
        return Wrong(
            {
                column: _reply(_DIGITS.index(char))
                for column, char in enumerate(text)
                if char != _NONE
            }
        )
    other, *pairs = text.split("/")
    replies = {}
    for pair in pairs:
        move, reply = pair.split("=")
        replies[int(move) - 1] = _reply(int(reply))
    return Wrong(replies, None if other == "-" else Refutation(_reply(int(other))))


def wrong_at(attempt: Attempt) -> Wrong:
    """The refutations at the attempt's position (the attacker to move), by the checker's own
    rules: :func:`core.puzzles.answer.accepted` says which moves are wrong and
    :func:`core.puzzles.answer.reply`, searched to the end, what refutes each.

    On a free board only the moves that can answer otherwise than the rest are tried one by
    one: the attacker's fours and fives (the only moves the rule can accept, all in the tree),
    the defender's fives to block, the puzzle's first cell and the lowest free one
    (:func:`core.puzzles.vcf.forced_reply` reads nothing else of the move). Every other move
    makes no four, so it is wrong, and it gets the same forced reply, ``other``; unless the
    attacker already has a four and more than one move left, when such a move may still win
    (the table then holds none: those go to the solver).
    """
    from core.puzzles.answer import Verdict, accepted, reply

    before = attempt.position
    legal = before.legal_moves()
    me, them = before.to_move, 3 - before.to_move
    if before.rules.gravity:
        tried = list(legal)
    else:
        bits = vcf.win_bits(before, me) | vcf.four_makers(before, me) | vcf.win_bits(before, them)
        cells = {vcf.cell_of(before, bit) for bit in iter_bits(bits)}
        tried = sorted(cells | {attempt.puzzle.solution, legal[0]})
    replies: dict[int, int | None] = {}
    for move in tried:
        if move not in legal:
            continue
        child = before.play(move)
        verdict = accepted(attempt, before, child, move)
        if verdict is Verdict.FAILED:
            deadline = time.perf_counter() + SEARCH_SECONDS
            replies[move] = reply(attempt, before, child, verdict, deadline)
    if before.rules.gravity:
        return Wrong(replies)
    if vcf.win_bits(before, me) and attempt.moves_left >= 2:
        return Wrong(replies)
    quiet = next(move for move in legal if move not in tried)
    child = before.play(quiet)
    verdict = accepted(attempt, before, child, quiet)
    if verdict is not Verdict.FAILED:
        raise ValueError(f"a move that makes no four is accepted: {quiet}")
    other = reply(attempt, before, child, verdict, time.perf_counter() + SEARCH_SECONDS)
    return Wrong({m: r for m, r in replies.items() if r != other}, Refutation(other))

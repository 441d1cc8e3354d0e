"""Checking a player's move against the solver, and the bot's reply.

A move is accepted when it still wins within the moves left (a win in N) or does not lose (a
hold), whatever line the puzzle was made from. The bot then answers with the longest defence;
after a wrong move, with the solver's refutation. Both are the same choice: the reply that is
best for the side replying, ties broken towards the lowest column (the refutation searched
within a budget: see :data:`REFUTATION_BUDGET`).
"""

from __future__ import annotations

import enum
import time
from dataclasses import dataclass

from core.ai import solver
from core.games.position import Position
from core.puzzles import lines, vcf
from core.puzzles.facts import moves_to_win, score
from core.puzzles.puzzle import Puzzle, Theme

REFUTATION_BUDGET = 0.02  # seconds


class Verdict(enum.Enum):
    GOING = "going"  # right so far, more moves to find
    SOLVED = "solved"
    FAILED = "failed"


@dataclass(frozen=True)
class Attempt:
    """A puzzle being solved: the moves played since its start, both sides'."""

    puzzle: Puzzle
    played: tuple[int, ...] = ()
    finished: bool = False  # solved or failed: no more moves

    @property
    def position(self) -> Position:
        return Position.from_moves(self.puzzle.rules, (*self.puzzle.moves, *self.played))

    @property
    def moves_left(self) -> int:
        return self.puzzle.depth - len(self.played) // 2


@dataclass(frozen=True)
class Answer:
    verdict: Verdict
    reply: int | None  # the bot's answer (the defence, or the refutation); None when over
    attempt: Attempt  # the attempt after the move and the reply


def answer(attempt: Attempt, move: int, *, known_line: bool = True) -> Answer:
    """Check ``move``, the player's next move in ``attempt``.

    A move in the puzzle's proven answer tree (:mod:`core.puzzles.lines`; ``known_line``) is
    answered from it, without a search: the tree holds every move that
    :func:`accepted` takes there, with the reply this function would search for. Any other
    move is checked by the solver (it loses, or is illegal).

    Raises:
        ValueError: the attempt is already over (solved or failed).
        IllegalMove: ``move`` is not legal there.
    """
    if attempt.finished:
        raise ValueError("the puzzle is over")
    played = (*attempt.played, move)
    tree = lines.tree(attempt.puzzle) if known_line else None
    at = lines.key(attempt.puzzle.rules, played) if tree is not None else None
    if tree is not None and at in tree:
        # In the tree: legal, right, and its reply known (no position is built).
        known = tree[at]
        if attempt.puzzle.theme is Theme.HOLD or known is None:
            replied = played if known is None else (*played, known)
            return Answer(Verdict.SOLVED, known, Attempt(attempt.puzzle, replied, finished=True))
        return Answer(Verdict.GOING, known, Attempt(attempt.puzzle, (*played, known)))
    before = attempt.position
    child = before.play(move)
    verdict = accepted(attempt, before, child, move)
    if verdict is Verdict.SOLVED and child.winner is not None:
        return Answer(Verdict.SOLVED, None, Attempt(attempt.puzzle, played, finished=True))
    if attempt.puzzle.theme is Theme.VCF:
        reply: int | None = vcf.forced_reply(child, before.to_move, attempt.puzzle.solution)
    elif child.is_over:
        reply = None
    elif verdict is Verdict.GOING:
        reply = best_reply(child)  # the loser's side: exact, and fast
    else:
        # after a wrong move or a hold the position is often a draw, whose every reply can take
        # the solver seconds to settle: the reply is the solver's best move within a budget
        # (exact whenever it finishes, as it does wherever the book reaches)
        reply = solver.best_move(child, time.perf_counter() + REFUTATION_BUDGET).move
    if reply is not None:
        played = (*played, reply)
    finished = verdict is not Verdict.GOING
    return Answer(verdict, reply, Attempt(attempt.puzzle, played, finished))


def accepted(attempt: Attempt, before: Position, child: Position, move: int) -> Verdict:
    """The verdict on ``move`` (``before`` the attempt's position, ``child`` after the move),
    without the reply: solved by a win now or a hold's one move, going on while the move still
    wins within the moves left (for a VCF, by fours), failed otherwise."""
    if child.winner is not None:
        return Verdict.SOLVED
    if attempt.puzzle.theme is Theme.VCF:
        keeps = vcf.still_wins(before, move, attempt.moves_left)
        return Verdict.GOING if keeps else Verdict.FAILED
    against = score(child)  # for the opponent, who moves next
    if attempt.puzzle.theme is Theme.HOLD:
        return Verdict.SOLVED if against <= 0 else Verdict.FAILED
    if against < 0 and (
        moves_to_win(-against, len(before.moves), before.rules.cells) <= attempt.moves_left
    ):
        return Verdict.GOING
    return Verdict.FAILED


def best_reply(p: Position) -> int:
    """The best move for the side to move of ``p``: the win soonest, else the loss latest;
    among equals, the lowest column."""
    best_move, best_value = -1, None
    for move in p.legal_moves():
        child = p.play(move)
        value = -score(child)  # an immediate win scores above every other value
        if best_value is None or value > best_value:
            best_move, best_value = move, value
    return best_move

"""Checking a player's move against the solver, and the bot's reply.

A move is accepted when it still wins within the moves left (a win in N) or does not lose (a
hold), whatever line the puzzle was made from. The bot then answers with the longest defence;
after a wrong move, with the solver's refutation. Both are the same choice: the reply that is
best for the side replying, ties broken towards the lowest column (the refutation searched
within a budget, :data:`REFUTATION_BUDGET`, where the puzzle has no stored refutations; the
stored ones were searched to the end).
"""

from __future__ import annotations

import enum
import time
from dataclasses import dataclass

from core.ai import solver
from core.ai.engine import SearchTimeout
from core.games.position import Position
from core.puzzles import lines, vcf
from core.puzzles.facts import move_value, moves_to_win, score
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
    :func:`accepted` takes there, with the reply this function would search for, and at each
    of its positions the refutation of every legal wrong move (:func:`reply` searched to the
    end). Any other move is checked by the solver (off the tree, or illegal).

    Raises:
        ValueError: the attempt is already over (solved or failed).
        IllegalMove: ``move`` is not legal there.
    """
    if attempt.finished:
        raise ValueError("the puzzle is over")
    played = (*attempt.played, move)
    tree = lines.tree(attempt.puzzle) if known_line else None
    if tree is not None:
        at = lines.key(attempt.puzzle.rules, played)
        if at in tree:
            # In the tree: legal, right, and its reply known (no position is built).
            known = tree[at]
            if attempt.puzzle.theme is Theme.HOLD or known is None:
                replied = played if known is None else (*played, known)
                done = Attempt(attempt.puzzle, replied, finished=True)
                return Answer(Verdict.SOLVED, known, done)
            return Answer(Verdict.GOING, known, Attempt(attempt.puzzle, (*played, known)))
        refuted = lines.refutation(attempt.puzzle, attempt.played, move)
        if refuted is not None:
            # a legal wrong move at a tree's position: its refutation is stored too
            replied = played if refuted.reply is None else (*played, refuted.reply)
            done = Attempt(attempt.puzzle, replied, finished=True)
            return Answer(Verdict.FAILED, refuted.reply, done)
    before = attempt.position
    child = before.play(move)
    verdict = accepted(attempt, before, child, move)
    if verdict is Verdict.SOLVED and child.winner is not None:
        return Answer(Verdict.SOLVED, None, Attempt(attempt.puzzle, played, finished=True))
    answered = reply(attempt, before, child, verdict, time.perf_counter() + REFUTATION_BUDGET)
    if answered is not None:
        played = (*played, answered)
    finished = verdict is not Verdict.GOING
    return Answer(verdict, answered, Attempt(attempt.puzzle, played, finished))


def reply(
    attempt: Attempt, before: Position, child: Position, verdict: Verdict, deadline: float
) -> int | None:
    """The bot's reply after the player's move (``before`` the attempt's position, ``child``
    after the move, judged ``verdict`` by :func:`accepted`), None when the move ended the game:
    for a VCF the forced one (:func:`core.puzzles.vcf.forced_reply`), else :func:`best_reply`
    (after a right move the longest defence, after a wrong move or a hold the refutation,
    searched until ``deadline``: exact whenever it finishes, else the solver's best guess). The
    one place that says what the bot answers, as :func:`accepted` says what is right: the answer
    trees and their refutations (:mod:`core.puzzles.lines`) store what they said, searched to
    the end."""
    if attempt.puzzle.theme is Theme.VCF:
        return vcf.forced_reply(child, before.to_move, attempt.puzzle.solution)
    if child.is_over:
        return None
    if verdict is Verdict.GOING:
        return best_reply(child)  # the loser's side: exact, and fast
    # after a wrong move or a hold the position is often a draw, whose every reply can take
    # the solver seconds to settle: searched until the deadline (the stored refutations long
    # after, so exact), and past it the solver's best guess
    try:
        return best_reply(child, deadline)
    except SearchTimeout:
        return solver.best_move(child, deadline).move


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


def best_reply(p: Position, deadline: float | None = None) -> int:
    """The best move for the side to move of ``p``: the win soonest, else the loss latest;
    among equals, the lowest column (so the same whenever it is searched).

    Raises:
        SearchTimeout: the deadline passed first.
    """
    best = score(p, deadline)  # the best move's value: the first move found worth it is played
    for move in p.legal_moves():
        if move_value(p.play(move), deadline) == best:
            return move
    raise AssertionError(f"no move of {p.moves} is worth the position's score {best}")

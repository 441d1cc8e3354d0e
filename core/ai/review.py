"""Game review: every move of a finished (or stopped) game with its exact value.

Pure: rules and moves in, a :class:`GameReview` out; rendering it is the adapters' job. A game
is reviewed only where it can be solved exactly (:func:`can_review`); otherwise, or when the
deadline passes, the answer is None, never a guess.
"""

from __future__ import annotations

import enum
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from core.ai import analysis, book, exact_free, solver
from core.games import CONNECT_FOUR, TICTACTOE, Position, Rules
from core.games.bitboard import geometry

__all__ = [
    "GameReview",
    "Mistake",
    "MoveReview",
    "Result",
    "can_review",
    "describe",
    "review_game",
    "reviewed_move",
]

# Other boards are reviewed when they are this small: their solver search from the empty
# board takes well under a second (a 4x5 gravity board: a few ms; a 3x4 free board: about 1 ms).
MAX_GRAVITY_CELLS = 20
MAX_FREE_CELLS = 12


class Mistake(enum.Enum):
    """What a move threw away (for the side that played it)."""

    WIN_TO_DRAW = "win_to_draw"
    DRAW_TO_LOSS = "draw_to_loss"
    WIN_TO_LOSS = "win_to_loss"


class Result(enum.Enum):
    """The end of the game under best play, for the side a score belongs to."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"


@dataclass(frozen=True, slots=True)
class MoveReview:
    """One move of a reviewed game.

    Attributes:
        ply: the move's index in the game (0 for the first move).
        player: who played it, 1 or 2.
        move: the move (a cell, or a column under gravity).
        before: the exact score (docs/design.md) of the position for the mover, before the move.
        after: the exact score for the mover once the move is played (== ``before`` when the
            move is optimal, lower otherwise).
        best: where the move is a mistake (or for every move, when the review was asked for
            ``every_best``), the optimal moves of the position, ascending; otherwise empty
            (finding them costs a search per move, and only a mistake shows them in /review).
        mistake: what the move threw away, None if it kept the result (a slower win or a faster
            loss is no mistake here: ``after < before`` still shows it).
    """

    ply: int
    player: int
    move: int
    before: int
    after: int
    best: tuple[int, ...]
    mistake: Mistake | None


@dataclass(frozen=True, slots=True)
class GameReview:
    """The moves of a game with their exact values, in the order they were played."""

    rules: Rules
    moves: tuple[MoveReview, ...]


def can_review(rules: Rules) -> bool:
    """Whether games of ``rules`` can be solved exactly: tic-tac-toe, standard Connect Four
    (with its opening book installed) and small boards."""
    if rules == TICTACTOE:
        return True
    if rules == CONNECT_FOUR:
        return book.load() is not None
    if rules.gravity:
        return rules.cells <= MAX_GRAVITY_CELLS
    return rules.cells <= MAX_FREE_CELLS


def review_game(
    rules: Rules,
    moves: Sequence[int],
    *,
    deadline: float | None = None,
    known: Sequence[MoveReview] = (),
    every_best: bool = False,
) -> GameReview | None:
    """The exact value of every move of a game.

    A CPU-bound function, like ``choose_move``: run it off the event loop.

    Args:
        rules: the game's rules.
        moves: the moves played, from the empty board (a whole game or its beginning).
        deadline: a :func:`time.perf_counter` value after which to give up.
        known: the review of the game's first moves, found earlier (while the game went on);
            the moves it shares with ``moves`` are not searched again. The result is the same
            as without it: every value is exact.
        every_best: find the optimal moves of every position, not only where a mistake was
            made (the web page marks a move that was the only optimal one); the values of
            ``known`` still serve, its positions are searched for their other moves alone.

    Returns:
        The review, or None when the game cannot be solved exactly (:func:`can_review`) or not
        before the deadline.

    Raises:
        IllegalMove: ``moves`` is not a game of ``rules``.
    """
    if not can_review(rules):
        return None
    game = Position.from_moves(rules, moves)  # IllegalMove before any search
    needs_best = _always if every_best else _is_mistake
    if rules == TICTACTOE:
        scores = _table_scores(game, needs_best)
    else:
        try:
            scores = analysis.game_scores(
                rules,
                game.moves,
                needs_best=needs_best,
                deadline=deadline,
                known=_shared(game.moves, known),
            )
            if every_best:  # the moves known from earlier may lack their best moves
                scores = analysis.with_every_best(rules, game.moves, scores, deadline=deadline)
        except solver.SearchTimeout:
            return None
    if deadline is not None and time.perf_counter() > deadline:
        return None
    return GameReview(
        rules,
        tuple(
            reviewed_move(ply, move, found.before, found.after, found.best)
            for ply, (move, found) in enumerate(zip(game.moves, scores, strict=True))
        ),
    )


def reviewed_move(ply: int, move: int, before: int, after: int, best: Sequence[int]) -> MoveReview:
    """The review of one move from its values (what a review kept in the store holds)."""
    player = 1 + ply % 2  # the first player moves at even plies (Position.to_move)
    return MoveReview(ply, player, move, before, after, tuple(best), _mistake(before, after))


def _shared(moves: Sequence[int], known: Sequence[MoveReview]) -> list[analysis.MoveScores]:
    """The scores of ``known`` as far as it is the beginning of ``moves``."""
    shared = []
    for ply, (move, found) in enumerate(zip(moves, known, strict=False)):
        if found.ply != ply or found.move != move:
            break
        shared.append(analysis.MoveScores(found.before, found.after, found.best))
    return shared


def describe(score: int, rules: Rules, stones: int) -> tuple[Result, int]:
    """A score turned into words: the result for its side and the plies left until the end.

    Args:
        score: an exact score (docs/design.md) for the side to move.
        rules: the game's rules.
        stones: the stones on the board when that side is to move.

    Returns:
        (result, plies): plies counts the stones still to be played by both sides, the last one
        included (for a draw: until the board is full).
    """
    if score == 0:
        return Result.DRAW, rules.cells - stones
    # the winner's score is (cells + 1 - s) // 2 where s, the stones before the winning one,
    # has the parity of the winner's turns: the mover's when winning, the opponent's otherwise
    winner_parity = stones % 2 if score > 0 else (stones + 1) % 2
    before_last = rules.cells - 2 * abs(score)
    if before_last % 2 != winner_parity:
        before_last += 1
    return (Result.WIN if score > 0 else Result.LOSS), before_last - stones + 1


def _always(before: int, after: int) -> bool:
    return True


def _is_mistake(before: int, after: int) -> bool:
    return _mistake(before, after) is not None


def _mistake(before: int, after: int) -> Mistake | None:
    if before > 0 and after == 0:
        return Mistake.WIN_TO_DRAW
    if before > 0 and after < 0:
        return Mistake.WIN_TO_LOSS
    if before == 0 and after < 0:
        return Mistake.DRAW_TO_LOSS
    return None


def _table_scores(
    game: Position, needs_best: Callable[[int, int], bool]
) -> list[analysis.MoveScores]:
    """Tic-tac-toe from the complete table: the value of every move, and the optimal moves
    where ``needs_best`` asks for them."""
    rules = game.rules
    geo = geometry(rules)
    found = []
    p = Position.start(rules)
    for move in game.moves:
        player = p.to_move - 1
        mine, theirs = p.stones[player], p.stones[1 - player]
        values = {}
        for candidate in p.legal_moves():
            child = p.play(candidate)
            if child.winner is not None:
                values[candidate] = (rules.cells + 1 - len(p.moves)) // 2
            elif child.is_draw:
                values[candidate] = 0
            else:
                values[candidate] = -exact_free.table_score(
                    rules, theirs, mine | 1 << geo.cell_bits[candidate]
                )
        score, after = max(values.values()), values[move]
        best = tuple(m for m, v in values.items() if v == score) if needs_best(score, after) else ()
        found.append(analysis.MoveScores(score, after, best))
        p = p.play(move)
    return found

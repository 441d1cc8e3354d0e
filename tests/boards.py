"""Board views as the service gives them, built from moves alone (no session, no store)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from core.games import Position, Rules
from core.i18n import Text
from core.replies import BoardView, CellView, PlayerView

ALICE = PlayerView("Alice", "1", None)
BOT = PlayerView("Bot (hard)", None, "hard")


def board_of(
    rules: Rules,
    moves: Sequence[int] = (),
    *,
    pending: bool = False,
    ended: bool = False,
    players: tuple[PlayerView, PlayerView] = (ALICE, BOT),
) -> BoardView:
    """The view of the board after ``moves`` (a challenge still open with ``pending``, a game
    stopped early with ``ended``)."""
    position = Position.from_moves(rules, moves)
    running = not (pending or ended or position.is_over)
    playable = position.legal_moves() if running else ()
    winning = set(position.winning_line)
    cells = tuple(
        CellView(
            index=i,
            row=i // rules.cols,
            col=i % rules.cols,
            mark=position.cell(i // rules.cols, i % rules.cols),
            clickable=running and not rules.gravity and i in playable,
            winning=i in winning,
            last=i == position.last_cell,
        )
        for i in range(rules.cells)
    )
    return BoardView(
        session_id="s3ss10n",
        version=len(moves) + 1,
        rules=rules,
        cells=cells,
        playable=playable,
        players=players,
        to_move=position.to_move if running else None,
        finished=not running and not pending,
        status=Text("game.draw") if not running else Text("game.turn"),
    )


def picked_board(rules: Rules, picks: Sequence[int], *, pending: bool = False) -> BoardView:
    """The board after playing, from the start, the legal move each of ``picks`` points at
    (modulo the legal moves), stopping where the game ends (for property tests)."""
    position = Position.start(rules)
    moves: list[int] = []
    for pick in picks:
        if position.is_over:
            break
        legal = position.legal_moves()
        move = legal[pick % len(legal)]
        position = position.play(move)
        moves.append(move)
    return board_of(rules, moves, pending=pending)


def random_moves(rules: Rules, count: int, seed: int = 1) -> list[int]:
    """Up to ``count`` random legal moves from the start, stopping where the game ends."""
    rng = random.Random(seed)
    position = Position.start(rules)
    moves: list[int] = []
    while len(moves) < count and not position.is_over:
        move = rng.choice(position.legal_moves())
        moves.append(move)
        position = position.play(move)
    return moves

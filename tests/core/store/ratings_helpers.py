"""Finished games to store for the rating tests: two people (or a person and the bot) play a
tic-tac-toe game to a chosen result."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from core.games import Outcome, Position, Termination
from core.store import Session, Status, sessions
from tests.core.store.helpers import NOW, make_session

# A game that X wins, one that O wins, and a draw, by their moves.
_MOVES: dict[int | None, tuple[int, ...]] = {
    1: (0, 3, 1, 4, 2),
    2: (0, 3, 1, 4, 8, 5),
    None: (0, 1, 2, 4, 3, 5, 7, 6, 8),
}


def finished(
    session: Session,
    winner: int | None,
    *,
    at: float = NOW,
    termination: Termination | None = None,
) -> Session:
    """``session`` (active, no moves) ended at ``at``: won by seat ``winner`` on the board (or
    a draw), or, with ``termination``, ended that way after two moves."""
    if termination is None:
        moves = _MOVES[winner]
        outcome = Position.from_moves(session.rules, moves).outcome
    else:
        moves = (0, 4)
        outcome = Outcome(termination, winner)
    return replace(
        session,
        moves=moves,
        version=session.version + 1,
        status=Status.FINISHED,
        outcome=outcome,
        updated_at=at,
    )


async def play(
    store: Any,
    first: str,
    second: str | None,
    winner: int | None,
    *,
    at: float = NOW,
    chat: str = "c1",
    termination: Termination | None = None,
    **changes: Any,
) -> Session:
    """Store a game between ``first`` and ``second`` (None: the bot) and finish it;
    ``changes`` are fields of the session (``casual``, ``server_id``, ``platform``)."""
    game = replace(make_session(alice=first, bob=second, chat=chat), **changes)
    await store.run(sessions.create(game))
    done = finished(game, winner, at=at, termination=termination)
    assert await store.run(sessions.update(done, expected_version=game.version))
    return done

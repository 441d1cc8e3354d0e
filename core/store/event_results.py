"""A tournament game's result, written where the game ends: :func:`record` runs inside the
transaction that finishes the session (:func:`core.store.sessions._record_result`), so a
point is stored with its game or not at all, whatever process ended it and whenever it dies.

A player's score is what his results make of it, computed again from them each time
(:func:`rescore`): an arena's by lichess's sheet (:mod:`core.tournaments.arena`: the streaks
depend on the order of his games), a Swiss's or round robin's the sum of his games and byes.
"""

from __future__ import annotations

from collections.abc import Iterable

from core.games import Termination
from core.store.models.session import Session
from core.store.sql import Op, count, row, rows, value
from core.tournaments.arena import ArenaGame, Outcome, sheet


def scores_of(session: Session) -> tuple[float, float]:
    """The points of each seat of a finished game: a win 1, a draw 1/2 each; a game that went
    without a winner otherwise (stopped, abandoned before anyone claimed it) scores nothing."""
    outcome = session.outcome
    if outcome is None or outcome.winner is None:
        draw = outcome is not None and outcome.termination is Termination.DRAW
        return (0.5, 0.5) if draw else (0.0, 0.0)
    return (1.0, 0.0) if outcome.winner == 1 else (0.0, 1.0)


def record(session: Session) -> Op[None]:
    """The finished ``session``'s result on its tournament pairing, if it is one, and both
    players' scores again (inside the finishing transaction). One statement for any other
    game: the unique index on the session finds nothing."""
    x_score, o_score = scores_of(session)
    found = yield row(
        "UPDATE event_games SET x_score = $2, o_score = $3, plies = $4, finished_at = $5,"
        " berserk = $6 WHERE session_id = $1 AND x_score IS NULL RETURNING event_id, x, o",
        session.id,
        x_score,
        o_score,
        len(session.moves),
        session.updated_at,
        session.berserk,
        writes=True,
    )
    if found is not None:
        yield from rescore(str(found[0]), (str(found[1]), str(found[2])))


def rescore(event_id: str, players: Iterable[str]) -> Op[None]:
    """Write the scores of ``players`` in the event from their results (in its transaction)."""
    arena = (yield value("SELECT format FROM events WHERE id = $1", event_id)) == "arena"
    for player in dict.fromkeys(players):
        # His played games (EventGame.played): an unplayed one is on no sheet, so it scores
        # nothing and breaks no streak.
        games = yield rows(
            "SELECT x, x_score, o_score, plies, berserk FROM event_games WHERE event_id = $1"
            " AND (x = $2 OR o = $2) AND x_score + o_score > 0 ORDER BY finished_at, seq",
            event_id,
            player,
        )
        # (points, plies, berserk) of each of his games; x is the seat of bit 1, o of bit 2.
        mine = [
            (float(xs), int(plies), bool(b & 1))
            if x == player
            else (float(os), int(plies), bool(b & 2))
            for x, xs, os, plies, b in games
        ]
        if arena:
            score = float(
                sheet(ArenaGame(_outcome(p), plies, berserk=b) for p, plies, b in mine).total
            )
        else:
            byes = yield value(
                "SELECT sum(points) FROM event_byes WHERE event_id = $1 AND player = $2",
                event_id,
                player,
            )
            score = sum(points for points, _, _ in mine) + float(byes or 0.0)
        yield count(
            "UPDATE event_players SET score = $3 WHERE event_id = $1 AND player = $2",
            event_id,
            player,
            score,
        )


def _outcome(points: float) -> Outcome:
    return Outcome.WIN if points == 1 else Outcome.DRAW if points == 0.5 else Outcome.LOSS

"""``/review`` and the Review button: every move of a finished game with its exact value.

The analysis is :func:`core.ai.review.review_game`, a pure function of the rules and the moves,
run by the AI runner off the event loop. A running game is never reviewed (it would be a way to
cheat), and a game that cannot be solved exactly gets a plain "no review", never a guess.
"""

from __future__ import annotations

from core.ai.review import GameReview, MoveReview, Result, can_review, describe
from core.errors import UserError
from core.games import Rules
from core.i18n import Lines, Param, Text
from core.replies import Actor, Reply
from core.sessions.context import Context
from core.sessions.views import MARKS
from core.store import Session, Status

REVIEW_SECONDS = 5.0
"""Seconds a review may take at most (a whole Connect Four game: 40 to 130 ms at the median,
at worst about 2 s in ``python -m benchmarks review``)."""
_COLUMN_LETTERS = "abcdefghijklmnopqrstuvwxy"


class Reviews:
    """Answers ``/review`` and the Review button."""

    def __init__(self, ctx: Context) -> None:
        self._ctx = ctx

    async def last(self, actor: Actor) -> list[Reply]:
        """The review of the actor's last finished game here, else of the chat's last one.

        Raises:
            UserError: the actor's game here is still running, or the chat has no finished game.
        """
        ctx = self._ctx
        session = await ctx.store.last_finished(actor.platform, actor.chat_id, actor.user_id)
        if session is None:
            if await ctx.live_game(actor) is not None:
                raise UserError("error.review_running")
            session = await ctx.store.last_finished(actor.platform, actor.chat_id, None)
        if session is None:
            raise UserError("error.no_review", prefix=ctx.prefix(actor))
        return await self.review(session)

    async def review(self, session: Session) -> list[Reply]:
        """The review of ``session``, for anyone in its chat once it is over.

        Raises:
            UserError: the game is still running (or a challenge).
        """
        if session.status is not Status.FINISHED:
            raise UserError("error.review_running")
        result = None
        if can_review(session.rules):
            result = await self._ctx.runner.review(
                session.rules, session.moves, seconds=REVIEW_SECONDS
            )
        if result is None:
            text = Text("review.unavailable", {"game": session.game_name})
        else:
            text = review_text(session, result)
        return [Reply(text=text, session_id=session.id, version=session.version)]


def review_text(session: Session, review: GameReview) -> Text:
    """The review as one message: a header, one line per move, a summary."""
    x, o = session.seats
    lines = [
        Text(
            "review.header",
            {"game": session.game_name, "player_x": x.name, "player_o": o.name},
        ),
        *(_move_line(session.rules, move) for move in review.moves),
    ]
    mistakes = sum(move.mistake is not None for move in review.moves)
    lines.append(
        Text("review.summary", {"mistakes": mistakes}) if mistakes else Text("review.perfect")
    )
    return Text("review.text", {"lines": Lines(tuple(lines))})


def _move_line(rules: Rules, move: MoveReview) -> Text:
    params: dict[str, Param] = {
        "number": move.ply + 1,
        "mark": MARKS[move.player],
        "move": move_label(rules, move.move),
        "before": _value(rules, move.before, move.ply),
        "after": _value(rules, move.after, move.ply),
    }
    if move.mistake is None:
        return Text("review.move", params)
    best = ", ".join(move_label(rules, m) for m in move.best)
    mistake = Text(f"review.mistake.{move.mistake.value}")
    return Text("review.move_mistake", {**params, "mistake": mistake, "best": best})


def _value(rules: Rules, score: int, stones: int) -> Text:
    """What the mover can force, in words (``score`` is for the side to move at ``stones``)."""
    result, plies = describe(score, rules, stones)
    if result is Result.DRAW:
        return Text("review.draw")
    key = "review.win" if result is Result.WIN else "review.loss"
    return Text(key, {"plies": plies})


def move_label(rules: Rules, move: int) -> str:
    """A move as players type it: a column number under gravity, else a coordinate (``b2``)."""
    if rules.gravity:
        return str(move + 1)
    row, col = divmod(move, rules.cols)
    return f"{_COLUMN_LETTERS[col]}{row + 1}"

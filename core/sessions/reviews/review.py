"""``/review`` and the Review button: every move of a finished game with its exact value.

The analysis is :func:`core.ai.review.review_game`, a pure function of the rules and the moves,
run by the AI runner off the event loop. A running game is never shown reviewed (it would be a
way to cheat), and a game that cannot be solved exactly gets a plain "no review", never a guess.

A Connect Four review costs up to a second or two, nearly all of it in the moves that lead to
13 to 20 stones (just past the opening book). So that nobody waits for it, :class:`KeptReviews`
reviews those moves while the game goes on and the rest once it ends, when the AI runner has
nothing else to do, and keeps what it found in the store, tied to the session: any process
answers ``/review`` from it, searching only the moves it lacks (a few ms). The values are
exact, so the answer is the same as a fresh review's.
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import logging
from collections.abc import Sequence

from core.ai.review import (
    GameReview,
    MoveReview,
    Result,
    can_review,
    describe,
    reviewed_move,
)
from core.errors import UserError
from core.games import CONNECT_FOUR, Rules
from core.i18n import Lines, Param, Text
from core.render import move_label
from core.replies import Actor, Reply
from core.sessions.context import Context
from core.sessions.players.weblinks import WebLinks
from core.sessions.views import MARKS, game_name, status_text
from core.store import Session, Status, kv, sessions

log = logging.getLogger("core.sessions")

REVIEW_SECONDS = 5.0
"""Seconds a review may take at most. ``python -m benchmarks review`` (whole Connect Four games
of 30 to 42 moves): computed afresh, 30 to 100 ms at the median and up to about 1.3 s at p99;
what the player waits for, from the review kept during the game, 5 to 9 ms at the median and
under 90 ms at p99 asked the instant the game ends, under 3 ms once its end is kept."""
KEEP_NAMESPACE = "review"
"""The kv rows of kept reviews, keyed by session id (and tied to the session)."""
KEEP_PLIES = frozenset(range(13, 21))
"""Moves after which a running game's review is brought up to date. A review costs little up
to 12 stones (the opening book) and a few ms from 20 on; in between, each move costs a search
of up to a few hundred ms, so it is kept move by move: no step holds an AI worker much longer
than one search, and what is kept by the 20th move leaves a few ms for the end."""


def keeps_review(rules: Rules) -> bool:
    """Whether a game of ``rules`` has its review kept ahead of the request: Connect Four, the
    one reviewable game whose review takes long (tic-tac-toe and small boards take ms)."""
    return rules == CONNECT_FOUR and can_review(rules)


def encode(review: GameReview) -> str:
    """A review as a kv value: ``[move, before, after, [best...]]`` per move."""
    rows = [[m.move, m.before, m.after, list(m.best)] for m in review.moves]
    return json.dumps(rows, separators=(",", ":"))


def decode(value: str, moves: Sequence[int]) -> tuple[MoveReview, ...]:
    """The kept review of the first moves of ``moves`` in ``value`` (as far as it matches
    them); empty when the value cannot be read (it is then simply computed again)."""
    try:
        rows = json.loads(value)
        found = []
        for ply, (move, before, after, best) in enumerate(rows[: len(moves)]):
            if move != moves[ply]:
                break
            found.append(
                reviewed_move(ply, int(move), int(before), int(after), [int(m) for m in best])
            )
    except (ValueError, TypeError):
        return ()
    return tuple(found)


class KeptReviews:
    """Keeps Connect Four reviews in the store while games go on and as they end."""

    def __init__(self, ctx: Context) -> None:
        self._ctx = ctx
        # One step at a time per session, so that a step never overwrites a later one here;
        # what comes meanwhile follows it (the latest only: it covers the most moves).
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._next: dict[str, tuple[Session, GameReview | None]] = {}

    def changed(self, session: Session) -> None:
        """``session`` was just stored with a move more, or ended: bring its kept review up to
        date in the background where that is due."""
        if not keeps_review(session.rules):
            return
        if session.status is Status.FINISHED or len(session.moves) in KEEP_PLIES:
            self._start(session, None)

    def found(self, session: Session, review: GameReview) -> None:
        """``review`` of ``session`` was computed for someone who waited: keep it for the next
        one (in the background: a store that fails then costs nobody their review)."""
        if keeps_review(session.rules):
            self._start(session, review)

    async def read(self, session: Session) -> tuple[MoveReview, ...]:
        """What is kept of ``session``'s review (the review of its first moves, maybe all)."""
        if not keeps_review(session.rules):
            return ()
        value = await self._ctx.store.run(kv.kv_get(KEEP_NAMESPACE, session.id))
        return () if value is None else decode(value, session.moves)

    def _start(self, session: Session, review: GameReview | None) -> None:
        if session.id in self._tasks:
            self._next[session.id] = (session, review)
            return
        # A fresh context: the task must not carry the request's receipt along.
        task = asyncio.create_task(
            self._steps(session, review), name=f"review-{session.id}", context=contextvars.Context()
        )
        self._tasks[session.id] = task
        task.add_done_callback(lambda _: self._tasks.pop(session.id, None))

    async def _steps(self, session: Session, review: GameReview | None) -> None:
        step: tuple[Session, GameReview | None] | None = (session, review)
        while step is not None:
            await self._step(*step)
            step = self._next.pop(session.id, None)

    async def _step(self, session: Session, review: GameReview | None) -> None:
        try:
            if review is None:
                known = await self.read(session)
                if len(known) >= len(session.moves):
                    return
                review = await self._ctx.runner.review(
                    session.rules,
                    session.moves,
                    seconds=REVIEW_SECONDS,
                    known=known,
                    background=True,
                )
                if review is None:  # the runner was busy: a later step or /review makes up
                    return
            await self._ctx.store.run(
                kv.kv_set(KEEP_NAMESPACE, session.id, encode(review), session_id=session.id)
            )
        except asyncio.CancelledError:
            raise
        except Exception:
            # Nothing is lost: /review computes what is not kept.
            log.warning("review of session %s not kept", session.id, exc_info=True)

    async def idle(self) -> None:
        """Wait until every review being kept here is stored (or given up)."""
        while self._tasks:
            await asyncio.gather(*self._tasks.values(), return_exceptions=True)

    async def close(self) -> None:
        """Stop keeping (what is kept stays; /review computes the rest)."""
        self._next.clear()
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


class Reviews:
    """Answers ``/review`` and the Review button."""

    def __init__(self, ctx: Context, kept: KeptReviews) -> None:
        self._ctx = ctx
        self._kept = kept

    async def last(self, actor: Actor) -> list[Reply]:
        """The review of the actor's last finished game here, else of the chat's last one;
        while the actor's game here runs, its last finished one's, saying so.

        Raises:
            UserError: the actor's game here is still running and they have no finished one
                here, or the chat has no finished game.
        """
        ctx = self._ctx
        session = await ctx.store.run(
            sessions.last_finished(actor.platform, actor.chat_id, actor.user_id)
        )
        running = await ctx.live_game(actor) is not None
        if session is None:
            if running:
                raise UserError("error.review_running")
            session = await ctx.store.run(
                sessions.last_finished(actor.platform, actor.chat_id, None)
            )
        if session is None:
            raise UserError("error.no_review", prefix=ctx.prefix(actor))
        reviewed = await self.review(session)
        if running:  # not the game on the board: say which one this is
            return [Reply(text=Text("review.previous")), *reviewed]
        return reviewed

    async def review(self, session: Session) -> list[Reply]:
        """The review of ``session``, for anyone in its chat once it is over.

        Raises:
            UserError: the game is still running (or a challenge).
        """
        if session.status is not Status.FINISHED:
            raise UserError("error.review_running")
        result = None
        if can_review(session.rules):
            known = await self._kept.read(session)
            if len(known) == len(session.moves):
                result = GameReview(session.rules, known)
            else:
                result = await self._ctx.runner.review(
                    session.rules, session.moves, seconds=REVIEW_SECONDS, known=known
                )
                if result is not None:
                    self._kept.found(session, result)
        if result is None:
            text = Text("review.unavailable", {"game": game_name(session.rules)})
        else:
            text = review_text(session, result)
        # A message of its own: the board stays as it was, with its Rematch (and on Discord a
        # picture board could not become text: a message never loses the Components V2 flag).
        links = WebLinks(self._ctx).of_game(session)
        return [
            Reply(
                text=text,
                session_id=session.id,
                version=session.version,
                new_message=True,
                links=links,
            )
        ]


def review_text(session: Session, review: GameReview) -> Text:
    """The review as one message: a header, one line per move, a summary."""
    x, o = session.seats
    lines = [
        Text(
            "review.header",
            {"game": game_name(session.rules), "player_x": x.name, "player_o": o.name},
        ),
        *(_move_line(session.rules, move) for move in review.moves),
    ]
    mistakes = sum(move.mistake is not None for move in review.moves)
    lines.append(
        Text("review.summary", {"mistakes": mistakes}) if mistakes else Text("review.perfect")
    )
    if session.outcome is not None and not session.outcome.on_the_board:
        # The moves do not show how it ended: a resignation, a clock that ran out.
        lines.append(status_text(session, session.position()))
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

"""``/puzzle`` and its answers: today's puzzle (the same for everyone that UTC day), a rated one
near the player's puzzle rating (``next``), ``stats`` and ``top``; an answer by the board
(a click names the puzzle's board, :mod:`core.sessions.puzzles.board`) or typed in the chat of
the player's current puzzle.

An answer is checked by the solver on the AI workers (:meth:`AiRunner.answer_puzzle`), then
stored as a compare-and-set on the attempt's version (:func:`core.store.puzzles.answered`):
two answers to one board cannot both count, and the end is rated in the same transaction.
"""

from __future__ import annotations

import datetime
import secrets

from core.commands import MoveText, Puzzle, PuzzleAsk, resolve_move
from core.errors import UserError
from core.i18n import Lines, Text
from core.puzzles import choose, shipped
from core.puzzles.answer import Attempt, Verdict
from core.puzzles.puzzle import Puzzle as PuzzleValue
from core.puzzles.streak import day_number, utc_day
from core.ratings import PROVISIONAL_GAMES, Rating
from core.replies import Actor, PlayerView, Reply
from core.sessions.admin.policy import Policy
from core.sessions.context import Context
from core.sessions.play.moves import check_legal, off_board
from core.sessions.puzzles import board
from core.store import puzzles
from core.store.models.puzzles import AttemptStatus, PuzzleResult, StoredAttempt
from core.store.sql import Op

OLD_DAILIES = 30
"""Days back a clicked board is still recognised as an old daily puzzle (and said so)."""

_STATUS = {
    Verdict.GOING: AttemptStatus.GOING,
    Verdict.SOLVED: AttemptStatus.SOLVED,
    Verdict.FAILED: AttemptStatus.FAILED,
}


VCF_DAY = 6
"""The weekday (Sunday) whose daily puzzle is a VCF: five in a row on 15x15, answered as any
puzzle's board (a typed cell, or the board's menus); the other days' are Connect Four."""


def daily(day: datetime.date) -> PuzzleValue:
    """The puzzle of ``day`` (UTC), of the shipped sets: a VCF on :data:`VCF_DAY`, else a
    Connect Four puzzle."""
    if day.weekday() == VCF_DAY:
        return shipped.daily(day, shipped.vcf())
    return shipped.daily(day, shipped.connect_four())


class Puzzles:
    """Answers ``/puzzle`` and the answers to puzzles; see the module docstring."""

    def __init__(self, ctx: Context, policy: Policy) -> None:
        self._ctx = ctx
        self._policy = policy

    # --- /puzzle ---------------------------------------------------------------------------

    async def command(self, actor: Actor, command: Puzzle) -> list[Reply]:
        match command.ask:
            case PuzzleAsk.TODAY:
                return await self.today(actor)
            case PuzzleAsk.NEXT:
                return await self.next(actor)
            case PuzzleAsk.STATS:
                return await self.stats(actor)
            case PuzzleAsk.TOP:
                return await self.top(actor)

    async def today(self, actor: Actor) -> list[Reply]:
        """Today's puzzle as a new board (the person's attempt at it, wherever it stands)."""
        day = utc_day(self._ctx.clock())
        text = Text("puzzle.daily", {"date": day.isoformat()})
        return await self._shown(actor, daily(day), text)

    async def next(self, actor: Actor) -> list[Reply]:
        """A rated puzzle near the player's puzzle rating, not tried before. The one on the
        board before is left as it stands (unrated until answered, as a skipped puzzle is on
        lichess); its board still takes answers."""
        ctx = self._ctx
        chat = await self._policy.chat(actor)
        if not chat.puzzles:
            raise UserError("puzzle.off", prefix=ctx.prefix(actor))
        store = ctx.store
        player = await store.run(puzzles.player_of(actor.platform, actor.user_id))
        rating = player.rating if player is not None else Rating()
        text = Text("puzzle.next", {"name": actor.display_name, "rating": rating.display()})
        tried = await store.run(puzzles.attempted(actor.platform, actor.user_id))
        ratings = await store.run(puzzles.puzzle_ratings())
        offered = await store.run(puzzles.offered())
        chosen = choose.near(offered, ratings, tried, rating.rating, ctx.rng)
        if chosen is None:
            raise UserError("puzzle.all_tried", prefix=ctx.prefix(actor))
        return await self._shown(actor, chosen, text)

    async def _shown(self, actor: Actor, puzzle: PuzzleValue, text: Text) -> list[Reply]:
        """``puzzle`` made the actor's current one here, and its board as a new message."""
        stored = await self._ctx.store.run(self._start(actor, puzzle))
        replies = [self._board(actor, puzzle, stored, new_message=True, text=text)]
        if stored.finished:
            replies.append(self._over(actor, stored))
        return replies

    async def stats(self, actor: Actor) -> list[Reply]:
        player = await self._ctx.store.run(puzzles.player_of(actor.platform, actor.user_id))
        if player is None:
            params = {"name": actor.display_name, "prefix": self._ctx.prefix(actor)}
            return [Reply(text=Text("puzzle.stats_none", params))]
        today = day_number(utc_day(self._ctx.clock()))
        shown = Text(
            "puzzle.stats",
            {
                "name": actor.display_name,
                "rating": player.rating.display(),
                "solved": player.solved,
                "tried": player.rating.games,
                "streak": player.streak.current(today),
                "best": player.streak.best,
            },
        )
        return [Reply(text=shown)]

    async def top(self, actor: Actor) -> list[Reply]:
        listed = await self._ctx.store.run(puzzles.top(self._ctx.settings.top_size))
        if not listed:
            return [Reply(text=Text("puzzle.top_empty", {"count": PROVISIONAL_GAMES}))]
        lines = Lines(
            tuple(
                Text(
                    "puzzle.top_line",
                    {
                        "rank": rank,
                        "name": player.name,
                        "platform": player.platform,
                        "rating": player.rating.display(),
                        "solved": player.solved,
                    },
                )
                for rank, player in enumerate(listed, start=1)
            )
        )
        return [Reply(text=Text("puzzle.top", {"lines": lines}))]

    # --- answers ---------------------------------------------------------------------------

    async def current(self, actor: Actor) -> StoredAttempt | None:
        """The actor's current puzzle in this chat, finished or not; None if none."""
        return await self._ctx.store.run(
            puzzles.current_attempt(actor.platform, actor.chat_id, actor.user_id)
        )

    async def said_to(self, actor: Actor, current: StoredAttempt | None) -> StoredAttempt | None:
        """The attempt a move said to the bot answers: ``current``, unless today's puzzle was
        posted in this chat and ``current`` is over and another (or there is none): then the
        actor's attempt at today's, begun now if need be."""
        ctx = self._ctx
        today = utc_day(ctx.clock())
        puzzle = daily(today)
        if current is not None and (not current.finished or current.puzzle_id == puzzle.id):
            return current
        posted = await ctx.store.run(puzzles.posted_on(actor.platform, actor.chat_id))
        if posted != day_number(today):
            return current
        return await ctx.store.run(self._start(actor, puzzle))

    async def typed(self, actor: Actor, stored: StoredAttempt, move: MoveText) -> list[Reply]:
        """A move typed in the chat of the actor's current puzzle (``stored``)."""
        puzzle = await self._puzzle(stored)
        if stored.finished:
            return [self._over(actor, stored)]
        return await self._answer(actor, puzzle, stored, resolve_move(move, puzzle.rules))

    async def clicked(
        self, actor: Actor, board_id: str, move: int, version: int | None
    ) -> list[Reply]:
        """A click (or a menu's pick) on a puzzle's board: ``move`` answers the attempt that
        board shows, if it is the actor's and current."""
        try:
            puzzle, stored = await self._clicked_attempt(actor, board_id, version)
        except _Refused as refused:
            return refused.replies
        if not isinstance(move, int) or isinstance(move, bool):
            raise off_board(puzzle.rules, str(move))  # a forged value: off the board
        return await self._answer(actor, puzzle, stored, move)

    async def picked(self, actor: Actor, board_id: str, version: int | None) -> list[Reply] | None:
        """A first step towards an answer (a picture board's column menu): None when the actor
        may answer on this board now, else what an answer would get."""
        try:
            await self._clicked_attempt(actor, board_id, version)
        except _Refused as refused:
            return refused.replies
        return None

    async def _clicked_attempt(
        self, actor: Actor, board_id: str, version: int | None
    ) -> tuple[PuzzleValue, StoredAttempt]:
        """The actor's attempt a click on ``board_id`` (seen at ``version``) answers.

        Raises:
            _Refused, UserError: the board is someone else's, an old daily post, behind the
                attempt, or its attempt is over.
        """
        ctx = self._ctx
        kind, ident = board.parse_board(board_id) or ("", "")
        prefix = ctx.prefix(actor)
        if kind == board.DAILY:
            puzzle = shipped.by_id(ident)
            if puzzle is None:
                raise UserError("puzzle.not_yours", prefix=prefix)
            today = utc_day(ctx.clock())
            if puzzle != daily(today):
                raise self._not_yours(actor, puzzle, today)
            # The day's post is anyone's: the clicker's own attempt at it (begun here, or on
            # their own board, where it may be further on).
            stored = await ctx.store.run(self._start(actor, puzzle))
        else:
            found = await ctx.store.run(puzzles.attempt_of(ident)) if kind else None
            puzzle = None
            if found is not None:
                puzzle = await ctx.store.run(puzzles.puzzle_of(found.puzzle_id))
            mine = None
            if found is not None and puzzle is not None:
                mine = await ctx.store.run(
                    puzzles.attempt_at(actor.platform, actor.user_id, puzzle.id)
                )
            if puzzle is None or mine is None or found is None or mine.id != found.id:
                raise UserError("puzzle.not_yours", prefix=prefix)
            stored = mine
        if stored.finished:
            raise _Refused([self._over(actor, stored)])
        if version is not None and version != stored.version:
            stale = Reply(text=Text("puzzle.stale"), private=True, error=True)
            raise _Refused([self._board(actor, puzzle, stored, new_message=True), stale])
        return puzzle, stored

    def _start(self, actor: Actor, puzzle: PuzzleValue) -> Op[StoredAttempt]:
        return puzzles.start_attempt(
            secrets.token_urlsafe(9),
            actor.platform,
            actor.chat_id,
            actor.user_id,
            puzzle.id,
            self._ctx.clock(),
        )

    def _not_yours(self, actor: Actor, puzzle: PuzzleValue, today: datetime.date) -> UserError:
        prefix = self._ctx.prefix(actor)
        for back in range(1, OLD_DAILIES + 1):
            day = today - datetime.timedelta(days=back)
            if daily(day) == puzzle:
                return UserError("puzzle.old_daily", date=day.isoformat(), prefix=prefix)
        return UserError("puzzle.not_yours", prefix=prefix)

    async def _answer(
        self, actor: Actor, puzzle: PuzzleValue, stored: StoredAttempt, move: int
    ) -> list[Reply]:
        ctx = self._ctx
        attempt = Attempt(puzzle, stored.played)
        check_legal(attempt.position, move)
        answer = await ctx.runner.answer_puzzle(attempt, move)
        now = ctx.clock()
        written = await ctx.store.run(
            puzzles.answered(
                stored,
                answer.attempt.played,
                _STATUS[answer.verdict],
                difficulty=puzzle.difficulty,
                day=day_number(utc_day(now)),
                name=actor.display_name,
                now=now,
            )
        )
        if written is False:  # another answer to this board came first
            again = await ctx.store.run(puzzles.attempt_of(stored.id))
            if again is not None and again.finished:
                return [self._over(actor, again)]
            return [Reply(text=Text("puzzle.stale"), private=True, error=True)]
        version = stored.version + 1
        if isinstance(written, PuzzleResult):
            line = (
                board.solved(written)
                if answer.verdict is Verdict.SOLVED
                else board.failed(puzzle, move, answer.reply, written)
            )
            view = board.puzzle_board(
                board.attempt_board(stored.id), answer.attempt, version, _player(actor), line
            )
            return [Reply(text=line, board=view, session_id=view.session_id, version=version)]
        assert answer.reply is not None  # the attempt goes on: the solver answered
        line = board.going(answer.attempt, answer.reply)
        view = board.puzzle_board(
            board.attempt_board(stored.id), answer.attempt, version, _player(actor), line
        )
        return [Reply(board=view, session_id=view.session_id, version=version)]

    # --- replies ---------------------------------------------------------------------------

    async def _puzzle(self, stored: StoredAttempt) -> PuzzleValue:
        puzzle = await self._ctx.store.run(puzzles.puzzle_of(stored.puzzle_id))
        if puzzle is None:  # a puzzle of a set this version no longer ships
            raise UserError("puzzle.not_yours", prefix="/")
        return puzzle

    def _board(
        self,
        actor: Actor,
        puzzle: PuzzleValue,
        stored: StoredAttempt,
        *,
        new_message: bool = False,
        text: Text | None = None,
    ) -> Reply:
        attempt = Attempt(puzzle, stored.played, stored.finished)
        status = self._over(actor, stored).text if stored.finished else board.task(attempt)
        assert status is not None
        view = board.puzzle_board(
            board.attempt_board(stored.id), attempt, stored.version, _player(actor), status
        )
        return Reply(
            text=text,
            board=view,
            new_message=new_message,
            session_id=view.session_id,
            version=stored.version,
        )

    def _over(self, actor: Actor, stored: StoredAttempt) -> Reply:
        key = "puzzle.over." + ("solved" if stored.status is AttemptStatus.SOLVED else "failed")
        text = Text(key, {"prefix": self._ctx.prefix(actor)})
        return Reply(text=text, session_id=None, private=True, error=True)


def _player(actor: Actor) -> PlayerView:
    return PlayerView(actor.display_name, actor.user_id, None)


class _Refused(UserError):
    """A click that cannot answer: the replies that say why (a board, then a line)."""

    def __init__(self, replies: list[Reply]) -> None:
        super().__init__("puzzle.stale")
        self.replies = replies

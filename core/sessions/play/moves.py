"""Moves: a player's (clicked, reacted or typed) and the bot's answer to it."""

from __future__ import annotations

import asyncio
import contextvars
import logging
import time
from collections.abc import Awaitable, Callable, Sequence

from core.commands import MoveText, resolve_move
from core.errors import UserError
from core.games import Position, Rules
from core.i18n import Text
from core.replies import Actor, Reply
from core.sessions.clocks.clock import end_on_time, is_due
from core.sessions.context import Context
from core.sessions.play.fate import Fate, fate_of, read_back
from core.sessions.play.model import played
from core.sessions.views import board_changed, board_reply
from core.store import Session, Status, StoreBusy, StoreUnavailable, WriteUnknown, sessions

log = logging.getLogger("core.sessions")

Publish = Callable[[Actor, Sequence[Reply]], Awaitable[None]]
RETRY_FIRST = 0.5  # seconds before the first try of a bot's move the store refused
RETRY_MOST = 5.0  # seconds at most between two tries


class Unplayable(Exception):
    """A move that is no mistake but cannot be played as asked: the board changed since the
    player saw it (``due`` False), or the bot's move is due first (``due`` True), or the
    player's clock ran out before it came (``late``: the game ends on time instead)."""

    def __init__(self, *, due: bool, late: bool = False) -> None:
        super().__init__("the bot's move is due" if due else "the board changed")
        self.due = due
        self.late = late


class Moves:
    """Applies moves with a compare-and-set each, and lets the bot answer."""

    def __init__(self, ctx: Context) -> None:
        self._ctx = ctx
        self._later: set[asyncio.Task[None]] = set()  # bot moves waiting for the store
        self._thinking: set[str] = set()  # sessions whose bot move is being computed here

    def check(self, actor: Actor, session: Session, move: int, version: int | None) -> Position:
        """The position after the actor's ``move`` (0-based) on ``session`` seen at ``version``
        (None: any): every rule of a move, checked once; the same answer decides whether the
        rate limit applies (a playable move never is) and what :meth:`apply` stores.

        Raises:
            Unplayable: the board changed since the player saw it, or the bot's move is due.
            UserError: the player's mistake (not their game, not their turn, an illegal move).
        """
        position = self.check_turn(actor, session, version)
        check_legal(position, move)
        return position.play(move)

    def check_turn(self, actor: Actor, session: Session, version: int | None) -> Position:
        """The position on which the actor is to move now (on ``session`` seen at
        ``version``): :meth:`check` without the move (a first step, such as a picture board's
        column menu, is answered as the move would be).

        Raises:
            Unplayable, UserError: as :meth:`check`.
        """
        if version is not None and version != session.version:
            raise Unplayable(due=False)
        seat = session.seat_of(actor.user_id)
        if seat is None:
            raise UserError("error.not_your_game")
        if session.status is Status.CHALLENGE:
            raise UserError("error.challenge_pending")
        if session.status is Status.FINISHED:
            raise UserError("error.game_over", prefix=self._ctx.prefix(actor))
        if is_due(session, self._ctx.clock()):
            raise Unplayable(due=False, late=True)
        position = session.position()
        if position.to_move != seat:
            other = session.seats[position.to_move - 1]
            if not other.is_bot:
                raise UserError("error.not_your_turn", player=other.name)
            if session.id in self._thinking:
                raise UserError("error.bot_thinking")
            raise Unplayable(due=True)
        return position

    def check_typed(self, actor: Actor, session: Session, move: MoveText) -> Position:
        """:meth:`check` for a move typed as text in the chat of the actor's live game."""
        if session.status is Status.CHALLENGE:
            raise UserError("error.challenge_pending")
        if session.seat_of(actor.user_id) is None:  # the watcher of a bots' game
            raise UserError("error.not_your_game")
        return self.check(actor, session, resolve_move(move, session.rules), None)

    async def play(
        self, actor: Actor, session: Session, check: Callable[[Session], Position], *, typed: bool
    ) -> list[Reply]:
        """The move ``check`` (:meth:`check` or :meth:`check_typed` of it) finds, played."""
        try:
            after = check(session)
        except Unplayable as why:
            return await self.unplayable(actor, session, why, check if typed else None)
        return await self.apply(actor, session, after)

    async def apply(self, actor: Actor, session: Session, after: Position) -> list[Reply]:
        """Store the checked move that led to ``after``, and let the bot answer.

        When the store fails after the player's move was stored (while the bot thinks, or as
        it stores its answer), the player is told so, and the bot's move follows on the board
        through the platform's ``publish`` once the store answers again. When the connection
        drops as the move is written, whether it was stored is found out first
        (:mod:`core.sessions.play.fate`)."""
        written = self._played(session, after)
        try:
            stored = await self._write(session, written)
        except WriteUnknown as unknown:
            # The connection failed with the write sent: committed or not, nobody knows yet.
            return await self._found_out(actor, session, written, unknown)
        if not stored:
            return await self.stale(session)
        return await self._answered(actor, written)

    async def _answered(self, actor: Actor, stored: Session) -> list[Reply]:
        """The answer to the player's move ``stored``: the bot's move after it, or the promise
        of it when the store fails meanwhile."""
        try:
            current = await self.bot_turns(stored)
        except (StoreBusy, StoreUnavailable):
            self._answer_later(actor, stored)
            return [board_reply(stored, text=Text("game.move_saved"))]
        return [board_reply(current)]

    async def _found_out(
        self, actor: Actor, session: Session, written: Session, unknown: WriteUnknown
    ) -> list[Reply]:
        """The answer to a move whose write failed with the store: what really happened, read
        back as soon as the store answers (within ``fate_wait``); or, when it does not, that
        it is not known yet, and the board follows through ``publish`` once it is.

        Raises:
            WriteUnknown: ``unknown``, when the move was not stored: "nothing changed" is then
                the truth, and the store may still refuse writes (a read-only disk reads on).
        """
        try:
            found = await read_back(self._ctx, session.id, self._ctx.settings.fate_wait)
        except (StoreBusy, StoreUnavailable):

            async def later() -> list[Reply]:
                found = await self._ctx.store.run(sessions.get(session.id))
                return await self._told(actor, session, written, found)

            self._when_back(actor, session, later)
            return [
                Reply(
                    text=Text("game.move_unknown"),
                    session_id=session.id,
                    version=session.version,
                )
            ]
        if fate_of(written, session.version, found) is Fate.LOST:
            raise unknown
        return await self._told(actor, session, written, found)

    async def _told(
        self, actor: Actor, session: Session, written: Session, found: Session | None
    ) -> list[Reply]:
        """What a player is told of his move ``written`` on ``session`` whose answer the store
        lost, the game being ``found`` stored now."""
        fate = fate_of(written, session.version, found)
        if fate is Fate.SAVED:
            self._stored(written)
            return await self._answered(actor, written)
        if found is None:
            raise UserError("error.no_such_game")
        if fate is Fate.LOST:
            return [board_reply(found, text=Text("game.move_not_saved"))]
        return board_changed(found)

    def _answer_later(self, actor: Actor, session: Session) -> None:
        async def answer() -> list[Reply]:
            return [board_reply(await self.bot_turns(session))]

        self._when_back(actor, session, answer)

    def _when_back(
        self, actor: Actor, session: Session, work: Callable[[], Awaitable[list[Reply]]]
    ) -> None:
        """Run ``work`` once the store answers again, and show what it says through the
        platform's ``publish`` (without one: the next access shows the game as it is, and
        plays a bot's move that is due: Unplayable(due=True))."""
        publish = self._ctx.style(actor).publish
        if publish is None:
            return
        # A fresh context: the task must not carry the request's receipt along.
        task = asyncio.create_task(
            self._retry(actor, session, work, publish),
            name=f"answer-later-{session.id}",
            context=contextvars.Context(),
        )
        self._later.add(task)
        task.add_done_callback(self._later.discard)

    async def _retry(
        self,
        actor: Actor,
        session: Session,
        work: Callable[[], Awaitable[list[Reply]]],
        publish: Publish,
    ) -> None:
        delay = RETRY_FIRST
        while self._ctx.clock() < session.expires_at:
            await asyncio.sleep(delay)
            try:
                replies = await work()
            except (StoreBusy, StoreUnavailable):
                delay = min(delay * 2, RETRY_MOST)
                continue
            except UserError:
                return  # the game was deleted meanwhile
            except Exception:
                log.exception("the answer in session %s was given up", session.id)
                return
            await publish(actor, replies)
            return

    async def close(self) -> None:
        """Stop waiting for the store to answer (the bot's move is then played on the next
        access)."""
        tasks = list(self._later)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def unplayable(
        self,
        actor: Actor,
        session: Session,
        why: Unplayable,
        retry: Callable[[Session], Position] | None = None,
    ) -> list[Reply]:
        """The answer to a move that :meth:`check` found unplayable.

        Args:
            retry: the check of a move that named no board (a typed one): when the bot's move
                was due, the move is played after it if it is still legal then.
        """
        if why.late:
            ended = await end_on_time(self._ctx, session)
            return await self.stale(session) if ended is None else [board_reply(ended)]
        if not why.due:
            return await self.stale(session)
        # The bot's move was lost (a restart between the player's move and the bot's): play it
        # now. A typed move waits behind it; a click was meant for the board before it.
        current = await self.bot_turns(session)
        if retry is not None:
            try:
                after = retry(current)
            except (UserError, Unplayable):
                pass  # no longer legal (the bot took the cell) or not the player's turn
            else:
                return await self.apply(actor, current, after)
        return [
            board_reply(current),
            Reply(
                text=Text("error.board_changed"),
                private=True,
                error=True,
                session_id=session.id,
                version=current.version,
            ),
        ]

    async def _apply(self, session: Session, position: Position) -> Session | None:
        """Store the move that led to ``position``; None when the session changed meanwhile."""
        after = self._played(session, position)
        return after if await self._write(session, after) else None

    def _played(self, session: Session, position: Position) -> Session:
        """``session`` after the move that led to ``position``, as it is to be written."""
        now, ttl = self._ctx.now_and_ttl(Status.ACTIVE, kept=session)
        return played(session, position, now=now, ttl=ttl)

    async def _write(self, session: Session, after: Session) -> bool:
        """Store the move that made ``after`` of ``session``; False when the session changed
        meanwhile."""
        if not await self._ctx.update(after, expected_version=session.version):
            return False
        self._ctx.observer.move_played(session.counted_platform)
        return True

    def _stored(self, after: Session) -> None:
        """A move's write whose answer was lost is found stored: as :meth:`_write` would
        have."""
        self._ctx.applied(after)
        self._ctx.observer.move_played(after.counted_platform)

    async def stale(self, session: Session) -> list[Reply]:
        """The board changed under the player: show the current one and say so."""
        current = await self._ctx.store.run(sessions.get(session.id))
        if current is None:
            raise UserError("error.no_such_game")
        return board_changed(current)

    # --- the bot ---------------------------------------------------------------------------

    async def bot_turns(self, session: Session) -> Session:
        """Let the bot play while it is its turn in a game against a person; the session as it
        is stored afterwards (reloaded when someone else changed it meanwhile).

        Raises:
            UserError: the game was deleted meanwhile.
        """
        current = session
        while current.status is Status.ACTIVE:
            position = current.position()
            if not current.seats[position.to_move - 1].is_bot:
                break
            following = await self.bot_move(current, self._ctx.settings.ai_budget)
            if following is None:
                # Someone else changed the game while the bot thought (a /final, a race with
                # another process): what they stored is the board now.
                reloaded = await self._ctx.store.run(sessions.get(current.id))
                if reloaded is None:
                    raise UserError("error.no_such_game")
                return reloaded
            current = following
        return current

    async def bot_move(
        self, session: Session, budget: float, *, interactive: bool = True
    ) -> Session | None:
        """One move of the bot whose turn it is; None if the session changed meanwhile."""
        position = session.position()
        level = session.seats[position.to_move - 1].level
        assert level is not None
        self._thinking.add(session.id)
        started = time.perf_counter()
        try:
            move = await self._ctx.runner.choose(
                position, level, budget=budget, interactive=interactive
            )
        finally:
            self._thinking.discard(session.id)
        seconds = time.perf_counter() - started
        self._ctx.observer.ai_thought(level.value, seconds)
        if move not in position.legal_moves():
            log.error("bot chose an illegal move %r in session %s", move, session.id)
            move = self._ctx.rng.choice(position.legal_moves())
        log.debug(
            "action=bot_move session=%s level=%s duration_ms=%.1f",
            session.id,
            level.value,
            seconds * 1000,
            extra={"session": session.id, "action": "bot_move", "duration_ms": seconds * 1000},
        )
        return await self._apply(session, position.play(move))


def check_legal(position: Position, move: int) -> None:
    """Refuse a move the rules do not allow now, saying why in the player's terms.

    Raises:
        UserError: a full column, a cell or column off the board, an occupied cell.
    """
    if move in position.legal_moves():
        return
    rules = position.rules
    if rules.gravity and 0 <= move < rules.cols:
        raise UserError("error.column_full", column=move + 1)
    if not rules.gravity and 0 <= move < rules.cells:
        raise UserError("error.occupied", cell=move + 1)
    raise off_board(rules, move + 1)


def off_board(rules: Rules, shown: int | str) -> UserError:
    """The error for a move (as the player numbers it) that is not on the board."""
    if rules.gravity:
        return UserError("error.off_board_column", column=shown, max=rules.cols)
    return UserError("error.off_board_cell", cell=shown, max=rules.cells)

"""Move clocks of games between people: a game whose clock ran out ends, the player to move
losing, and the player to move is reminded once when a fifth of their time is left.

Both run from the sweep (:meth:`GameService.sweep_clocks`, under the sweeper lease, and once at
start-up, so a clock that ran out while the bot was down ends its game then). Each is a
compare-and-set in the store: the end is :meth:`Context.update` on the version the sweep read
(a move stored meanwhile wins, and the sweep finds the new deadline next time); a reminder is
claimed by :meth:`SessionStore.take_reminder`, which one caller alone gets. A move that arrives
after its deadline but before the sweep ends the game the same way (:func:`end_on_time`), so
the deadline decides, not which process looks first.

Both players are told through the platform's ``publish`` in the chat of the game: the board
edited to its result, and the reminder as a mention of the player to move. A platform that
cannot be reached there (a Discord group DM the bot is not in) loses only the message: the game
has ended in the store, and its board shows it at the next look.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
from collections.abc import Awaitable, Callable, Sequence

from core.i18n import Text
from core.render import time_left
from core.replies import Actor, Reply
from core.sessions.context import Context
from core.sessions.model import timed_out
from core.sessions.views import board_reply
from core.store import Session, Status

log = logging.getLogger("core.sessions")

BATCH = 100
"""Games ended (or reminded) per store query; a sweep takes batches until none is due."""

Localize = Callable[[Actor, list[Reply]], Awaitable[list[Reply]]]
Publish = Callable[[Actor, Sequence[Reply]], Awaitable[None]]


def is_due(session: Session, now: float) -> bool:
    """The player to move in ``session`` let their clock run out by ``now``."""
    return (
        session.status is Status.ACTIVE and session.deadline is not None and session.deadline <= now
    )


async def end_on_time(ctx: Context, session: Session) -> Session | None:
    """End ``session`` whose clock ran out: the player to move loses. The finished session if
    this call ended it; None if it changed meanwhile (a move came first, or someone else ended
    it)."""
    now, ttl = ctx.now_and_ttl(Status.FINISHED, kept=session)
    ended = timed_out(session, now=now, ttl=ttl)
    if not await ctx.update(ended, expected_version=session.version):
        return None
    return ended


class Clocks:
    """The sweep of due clocks and reminders (see the module docstring).

    Args:
        ctx: the service's shared context.
        localize: the replies as the chat is to see them (its language and theme).
    """

    def __init__(self, ctx: Context, localize: Localize) -> None:
        self._ctx = ctx
        self._localize = localize
        # Messages on their way: a platform's send may wait out its rate limits, and the next
        # game's timeout must not wait for it.
        self._telling: set[asyncio.Task[None]] = set()

    async def sweep(self) -> int:
        """End every game whose clock ran out and send every reminder due; how many games
        ended."""
        # A batch's games at once: each is a compare-and-set of its own, and together they
        # queue for the store as one burst rather than one by one behind everyone's moves.
        ended = 0
        while True:
            ids = await self._ctx.store.due_clocks(self._ctx.clock(), BATCH)
            ended += sum(await self._each(self._end, ids))
            if len(ids) < BATCH:
                break
        while True:
            ids = await self._ctx.store.due_reminders(self._ctx.clock(), BATCH)
            await self._each(self._remind, ids)
            if len(ids) < BATCH:
                break
        return ended

    @staticmethod
    async def _each(work: Callable[[str], Awaitable[int]], ids: Sequence[str]) -> list[int]:
        """``work`` on every id at once; one that fails (a busy store) is logged and left for
        the next sweep, as it is still due then."""
        results = await asyncio.gather(
            *(work(session_id) for session_id in ids), return_exceptions=True
        )
        for session_id, result in zip(ids, results, strict=True):
            if isinstance(result, BaseException):
                log.warning("clock of session %s left for the next sweep: %r", session_id, result)
        return [result for result in results if isinstance(result, int)]

    async def _end(self, session_id: str) -> int:
        session = await self._ctx.store.get(session_id)
        if session is None or not is_due(session, self._ctx.clock()):
            return 0  # a move came first: its new deadline is for a later sweep
        ended = await end_on_time(self._ctx, session)
        if ended is None:
            return 0
        # The board edited to its end, and the result in a message of its own: an edit far
        # up the chat notifies nobody.
        board = board_reply(ended, result=False)
        assert board.board is not None
        result = Reply(
            text=board.board.status,
            new_message=True,
            session_id=ended.id,
            version=ended.version,
        )
        await self._publish(ended, [board, result])
        return 1

    async def _remind(self, session_id: str) -> int:
        ctx = self._ctx
        session = await ctx.store.get(session_id)
        if (
            session is None
            or session.status is not Status.ACTIVE
            or session.remind_at is None
            or session.deadline is None
            or not await ctx.store.take_reminder(session.id, session.version)
        ):
            return 0
        to_move = session.position().to_move
        seat = session.seats[to_move - 1]
        left = time_left(session.deadline - ctx.clock())
        text = Text("game.clock_reminder", {"player": seat.name, "left": left})
        reply = Reply(
            text=text,
            new_message=True,  # a message of its own, below: the board stays as it is
            session_id=session.id,
            version=session.version,
            mention=seat.user_id,
        )
        # In the chat where that player plays (an open game's other chat, if theirs).
        await self._publish(session, [reply], seat=to_move)
        return 1

    async def _publish(
        self, session: Session, replies: Sequence[Reply], *, seat: int | None = None
    ) -> None:
        """Show ``replies`` in the game's chat (or in the chat of seat ``seat``), in a task of
        its own."""
        platform, chat_id = (
            (session.platform, session.chat_id) if seat is None else (session.chat_of(seat))
        )
        style = self._ctx.styles.get(platform)
        if style is None or style.publish is None:
            return  # not served by this process's adapters: the board shows it at the next look
        person = (
            session.seats[seat - 1]
            if seat is not None
            else next(s for s in session.seats if s.user_id is not None)
        )
        assert person.user_id is not None
        actor = Actor(
            platform,
            chat_id,
            person.user_id,
            person.name,
            locale="",
            server_id=session.server_id if chat_id == session.chat_id else None,
        )
        # A fresh context: nothing of a request travels along.
        task = asyncio.create_task(
            self._tell(actor, style.publish, replies, session.id),
            name=f"clock-{session.id}",
            context=contextvars.Context(),
        )
        self._telling.add(task)
        task.add_done_callback(self._telling.discard)

    async def _tell(
        self, actor: Actor, publish: Publish, replies: Sequence[Reply], session_id: str
    ) -> None:
        # A platform that cannot reach the chat loses only the message (see the module).
        try:
            await publish(actor, await self._localize(actor, list(replies)))
        except Exception:
            log.exception("could not tell the players of session %s about its clock", session_id)

    async def idle(self) -> None:
        """Wait until the messages on their way are handed to their platforms (tests)."""
        while self._telling:
            await asyncio.gather(*self._telling, return_exceptions=True)

    async def close(self) -> None:
        """Stop telling (the games have ended in the store already)."""
        tasks = list(self._telling)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

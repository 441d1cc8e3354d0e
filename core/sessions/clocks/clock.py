"""Move clocks of games between people: a game whose clock ran out ends, the player to move
losing, and the player to move is reminded once when a fifth of their time is left.

Both run from the sweep (:meth:`GameService.sweep_clocks`, under the sweeper lease, and once at
start-up, so a clock that ran out while the bot was down ends its game then). Each is a
compare-and-set in the store: the end is :meth:`Context.update` on the version the sweep read
(a move stored meanwhile wins, and the sweep finds the new deadline next time); a reminder is
claimed by :meth:`Store.take_reminder`, which one caller alone gets. A move that arrives
after its deadline but before the sweep ends the game the same way (:func:`end_on_time`), so
the deadline decides, not which process looks first.

Both players are told through :class:`~core.sessions.openplay.relay.Relay`: in each chat of the game
(an open game has two) the board edited to its result and the result as a message of its own,
with the new ratings under it as a move's result has them; the reminder as a mention of the
player to move, in their chat. The sweeping process (the sweeper lease's holder) may not serve
that chat (a Matrix room another process syncs): the relay then leaves the message in the
store's outbox for the process that does, which builds it from the game as it stands (the
``render`` functions here, used by both). A platform that cannot be reached there (a Discord
group DM the bot is not in) loses only the message: the game has ended in the store, and its
board shows it at the next look.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Awaitable, Callable, Sequence

from core.i18n import Text
from core.render import time_left
from core.replies import Reply
from core.sessions.context import Context
from core.sessions.openplay.open_games import recording
from core.sessions.openplay.relay import Localize, Relay, Shown, reader_of
from core.sessions.outages import REFUSED
from core.sessions.play.model import timed_out
from core.sessions.views import board_reply
from core.store import Session, Status, sessions
from core.store.models import Kind, OutboxItem

log = logging.getLogger("core.sessions")

BATCH = 100
"""Games ended (or reminded) per store query; a sweep takes batches until none is due."""


def is_due(session: Session, now: float) -> bool:
    """The player to move in ``session`` let their clock run out by ``now``."""
    return (
        session.status is Status.ACTIVE and session.deadline is not None and session.deadline <= now
    )


async def end_on_time(ctx: Context, session: Session, *, told: bool = False) -> Session | None:
    """End ``session`` whose clock ran out: the player to move loses. The finished session if
    this call ended it; None if it changed meanwhile (a move came first, or someone else ended
    it). ``told``: the timeout's notice to every chat of the game is left in the outbox by the
    same transaction (the sweep's; a late move's answer tells its own chat)."""
    now, ttl = ctx.now_and_ttl(Status.FINISHED, kept=session)
    ended = timed_out(session, now=now, ttl=ttl)
    notices = [
        OutboxItem(Kind.TIMEOUT, platform, chat_id, ended.id, ended.version)
        for platform, chat_id in ended.chats
    ]
    if not await ctx.update(
        ended, expected_version=session.version, notices=notices if told else ()
    ):
        return None
    return ended


class Clocks:
    """The sweep of due clocks and reminders (see the module docstring).

    Args:
        ctx: the service's shared context.
        localize: later replies as they are shown (the new ratings under a rated result).
        relay: how they reach their chat.
    """

    def __init__(self, ctx: Context, localize: Localize, relay: Relay) -> None:
        self._ctx = ctx
        self._localize = localize
        self._relay = relay
        relay.renders(Kind.TIMEOUT, self._timeout)
        relay.renders(Kind.REMINDER, self._reminder)

    async def sweep(self) -> int:
        """End every game whose clock ran out and send every reminder due; how many games
        ended."""
        # An outage of the store is not held against the player to move: the clocks it stopped
        # are moved first (a refusal here leaves every game as it is, for the next sweep).
        await self._ctx.outages.settle()
        # A batch's games at once: each is a compare-and-set of its own, and together they
        # queue for the store as one burst rather than one by one behind everyone's moves.
        ended = 0
        while True:
            ids = await self._ctx.store.run(sessions.due_clocks(self._ctx.clock(), BATCH))
            ended += sum(await self._each(self._end, ids))
            if len(ids) < BATCH:
                break
        while True:
            ids = await self._ctx.store.run(sessions.due_reminders(self._ctx.clock(), BATCH))
            await self._each(self._remind, ids)
            if len(ids) < BATCH:
                break
        return ended

    async def _each(self, work: Callable[[str], Awaitable[int]], ids: Sequence[str]) -> list[int]:
        """``work`` on every id at once; one that fails is left for the next sweep, as it is
        still due then (a store that refused it is an outage, settled before that sweep ends
        anything)."""
        started = self._ctx.outages.now()
        results = await asyncio.gather(
            *(work(session_id) for session_id in ids), return_exceptions=True
        )
        for session_id, result in zip(ids, results, strict=True):
            if isinstance(result, REFUSED):
                self._ctx.outages.refused(result, since=started, work="the clock sweep")
            elif isinstance(result, BaseException):
                log.warning("clock of session %s left for the next sweep: %r", session_id, result)
        return [result for result in results if isinstance(result, int)]

    async def _end(self, session_id: str) -> int:
        session = await self._ctx.store.run(sessions.get(session_id))
        if session is None or not is_due(session, self._ctx.clock()):
            return 0  # a move came first: its new deadline is for a later sweep
        # Recorded as a request records its changes: the end is told here, in every chat of
        # the game, so OtherChats.followed leaves an open game's other chat to us.
        with recording():
            ended = await end_on_time(self._ctx, session, told=True)
        if ended is None:
            return 0
        # Left in the outbox with the end: the sweep shows them from there once it is over.
        self._relay.deliver_soon()
        return 1

    async def _timeout(self, item: OutboxItem, ended: Session | None) -> Shown | None:
        """The board edited to its end, and the result in a message of its own (an edit far
        up the chat notifies nobody), with the new ratings under a rated game's result as a
        move that ends a game has them."""
        if ended is None or ended.status is not Status.FINISHED:
            return None
        reader = reader_of(self._ctx, item, ended)
        if reader is None:
            return None
        [said] = await self._localize(reader, [board_reply(ended)])
        result = Reply(text=said.text, new_message=True, session_id=ended.id, version=ended.version)
        return reader, [dataclasses.replace(said, text=None), result]

    async def _remind(self, session_id: str) -> int:
        ctx = self._ctx
        session = await ctx.store.run(sessions.get(session_id))
        if (
            session is None
            or session.status is not Status.ACTIVE
            or session.remind_at is None
            or session.deadline is None
        ):
            return 0
        # In the chat where that player plays (an open game's other chat, if theirs); left in
        # the outbox by the claim's own transaction, so a crash after it loses no reminder.
        to_move = session.position().to_move
        platform, chat_id = session.chat_of(to_move)
        item = OutboxItem(Kind.REMINDER, platform, chat_id, session.id, session.version, to_move)
        left = await ctx.store.run(
            sessions.take_reminder(session.id, session.version, notice=item, now=ctx.clock())
        )
        if left is None:
            return 0
        self._relay.show_now(left, session)
        return 1

    async def _reminder(self, item: OutboxItem, session: Session | None) -> Shown | None:
        """A mention of the player to move, in a message of its own below (the board stays as
        it is); nothing once they moved or their time is up."""
        if (
            session is None
            or item.seat is None
            or session.version != item.version
            or session.status is not Status.ACTIVE
            or session.deadline is None
            or session.deadline <= self._ctx.clock()
        ):
            return None
        reader = reader_of(self._ctx, item, session)
        if reader is None:
            return None
        seat = session.seats[item.seat - 1]
        left = time_left(session.deadline - self._ctx.clock())
        reply = Reply(
            text=Text("game.clock_reminder", {"player": seat.name, "left": left}),
            new_message=True,
            session_id=session.id,
            version=session.version,
            mention=seat.user_id,
        )
        return reader, [reply]

"""What a process has to show in a chat with nobody's request to answer: a clock's timeout and
reminder, an expired seek's notice, a departure, an open game's board in its other chat. Each
is a notice that follows a stored change, and is not told from memory: the store's operation
leaves it in the outbox (:mod:`core.store.outbox`) in the change's own transaction, so a
process killed between the commit and the send loses none. The process that made the change
shows its items at once where it serves their chat (:meth:`Relay.show_now`,
:meth:`Relay.show_board`, :meth:`Relay.deliver_soon`); the others wait for the process that
does: a Matrix room whose account another process syncs (``PlatformStyle.serves``), or a
platform this process does not run at all.

What is left in the store is neutral (:class:`~core.store.outbox.OutboxItem`: what, where,
which game, which seat); the replies are built from it by the part that owns the kind (its
``render``, registered with :meth:`Relay.renders`), from the game as it stands, both by the
process that has something to say and by the one that shows it, so both show the same, in the
chat's language. Every process passes over the outbox with its matchmaking pass (every second,
:meth:`Relay.deliver`); an item is claimed in the store for :data:`CLAIM` seconds before it is
shown and deleted once its platform took it, so it is shown once whatever the number of
processes serving parts of the work, and still shown when the process that claimed it died or
could not reach the chat (by the next pass after its claim lapsed: at least once). What one
process tells one chat is shown there in the order told (an older board never after a newer).
The messages an item's showing posted are kept on the item (their platform ids,
:class:`~core.ports.Posting`) before it is deleted: an item shown again because its process
died in between edits them, and reads as one notice, where the platform can edit.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from typing import Any

from core.ports import PlatformStyle, posting_again
from core.replies import Actor, Reply
from core.sessions.context import Context
from core.store import Session, outbox, sessions
from core.store.models import Kind, OutboxItem
from core.store.models.outbox import SHOWS_THE_BOARD

log = logging.getLogger("core.sessions")

CLAIM = 60.0
"""Seconds an outbox item is claimed by the process showing it: another process takes it
again after that (the first died, or could not reach the chat). A publish that waits longer
(a platform's rate limit) has it shown twice."""

DRAIN = 1.0
"""Seconds :meth:`Relay.close` lets the messages on their way reach their platforms."""

Localize = Callable[[Actor, list[Reply]], Awaitable[list[Reply]]]
"""Later replies as they are to be shown (the new ratings under a rated result)."""

Shown = tuple[Actor, list[Reply]]
"""Who reads it (their chat, its settings), and the replies."""

Render = Callable[[OutboxItem, Session | None], Awaitable[Shown | None]]
"""An item's replies, from the game as it stands (None if there is none); None: nothing to
show any more (the game moved on or is gone)."""


def reader_of(ctx: Context, item: OutboxItem, session: Session) -> Actor | None:
    """Who reads ``item`` about ``session`` in its chat: the player of its seat (or the first
    seated there); None if no seat of the game sits in that chat any more (it moved)."""
    where = (item.platform, item.chat_id)
    seats = (item.seat,) if item.seat is not None else (1, 2)
    seat = next((n for n in seats if session.chat_of(n) == where), None)
    if seat is None:
        return None
    person = session.seats[seat - 1]
    return Actor(
        item.platform,
        item.chat_id,
        person.user_id or "",
        person.name,
        locale=ctx.settings.default_locale,
        # The Discord server of the seat's own chat: what is said there follows its settings.
        server_id=session.server_of(seat),
    )


def chat_reader(ctx: Context, item: OutboxItem) -> Actor:
    """Whoever reads ``item`` in its chat when it names no player (an event's notices, the
    daily puzzle): nobody in particular, in the bot's default language, in the chat's Discord
    server as the item names it, so that the server's settings (its language) mark it."""
    server = item.detail.get("server")
    return Actor(
        item.platform,
        item.chat_id,
        "",
        "",
        locale=ctx.settings.default_locale,
        server_id=server if isinstance(server, str) else None,
    )


class Relay:
    """Shows later replies where they belong (see the module docstring).

    Args:
        ctx: the service's shared context.
        localize: the replies as they are to be shown (they are marked with the chat's
            language and theme on their way to ``publish``).
    """

    def __init__(self, ctx: Context, localize: Localize) -> None:
        self._ctx = ctx
        self._localize = localize
        self._renderers: dict[Kind, Render] = {}
        # Messages on their way: a platform's send may wait out its rate limits, and what
        # comes next must not wait for it.
        self._tasks: set[asyncio.Task[None]] = set()
        # The last message on its way to each chat: the next one to that chat waits for it, so
        # a chat sees them in the order they were told (an older board never after a newer).
        self._last: dict[tuple[str, str], asyncio.Task[None]] = {}
        self._soon: asyncio.Task[None] | None = None
        self._again = False

    def renders(self, kind: Kind, render: Render) -> None:
        """Items of ``kind`` are shown as ``render`` builds them."""
        self._renderers[kind] = render

    def show_now(self, items: Sequence[OutboxItem], session: Session | None = None) -> None:
        """Show at once, each in a task of its own, the ``items`` this process has just left in
        the outbox with its change (their ids set), in the chats it serves: claimed, shown from
        ``session`` (the game as the caller has it) and deleted, as :meth:`deliver` does,
        without waiting for the next pass. An item it does not get the claim of is another
        process's to show; one of a chat it does not serve waits for the process that does."""
        for item in items:
            style = self._serving(item.platform, item.chat_id)
            if style is not None and item.id is not None:
                # One that shows the whole board holds back the boards of later changes until
                # it is claimed (outbox.outbox_put): it shows the game as it then stands.
                read = item.kind in SHOWS_THE_BOARD
                self._in_turn(item, self._claimed(style, item, session, read=read))

    def show_board(self, session: Session, seat: int, replies: Sequence[Reply]) -> None:
        """Show ``replies`` (a change to the open game ``session``) in the chat of seat
        ``seat``, in a task of its own, through the board item the change left there in its
        transaction (:func:`core.sessions.openplay.open_games.other_boards`): claimed, shown
        and deleted as :meth:`show_now` does. In a chat this process does not serve, or with
        no item left (another process showed it, or an item that shows the whole board holds
        it back), the item is for a pass, which shows the board as it then stands."""
        platform, chat_id = session.chat_of(seat)
        style = self._serving(platform, chat_id)
        if style is None:
            return
        where = OutboxItem(Kind.BOARD, platform, chat_id, session.id, session.version, seat)

        async def show() -> None:
            try:
                item = await self._ctx.store.run(outbox.board_of(platform, chat_id, session.id))
            except Exception:
                log.exception("could not read a board to show in its chat")
                return
            if item is not None and item.id is not None and style is not None:
                await self._claimed(style, item, session, replies=replies)

        self._in_turn(where, show())

    def deliver_soon(self) -> None:
        """:meth:`deliver` in a task of its own, soon: the items this process has just left
        with its changes, shown without waiting for the next pass. Asked again while one runs,
        it runs once more after it (the item left meanwhile may have been read too early)."""
        self._again = True
        if self._soon is not None and not self._soon.done():
            return

        async def soon() -> None:
            while self._again:
                self._again = False
                try:
                    await self.deliver()
                except Exception:
                    log.exception("could not deliver the outbox")

        task = asyncio.create_task(soon(), name="relay-deliver", context=contextvars.Context())
        self._soon = task
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _in_turn(self, item: OutboxItem, show: Coroutine[Any, Any, object]) -> None:
        """Run ``show`` in a task of its own once what was told to ``item``'s chat before it
        was handed over."""
        where = (item.platform, item.chat_id)
        before = self._last.get(where)

        async def in_turn() -> None:
            if before is not None:
                await asyncio.wait([before])
            await show

        # A fresh context: nothing of a request (its receipt, its open games) travels along.
        task = asyncio.create_task(
            in_turn(),
            name=f"relay-{item.kind.value}-{item.session_id or item.chat_id}",
            context=contextvars.Context(),
        )
        self._tasks.add(task)
        self._last[where] = task

        def done(task: asyncio.Task[None]) -> None:
            self._tasks.discard(task)
            if self._last.get(where) is task:
                del self._last[where]

        task.add_done_callback(done)

    def _serving(self, platform: str, chat_id: str) -> PlatformStyle | None:
        """The platform's style if this process shows replies in that chat now, else None."""
        style = self._ctx.styles.get(platform)
        if style is None or style.publish is None:
            return None
        if style.serves is not None and not style.serves(chat_id):
            return None
        return style

    async def _show(
        self,
        style: PlatformStyle,
        item: OutboxItem,
        session: Session | None,
        replies: Sequence[Reply] | None,
    ) -> bool:
        """Show ``item`` through ``style``'s publish; whether there was anything to show. What
        the publish raises goes to the caller (the platform did not take the message)."""
        assert style.publish is not None
        try:
            if replies is None:
                shown = await self._renderers[item.kind](item, session)
            else:
                reader = None if session is None else reader_of(self._ctx, item, session)
                shown = None if reader is None else (reader, list(replies))
            if shown is None:
                return False
            reader, said = shown
            said = await self._localize(reader, said)
        except Exception:
            # Building it failed: it would fail again, so it is not kept for another try.
            log.exception("could not build a %s to show", item.kind.value)
            return False
        await style.publish(reader, said)
        return True

    async def deliver(self) -> int:
        """Show the items other processes left for chats this one serves; how many showed
        something."""
        store = self._ctx.store
        shown = 0
        for style in list(self._ctx.styles.values()):
            if style.publish is None:
                continue
            for item in await store.run(outbox.outbox_due(style.platform, self._ctx.clock())):
                if self._serving(item.platform, item.chat_id) is None:
                    continue
                if item.kind not in self._renderers or item.id is None:
                    continue
                shown += await self._claimed(style, item, None, read=True)
        return shown

    async def _claimed(
        self,
        style: PlatformStyle,
        item: OutboxItem,
        session: Session | None,
        *,
        read: bool = False,
        replies: Sequence[Reply] | None = None,
    ) -> bool:
        """Claim the stored ``item``, show it (from ``session``, or the game read again when
        ``read``; as ``replies`` where given) and delete it; whether it showed something."""
        assert item.id is not None
        store = self._ctx.store
        try:
            now = self._ctx.clock()
            if not await store.run(outbox.outbox_take(item.id, now, now + CLAIM)):
                # Another process serving that chat took it first, or is showing an older
                # item of that chat.
                return False
            if read and item.session_id is not None:
                session = await store.run(sessions.get(item.session_id))
            with posting_again(item.posted) as posting:
                try:
                    shown = await self._show(style, item, session, replies)
                finally:
                    # Kept before the item is done (and when the platform took a part of it
                    # only): a try after a crash edits these rather than posting again.
                    if posting.posted and posting.posted != list(item.posted):
                        await store.run(outbox.outbox_posted(item.id, posting.posted))
            await store.run(outbox.outbox_done(item))
        except Exception:
            # Left claimed (or not yet): a pass shows it once the claim lapsed, and the
            # chat's later items wait for it.
            log.exception("could not show a %s in its chat yet", item.kind.value)
            return False
        return shown

    async def idle(self) -> None:
        """Wait until the messages on their way are handed to their platforms (tests)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def close(self) -> None:
        """Let the messages on their way reach their platforms for :data:`DRAIN` seconds, then
        stop (what they say is in the store already)."""
        tasks = list(self._tasks)
        if tasks:
            _, late = await asyncio.wait(tasks, timeout=DRAIN)
            for task in late:
                task.cancel()
            await asyncio.gather(*late, return_exceptions=True)

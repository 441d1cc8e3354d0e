"""Where each game's board message is, and edits of it outside an interaction.

A game's board is one message in each channel that shows it (an open game between two
channels has two): posted when the game starts, then edited move by move. Which message that
is lives in the store's board locations (:mod:`core.store.boards`, platform ``discord``, one
row per channel, deleted with its game), so a restart keeps editing the same message; a board
known to be a Components V2 picture says so in its row (:data:`PICTURE`). Rows of an older
release (``discord`` / ``board:<session>`` -> ``channel:message``, one pair per channel
separated by commas, in the key-value table) are still read. Edits that come without an
interaction (``/move`` and ``/final`` typed anywhere in the channel, the moves of a watched
bots' game) go through the channel's message endpoint: an interaction token expires after 15
minutes, a channel message can be edited for good.

Edits of one board are applied in order and never backwards: a board older than the one shown
(a bots' game's move that arrives after ``/final`` stopped it) is dropped. An edit that finds
no board while this process is posting the game's first one (a reply that comes before the
post of the board it answers on, as ``/tournament berserk`` the instant a pairing is made)
waits for that post to be remembered and edits it, rather than showing a second board. The
boards shown lately are also kept in memory: the store forgets a board's row in the
transaction that deletes its game (an abandoned game, a withdrawn challenge), and the reply
that says so must still find the message to edit.

Discord never lets a message lose the Components V2 flag: a board shown as a picture must be
drawn as one again. An edit may therefore be a drawing function (:data:`Draw`): what it draws
for a plain message is tried first, and when the message refuses it, the picture (the
boards found to be pictures are then drawn as such at once).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import time
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass

from adapters.discord.layout import MessageSpec
from core.leases import wait_or_set
from core.ports import BoardLocation, Store
from core.store import boards, kv

log = logging.getLogger(__name__)

KV_NAMESPACE = "discord"  # the adapter's kv rows, and its boards' platform
PICTURE = "v2"  # a board location's detail: the message is a Components V2 picture board
_RECENT = 10_000  # boards kept in memory (a few hundred bytes each)
# Seconds an edit waits for a board this process is posting: a round trip, or a few behind
# Discord's rate limits. A post that fails ends the wait at once; the interaction waiting was
# deferred first.
FIRST_POST_WAIT = 10.0

EditMessage = Callable[[int, int, MessageSpec], Awaitable[bool]]
"""Edits message ``(channel id, message id)`` to show a spec; False if it cannot be edited."""
Draw = Callable[[bool], MessageSpec]
"""Draws a board for a message that is a Components V2 picture board already (True) or not."""


@dataclass(slots=True)
class _Shown:
    channel_id: int
    message_id: int
    version: int = -1
    stored: bool = False  # this process stored this message as the board's row


def old_board_key(session_id: str) -> str:
    """The key of the one kv row that held all of a session's boards (an older release)."""
    return f"board:{session_id}"


def parse_boards(value: str | None) -> dict[int, int]:
    """An old board row's value: channel id to message id (``c1:m1,c2:m2``); a row that does
    not parse is no board."""
    found: dict[int, int] = {}
    for part in (value or "").split(","):
        channel, _, message = part.partition(":")
        if channel.isdigit() and message.isdigit():
            found[int(channel)] = int(message)
    return found


class BoardMessages:
    """The board message of every game in every channel that shows it: remembered, looked
    up, edited in order.

    Args:
        store: the key-value part of the store.
        edit_message: edits a channel message (the client's REST call).
    """

    def __init__(self, store: Store, edit_message: EditMessage) -> None:
        self._store = store
        self._edit_message = edit_message
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        self._row_locks: weakref.WeakValueDictionary[str, asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )
        self._recent: collections.OrderedDict[str, dict[int, _Shown]] = collections.OrderedDict()
        self._posted: dict[str, asyncio.Event] = {}
        self._posting: collections.Counter[tuple[str, int | None]] = collections.Counter()
        self._pictures: collections.OrderedDict[str, None] = collections.OrderedDict()

    async def remember(
        self, session_id: str, channel_id: int, message_id: int, version: int | None = None
    ) -> None:
        """``message_id`` in ``channel_id`` shows the game ``session_id`` (at ``version``).

        Every press on a board remembers it again: the row this process stored for the same
        message is not written again (it goes only with its game)."""
        # Not the edits' lock: an edit may be waiting for this very board to be remembered.
        async with self._lock(session_id, self._row_locks):
            shown = self._recent.get(session_id, {}).get(channel_id)
            if shown is None or shown.message_id != message_id:
                shown = _Shown(channel_id, message_id)
            if not shown.stored:
                await self._save(session_id, shown, version)
                shown.stored = True
            self._keep(session_id, shown, version)
        posted = self._posted.get(session_id)
        if posted is not None:
            posted.set()

    @contextlib.asynccontextmanager
    async def posting(self, session_id: str, channel_id: int | None) -> AsyncIterator[None]:
        """A block that posts a message of ``session_id`` in ``channel_id`` (to be
        :meth:`remember`-ed as its board): edits of it meanwhile wait for it (see the module
        docstring)."""
        key = (session_id, channel_id)
        self._posting[key] += 1
        try:
            yield
        finally:
            self._posting[key] -= 1
            if not self._posting[key]:
                del self._posting[key]
            posted = self._posted.get(session_id)
            if posted is not None:
                posted.set()  # posted or failed: a waiting edit looks again

    def posting_now(self, session_id: str, channel_id: int | None) -> bool:
        """Whether this process is posting a message of ``session_id`` in ``channel_id`` (in
        any channel, for None)."""
        if channel_id is None:
            return any(key[0] == session_id for key in self._posting)
        return (session_id, channel_id) in self._posting or (session_id, None) in self._posting

    async def where(
        self, session_id: str, *, wait: float = 0.0, channel_id: int | None = None
    ) -> tuple[int, int] | None:
        """(channel id, message id) of the board of ``session_id``, or None.

        Args:
            wait: seconds to wait for the board to be remembered when it is not yet (the
                first move of a bots' game can be ready before the message that shows it);
                at least :data:`FIRST_POST_WAIT` while this process is posting it.
            channel_id: the board in this channel (an open game has one in each); None: the
                one board of a game played in one channel.
        """
        only_the_post = wait <= 0 and self.posting_now(session_id, channel_id)
        if only_the_post:
            wait = FIRST_POST_WAIT
        if wait <= 0:
            return await self._lookup(session_id, channel_id)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + wait
        # Listening before looking: a board remembered while the store is read wakes us.
        posted = self._posted.setdefault(session_id, asyncio.Event())
        try:
            while True:
                posted.clear()
                # Read before the lookup: a post that ends during it is looked for again.
                posting = self.posting_now(session_id, channel_id)
                found = await self._lookup(session_id, channel_id)
                left = deadline - loop.time()
                if found is not None or left <= 0:
                    return found
                if only_the_post and not posting:
                    return None  # the post had ended, unremembered (it failed)
                await wait_or_set(posted, left)
        finally:
            self._posted.pop(session_id, None)

    async def edit(
        self,
        session_id: str,
        spec: MessageSpec | Draw,
        *,
        version: int | None = None,
        wait: float = 0.0,
        channel_id: int | None = None,
    ) -> bool:
        """Edit the board message of ``session_id`` to show ``spec`` (or what ``spec`` draws:
        see the module docstring).

        Args:
            version: the game's version ``spec`` shows; one older than already shown is
                dropped (and counts as done).
            wait: see :meth:`where`.
            channel_id: see :meth:`where`.

        Returns:
            False when there is no board message to edit (never posted, or deleted).
        """
        async with self._lock(session_id):
            where = await self.where(session_id, wait=wait, channel_id=channel_id)
            if where is None:
                return False
            shown = self._recent.get(session_id, {}).get(where[0])
            if version is not None and shown is not None and version < shown.version:
                log.debug("board of %s: version %d is older than shown", session_id, version)
                return True
            if not await self._edit_drawn(session_id, where, spec):
                return False
            self._keep(session_id, shown or _Shown(*where), version)
            return True

    async def _edit_drawn(
        self, session_id: str, where: tuple[int, int], spec: MessageSpec | Draw
    ) -> bool:
        if isinstance(spec, MessageSpec):
            return await self._edit_message(*where, spec)
        known = session_id in self._pictures
        drawn = spec(known)
        if await self._edit_message(*where, drawn):
            return True
        if known or drawn.picture is not None:
            return False
        # Perhaps a picture board (Discord keeps the flag): drawn as one, and known from now.
        if not await self._edit_message(*where, spec(True)):
            return False
        self._picture(session_id)
        shown = self._recent.get(session_id, {}).get(where[0])
        if shown is not None and shown.message_id == where[1]:
            # Known from the next start too (the row keeps the message it names).
            await self._save(session_id, shown, None)
        return True

    async def _save(self, session_id: str, shown: _Shown, version: int | None) -> None:
        detail = PICTURE if session_id in self._pictures else ""
        location = BoardLocation(
            KV_NAMESPACE,
            session_id,
            str(shown.channel_id),
            str(shown.message_id),
            version if version is not None or shown.version < 0 else shown.version,
            detail,
        )
        await self._store.run(boards.put_board(location, time.time()))

    def _picture(self, session_id: str) -> None:
        self._pictures[session_id] = None
        while len(self._pictures) > _RECENT:
            self._pictures.popitem(last=False)

    async def _lookup(self, session_id: str, channel_id: int | None) -> tuple[int, int] | None:
        shown = self._recent.get(session_id, {})
        if channel_id is None and shown:
            first = next(iter(shown.values()))
            return first.channel_id, first.message_id
        if channel_id is not None and channel_id in shown:
            return channel_id, shown[channel_id].message_id
        store = self._store
        if channel_id is None:
            # A game of one channel, found without naming it: its only board.
            found = await store.run(boards.boards_of(KV_NAMESPACE, session_id))
        else:
            at = await store.run(boards.board_at(KV_NAMESPACE, session_id, str(channel_id)))
            found = [] if at is None else [at]
        for location in found:
            if location.chat_id.isdigit() and location.message_id.isdigit():
                if location.detail == PICTURE:
                    self._picture(session_id)
                return int(location.chat_id), int(location.message_id)
        # Rows of an older release, in the key-value table.
        old = parse_boards(await store.run(kv.kv_get(KV_NAMESPACE, old_board_key(session_id))))
        if channel_id is None:
            return next(iter(old.items()), None)
        message_id = old.get(channel_id)
        return None if message_id is None else (channel_id, message_id)

    def _lock(
        self, session_id: str, locks: weakref.WeakValueDictionary[str, asyncio.Lock] | None = None
    ) -> asyncio.Lock:
        # Held only while in use: the weak mapping forgets the locks of games nobody edits.
        locks = self._locks if locks is None else locks
        lock = locks.get(session_id)
        if lock is None:
            lock = asyncio.Lock()
            locks[session_id] = lock
        return lock

    def _keep(self, session_id: str, shown: _Shown, version: int | None) -> None:
        if version is not None:
            shown.version = max(shown.version, version)
        self._recent.setdefault(session_id, {})[shown.channel_id] = shown
        self._recent.move_to_end(session_id)
        while len(self._recent) > _RECENT:
            self._recent.popitem(last=False)

"""Where each game's board message is, and edits of it outside an interaction.

A game's board is one message: posted when the game starts, then edited move by move. Which
message that is lives in the store (``discord`` / ``board:<session>`` -> ``channel:message``,
deleted with its game), so a restart keeps editing the same message. Edits that come without an
interaction (``/move`` and ``/final`` typed anywhere in the channel, the moves of a watched bots'
game) go through the channel's message endpoint: an interaction token expires after 15 minutes,
a channel message can be edited for good.

Edits of one board are applied in order and never backwards: a board older than the one shown
(a bots' game's move that arrives after ``/final`` stopped it) is dropped. The boards shown
lately are also kept in memory: the store forgets a board's row in the transaction that deletes
its game (an abandoned game, a withdrawn challenge), and the reply that says so must still find
the message to edit.

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
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from adapters.discord.layout import MessageSpec
from core.ports import KeyValueStore

log = logging.getLogger(__name__)

KV_NAMESPACE = "discord"  # store.kv_*: where each session's board message is
_RECENT = 10_000  # boards kept in memory (a few hundred bytes each)

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


def board_key(session_id: str) -> str:
    """The key of a session's board message in :data:`KV_NAMESPACE`."""
    return f"board:{session_id}"


class BoardMessages:
    """The board message of every game: remembered, looked up, edited in order.

    Args:
        store: the key-value part of the store.
        edit_message: edits a channel message (the client's REST call).
    """

    def __init__(self, store: KeyValueStore, edit_message: EditMessage) -> None:
        self._store = store
        self._edit_message = edit_message
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        self._recent: collections.OrderedDict[str, _Shown] = collections.OrderedDict()
        self._posted: dict[str, asyncio.Event] = {}
        self._pictures: collections.OrderedDict[str, None] = collections.OrderedDict()

    async def remember(
        self, session_id: str, channel_id: int, message_id: int, version: int | None = None
    ) -> None:
        """``message_id`` in ``channel_id`` shows the game ``session_id`` (at ``version``).

        Every press on a board remembers it again: the row this process stored for the same
        message is not written again (it goes only with its game)."""
        shown = self._recent.get(session_id)
        if shown is None or (shown.channel_id, shown.message_id) != (channel_id, message_id):
            shown = _Shown(channel_id, message_id)
        if not shown.stored:
            await self._store.kv_set(
                KV_NAMESPACE,
                board_key(session_id),
                f"{channel_id}:{message_id}",
                session_id=session_id,
            )
            shown.stored = True
        self._keep(session_id, shown, version)
        posted = self._posted.get(session_id)
        if posted is not None:
            posted.set()

    async def where(self, session_id: str, *, wait: float = 0.0) -> tuple[int, int] | None:
        """(channel id, message id) of the board of ``session_id``, or None.

        Args:
            wait: seconds to wait for the board to be remembered when it is not yet (the
                first move of a bots' game can be ready before the message that shows it).
        """
        found = await self._lookup(session_id)
        if found is not None or wait <= 0:
            return found
        posted = self._posted.setdefault(session_id, asyncio.Event())
        try:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(posted.wait(), wait)
        finally:
            self._posted.pop(session_id, None)
        return await self._lookup(session_id)

    async def edit(
        self,
        session_id: str,
        spec: MessageSpec | Draw,
        *,
        version: int | None = None,
        wait: float = 0.0,
    ) -> bool:
        """Edit the board message of ``session_id`` to show ``spec`` (or what ``spec`` draws:
        see the module docstring).

        Args:
            version: the game's version ``spec`` shows; one older than already shown is
                dropped (and counts as done).
            wait: see :meth:`where`.

        Returns:
            False when there is no board message to edit (never posted, or deleted).
        """
        async with self._lock(session_id):
            where = await self.where(session_id, wait=wait)
            if where is None:
                return False
            shown = self._recent.get(session_id)
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
        self._pictures[session_id] = None
        while len(self._pictures) > _RECENT:
            self._pictures.popitem(last=False)
        return True

    async def _lookup(self, session_id: str) -> tuple[int, int] | None:
        shown = self._recent.get(session_id)
        if shown is not None:
            return shown.channel_id, shown.message_id
        value = await self._store.kv_get(KV_NAMESPACE, board_key(session_id))
        if value is None:
            return None
        channel_id, _, message_id = value.partition(":")
        return int(channel_id), int(message_id)

    def _lock(self, session_id: str) -> asyncio.Lock:
        # Held only while in use: the weak mapping forgets the locks of games nobody edits.
        lock = self._locks.get(session_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[session_id] = lock
        return lock

    def _keep(self, session_id: str, shown: _Shown, version: int | None) -> None:
        if version is not None:
            shown.version = max(shown.version, version)
        self._recent[session_id] = shown
        self._recent.move_to_end(session_id)
        while len(self._recent) > _RECENT:
            self._recent.popitem(last=False)

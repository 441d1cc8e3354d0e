"""Where each game's board message is, and edits of it outside an interaction.

A game's board is one message: posted when the game starts, then edited move by move. Which
message that is lives in the store (``discord`` / ``board:<session>`` -> ``channel:message``,
deleted with its game), so a restart keeps editing the same message. Edits that come without an
interaction (``/move`` and ``/final`` typed anywhere in the channel, the moves of a watched bots'
game) go through the channel's message endpoint: an interaction token expires after 15 minutes,
a channel message can be edited for good.

Edits of one board are applied in order and never backwards: a board older than the one shown
(a bots' game's move that arrives after ``/final`` stopped it) is dropped.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import weakref

import discord

from adapters.discord.layout import MessageSpec
from adapters.discord.views import build_view
from core.ports import KeyValueStore

log = logging.getLogger(__name__)

KV_NAMESPACE = "discord"  # store.kv_*: where each session's board message is
_REMEMBERED_VERSIONS = 10_000  # boards whose last shown version is kept in memory


def board_key(session_id: str) -> str:
    """The key of a session's board message in :data:`KV_NAMESPACE`."""
    return f"board:{session_id}"


class BoardMessages:
    """The board message of every game: remembered, looked up, edited in order.

    Args:
        client: the connected client (channel message edits go through its HTTP session).
        store: the key-value part of the store.
    """

    def __init__(self, client: discord.Client, store: KeyValueStore) -> None:
        self._client = client
        self._store = store
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        self._shown: collections.OrderedDict[str, int] = collections.OrderedDict()
        self._posted: dict[str, asyncio.Event] = {}

    async def remember(
        self, session_id: str, channel_id: int, message_id: int, version: int | None = None
    ) -> None:
        """``message_id`` in ``channel_id`` shows the game ``session_id`` (at ``version``)."""
        await self._store.kv_set(
            KV_NAMESPACE,
            board_key(session_id),
            f"{channel_id}:{message_id}",
            session_id=session_id,
        )
        if version is not None:
            self._saw(session_id, version)
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
        spec: MessageSpec,
        *,
        version: int | None = None,
        wait: float = 0.0,
    ) -> bool:
        """Edit the board message of ``session_id`` to show ``spec``.

        Args:
            version: the game's version ``spec`` shows; an older one than already shown is
                dropped (and counts as done).
            wait: see :meth:`where`.

        Returns:
            False when there is no board message to edit (never posted, or deleted).
        """
        async with self._lock(session_id):
            where = await self.where(session_id, wait=wait)
            if where is None:
                return False
            if version is not None and version < self._shown.get(session_id, -1):
                log.debug("board of %s: version %d is older than shown", session_id, version)
                return True
            channel_id, message_id = where
            channel = self._client.get_partial_messageable(channel_id)
            message = channel.get_partial_message(message_id)
            try:
                await message.edit(content=spec.content, view=build_view(spec))
            except discord.HTTPException as error:
                log.warning("could not edit the board of %s: %s", session_id, error)
                return False
            if version is not None:
                self._saw(session_id, version)
            return True

    async def _lookup(self, session_id: str) -> tuple[int, int] | None:
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

    def _saw(self, session_id: str, version: int) -> None:
        if version >= self._shown.get(session_id, -1):
            self._shown[session_id] = version
        self._shown.move_to_end(session_id)
        while len(self._shown) > _REMEMBERED_VERSIONS:
            self._shown.popitem(last=False)

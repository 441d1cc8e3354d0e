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

Whether a board message is a Components V2 one (a picture) is kept with it (``...:v2``): Discord
never lets a message lose that flag, so an edit of such a message must be drawn as a picture
again (:meth:`BoardMessages.edit` hands the drawing function what the message is).
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
_V2 = "v2"


@dataclass(slots=True)
class _Shown:
    channel_id: int
    message_id: int
    version: int = -1
    stored: bool = False  # this process stored this message as the board's row
    v2: bool = False  # a Components V2 message (a picture board): it stays one


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

    async def remember(
        self,
        session_id: str,
        channel_id: int,
        message_id: int,
        version: int | None = None,
        *,
        v2: bool = False,
    ) -> None:
        """``message_id`` in ``channel_id`` shows the game ``session_id`` (at ``version``);
        ``v2``: it is a Components V2 message (a picture board).

        Every press on a board remembers it again: the row this process stored for the same
        message is not written again (it goes only with its game), unless it became V2."""
        shown = self._recent.get(session_id)
        if shown is None or (shown.channel_id, shown.message_id) != (channel_id, message_id):
            shown = _Shown(channel_id, message_id)
        if not shown.stored or (v2 and not shown.v2):
            shown.v2 = shown.v2 or v2
            await self._store_row(session_id, shown)
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
        found = await self._found(session_id, wait)
        return None if found is None else (found.channel_id, found.message_id)

    async def _found(self, session_id: str, wait: float) -> _Shown | None:
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
        """Edit the board message of ``session_id`` to show ``spec`` (or what ``spec`` draws
        for the message as it is: see :data:`Draw`).

        Args:
            version: the game's version ``spec`` shows; one older than already shown is
                dropped (and counts as done).
            wait: see :meth:`where`.

        Returns:
            False when there is no board message to edit (never posted, or deleted).
        """
        async with self._lock(session_id):
            shown = await self._found(session_id, wait)
            if shown is None:
                return False
            if version is not None and version < shown.version:
                log.debug("board of %s: version %d is older than shown", session_id, version)
                return True
            drawn = spec if isinstance(spec, MessageSpec) else spec(shown.v2)
            if not await self._edit_message(shown.channel_id, shown.message_id, drawn):
                return False
            if drawn.picture is not None and not shown.v2:
                shown.v2 = True
                await self._store_row(session_id, shown)
            self._keep(session_id, shown, version)
            return True

    async def _store_row(self, session_id: str, shown: _Shown) -> None:
        value = f"{shown.channel_id}:{shown.message_id}" + (f":{_V2}" if shown.v2 else "")
        await self._store.kv_set(KV_NAMESPACE, board_key(session_id), value, session_id=session_id)
        shown.stored = True

    async def _lookup(self, session_id: str) -> _Shown | None:
        shown = self._recent.get(session_id)
        if shown is not None:
            return shown
        value = await self._store.kv_get(KV_NAMESPACE, board_key(session_id))
        if value is None:
            return None
        channel_id, message_id, *rest = value.split(":")
        return _Shown(int(channel_id), int(message_id), stored=True, v2=rest == [_V2])

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

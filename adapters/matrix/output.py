"""Showing the service's replies in a room: boards as ``m.notice`` messages edited in place,
texts as short notices that reply to the player's message.

Every send for a room is made by that room's worker (:mod:`adapters.matrix.rooms`), so a room's
boards change in order. A board that is older than the one already shown for its game is not
shown: the moves of a bots' game are published from a task of their own, and the move that
``!final`` overtook must not cover the ended board.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from typing import Any

from adapters.matrix.backoff import with_backoff
from adapters.matrix.render import (
    Content,
    actions_hint,
    board_content,
    edit_content,
    keycaps_for,
    notice_content,
    reaction_content,
)
from adapters.matrix.state import BoardRef, MatrixState
from adapters.matrix.transport import MatrixError, Transport
from core.replies import BoardView, Reply

log = logging.getLogger(__name__)

_VERSIONS_KEPT = 4096  # games whose newest shown board is remembered (a few bytes each)


class Output:
    """Sends replies through the transport and keeps the board messages in the state.

    Args:
        state: where the board messages are remembered.
        client: the running transport.
        locale: the language of every text, unless a reply names the one its room's admins
            chose (:attr:`core.replies.Reply.locale`).
        add_keycaps: put the keycap reactions under new gravity boards.
        sleep: how back-offs wait (tests pass one that does not).
    """

    def __init__(
        self,
        state: MatrixState,
        client: Callable[[], Transport],
        locale: str,
        *,
        add_keycaps: bool,
        sleep: Callable[[float], Awaitable[None]],
    ) -> None:
        self._state = state
        self._client = client
        self._locale = locale
        self._add_keycaps = add_keycaps
        self._sleep = sleep
        self._shown: OrderedDict[str, int] = OrderedDict()
        self._background: set[asyncio.Task[Any]] = set()

    async def apply(
        self,
        room_id: str,
        replies: Sequence[Reply],
        *,
        reply_to: str | None,
        addressee: str | None = None,
    ) -> None:
        """Show ``replies`` in order; texts reply to ``reply_to`` and name ``addressee``."""
        for reply in replies:
            locale = reply.locale or self._locale
            lines = []
            if reply.text is not None:
                lines.append(reply.text.render(locale))
            hint = actions_hint(reply.actions, locale)
            if hint:
                lines.append(hint)
            text = "\n".join(lines)
            if text and addressee:
                text = f"{addressee}: {text}"
            # A new board follows its announcement; an edited one comes before the result, so
            # the move itself is answered first (and by the edit alone when there is no text).
            if reply.board is not None and reply.new_message:
                if text:
                    await self.notice(room_id, text, reply_to)
                await self._show_board(room_id, reply.board, locale, new=True)
                continue
            if reply.board is not None and not await self._show_board(
                room_id, reply.board, locale, new=False
            ):
                continue  # an overtaken board, and the text that came with it
            if text:
                await self.notice(room_id, text, reply_to)

    async def _show_board(self, room_id: str, board: BoardView, locale: str, *, new: bool) -> bool:
        """Post or edit the board; False when a newer board of its game is already shown."""
        newest = self._shown.get(board.session_id)
        if not new and newest is not None and board.version < newest:
            return False
        self._shown[board.session_id] = board.version
        self._shown.move_to_end(board.session_id)
        if len(self._shown) > _VERSIONS_KEPT:
            self._shown.popitem(last=False)
        content = board_content(board, locale)
        ref = None if new else await self._state.board(board.session_id)
        if ref is None or ref.room_id != room_id:
            event_id = await self.send(room_id, content)
            ref = BoardRef(board.session_id, room_id, event_id)
            await self._state.set_board(ref)
            if self._add_keycaps and board.rules.gravity and board.playable:
                self._spawn(self._react_keycaps(ref, keycaps_for(board.rules)))
        else:
            # Always an edit of the original event, never of an edit.
            await self.send(room_id, edit_content(ref.event_id, content))
        if board.finished:
            await self._state.forget_board(ref)
        return True

    async def _react_keycaps(self, ref: BoardRef, keys: Sequence[str]) -> None:
        for key in keys:
            try:
                await self.send(ref.room_id, reaction_content(ref.event_id, key), "m.reaction")
            except MatrixError as error:
                log.info("matrix: could not add keycaps in %s: %s", ref.room_id, error)
                return

    async def notice(self, room_id: str, text: str, reply_to: str | None) -> None:
        """A short notice (a reply to ``reply_to`` when given); a failure is only logged."""
        try:
            await self.send(room_id, notice_content(text, reply_to))
        except MatrixError as error:
            log.warning("matrix: could not send a notice to %s: %s", room_id, error)

    async def send(self, room_id: str, content: Content, event_type: str = "m.room.message") -> str:
        """Send an event, waiting out rate limits; its event id."""
        transport = self._client()
        return await with_backoff(
            lambda: transport.send(room_id, content, event_type),
            what=f"send to {room_id}",
            sleep=self._sleep,
        )

    async def redact(self, room_id: str, event_id: str, reason: str) -> None:
        """Remove an event (a consumed reaction); a refusal is only logged."""
        transport = self._client()
        try:
            await with_backoff(
                lambda: transport.redact(room_id, event_id, reason),
                what="redact",
                attempts=3,
                sleep=self._sleep,
            )
        except MatrixError as error:
            log.info("matrix: could not remove %s in %s: %s", event_id, room_id, error)

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def close(self) -> None:
        """Stop the courtesy work still running (keycaps): not worth a slow exit."""
        tasks = list(self._background)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

"""Showing the service's replies in a room: boards as ``m.notice`` messages edited in place,
texts as short notices that reply to the player's message, challenges as mentions.

Every reply for a room is queued by that room's worker (:mod:`adapters.matrix.rooms`) on the
room's send queue (:mod:`adapters.matrix.sender`), so a room's boards change in order. A move
is answered by one event, the board's edit: the status line (and the result, and what to type
next) lives in the board. A board that is older than the one already shown for its game is not
shown: the moves of a bots' game are published from a task of their own, and the move that
``!final`` overtook must not cover the ended board. A notice of the outbox shown again after a
crash (:class:`~core.ports.Posting`) replaces the events its earlier try posted (``m.replace``)
rather than posting them again.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from adapters.matrix.events import PLATFORM
from adapters.matrix.pictures import SHOWN, shown_as, uploaded, with_picture
from adapters.matrix.render import (
    actions_hint,
    board_content,
    edit_content,
    keycaps_for,
    mention_content,
    notice_content,
    reaction_content,
)
from adapters.matrix.sender import Sender
from adapters.matrix.state import BoardRef, MatrixState
from adapters.matrix.unshown import Unshown
from core.ports import GameServicePort, Posting
from core.render import link_lines
from core.replies import ActionKind, BoardView, Reply, WebLink

log = logging.getLogger(__name__)

T = TypeVar("T")

_VERSIONS_KEPT = 4096  # games whose newest shown board is remembered (a few bytes each)


class Output:
    """Queues replies on the sender and keeps the board messages in the state.

    Args:
        state: where the board messages are remembered.
        sender: the send queues.
        locale: the language of every text, unless a reply names the one its room's admins
            chose (:attr:`core.replies.Reply.locale`).
        add_keycaps: put keycap reactions under new boards whose every move has one.
        clock: seconds since the epoch (how long a board's place is kept).
        may_write: whether the answers waiting may still be noted in the store (False once
            the account's sync lease may be another process's).
    """

    def __init__(
        self,
        state: MatrixState,
        sender: Sender,
        locale: str,
        *,
        add_keycaps: bool,
        clock: Callable[[], float] = time.time,
        may_write: Callable[[], bool] = lambda: True,
    ) -> None:
        self._state = state
        self._sender = sender
        self._locale = locale
        self._add_keycaps = add_keycaps
        self._clock = clock
        self._shown: OrderedDict[str, int] = OrderedDict()
        self._unshown = Unshown(state, may_write)

    async def apply(
        self,
        room_id: str,
        replies: Sequence[Reply],
        *,
        reply_to: str | None,
        addressee: str | None = None,
        mention: str | None = None,
        posting: Posting | None = None,
    ) -> None:
        """Show ``replies`` in order; texts reply to ``reply_to`` and name ``addressee``.

        A text meant for one person (:attr:`~core.replies.Reply.mention`: a challenge, a
        reminder) is an ``m.text`` that mentions them; ``mention`` names that person for a
        reply that does not (kept for callers of the previous version). With ``posting`` (a
        notice of the outbox), each new event is sent before the next and noted there, and
        one its earlier try posted is edited instead."""
        for reply in replies:
            locale = reply.locale or self._locale
            SHOWN.set(with_picture(reply))  # how its board is drawn (pictures.uploaded)
            hint = actions_hint(reply.actions, locale)
            board = reply.board
            links = reply.links
            if board is not None and not reply.new_message:
                # The result is the board's own status line: the edit says it all, hint included.
                if reply.text is None or reply.text == board.status:
                    await self._show_board(
                        room_id, board, locale, new=False, note=hint, links=links
                    )
                    continue
                if not await self._show_board(room_id, board, locale, new=False, links=links):
                    continue  # an overtaken board, and the text that came with it
            lines = []
            if reply.text is not None:
                lines.append(reply.text.render(locale))
            if hint:
                lines.append(hint)
            if board is None:  # a board carries its links itself
                lines.extend(link_lines(links, locale))
            text = "\n".join(lines)
            if text and addressee:
                text = f"{addressee}: {text}"
            if board is not None and reply.new_message:
                # A new board carries its announcement: one event, where the players look.
                await self._show_board(
                    room_id,
                    board,
                    locale,
                    new=True,
                    intro=text or None,
                    links=links,
                    posting=posting,
                )
            elif text and (person := reply.mention or _challenged(reply, mention)):
                # Default push rules silence notices: a challenge, a clock's reminder must
                # reach its person.
                content = mention_content(text, person, reply_to)
                if posting is None:
                    self._sender.send(room_id, content)
                else:
                    await self._post(room_id, content, posting)
            elif text and posting is not None:
                await self._post(room_id, notice_content(text, reply_to), posting)
            elif text:
                self.notice(room_id, text, reply_to)

    async def _post(
        self, room_id: str, content: Mapping[str, Any], posting: Posting
    ) -> tuple[str, bool]:
        """Send ``content`` as a new event, or edit the one an earlier try of the notice posted
        in its place; its event id, and whether it was new."""
        earlier = posting.again()
        if earlier is None:
            event_id = await self._sender.send(room_id, content)
        else:
            # Always an edit of the original event, never of an edit.
            await self._sender.edit(room_id, earlier, edit_content(earlier, dict(content)))
            event_id = earlier
        posting.note(event_id)
        return event_id, earlier is None

    async def _show_board(
        self,
        room_id: str,
        board: BoardView,
        locale: str,
        *,
        new: bool,
        note: str | None = None,
        intro: str | None = None,
        links: Sequence[WebLink] = (),
        posting: Posting | None = None,
    ) -> bool:
        """Post or edit the board; False when a newer board of its game is already shown.
        ``posting``: a new board of a notice (see :meth:`apply`)."""
        # Drawn (a picture uploaded) first, so that no wait comes between the order check
        # below and the queueing.
        content = await self._board(room_id, board, locale, note=note, intro=intro, links=links)
        newest = self._shown.get(board.session_id)
        if not new and newest is not None and board.version < newest:
            return False
        _remember(self._shown, board.session_id, board.version)
        # From the store, not this process's memory: another process may have posted it. An
        # open game has a board in each of its rooms.
        ref = None if new else await self._state.board(board.session_id, room_id)
        if ref is None or ref.room_id != room_id:
            fresh = True
            try:
                if posting is None:
                    event_id = await self._sender.send(room_id, content)
                else:
                    event_id, fresh = await self._post(room_id, content, posting)
            except (
                Exception
            ) as error:  # refused for good (logged by the sender too), or the token died
                log.warning("matrix: could not post a board in %s: %s", room_id, error)
                return True
            ref = BoardRef(board.session_id, room_id, event_id)
            await self._state.set_board(ref, self._clock())
            if self._add_keycaps and board.playable and fresh:
                for key in keycaps_for(board.rules):
                    self._sender.courtesy(room_id, reaction_content(event_id, key))
        else:
            self._edit(ref, board.version, content, final=board.finished)
        if board.finished:
            self._sender.drop_courtesies(room_id, ref.event_id)
            await self._state.forget_board(ref)
        return True

    async def _board(
        self,
        room_id: str,
        board: BoardView,
        locale: str,
        *,
        note: str | None = None,
        intro: str | None = None,
        links: Sequence[WebLink] = (),
    ) -> Mapping[str, Any]:
        """A board's content, as every show of it draws it: its text with the reply's links,
        or its picture where the reply being shown asks for one (:data:`SHOWN`: a room whose
        board_style is picture, a finished game's board that links its page)."""
        picture = await uploaded(self._sender.transport(), room_id, board, locale)
        content = board_content(board, locale, note=note, intro=intro, links=links)
        return shown_as(content, picture)

    def _edit(
        self, ref: BoardRef, version: int, content: Mapping[str, Any], *, final: bool = False
    ) -> None:
        # Always an edit of the original event, never of an edit.
        edit = edit_content(ref.event_id, dict(content))
        done = self._sender.edit(ref.room_id, ref.event_id, edit)
        self._unshown.queued(ref, version, content if final else None)
        done.add_done_callback(lambda sent: self._sent(sent, ref, version))

    def _sent(self, sent: asyncio.Future[str], ref: BoardRef, version: int) -> None:
        if not sent.cancelled() and sent.exception() is None:
            self._unshown.delivered(ref, version)

    async def show_unshown(self, service: GameServicePort) -> int:
        """Edit again the boards whose newest edit the previous term queued and never
        delivered, to what the store holds now, drawn as a first show draws it (its links, a
        finished game's picture); how many."""
        shown = 0
        for waiting in await self._unshown.load():
            ref = waiting.ref
            if waiting.final is not None:  # a game's end: as it was, even if deleted since
                self._edit(ref, waiting.version, waiting.final, final=True)
                shown += 1
                continue
            try:
                reply = await service.current_board(
                    ref.session_id, platform=PLATFORM, chat_id=ref.room_id
                )
            except Exception as error:  # the store is down: they stay noted for the next start
                log.warning("matrix: could not read the boards left unshown: %s", error)
                return shown
            if reply is None or reply.board is None:
                self._unshown.forget(ref)
                continue
            locale = reply.locale or self._locale
            SHOWN.set(with_picture(reply))
            note = actions_hint(reply.actions, locale)
            board = reply.board
            content = await self._board(ref.room_id, board, locale, note=note, links=reply.links)
            _remember(self._shown, ref.session_id, board.version)
            self._edit(ref, board.version, content, final=board.finished)
            if board.finished:  # as a first show of the end would
                self._sender.drop_courtesies(ref.room_id, ref.event_id)
                await self._state.forget_board(ref)
            shown += 1
        return shown

    async def close(self) -> None:
        """Note, before stopping, the edits that were never delivered."""
        await self._unshown.close()

    def notice(self, room_id: str, text: str, reply_to: str | None) -> asyncio.Future[str]:
        """Queue a short notice (a reply to ``reply_to`` when given); its event id, once sent
        (callers need not wait for it)."""
        return self._sender.send(room_id, notice_content(text, reply_to))

    def redact(self, room_id: str, event_id: str, reason: str) -> None:
        """Remove an event (a consumed reaction) when the rate limit leaves room for it."""
        self._sender.redact(room_id, event_id, reason)


def _challenged(reply: Reply, mention: str | None) -> str | None:
    return mention if ActionKind.ACCEPT in reply.actions else None


def _remember(kept: OrderedDict[str, T], key: str, value: T) -> None:
    kept[key] = value
    kept.move_to_end(key)
    if len(kept) > _VERSIONS_KEPT:
        kept.popitem(last=False)

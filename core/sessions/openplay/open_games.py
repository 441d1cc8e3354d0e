"""Which open games (one game shown in two chats) a request changed, so that their other chat
is shown the change once the request has its answer (:mod:`core.sessions.openplay.seeking`).

The list travels in a context variable, as the request's receipt does: the parts that change
a game (:class:`~core.sessions.context.Context`'s writes, a rematch) note it without passing
anything along. So does the chat the request is answered in: each write leaves the board of an
open game's other chat in the outbox in its own transaction (:func:`other_boards`), which
:class:`~core.sessions.openplay.other_chats.OtherChats` then shows, so a process killed after
the commit loses none.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator
from dataclasses import dataclass, field

from core.store import Session
from core.store.models import Kind, OutboxItem


@dataclass(slots=True)
class _Recording:
    home: tuple[str, str] | None
    changed: list[Session] = field(default_factory=list)


_CHANGED: contextvars.ContextVar[_Recording | None] = contextvars.ContextVar(
    "chatbots_open_games", default=None
)


def noted(session: Session) -> bool:
    """Tell the request running in this context that ``session`` changed (stored, deleted or
    created); only an open game is kept. False: no request is recording here (a sweep)."""
    recorded = _CHANGED.get()
    if recorded is None:
        return False
    if len(session.chats) > 1:
        recorded.changed.append(session)
    return True


def other_boards(session: Session, *, followed: bool = False) -> tuple[OutboxItem, ...]:
    """The board items to leave with a change to ``session`` (an open game; none for another
    game): one for each of its chats but the one the request recording here is answered in.
    Outside a request, those but the game's own chat where ``followed`` (an update, which
    ``OtherChats.followed`` shows), else none; none either where the part recording tells
    every chat itself (no chat of its own: a clock's timeout, a departure)."""
    if len(session.chats) < 2:
        return ()
    recorded = _CHANGED.get()
    if recorded is None and not followed:
        return ()
    home = (session.platform, session.chat_id) if recorded is None else recorded.home
    if home is None:
        return ()
    return tuple(
        OutboxItem(Kind.BOARD, *session.chat_of(seat), session.id, session.version, seat)
        for seat in (1, 2)
        if session.chat_of(seat) != home
    )


@contextlib.contextmanager
def recording(home: tuple[str, str] | None = None) -> Iterator[list[Session]]:
    """Collect the open games changed inside the block (in this context and the tasks it
    starts); ``home``: the chat ``(platform, chat)`` the request is answered in, whose open
    games' other chats are left their boards (None: the part tells every chat itself)."""
    recorded = _Recording(home)
    token = _CHANGED.set(recorded)
    try:
        yield recorded.changed
    finally:
        _CHANGED.reset(token)

"""Which open games (one game shown in two chats) a request changed, so that their other chat
is shown the change once the request has its answer (:mod:`core.sessions.openplay.seeking`).

The list travels in a context variable, as the request's receipt does: the parts that change
a game (:class:`~core.sessions.context.Context`'s writes, a rematch) note it without passing
anything along.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator

from core.store import Session

_CHANGED: contextvars.ContextVar[list[Session] | None] = contextvars.ContextVar(
    "chatbots_open_games", default=None
)


def noted(session: Session) -> bool:
    """Tell the request running in this context that ``session`` changed (stored, deleted or
    created); only an open game is kept. False: no request is recording here (a sweep)."""
    changed = _CHANGED.get()
    if changed is None:
        return False
    if len(session.chats) > 1:
        changed.append(session)
    return True


@contextlib.contextmanager
def recording() -> Iterator[list[Session]]:
    """Collect the open games changed inside the block (in this context and the tasks it
    starts)."""
    changed: list[Session] = []
    token = _CHANGED.set(changed)
    try:
        yield changed
    finally:
        _CHANGED.reset(token)

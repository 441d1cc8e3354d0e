"""Following a room upgrade (``m.room.tombstone``): the room's life goes on in a new room.

The bot joins the replacement room when it can (a public room, or one that invited it), carries
the games being played over (each is shown there as a new board), and says in the old room what
happened. When it cannot join, it says so in the old room, and the games stay where they are.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from adapters.matrix.backoff import with_backoff
from adapters.matrix.events import Tombstone
from adapters.matrix.output import Output
from adapters.matrix.transport import MatrixError, Transport
from core.i18n import render
from core.ports import GameServicePort

log = logging.getLogger(__name__)


async def follow_tombstone(
    tombstone: Tombstone,
    *,
    platform: str,
    transport: Transport,
    service: GameServicePort,
    output: Output,
    locale: str,
    sleep: Callable[[float], Awaitable[None]],
) -> None:
    """Join ``tombstone.replacement``, carry the old room's live games there, tell the old room."""
    old, new = tombstone.room_id, tombstone.replacement
    try:
        await with_backoff(lambda: transport.join(new), what="join", attempts=3, sleep=sleep)
    except MatrixError as error:
        log.info("matrix: %s was upgraded to %s, which I cannot join: %s", old, new, error)
        output.notice(old, render("matrix.upgraded.not_joined", locale), None)
        return
    log.info("matrix: %s was upgraded; joined %s", old, new)
    replies = await service.carry_games_over(platform, old, new, transport.members(old))
    output.notice(old, render("matrix.upgraded.joined", locale), None)
    await output.apply(new, replies, reply_to=None)

"""Following a room upgrade (``m.room.tombstone``): the room's life goes on in a new room.

The bot joins the replacement room when it can (a public room, or one that invited it), carries
the live games over (games, bots' games and open challenges: each is shown there again), and
says in the old room what happened. When it cannot join, it says so in the old room, and the
games stay where they are.

Once, even across a crash: each game moves in a store transaction of its own (a second pass
finds only what is left), and the tombstone's receipt is written once the old room has been
told, so a tombstone handled again after a crash carries what was left and tells the old room
then, and one handled to the end is skipped. (A crash between the notice's delivery and the
receipt, a few milliseconds, would tell it twice.)
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from adapters.matrix.backoff import with_backoff
from adapters.matrix.events import Tombstone
from adapters.matrix.output import Output
from adapters.matrix.state import MatrixState
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
    state: MatrixState,
    locale: str,
    sleep: Callable[[float], Awaitable[None]],
    clock: Callable[[], float],
) -> None:
    """Join ``tombstone.replacement``, carry the old room's live games there, tell the old
    room; nothing when this tombstone was followed to the end before."""
    old, new = tombstone.room_id, tombstone.replacement
    if await state.was_handled(old, tombstone.event_id):
        return
    try:
        await with_backoff(lambda: transport.join(new), what="join", attempts=3, sleep=sleep)
    except MatrixError as error:
        log.info("matrix: %s was upgraded to %s, which I cannot join: %s", old, new, error)
        told = output.notice(old, render("matrix.upgraded.not_joined", locale), None)
    else:
        log.info("matrix: %s was upgraded; joined %s", old, new)
        replies = await service.carry_games_over(platform, old, new, transport.members(old))
        await output.apply(new, replies, reply_to=None)
        told = output.notice(old, render("matrix.upgraded.joined", locale), None)
    await asyncio.wait([told])
    if told.cancelled() or told.exception() is not None:
        # Refused for good (the bot may no longer speak there), or stopping: the next start
        # handles the tombstone again, and tells the room then if it can.
        log.warning("matrix: %s was not told about its upgrade", old)
        return
    await state.mark_handled(tombstone.event_id, clock())

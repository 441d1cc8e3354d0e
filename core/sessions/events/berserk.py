"""``/tournament berserk``: a player of an arena event that allows it takes half the clock for
his moves in his current game, before his first move, for +1 on a win (lichess's rule; the
bonus is scored by :mod:`core.store.event_results` from the seats the game stored)."""

from __future__ import annotations

from core.errors import UserError
from core.i18n import Text
from core.render import clock_words
from core.replies import Actor, Reply
from core.sessions.context import Context
from core.sessions.play.model import berserked
from core.sessions.views import board_reply
from core.store import Status, events, sessions
from core.store.models.events import Format


async def go_berserk(ctx: Context, actor: Actor) -> list[Reply]:
    """Halve the actor's clock in his tournament game in this chat, and say so on its board."""
    session = await ctx.store.run(sessions.live_game(actor.platform, actor.chat_id, actor.user_id))
    seat = None if session is None else session.seat_of(actor.user_id)
    paired = None if session is None else await ctx.store.run(events.game_of(session.id))
    if session is None or seat is None or paired is None or session.status is not Status.ACTIVE:
        raise UserError("event.berserk_no_game")
    event = await ctx.store.run(events.get_event(paired.event_id))
    if event is None or not event.berserk or event.format is not Format.ARENA:
        raise UserError("event.berserk_off", tournament=paired.event_id)
    if session.berserked(seat):
        raise UserError("event.berserk_twice")
    # X's first move is the game's first, O's its second.
    if len(session.moves) >= seat or session.clock is None:
        raise UserError("event.berserk_late")
    now, ttl = ctx.now_and_ttl(Status.ACTIVE, kept=session)
    after = berserked(session, seat, now=now, ttl=ttl)
    if not await ctx.update(after, expected_version=session.version):
        raise UserError("event.berserk_raced")
    text = Text(
        "event.berserk",
        {"player": actor.display_name, "clock": clock_words(after.clock_of(seat) or 0.0)},
    )
    return [
        board_reply(
            after, text=text, new_message=not session.shown_in(actor.platform, actor.chat_id)
        )
    ]

"""``/block`` without a player of the blocker's platform: the opponent of an open game.

The other player of an open game may be on the other platform, where no ``@mention`` of this
one can name them. A player blocks them where they played, as they saw them: ``/block`` alone
blocks the opponent of the latest open game played from this chat, ``/block NAME`` the recent
opponent whose board name that is (the name as the board showed it, any case). Only games the
store still keeps count (live, or finished and not yet swept: a day by default), and only the
player's own, in this chat: the answer names whom it blocked, with their platform.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from core.errors import UserError
from core.i18n import Text
from core.matching import crossing_name
from core.replies import Actor, Reply
from core.sessions.context import Context

RECENT_GAMES = 10
"""Open games looked at: the player's latest from this chat."""

Identity = Callable[[str, str], Awaitable[str]]
"""The player an account is (platform, user id): linked accounts are one."""


@dataclass(frozen=True, slots=True)
class _Opponent:
    platform: str
    user_id: str
    name: str


async def block_recent(
    ctx: Context, actor: Actor, name: str | None, identity: Identity
) -> list[Reply]:
    """Block the opponent of ``actor``'s latest open game in this chat (``name`` None), or the
    recent one called ``name``; a clear answer when there is none, or several."""
    opponents = await _recent_opponents(ctx, actor)
    block = f"{ctx.prefix(actor)}block"
    if name is None:
        if not opponents:
            raise UserError("error.block_no_opponent", block=block)
        chosen = opponents[0]
    else:
        wanted = crossing_name(name).casefold()
        called = [o for o in opponents if o.name.casefold() == wanted]
        if not called:
            raise UserError("error.block_unknown", player=crossing_name(name), block=block)
        if len(called) > 1:
            raise UserError("error.block_ambiguous", player=called[0].name, block=block)
        chosen = called[0]
    me = await identity(actor.platform, actor.user_id)
    them = await identity(chosen.platform, chosen.user_id)
    if me == them:
        raise UserError("error.block_self")
    added = await ctx.store.block(me, them, ctx.clock())
    player = Text("block.opponent", {"name": chosen.name, "platform": chosen.platform.capitalize()})
    key = "block.done" if added else "block.already"
    return [Reply(text=Text(key, {"player": player}), private=True)]


async def _recent_opponents(ctx: Context, actor: Actor) -> list[_Opponent]:
    """The other players of ``actor``'s latest open games in this chat, latest first, each
    once."""
    games = await ctx.store.open_games_of(
        actor.platform, actor.chat_id, actor.user_id, RECENT_GAMES
    )
    found: dict[tuple[str, str], _Opponent] = {}
    for game in games:
        seat = game.seat_in(actor.platform, actor.chat_id, actor.user_id)
        if seat is None:
            continue
        other = game.seats[2 - seat]
        if other.user_id is None:
            continue
        platform = game.chat_of(3 - seat)[0]
        found.setdefault((platform, other.user_id), _Opponent(platform, other.user_id, other.name))
    return list(found.values())

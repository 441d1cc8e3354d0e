"""``/block`` and the Block button of an open game's board: a player never meets another again.

``/block @player`` names a player of the blocker's own platform (a Discord user picked, a
Matrix id typed). The other player of an open game may be on the other platform, where no
mention of this one can name them: a player blocks them where they played, as they saw them.
``/block`` alone blocks the opponent of the latest open game played from this chat, ``/block
NAME`` the recent opponent whose board name that is (the name as the board showed it, any
case). Only games the store still keeps count (live, or finished and not yet swept: a day by
default), and only the player's own, in this chat: the answer names whom it blocked, with their
platform. A block holds between players (linked accounts are one, ``/link``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from core.commands import Block
from core.errors import UserError
from core.i18n import Text
from core.pairing.seeks import crossing_name
from core.replies import Actor, Reply
from core.sessions.context import Context
from core.store import Session, seeks

RECENT_GAMES = 10
"""Open games ``/block`` looks at: the player's latest from this chat."""

Identity = Callable[[str, str], Awaitable[str]]
"""The player an account is (platform, user id): linked accounts are one."""


@dataclass(frozen=True, slots=True)
class _Opponent:
    platform: str
    user_id: str
    name: str


def _opponent_in(session: Session, actor: Actor) -> _Opponent | None:
    """The other player of ``actor``'s seat in ``session`` (on the platform of their own
    chat), or None when ``actor`` has no seat there or the other seat is the bot's."""
    seat = session.seat_in(actor.platform, actor.chat_id, actor.user_id)
    other = None if seat is None else session.seats[2 - seat]
    if seat is None or other is None or other.user_id is None:
        return None
    return _Opponent(session.chat_of(3 - seat)[0], other.user_id, other.name)


class Blocks:
    """``/block`` and the Block button; see the module docstring.

    Args:
        ctx: the service's shared dependencies.
        identity: the player an account is.
    """

    def __init__(self, ctx: Context, identity: Identity) -> None:
        self._ctx = ctx
        self._identity = identity

    async def command(self, actor: Actor, command: Block) -> list[Reply]:
        if command.user is None:
            return await self._recent(actor, command.name)
        style = self._ctx.style(actor)
        user = command.user if command.name is not None else style.user_id(actor, command.user)
        # A mention typed here is answered as typed ("@bob"), to its writer; a display name the
        # platform resolved is someone else's text, defused like any name shown across chats.
        shown = command.user.strip() if command.name is None else crossing_name(command.name)
        return await self._block(actor, actor.platform, user, shown)

    async def opponent(self, actor: Actor, session: Session) -> list[Reply]:
        """The Block button of an open game's board: the actor's opponent in it."""
        other = _opponent_in(session, actor)
        if other is None:
            raise UserError("error.not_your_game")
        return await self._block(actor, other.platform, other.user_id, other.name)

    async def _recent(self, actor: Actor, name: str | None) -> list[Reply]:
        """Block the opponent of ``actor``'s latest open game in this chat (``name`` None), or
        the recent one called ``name``; a clear answer when there is none, or several."""
        opponents = await self._recent_opponents(actor)
        block = f"{self._ctx.prefix(actor)}block"
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
        player = Text(
            "block.opponent", {"name": chosen.name, "platform": chosen.platform.capitalize()}
        )
        return await self._block(actor, chosen.platform, chosen.user_id, player)

    async def _recent_opponents(self, actor: Actor) -> list[_Opponent]:
        """The other players of ``actor``'s latest open games in this chat, latest first, each
        once."""
        games = await self._ctx.store.run(
            seeks.open_games_of(actor.platform, actor.chat_id, actor.user_id, RECENT_GAMES)
        )
        found: dict[tuple[str, str], _Opponent] = {}
        for game in games:
            other = _opponent_in(game, actor)
            if other is not None:
                found.setdefault((other.platform, other.user_id), other)
        return list(found.values())

    async def _block(
        self, actor: Actor, platform: str, user_id: str, player: str | Text
    ) -> list[Reply]:
        """``actor`` never meets the player of ``platform`` ``user_id`` again (named
        ``player`` in the answer)."""
        ctx = self._ctx
        me = await self._identity(actor.platform, actor.user_id)
        them = await self._identity(platform, user_id)
        if (platform, user_id) == (actor.platform, actor.user_id) or me == them:
            raise UserError("error.block_self")
        added = await ctx.store.run(seeks.block(me, them, ctx.clock()))
        key = "block.done" if added else "block.already"
        return [Reply(text=Text(key, {"player": player}), private=True)]

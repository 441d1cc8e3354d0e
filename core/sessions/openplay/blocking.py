"""``/block`` and the Block button of an open game's board: a player never meets another again.

``/block @player`` names a player of the blocker's own platform (a Discord user picked, a
Matrix id typed). The other player of an open game may be on the other platform, where no
mention of this one can name them: a player blocks them where they played, as they saw them.
``/block`` alone blocks the opponent of the latest open game played from this chat, ``/block
NAME`` the recent opponent whose board name that is (the name as the board showed it, any
case). Only games the store still keeps count (live, or finished and not yet swept: a day by
default), and only the player's own, in this chat: the answer names whom it blocked, with their
platform. A block holds between players (linked accounts are one, ``/link``).

``/unblock`` names a player the same ways and removes the block, so the two may be paired
again; it answers plainly when there was none.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from core.commands import Block, Unblock
from core.errors import UserError
from core.i18n import Text
from core.pairing.seeks import crossing_name
from core.replies import Actor, Reply
from core.sessions.context import Context
from core.store import Session, seeks
from core.store.ratings import own_identity

RECENT_GAMES = 10
"""Open games ``/block`` looks at: the player's latest from this chat."""

Identity = Callable[[str, str], Awaitable[str]]
"""The player an account is (platform, user id): linked accounts are one."""


@dataclass(frozen=True, slots=True)
class _Verb:
    """What ``/block`` or ``/unblock`` says: its word and its answers' keys."""

    word: str
    done: str
    undone: str  # nothing changed: already blocked, or not blocked
    no_opponent: str
    unknown: str
    ambiguous: str
    itself: str


_BLOCK = _Verb(
    "block",
    "block.done",
    "block.already",
    "error.block_no_opponent",
    "error.block_unknown",
    "error.block_ambiguous",
    "error.block_self",
)
_UNBLOCK = _Verb(
    "unblock",
    "unblock.done",
    "unblock.not_blocked",
    "error.unblock_no_opponent",
    "error.unblock_unknown",
    "error.unblock_ambiguous",
    "error.unblock_self",
)


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
    """``/block``, ``/unblock`` and the Block button; see the module docstring.

    Args:
        ctx: the service's shared dependencies.
        identity: the player an account is.
    """

    def __init__(self, ctx: Context, identity: Identity) -> None:
        self._ctx = ctx
        self._identity = identity

    async def command(self, actor: Actor, command: Block | Unblock) -> list[Reply]:
        verb = _BLOCK if isinstance(command, Block) else _UNBLOCK
        if command.user is None:
            return await self._recent(actor, command.name, verb)
        style = self._ctx.style(actor)
        user = command.user if command.name is not None else style.user_id(actor, command.user)
        # A mention typed here is answered as typed ("@bob"), to its writer; a display name the
        # platform resolved is someone else's text, defused like any name shown across chats.
        shown = command.user.strip() if command.name is None else crossing_name(command.name)
        return await self._block(actor, actor.platform, user, shown, verb)

    async def opponent(self, actor: Actor, session: Session) -> list[Reply]:
        """The Block button of an open game's board: the actor's opponent in it."""
        other = _opponent_in(session, actor)
        if other is None:
            raise UserError("error.not_your_game")
        return await self._block(actor, other.platform, other.user_id, other.name, _BLOCK)

    async def _recent(self, actor: Actor, name: str | None, verb: _Verb) -> list[Reply]:
        """(Un)block the opponent of ``actor``'s latest open game in this chat (``name``
        None), or the recent one called ``name``; a clear answer when there is none, or
        several."""
        opponents = await self._recent_opponents(actor)
        block = f"{self._ctx.prefix(actor)}{verb.word}"
        if name is None:
            if not opponents:
                raise UserError(verb.no_opponent, block=block)
            chosen = opponents[0]
        else:
            wanted = crossing_name(name).casefold()
            called = [o for o in opponents if o.name.casefold() == wanted]
            if not called:
                raise UserError(verb.unknown, player=crossing_name(name), block=block)
            if len(called) > 1:
                raise UserError(verb.ambiguous, player=called[0].name, block=block)
            chosen = called[0]
        player = Text(
            "block.opponent", {"name": chosen.name, "platform": chosen.platform.capitalize()}
        )
        return await self._block(actor, chosen.platform, chosen.user_id, player, verb)

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
        self, actor: Actor, platform: str, user_id: str, player: str | Text, verb: _Verb
    ) -> list[Reply]:
        """``actor`` never meets the player of ``platform`` ``user_id`` again, or may again
        (``verb``); named ``player`` in the answer."""
        ctx = self._ctx
        me = await self._identity(actor.platform, actor.user_id)
        them = await self._identity(platform, user_id)
        if (platform, user_id) == (actor.platform, actor.user_id) or me == them:
            raise UserError(verb.itself)
        if verb is _BLOCK:
            changed = await ctx.store.run(seeks.block(me, them, ctx.clock()))
        else:
            # Both forms of each identity: see seeks.unblock.
            mine = (me, own_identity(actor.platform, actor.user_id))
            theirs = (them, own_identity(platform, user_id))
            changed = await ctx.store.run(seeks.unblock(mine, theirs))
        key = verb.done if changed else verb.undone
        return [Reply(text=Text(key, {"player": player}), private=True)]

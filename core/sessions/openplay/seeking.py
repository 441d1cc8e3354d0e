"""Matchmaking: ``/seek``, ``/block``, ``/unblock``, the passes over the queue, and open games
(one game shown in two chats).

The queue lives in the store (:mod:`core.store.seek_ops`); the rules of who meets whom are
pure (:mod:`core.pairing.seeks`). A seek that finds a partner at once makes the game in the same
transaction; otherwise it waits, and :meth:`Matchmaker.run` passes over the queue every
:data:`PASS_INTERVAL` seconds in every process (``SKIP LOCKED`` keeps them apart), pairing the
seeks whose rating windows have widened and telling the players whose seeks expired.

An open game has one seat in another chat (:class:`core.store.Seat`). Every change to one
(a move, ``/final``, a rematch offer) is answered in the chat it came from, as any game, and the
same board is shown in the other chat (:mod:`core.sessions.openplay.other_chats`). Only the game
crosses: the board, the players' display names (defused by
:func:`core.pairing.seeks.crossing_name`), their platform and rating, the result; never the other
chat's name or id, nor free text. What this process has to show in a chat that another process
serves, and every notice of a pairing or an expiry, goes through the store's outbox (left by
the pairing's or the expiry's own transaction; :class:`~core.sessions.openplay.relay.Relay`
shows it); every pass also shows what other processes left for chats this one serves.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter

from core.admin.keys import Effective
from core.admin.scopes import Source, source_of
from core.commands import Block, SeekAction, Unblock
from core.commands import Seek as SeekCommand
from core.errors import UserError
from core.i18n import Lines, Text
from core.leases import wait_or_set
from core.pairing.seeks import (
    OPEN_PLAY_CLOCK,
    SEEK_TTL,
    Seek,
    crossing_name,
    game_clock,
)
from core.ratings import Rating, pool_of
from core.render import clock_words
from core.replies import Actor, Reply
from core.sessions.admin.policy import Policy
from core.sessions.admin.policy import game_clock as game_clock_of
from core.sessions.context import Context
from core.sessions.openplay.blocking import Blocks
from core.sessions.openplay.relay import Relay, Shown, reader_of
from core.sessions.outages import REFUSED
from core.sessions.play.model import agreed_game
from core.sessions.views import board_reply, game_name
from core.store import AlreadyPlaying, Session, new_session_id, ratings
from core.store import seeks as store_seeks
from core.store.models import AlreadySeeking, Kind, OutboxItem, Paired, Queued, SeekResult
from core.store.seeks import decode_seek

log = logging.getLogger(__name__)

_ATTEMPTS = 3
"""Seeks of one request when partners keep turning out busy (each attempt skips them)."""

PASS_INTERVAL = 1.0
"""Seconds between two passes over the queue (windows widen, seeks expire)."""


def _rating_text(seek: Seek) -> str:
    """A player's rating on the pairing line, as ``/stats`` and result lines show it ("1500?"
    while provisional)."""
    return Rating(seek.rating, seek.deviation, seek.games).display()


def open_play_on(actor: Actor, chat: Effective) -> bool:
    """Whether the actor's chat plays with other chats (seeks, open tournaments): off in servers
    and rooms unless an admin turned it on; on in a direct chat with the bot unless one turned
    it off."""
    if chat.sources["open_play"] is Source.DEFAULT:
        return actor.direct
    return bool(chat.open_play)


class Matchmaker:
    """``/seek``, ``/block`` and the queue's passes; see the module docstring.

    Args:
        ctx: the service's shared dependencies.
        policy: the chats' settings and checks.
        relay: how what comes with nobody's request reaches its chat (and how this process
            shows what others left for it).
    """

    def __init__(self, ctx: Context, policy: Policy, relay: Relay) -> None:
        self._ctx = ctx
        self._policy = policy
        self._relay = relay
        self._passes: asyncio.Task[None] | None = None
        self._stop = asyncio.Event()
        self._blocks = Blocks(ctx, self._identity)
        relay.renders(Kind.PAIRED, self._paired)
        relay.renders(Kind.SEEK_EXPIRED, self._expired)

    def start(self) -> None:
        """Pass over the queue every :data:`PASS_INTERVAL` seconds until :meth:`close`."""
        if self._passes is None:
            self._stop.clear()
            self._passes = asyncio.create_task(self.run(self._stop), name="matchmaking")

    # --- commands ---------------------------------------------------------------------------

    async def command(self, actor: Actor, command: SeekCommand) -> list[Reply]:
        if command.action is SeekAction.CANCEL:
            return await self._cancel(actor)
        if command.action is SeekAction.SHOW or command.rules is None:
            return await self._waiting(actor)
        return await self._join(actor, command)

    async def _join(self, actor: Actor, command: SeekCommand) -> list[Reply]:
        ctx = self._ctx
        assert command.rules is not None
        chat = await self._policy.seek(actor, command.rules)
        if not self._open_play(actor, chat):
            raise UserError("limits.open_play_off", prefix=ctx.prefix(actor))
        await ctx.ensure_free(actor)
        rules = command.rules
        # One player across linked accounts (issue 23's /link), at their rating in this game.
        identity, pools = await ctx.store.run(ratings.player_ratings(actor.platform, actor.user_id))
        pool = pool_of(rules.rows, rules.cols, rules.k, rules.gravity)
        rating = next((p.rating for p in pools if p.pool == pool), Rating())
        now = ctx.clock()
        seek = Seek(
            id=new_session_id(),
            player=identity,
            platform=actor.platform,
            chat_id=actor.chat_id,
            user_id=actor.user_id,
            name=crossing_name(actor.display_name),
            rules=command.rules,
            # Rated unless the player said casual or the chat does not allow rated play.
            rated=chat.rated and command.rated is not False,
            # Open play's own default, within the chat's cap like any clock asked for here.
            clock=min(OPEN_PLAY_CLOCK, chat.max_clock)
            if command.clock is None
            else float(game_clock_of(chat, command.rules, command.clock) or OPEN_PLAY_CLOCK),
            rating=rating.rating,
            created_at=now,
            expires_at=now + SEEK_TTL,
            deviation=rating.deviation,
            games=rating.games,
            server_id=actor.server_id,
        )
        result = await self._seek(actor, seek, chat)
        match result:
            case AlreadySeeking(waiting):
                raise UserError(
                    "error.seek_twice",
                    game=game_name(waiting.rules),
                    mode=self._mode(waiting.rated),
                    cancel=f"{ctx.prefix(actor)}seek cancel",
                )
            case Queued(queued):
                return [
                    Reply(
                        text=Text(
                            "seek.queued",
                            {
                                "game": game_name(queued.rules),
                                "mode": self._mode(queued.rated),
                                "clock": clock_words(queued.clock),
                                "minutes": round(SEEK_TTL / 60),
                                "cancel": f"{ctx.prefix(actor)}seek cancel",
                            },
                        )
                    )
                ]
            case Paired():
                return await self._opened(result, here=actor)
        raise AssertionError(f"unknown seek result {result!r}")  # pragma: no cover

    async def _seek(self, actor: Actor, seek: Seek, chat: Effective) -> SeekResult:
        """The store's seek; a partner who started a game in their chat between the check and
        the write (another process) leaves the transaction undone: once more without them."""
        ctx = self._ctx
        for attempt in range(_ATTEMPTS):
            try:
                return await ctx.store.run(
                    store_seeks.seek(seek, self._make, max_user_games=chat.max_games_per_user)
                )
            except AlreadyPlaying as error:
                if error.user_id == actor.user_id or attempt == _ATTEMPTS - 1:
                    raise await ctx.already_playing_error(actor, error) from None
        raise AssertionError("unreachable")  # pragma: no cover

    @staticmethod
    def _open_play(actor: Actor, chat: Effective) -> bool:
        return open_play_on(actor, chat)

    @staticmethod
    def _mode(rated: bool) -> Text:
        return Text("seek.rated" if rated else "seek.casual")

    async def _cancel(self, actor: Actor) -> list[Reply]:
        ctx = self._ctx
        gone = await ctx.store.run(
            store_seeks.cancel_seek(await self._identity(actor.platform, actor.user_id))
        )
        if gone is None:
            raise UserError("error.seek_none", seek=f"{ctx.prefix(actor)}seek connect4")
        return [Reply(text=Text("seek.cancelled", {"game": game_name(gone.rules)}))]

    async def _waiting(self, actor: Actor) -> list[Reply]:
        ctx = self._ctx
        now = ctx.clock()
        waiting = await ctx.store.run(store_seeks.waiting_seeks(now, limit=500))
        prefix = ctx.prefix(actor)
        if not waiting:
            text = Text("seek.list_empty", {"seek": f"{prefix}seek connect4"})
            return [Reply(text=text, private=True)]
        counts = Counter((s.rules, s.rated) for s in waiting)
        lines = [
            Text(
                "seek.list_line",
                {"game": game_name(rules), "mode": self._mode(rated), "count": count},
            )
            for (rules, rated), count in counts.most_common()
        ]
        me = await self._identity(actor.platform, actor.user_id)
        mine = next((s for s in waiting if s.player == me), None)
        if mine is not None:
            lines.append(
                Text(
                    "seek.yours",
                    {
                        "game": game_name(mine.rules),
                        "mode": self._mode(mine.rated),
                        "cancel": f"{prefix}seek cancel",
                    },
                )
            )
        return [Reply(text=Text("seek.list", {"lines": Lines(tuple(lines))}), private=True)]

    async def block(self, actor: Actor, command: Block | Unblock) -> list[Reply]:
        """``/block`` and ``/unblock``: see :mod:`core.sessions.openplay.blocking`."""
        return await self._blocks.command(actor, command)

    async def block_opponent(self, actor: Actor, session: Session) -> list[Reply]:
        """The Block button of an open game's board: the actor never meets the other again."""
        return await self._blocks.opponent(actor, session)

    async def _identity(self, platform: str, user_id: str) -> str:
        """The player an account is: linked accounts are one (``/link``)."""
        return (await self._ctx.store.run(ratings.player_ratings(platform, user_id)))[0]

    # --- making games ----------------------------------------------------------------------

    def _make(self, first: Seek, second: Seek) -> Session:
        """The open game of two seeks (run inside the store's transaction: pure, quick).

        The seat that plays first is drawn; the session belongs to that seat's chat and the
        other seat sits in its own chat when it is another one.
        """
        ctx = self._ctx
        x, o = (first, second) if ctx.rng.random() < 0.5 else (second, first)
        return agreed_game(
            x,
            o,
            rules=first.rules,
            now=ctx.clock(),
            ttl=ctx.settings.game_ttl,
            challenger=first.user_id,
            challenged=second.user_id,
            clock=game_clock(first, second),
            casual=not first.rated,
        )

    async def _opened(self, paired: Paired, *, here: Actor | None) -> list[Reply]:
        """Show a new open game: its board posted in both chats (the one of ``here`` answered
        by the caller, the others published)."""
        session = paired.session
        self._ctx.observer.game_started(session.counted_platform, session.variant.label)
        # The other chats' boards were left in the outbox with the game: shown from there at
        # once (by whichever process serves the chat, this one's first), and by a later pass
        # after a crash.
        self._relay.show_now(paired.notices, session)
        return [self._paired_reply(paired)] if here is not None else []

    def _paired_reply(self, paired: Paired) -> Reply:
        """The new game's board as a new message, under the pairing's line: the mode, both
        players with their platform and rating, the clock."""
        session = paired.session
        by_user = {s.user_id: s for s in paired.seeks}
        describe = [
            Text(
                "seek.player",
                {
                    "name": seat.name,
                    "platform": session.chat_of(number)[0].capitalize(),
                    "rating": _rating_text(by_user[seat.user_id or ""]),
                },
            )
            for number, seat in enumerate(session.seats, start=1)
        ]
        first = paired.seeks[0]
        text = Text(
            "seek.paired",
            {
                "mode": self._mode(first.rated),
                "x": describe[0],
                "o": describe[1],
                "clock": clock_words(first.clock),
            },
        )
        return board_reply(session, new_message=True, text=text)

    async def _paired(self, item: OutboxItem, session: Session | None) -> Shown | None:
        """A new game's board left by the process that paired it, as that process shows it
        (the board as it now stands)."""
        raw = item.detail.get("seeks")
        rows = (
            [decode_seek(row) for row in raw if isinstance(row, list)]
            if isinstance(raw, list)
            else []
        )
        seeks = [seek for seek in rows if seek is not None]
        reader = None if session is None else reader_of(self._ctx, item, session)
        if session is None or reader is None or len(seeks) != 2:
            return None
        first, second = seeks
        if {first.user_id, second.user_id} != set(session.humans):
            return None  # not this game's seeks: nothing to say
        return reader, [self._paired_reply(Paired(session, (first, second)))]

    async def open_play_changed(self, actor: Actor, scope: str) -> None:
        """An admin in ``actor``'s chat changed ``open_play`` at ``scope`` (the chat, or its
        whole server): the seeks from chats where open play is now off are withdrawn, with a
        notice to each seeker in the chat they sought from."""
        ctx = self._ctx
        server = actor.server_id if source_of(scope) is Source.SERVER else None
        off: list[str] = []
        for seek in await ctx.store.run(
            store_seeks.seeks_in(actor.platform, actor.chat_id, server)
        ):
            # A channel of a server is never a direct chat; the admin's own chat is as seen.
            where = Actor(
                seek.platform,
                seek.chat_id,
                seek.user_id,
                seek.name,
                server_id=seek.server_id,
                direct=actor.direct and seek.chat_id == actor.chat_id,
            )
            if not self._open_play(where, await self._policy.chat(where)):
                off.append(seek.id)
        # Their notices are left in the outbox with the withdrawal: shown from there.
        await ctx.store.run(store_seeks.drop_seeks(off, ctx.clock()))
        await self._relay.deliver()

    async def _expired(self, item: OutboxItem, session: Session | None) -> Shown | None:
        """The notice to a player whose seek waited too long, in the chat they sought from (or
        was withdrawn there, open play turned off)."""
        raw = item.detail.get("seek")
        seek = decode_seek(raw) if isinstance(raw, list) else None
        if seek is None:
            return None
        reader = Actor(
            seek.platform,
            seek.chat_id,
            seek.user_id,
            seek.name,
            locale=self._ctx.settings.default_locale,
            server_id=seek.server_id,
        )
        if item.detail.get("withdrawn"):
            text = Text("seek.withdrawn", {"player": seek.name, "game": game_name(seek.rules)})
            return reader, [Reply(text=text)]
        text = Text(
            "seek.expired",
            {
                "player": seek.name,
                "game": game_name(seek.rules),
                "minutes": round(SEEK_TTL / 60),
                "seek": f"{self._ctx.prefix(reader)}seek",
            },
        )
        return reader, [Reply(text=text)]

    # --- the queue -------------------------------------------------------------------------

    async def pass_once(self) -> int:
        """Expire the seeks that waited too long (telling their players) and pair the ones
        whose windows now meet, then show what other processes left for chats this one
        serves; how many games were made."""
        ctx = self._ctx
        # What an outage of the store took from the clocks is given back first (and so, in
        # every process, within a pass of the store's return: core.sessions.outages).
        await ctx.outages.settle()
        now = ctx.clock()
        if not await ctx.store.run(store_seeks.any_seeks()):
            # An idle queue costs one read a second, never a write transaction.
            await self._relay.deliver()
            return 0
        # Their notices are left in the outbox in the same transaction: the deliver below
        # shows them.
        await ctx.store.run(store_seeks.expire_seeks(now))
        made = await ctx.store.run(store_seeks.pair_waiting(now, self._make))
        for paired in made:
            await self._opened(paired, here=None)
        await self._relay.deliver()
        return len(made)

    async def run(self, stop: asyncio.Event, interval: float = PASS_INTERVAL) -> None:
        """Pass over the queue every ``interval`` seconds until ``stop`` is set."""
        while not stop.is_set():
            await wait_or_set(stop, interval)
            if stop.is_set():
                return
            started = self._ctx.outages.now()
            try:
                await self.pass_once()
            except REFUSED as error:
                # A stopped or locked database: one line for the whole outage, not one a pass.
                self._ctx.outages.refused(error, since=started, work="the matchmaking pass")
            except Exception:
                # A broken database must not end the passes: next time.
                log.exception("matchmaking pass failed", extra={"action": "seek_pass"})

    async def close(self) -> None:
        """Stop the passes."""
        self._stop.set()
        if self._passes is not None:
            await self._passes
            self._passes = None

"""``/tournament``: an admin makes an event in the chat; players join and leave it (from any
chat where ``open_play`` is on, when the event is open); anyone shows its standings. What
follows (the start, the pairings, the end) is the director's
(:mod:`core.sessions.events.director`)."""

from __future__ import annotations

import datetime

from core.commands import Tournament, TournamentAction
from core.errors import UserError
from core.i18n import Param, Text
from core.pages.names import shown_name
from core.pairing.seeks import OPEN_PLAY_CLOCK
from core.ratings import Rating, pool_of
from core.replies import Actor, Reply
from core.sessions.admin.policy import Policy, game_clock
from core.sessions.context import Context
from core.sessions.events.berserk import go_berserk
from core.sessions.events.notices import Notices, describe
from core.sessions.openplay.seeking import open_play_on
from core.sessions.play.model import resigned
from core.sessions.views import board_reply
from core.store import Status, events, new_session_id, ratings, sessions
from core.store.events import Joined, Left
from core.store.models.events import Event, EventPlayer, EventStatus, Format

DEFAULT_WAIT = 600.0
"""Seconds from its making to an event's start when none is given."""
DEFAULT_ARENA = 3600.0
DEFAULT_ROUNDS = 5


class Tournaments:
    """The ``/tournament`` command (see the module docstring)."""

    def __init__(self, ctx: Context, policy: Policy, notices: Notices) -> None:
        self._ctx = ctx
        self._policy = policy
        self._notices = notices

    async def command(self, actor: Actor, command: Tournament) -> list[Reply]:
        match command.action:
            case TournamentAction.CREATE:
                return await self._create(actor, command)
            case TournamentAction.JOIN:
                return await self._join(actor, command.event_id)
            case TournamentAction.LEAVE:
                return await self._leave(actor, command.event_id)
            case TournamentAction.BERSERK:
                return await go_berserk(self._ctx, actor)
        return await self._show(actor, command.event_id)

    def _join_hint(self, actor: Actor, event: Event) -> str:
        return f"{self._ctx.prefix(actor)}tournament join {event.id}"

    # --- making one ------------------------------------------------------------------------

    async def _create(self, actor: Actor, command: Tournament) -> list[Reply]:
        ctx = self._ctx
        if not actor.is_admin:
            raise UserError("event.admins_only")
        assert command.rules is not None and command.format is not None
        chat = await self._policy.seek(actor, command.rules)
        store = ctx.store
        for made in await store.run(events.chat_events(actor.platform, actor.chat_id)):
            if made.live:
                raise UserError(
                    "event.one_here", tournament=made.name, show=f"{ctx.prefix(actor)}tournament"
                )
        now = ctx.clock()
        fmt = Format(command.format)
        if command.clock is None:
            clock = min(OPEN_PLAY_CLOCK, chat.max_clock)
        else:
            clock = float(game_clock(chat, command.rules, command.clock) or OPEN_PLAY_CLOCK)
        if fmt is Format.ARENA:
            length = command.length or DEFAULT_ARENA
        else:
            length = command.length or (DEFAULT_ROUNDS if fmt is Format.SWISS else 0)
        event_id = new_session_id()
        named = shown_name(command.name) if command.name else "?"
        event = Event(
            id=event_id,
            format=fmt,
            rules=command.rules,
            length=float(length),
            clock=clock,
            rated=chat.rated and command.rated is not False,
            open=open_play_on(actor, chat),
            starts_at=_start(now, command),
            platform=actor.platform,
            chat_id=actor.chat_id,
            server_id=actor.server_id,
            created_by=actor.user_id,
            name=named if named != "?" else event_id,
            created_at=now,
            berserk=command.berserk,
        )
        await store.run(events.create_event(event))
        minutes = max(0, round((event.starts_at - now) / 60))
        said: dict[str, Param] = {
            "event": describe(event),
            "minutes": minutes,
            "join": self._join_hint(actor, event),
        }
        if command.start_at is not None:  # a time of day is read as UTC: say so
            hour, minute = command.start_at
            text = Text("event.created_at", {**said, "time": f"{hour:02}:{minute:02}"})
        else:
            text = Text("event.created", said)
        return [Reply(text=text)]

    # --- joining and leaving ---------------------------------------------------------------

    async def _find(self, actor: Actor, event_id: str | None, *, mine: bool) -> Event:
        """The event named, else the one this chat runs, else (``mine``) the one the actor
        plays in."""
        store = self._ctx.store
        if event_id is not None:
            event = await store.run(events.get_event(event_id))
            if event is None:
                raise UserError("event.unknown", id=event_id)
            return event
        here = await store.run(events.chat_events(actor.platform, actor.chat_id))
        live = [e for e in here if e.live]
        if mine:
            playing = await store.run(events.player_events(actor.platform, actor.user_id))
            if playing:
                return playing[0]
        if live or here:
            return (live or here)[0]
        raise UserError("event.none", usage=f"{self._ctx.prefix(actor)}tournament arena connect4")

    async def _join(self, actor: Actor, event_id: str | None) -> list[Reply]:
        ctx = self._ctx
        event = await self._find(actor, event_id, mine=False)
        if (actor.platform, actor.chat_id) != (event.platform, event.chat_id):
            chat = await self._policy.seek(actor, event.rules)
            if not event.open:
                raise UserError("event.closed_elsewhere", tournament=event.name)
            if not open_play_on(actor, chat):
                raise UserError("limits.open_play_off", prefix=ctx.prefix(actor))
        identity, pools = await ctx.store.run(ratings.player_ratings(actor.platform, actor.user_id))
        rules = event.rules
        pool = pool_of(rules.rows, rules.cols, rules.k, rules.gravity)
        rating = next((p.rating for p in pools if p.pool == pool), Rating())
        entrant = EventPlayer(
            event.id,
            identity,
            actor.platform,
            actor.user_id,
            actor.chat_id,
            actor.server_id,
            actor.display_name,
            rating.rating,
        )
        joined = await ctx.store.run(events.join(entrant))
        if joined is Joined.ALREADY:
            raise UserError("event.twice", tournament=event.name)
        if joined is Joined.CLOSED:
            now = await ctx.store.run(events.get_event(event.id))
            if now is not None and now.status is EventStatus.RUNNING:
                raise UserError("event.no_late_join", tournament=event.name)
            raise UserError("event.over", tournament=event.name)
        count = len(await ctx.store.run(events.players(event.id)))
        key = "event.back" if joined is Joined.BACK else "event.joined"
        text = Text(key, {"player": actor.display_name, "tournament": event.name, "count": count})
        return [Reply(text=text)]

    async def _leave(self, actor: Actor, event_id: str | None) -> list[Reply]:
        ctx = self._ctx
        event = await self._find(actor, event_id, mine=True)
        identity = (await ctx.store.run(ratings.player_ratings(actor.platform, actor.user_id)))[0]
        leaving = await ctx.store.run(events.leave(event.id, identity, ctx.clock()))
        if leaving.left is Left.NOT_IN:
            raise UserError("event.not_in", tournament=event.name)
        replies = [
            Reply(text=Text("event.left", {"player": actor.display_name, "tournament": event.name}))
        ]
        if leaving.playing is not None:
            replies += await self._resign(actor, leaving.playing)
        return replies

    async def _resign(self, actor: Actor, session_id: str) -> list[Reply]:
        """The game the actor was playing in the event he left: lost, as a resignation (even
        before any move: an event's game always has a result)."""
        ctx = self._ctx
        session = await ctx.store.run(sessions.get(session_id))
        if session is None or session.status is not Status.ACTIVE:
            return []
        seat = session.seat_of(actor.user_id)
        if seat is None:
            return []
        now, ttl = ctx.now_and_ttl(Status.FINISHED, kept=session)
        ended = resigned(session, seat, now=now, ttl=ttl)
        if not await ctx.update(ended, expected_version=session.version):
            return []  # it ended meanwhile, with its own result
        text = Text(
            "game.resigned",
            {"player": actor.display_name, "winner": session.seats[2 - seat].name},
        )
        return [
            board_reply(
                ended, text=text, new_message=not session.shown_in(actor.platform, actor.chat_id)
            )
        ]

    # --- the standings ---------------------------------------------------------------------

    async def _show(self, actor: Actor, event_id: str | None) -> list[Reply]:
        ctx = self._ctx
        event = await self._find(actor, event_id, mine=True)
        identity = (await ctx.store.run(ratings.player_ratings(actor.platform, actor.user_id)))[0]
        now = ctx.clock()
        players = await ctx.store.run(events.players(event.id))
        if event.status is EventStatus.SCHEDULED:
            status = Text(
                "event.status.scheduled",
                {
                    "minutes": max(0, round((event.starts_at - now) / 60)),
                    "count": len(players),
                    "join": self._join_hint(actor, event),
                },
            )
        elif event.status is EventStatus.RUNNING and event.format is Format.ARENA:
            status = Text(
                "event.status.arena", {"minutes": max(0, round((event.ends_at - now) / 60))}
            )
        elif event.status is EventStatus.RUNNING:
            status = Text("event.status.round", {"round": event.round})
        else:
            status = Text(f"event.status.{event.status.value}")
        lines = await self._notices.standings(event, identity)
        text = Text("event.table", {"event": describe(event), "status": status, "lines": lines})
        return [Reply(text=text, links=self._notices.links.of_event(event.public_id))]


def _start(now: float, command: Tournament) -> float:
    """When an event starts: after ``start_in``, at the next ``start_at`` (UTC), or soon."""
    if command.start_in is not None:
        return now + command.start_in
    if command.start_at is None:
        return now + DEFAULT_WAIT
    hour, minute = command.start_at
    today = datetime.datetime.fromtimestamp(now, datetime.UTC)
    at = today.replace(hour=hour, minute=minute, second=0, microsecond=0)
    if at.timestamp() <= now:
        at += datetime.timedelta(days=1)
    return at.timestamp()

"""The director of tournaments: each live event is directed by one process at a time, under
the lease ``event:<id>`` (:class:`~core.leases.Lease`), which every process's pass
(:meth:`Directors.run`) asks for; the holder steps the event every :data:`PASS` seconds.

A step (:meth:`Director.step`) reads the event as it stands and makes the change it is due,
in one transaction, a compare-and-set on the event's version
(:func:`core.store.events.advance`): the reminder before the start; the start (cancelled
with fewer than two players); a Swiss or round-robin round once the last one's games are all
done; an arena's wave of the free players while it runs (a player whose game ended is free at
once); the end, with the final standings. The notices go into the outbox in that same
transaction and are shown at once by the process that made the change
(:meth:`~core.sessions.openplay.relay.Relay.show_now`). A pairing is stored first and its game
written by the step after (the same pass), so a process killed between the two leaves a
pairing that the next director starts. Nothing is kept in memory between steps: a restart,
or another process taking the lease over, goes on from the store.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging

from core.leases import RELEASE_TIMEOUT, Lease, wait_or_set
from core.pairing.arena import FreePlayer, pair_wave
from core.pairing.roundrobin import round_robin
from core.pairing.swiss import Bye, SwissGame, SwissPlayer, pair_round
from core.sessions.context import Context
from core.sessions.events.table import table
from core.sessions.openplay.relay import Relay
from core.sessions.outages import REFUSED
from core.sessions.play.model import agreed_game, resigned, stopped
from core.store import AlreadyPlaying, Session, Status, events, new_session_id, seeks, sessions
from core.store.events import Advance
from core.store.models import Kind, OutboxItem
from core.store.models.events import (
    Event,
    EventBye,
    EventGame,
    EventPlayer,
    EventStatus,
    Format,
)

log = logging.getLogger("core.sessions")

PASS = 1.0
"""Seconds between two steps of an event, and two looks for new events."""

REMIND_BEFORE = 300.0
"""Seconds before its start an event's reminder goes out."""

MAKE_WAY_TRIES = 3
"""Tries to write a pairing's game: each of its two players may have another game to end."""

BYE_POINTS = 1.0
"""What a round without a game scores (the odd player out, an opponent who left)."""


def chats(event: Event, players: list[EventPlayer]) -> list[tuple[str, str, str | None]]:
    """The chats that take part: the event's own, then each player's (platform, chat, server)."""
    found = {(event.platform, event.chat_id): event.server_id}
    for p in players:
        found.setdefault((p.platform, p.chat_id), p.server_id)
    return [(platform, chat, server) for (platform, chat), server in found.items()]


def chat_notice(event: Event, notice: str, where: tuple[str, str, str | None]) -> OutboxItem:
    platform, chat, server = where
    return OutboxItem(
        Kind.EVENT,
        platform,
        chat,
        detail={"event": event.id, "notice": notice, "server": server},
    )


class Director:
    """Steps events (see the module docstring)."""

    def __init__(self, ctx: Context, relay: Relay) -> None:
        self._ctx = ctx
        self._relay = relay

    async def step(self, event_id: str) -> bool:
        """Make the change the event is due now, if any; whether it is still live."""
        store, now = self._ctx.store, self._ctx.clock()
        event = await store.run(events.get_event(event_id))
        if event is None or not event.live:
            return False
        if event.status is EventStatus.SCHEDULED:
            if now >= event.starts_at:
                return await self._begin(event, now)
            if not event.reminded and now >= event.starts_at - REMIND_BEFORE:
                players = await store.run(events.players(event.id))
                notices = [chat_notice(event, "reminder", c) for c in chats(event, players)]
                await self._apply(event, Advance(event.status, 0, True, notices=notices), now)
            return True
        await store.run(events.forfeit_gone(event.id, now))
        players = await store.run(events.players(event.id))
        games = await store.run(events.games(event.id))
        await self._start_games(event, players, games, now)
        if event.format is Format.ARENA:
            return await self._arena(event, players, games, now)
        return await self._rounds(event, players, games, now)

    async def _apply(self, event: Event, step: Advance, now: float) -> bool:
        left = await self._ctx.store.run(events.advance(event.id, event.version, step, now))
        if left is None:
            return False  # changed meanwhile (a join, another director): the next step
        self._relay.show_now(left)
        return True

    # --- the start -----------------------------------------------------------------------

    async def _begin(self, event: Event, now: float) -> bool:
        """Start the event, or cancel it with fewer than two players; whether it is live."""
        players = await self._ctx.store.run(events.players(event.id))
        field = [p for p in players if not p.withdrawn]
        everywhere = chats(event, players)
        if len(field) < 2:
            notices = [chat_notice(event, "cancelled", c) for c in everywhere]
            step = Advance(EventStatus.CANCELLED, 0, True, notices=notices)
            return not await self._apply(event, step, now)
        if event.format is Format.ARENA:
            notices = [chat_notice(event, "started", c) for c in everywhere]
            await self._apply(event, Advance(EventStatus.RUNNING, 0, True, notices=notices), now)
            return True
        running = dataclasses.replace(event, status=EventStatus.RUNNING)
        await self._pair_round(running, players, [], [], 1, now)
        return True

    # --- games ---------------------------------------------------------------------------

    async def _start_games(
        self, event: Event, players: list[EventPlayer], games: list[EventGame], now: float
    ) -> None:
        """Write the games of the pairings stored without one."""
        by_id = {p.player: p for p in players}
        for pairing in games:
            if pairing.started or pairing.x not in by_id or pairing.o not in by_id:
                continue
            session = self._session(event, pairing, by_id[pairing.x], by_id[pairing.o], now)
            notices = []
            for seat in (1, 2):
                platform, chat = session.chat_of(seat)
                if seat == 2 and session.chat_of(1) == (platform, chat):
                    continue  # one board in a chat both play from
                notices.append(
                    OutboxItem(
                        Kind.EVENT,
                        platform,
                        chat,
                        session.id,
                        session.version,
                        seat=seat,
                        detail={"event": event.id, "notice": "game", "round": pairing.round},
                    )
                )
            left = None
            for _ in range(MAKE_WAY_TRIES):
                try:
                    left = await self._ctx.store.run(events.start_game(session, notices, now))
                    break
                except AlreadyPlaying as error:
                    if not await self._make_way(event, error):
                        break  # another event's game: its clock ends it, the next step retries
            if left is not None:
                self._ctx.observer.game_started(session.counted_platform, session.variant.label)
                self._relay.show_now(left, session)

    async def _make_way(self, event: Event, error: AlreadyPlaying) -> bool:
        """End the other game a pairing's player has in his chat, since a tournament game comes
        first (one game per player per chat): a challenge he made is withdrawn, a bots' game he
        watches stopped, and a game he plays outside any event resigned by him (his opponent
        wins), with a notice in that chat. Whether the pairing may be tried again: not while it
        is another event's game, which its clock ends."""
        ctx = self._ctx
        other = await ctx.store.run(sessions.get(error.session_id))
        if other is None or other.status is Status.FINISHED:
            return True  # gone meanwhile
        if await ctx.store.run(events.game_of(other.id)) is not None:
            return False
        seat = other.seat_of(error.user_id)
        notice = OutboxItem(
            Kind.EVENT,
            *(other.chat_of(seat) if seat is not None else (other.platform, other.chat_id)),
            other.id,
            other.version + 1,
            seat,
            detail={
                "event": event.id,
                "notice": "gave_way",
                "player": next(
                    (s.name for s in other.seats if s.user_id == error.user_id), error.user_id
                ),
                "server": other.server_id if seat is None else other.server_of(seat),
            },
        )
        if other.status is Status.CHALLENGE:
            done = await ctx.delete(other, notices=[notice])
        else:
            now, ttl = ctx.now_and_ttl(Status.FINISHED, kept=other)
            if seat is None:  # the bots' game he watches
                ended = stopped(other, now=now, ttl=ttl)
            else:
                ended = resigned(other, seat, now=now, ttl=ttl)
            done = await ctx.update(ended, expected_version=other.version, notices=[notice])
        if done:
            try:  # before the tournament game's own notice
                await self._relay.deliver()
            except Exception:  # stored: the next pass shows it
                log.exception("could not show a game that gave way", extra={"action": "events"})
        return True

    def _session(
        self, event: Event, pairing: EventGame, x: EventPlayer, o: EventPlayer, now: float
    ) -> Session:
        """A pairing's game: an ordinary game on the event's clock, shown in each player's
        own chat (an open game when they joined from two), as open play makes one."""
        game = agreed_game(
            x,
            o,
            rules=event.rules,
            now=now,
            ttl=self._ctx.settings.game_ttl,
            challenger=x.user_id,
            challenged=o.user_id,
            clock=event.clock,
            casual=not event.rated,
        )
        return dataclasses.replace(game, id=pairing.session_id)

    # --- an arena ------------------------------------------------------------------------

    async def _arena(
        self, event: Event, players: list[EventPlayer], games: list[EventGame], now: float
    ) -> bool:
        busy = {p for g in games if not g.done for p in (g.x, g.o)}
        if now >= event.ends_at:
            if busy:
                return True  # the games begun in time are played to their end
            await self._finish(event, players, now)
            return False
        waiting = [p for p in players if not p.withdrawn and p.player not in busy]
        if len(waiting) < 2:
            return True  # every second of a busy event: no table to rank
        ranks = {row.player.player: row.rank for row in table(event, players, games, [])}
        free = [FreePlayer(p.player, ranks.get(p.player, len(players)), p.rating) for p in waiting]
        last: dict[str, str] = {}
        firsts: dict[str, int] = {}
        for g in games:
            last[g.x], last[g.o] = g.o, g.x
            firsts[g.x] = firsts.get(g.x, 0) + 1
        just = {(p, o) for p, o in last.items()}
        blocked = await self._blocks([p.id for p in free])
        # In a thread, as a Swiss round: the event loop keeps serving moves meanwhile.
        pairs = await asyncio.to_thread(pair_wave, free, just_played=just, blocked=blocked)
        if not pairs:
            return True
        wave = event.round + 1
        made = []
        for a, b in pairs:
            # The one who played first less often plays first now.
            if (firsts.get(a, 0), self._ctx.rng.random()) > (firsts.get(b, 0), 0.5):
                a, b = b, a
            made.append(EventGame(event.id, wave, new_session_id(), a, b))
        step = Advance(EventStatus.RUNNING, wave, True, games=made)
        if await self._apply(event, step, now):
            await self._start_games(event, players, made, now)
        return True

    async def _blocks(self, players: list[str]) -> set[tuple[str, str]]:
        return await self._ctx.store.run(seeks.blocks_among(players))

    # --- Swiss and round robin -----------------------------------------------------------

    async def _rounds(
        self, event: Event, players: list[EventPlayer], games: list[EventGame], now: float
    ) -> bool:
        if any(not g.done for g in games if g.round == event.round):
            return True
        byes = await self._ctx.store.run(events.byes(event.id))
        if event.round >= self._total(event, players):
            await self._finish(event, players, now)
            return False
        await self._pair_round(event, players, games, byes, event.round + 1, now)
        return True

    def _total(self, event: Event, players: list[EventPlayer]) -> int:
        if event.format is Format.ROUNDROBIN:
            return len(round_robin(_drawn(players)))
        return event.rounds

    async def _pair_round(
        self,
        event: Event,
        players: list[EventPlayer],
        games: list[EventGame],
        byes: list[EventBye],
        number: int,
        now: float,
    ) -> None:
        active = {p.player for p in players if not p.withdrawn}
        pairs: list[tuple[str, str | None]] = []
        if event.format is Format.ROUNDROBIN:
            schedule = round_robin(_drawn(players))
            if number <= len(schedule):
                playing = {p for pair in schedule[number - 1] for p in pair}
                pairs = list(schedule[number - 1])
                pairs += [(p, None) for p in active - playing]  # the bye of an odd field
        else:
            field = [
                SwissPlayer(p.player, p.rating, p.joined, number if p.withdrawn else None)
                for p in players
            ]
            # An unplayed game does not keep its two players apart either.
            history = [
                SwissGame(g.round, g.x, g.o, float(g.x_score or 0.0)) for g in games if g.played
            ]
            before = [Bye(b.round, b.player, b.points, allocated=True) for b in byes]
            # In a thread: a Dutch round of DUTCH_MAX players takes a few hundred ms of CPU
            # (a networkx matching in pure Python), which the event loop's moves must not wait.
            swiss = await asyncio.to_thread(
                pair_round, field, history, before, number, event.rounds
            )
            pairs = [(board.white, board.black) for board in swiss.boards]
        made, given = [], []
        for white, black in pairs:
            present = [p for p in (white, black) if p is not None and p in active]
            if len(present) == 2 and black is not None:
                made.append(EventGame(event.id, number, new_session_id(), white, black))
            elif present:  # the odd player out, or one whose opponent left
                given.append(EventBye(event.id, number, present[0], BYE_POINTS))
        step = Advance(EventStatus.RUNNING, number, True, games=made, byes=given)
        if await self._apply(event, step, now):
            await self._start_games(event, players, made, now)

    # --- the end ---------------------------------------------------------------------------

    async def _finish(self, event: Event, players: list[EventPlayer], now: float) -> None:
        notices = [chat_notice(event, "standings", c) for c in chats(event, players)]
        await self._apply(
            event, Advance(EventStatus.FINISHED, event.round, True, notices=notices), now
        )


def _drawn(players: list[EventPlayer]) -> list[str]:
    """A round robin's numbers: by rating at the start, then id (the same in every process and
    every round: nobody joins once it runs)."""
    return [p.player for p in sorted(players, key=lambda p: (-p.rating, p.player))]


class Directors:
    """Every process's pass over the live events: each one it does not direct yet gets a task
    that waits for the event's lease and, while held, steps it every :data:`PASS` seconds
    until it ends (see the module docstring)."""

    def __init__(self, ctx: Context, director: Director) -> None:
        self._ctx = ctx
        self._director = director
        self._stop = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._directing: dict[str, asyncio.Task[None]] = {}

    def start(self) -> None:
        if self._task is None:
            self._stop.clear()
            self._task = asyncio.create_task(self._run(), name="event-directors")

    async def _run(self) -> None:
        while not self._stop.is_set():
            try:
                for event in await self._ctx.store.run(events.live_events()):
                    if event.id not in self._directing:
                        self._direct(event.id)
            except REFUSED:
                pass  # the store is down: the sweeps and passes log the outage
            except Exception:
                log.exception("could not read the live events", extra={"action": "events"})
            await wait_or_set(self._stop, PASS)

    def _direct(self, event_id: str) -> None:
        lease = Lease(self._ctx.store, f"event:{event_id}", ttl=self._ctx.settings.lease_ttl)

        async def work(ending: asyncio.Event) -> None:
            while not ending.is_set():
                try:
                    if not await self._director.step(event_id):
                        return
                except REFUSED:
                    pass
                except Exception:
                    log.exception("event %s: step failed", event_id, extra={"action": "events"})
                await wait_or_set(ending, PASS)

        task = asyncio.create_task(lease.run(work, self._stop), name=f"event-{event_id}")
        self._directing[event_id] = task
        task.add_done_callback(lambda _: self._directing.pop(event_id, None))

    async def close(self) -> None:
        self._stop.set()
        tasks = [t for t in (self._task, *self._directing.values()) if t is not None]
        if tasks:
            _, late = await asyncio.wait(tasks, timeout=RELEASE_TIMEOUT + 1.0)
            for task in late:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        self._task = None

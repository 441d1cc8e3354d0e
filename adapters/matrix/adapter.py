"""The Matrix adapter: sync, hand messages and reactions to the game service, show its replies.

Flow: one sync loop reads the homeserver and puts each event on its room's queue; one worker per
room (:mod:`adapters.matrix.rooms`) handles that room's events in order
(:mod:`adapters.matrix.handlers`) and shows the service's replies (:mod:`adapters.matrix.output`),
which go out through the room's send queue (:mod:`adapters.matrix.sender`, built for rate limits
and expiring tokens). The moves of a watched bots' game come later, through the platform style's
``publish``; they join the room's queue, so they are shown in order too.

Exactly once: each event handed to the service carries a receipt (``handled:<event id>``) that
the service writes in the same transaction as the first change the event makes (alone when it
makes none), so a crash can never apply a move without noting it, nor the other way round. The
sync token (``next_batch``) is saved only when every event up to it has been handled, so messages
sent while the bot was down, or being handled when it crashed, are handled after it comes back,
and the receipts skip the ones already applied. Encrypted events waiting for their room key are
kept in the store (:mod:`adapters.matrix.undecrypted`). The very first start skips history. An
event counts as handled once its answers are queued; boards whose edit was still queued at a
stop or a crash are edited at the next start (:mod:`adapters.matrix.unshown`).

One process at a time: given a :class:`~core.ports.Lease` (``matrix-sync:<user id>``), the
adapter logs in and syncs only while it holds it. Other processes configured for the same
account wait, and the one that takes the lease over starts from the stored token. A process
that loses the lease stops syncing at once and lets its handlers finish only while the lease
is surely still its own (:meth:`~core.ports.Lease.remaining`); it saves no token after that.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from adapters.matrix.backoff import delay_for
from adapters.matrix.config import MatrixConfig
from adapters.matrix.departures import Departure, departure
from adapters.matrix.events import PLATFORM, Incoming, mentioned_user, parse_event
from adapters.matrix.handlers import Handlers
from adapters.matrix.login import Logins
from adapters.matrix.output import Output
from adapters.matrix.power import PowerLevels
from adapters.matrix.rooms import Rooms, Watermark
from adapters.matrix.sender import QUIET_S, Sender, TokenDead
from adapters.matrix.state import MatrixState
from adapters.matrix.transport import Invite, MatrixError, NioTransport, SyncBatch, Transport
from adapters.matrix.undecrypted import Undecrypted
from adapters.matrix.waits import either, until
from core.ports import (
    SHUTDOWN,
    GameServicePort,
    Lease,
    LeaseState,
    PlatformStyle,
    Posting,
    posting,
)
from core.replies import Actor, Reply

log = logging.getLogger(__name__)

SYNC_TIMEOUT_MS = 30_000
SYNC_STALE_AFTER_S = 90.0  # no sync success for this long: down (a long poll may take 30 + 30 s)


# Element keeps "/" for its own commands, so Matrix users are told to type "!". Each adapter
# registers this with its own bot id and publisher.
STYLE = PlatformStyle(PLATFORM, prefix="!", user_id=mentioned_user)


@dataclass(frozen=True, slots=True)
class _Join:
    invite: Invite


@dataclass(frozen=True, slots=True)
class _Publish:
    """Later replies (a bots' game's moves) to show in the room; ``shown`` is set after."""

    replies: Sequence[Reply]
    shown: asyncio.Future[None]
    posting: Posting | None = None  # a notice of the outbox: see core.ports.Posting


_Job = Incoming | _Join | _Publish | Departure


class MatrixAdapter:
    """Serves games in Matrix rooms through a :class:`core.ports.GameServicePort`.

    Args:
        service: the game service (its ``store`` also keeps the adapter's state).
        config: homeserver, credentials and policies.
        transport: the client to use; by default a matrix-nio client built in :meth:`run`
            (tests pass a fake).
        add_keycaps: put keycap reactions under new boards whose every move has one
            (tic-tac-toe, Connect Four), so a move is one click.
        sleep: how back-offs wait (tests pass one that does not).
        clock: seconds since the epoch (when receipts and waiting events expire).
        lease: sync only while holding it (several processes configured for one account);
            None syncs without asking anyone.
    """

    name = "matrix"

    def __init__(
        self,
        service: GameServicePort,
        config: MatrixConfig,
        *,
        transport: Transport | None = None,
        add_keycaps: bool = True,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        clock: Callable[[], float] = time.time,
        lease: Lease | None = None,
    ) -> None:
        self._service = service
        # A challenge to the bot itself is a game against it; a bots' game is shown move by
        # move on its board.
        service.register_platform(
            dataclasses.replace(
                STYLE, bot_user_id=config.user_id, publish=self._publish, serves=self._serves
            )
        )
        self._config = config
        self._transport = transport
        self._own_transport = transport is None  # then each term of the lease gets a new one
        self._sleep = sleep
        self._clock = clock
        self._lease = lease
        self._state = MatrixState(service.store, config.user_id)
        self._add_keycaps = add_keycaps
        self._stopped = asyncio.Event()  # the token is gone for good: stopped until restarted
        self.rate_limited_total = 0  # 429s from the homeserver, over every term (metrics)
        self._new_term()
        self._publishing: set[asyncio.Future[None]] = set()
        self._power = PowerLevels()
        self._serving = False
        self._user_id = config.user_id
        self.device_id: str | None = None  # once logged in
        self.ready = asyncio.Event()  # set once logged in and caught up (tests, benchmarks)

    def _new_term(self) -> None:
        # What one term of syncing builds up; a process that takes the lease again starts
        # clean from the stored token.
        self._undecrypted = Undecrypted(self._state, self._clock)
        self._watermark = Watermark(self._state, may_save=self._holds_lease)
        self._rooms: Rooms[_Job] = Rooms(self._handle, self._watermark)
        self._last_sync: float | None = None
        self._sync_failing = False
        self._logins = Logins(
            self._config, self._state, self._client, sleep=self._sleep, on_dead=self._stopped.set
        )
        self._sender = Sender(
            self._client,
            relogin=self._logins.again,
            on_limited=self._limited,
            note_limited=lambda: self._state.set_limited_at(self._clock(), keep=QUIET_S),
            note_free=lambda: self._state.set_free(self._clock()),
            exempt=self._config.exempt,
            sleep=self._sleep,
        )
        self._output = Output(
            self._state,
            self._sender,
            self._config.default_locale,
            add_keycaps=self._add_keycaps,
            clock=self._clock,
            may_write=self._holds_lease,
        )
        self._handlers = Handlers(
            self._service,
            self._config,
            self._state,
            client=self._client,
            user_id=lambda: self._user_id,
            output=self._output,
            undecrypted=self._undecrypted,
            sleep=self._sleep,
            clock=self._clock,
        )

    def _limited(self) -> None:
        self.rate_limited_total += 1

    def _holds_lease(self) -> bool:
        return self._lease is None or self._lease.remaining() > 0

    @property
    def lease(self) -> Lease | None:
        """The account's sync lease, if the adapter syncs under one."""
        return self._lease

    @property
    def connected(self) -> bool:
        """The last sync succeeded, less than :data:`SYNC_STALE_AFTER_S` seconds ago; or this
        process stands by while another holds the account's lease (its job, then). False for
        good once the token is gone and cannot be renewed."""
        if self._stopped.is_set():
            return False
        if self._lease is not None and self._lease.state is LeaseState.STANDBY:
            return True
        last = self._last_sync
        return (
            not self._sync_failing
            and last is not None
            and time.monotonic() - last < SYNC_STALE_AFTER_S
        )

    @property
    def locale(self) -> str:
        return self._config.default_locale

    # --- life cycle -----------------------------------------------------------------------------

    async def run(self, stop: asyncio.Event) -> None:
        """Log in, sync and serve until ``stop`` is set; then stop taking input, let the
        handlers in flight finish (up to :attr:`core.ports.SHUTDOWN.drain` seconds), save the
        sync token and close. With a lease: all that, whenever this process holds it."""
        if self._lease is None:
            await self._serve(stop)
        else:
            await self._lease.run(self._serve, stop)

    async def _serve(self, stop: asyncio.Event) -> None:
        """One term: from the login to the shutdown (``stop``: stopping, or the lease lost)."""
        if self._own_transport:
            self._transport = NioTransport(
                self._config.homeserver, self._config.user_id, self._config.store_path
            )
        if self._lease is not None and self._lease.terms > 1:
            self._new_term()
            log.info("matrix: took the sync over; resuming from the stored token")
        transport = self._client()
        halt = asyncio.Event()  # this term ends: stopping, the lease lost, or the token dead
        watch = asyncio.ensure_future(either(stop, self._stopped, halt))
        try:
            await self._term(transport, halt)
        finally:
            watch.cancel()
            await self._shutdown(transport)
        if self._stopped.is_set():
            # The rest of the process (Discord, health saying 503 for Matrix) goes on.
            await stop.wait()

    async def _term(self, transport: Transport, halt: asyncio.Event) -> None:
        try:
            login = await until(halt, self._logins.first())
        except TokenDead:
            return
        if login is None:
            return
        self._user_id = login.user_id
        self.device_id = login.device_id
        log.info("matrix: logged in as %s (device %s)", login.user_id, login.device_id)
        if not transport.encryption:
            log.info("matrix: matrix-nio[e2e] not installed; encrypted rooms are not served")
        await self._undecrypted.load()
        if await self._state.free():
            self._sender.free_known()
        self._sender.limited_since(await self._state.limited_ago(self._clock()))
        await self._output.show_unshown(self._service)
        self._serving = True
        await self._sync_loop(transport, halt)

    async def _sync_loop(self, transport: Transport, stop: asyncio.Event) -> None:
        token = await self._state.next_batch()
        first = token is None
        # full_state: after a restart the client knows no room yet (members, encryption).
        batch = await self._sync(transport, stop, token, 0, first=first, full_state=True)
        if batch is None:
            return
        if first:
            log.info("matrix: first start; earlier messages are not replayed")
            # The state those messages changed still counts.
            state = (*batch.state, *batch.events)
            batch = SyncBatch(batch.next_batch, batch.invites, state=state)
        await self._dispatch(batch)
        await transport.after_sync()
        token = batch.next_batch
        self.ready.set()
        while not stop.is_set():
            batch = await self._sync(transport, stop, token, SYNC_TIMEOUT_MS)
            if batch is None:
                return
            await self._dispatch(batch)
            await transport.after_sync()
            token = batch.next_batch

    async def _sync(
        self,
        transport: Transport,
        stop: asyncio.Event,
        since: str | None,
        timeout_ms: int,
        *,
        first: bool = False,
        full_state: bool = False,
    ) -> SyncBatch | None:
        """One sync, tried again after transient failures; None once ``stop`` is set."""
        attempt = 0
        while not stop.is_set():
            try:
                # After a failure, do not long-poll: with nothing new the answer would only come
                # after the full timeout, and the outage would look 30 s longer than it was.
                wait_ms = 0 if self._sync_failing else timeout_ms
                started = time.monotonic()
                batch = await until(
                    stop,
                    transport.sync(since, wait_ms, first=first, full_state=full_state),
                )
            except MatrixError as error:
                self._sync_failing = True
                if error.unknown_token:
                    # Expired, or logged out from elsewhere (an admin, a device list): log in
                    # again, on the same device, and carry on from the same token.
                    try:
                        await self._logins.again(error, started)
                    except TokenDead:
                        return None
                    continue
                if not error.transient:
                    raise
                delay = delay_for(error, attempt, cap=60.0)
                attempt += 1
                log.warning("matrix: sync failed (%s); trying again in %.1f s", error, delay)
                await until(stop, self._sleep(delay))
            else:
                if batch is not None:  # None: stopped
                    self._sync_failing = False
                    self._last_sync = time.monotonic()
                return batch
        return None

    async def _dispatch(self, batch: SyncBatch) -> None:
        # Stored before the token can pass them; the ones that decrypt now are older than this
        # sync's events, so they go first.
        late = await self._undecrypted.update(batch.undecrypted, self._client().decrypt)
        jobs: list[tuple[str, _Job]] = [(invite.room_id, _Join(invite)) for invite in batch.invites]
        # Members gone in a gap come before the timeline's events.
        jobs += ((gone.queue, gone) for gone in batch.gone)
        for event in batch.state:
            self._power.apply(event.room_id, event.source)
        for event in (*late, *batch.events):
            # In timeline order: a message is judged by the power levels it was sent under.
            self._power.apply(event.room_id, event.source)
            incoming = parse_event(event.room_id, event.source, self._user_id)
            if incoming is not None:
                level = self._power.level(event.room_id, incoming.sender)
                jobs.append((event.room_id, dataclasses.replace(incoming, sender_level=level)))
            elif (gone := departure(event.room_id, event.source, self._user_id)) is not None:
                jobs.append((gone.queue, gone))
            elif (event_id := event.source.get("event_id")) in self._undecrypted:
                await self._undecrypted.done(str(event_id))  # nothing for us in it
        jobs += ((gone.queue, gone) for gone in map(Departure, batch.left))
        mark = self._watermark.open(batch.next_batch, len(jobs))
        for room_id, job in jobs:
            self._rooms.put(room_id, job, mark)
        if not jobs:
            await self._watermark.advance()

    async def _shutdown(self, transport: Transport) -> None:
        self._serving = False
        # A process that lost the lease must be done before another may take it.
        drain = (
            SHUTDOWN.drain if self._lease is None else min(SHUTDOWN.drain, self._lease.remaining())
        )
        await self._rooms.close(drain)
        for shown in self._publishing:
            if not shown.done():
                shown.set_result(None)  # not shown: the bots' game goes on unseen, or stops
        await self._sender.close(drain)
        await self._output.close()
        with contextlib.suppress(Exception):
            await self._watermark.advance()
        try:
            await transport.close()
        except Exception:
            log.exception("matrix: closing the client failed")

    # --- events ---------------------------------------------------------------------------------

    async def _handle(self, room_id: str, job: _Job) -> None:
        if isinstance(job, _Join):
            await self._handlers.join(job.invite)
        elif isinstance(job, Departure):
            await self._service.abandon_games(PLATFORM, [job.room_id], job.user_id)
        elif isinstance(job, _Publish):
            try:
                await self._output.apply(room_id, job.replies, reply_to=None, posting=job.posting)
            finally:
                if not job.shown.done():
                    job.shown.set_result(None)
        else:
            await self._handlers.incoming(job)

    def _serves(self, chat_id: str) -> bool:
        # Only the process that syncs the account shows replies (see _publish).
        return self._serving

    async def _publish(self, actor: Actor, replies: Sequence[Reply]) -> None:
        """Show the later replies of ``actor``'s request (a bots' game's moves) in its room,
        behind the room's earlier events; returns once they are shown."""
        if not self._serving:
            return  # stopping: the game stays stored as it is shown
        shown: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._publishing.add(shown)
        try:
            job = _Publish(tuple(replies), shown, posting())
            self._rooms.put(actor.chat_id, job, None)
            await shown
        finally:
            self._publishing.discard(shown)

    def _client(self) -> Transport:
        if self._transport is None:
            raise RuntimeError("the Matrix adapter is not running")
        return self._transport

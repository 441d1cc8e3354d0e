"""The Matrix adapter: sync, hand messages and reactions to the game service, show its replies.

Flow: one sync loop reads the homeserver and puts each event on its room's queue; one worker per
room handles that room's events in order (so one slow room never stalls another) and applies the
service's replies: boards as ``m.notice`` messages edited in place, texts as short notices that
reply to the player's message.

Exactly once: the sync token (``next_batch``) is saved only when every event up to it has been
handled (a watermark over the batches in flight), and each handled event id is noted per room,
so neither a clean restart nor a crash handles a message twice, and messages sent while the bot
was down are handled after it comes back. The very first start skips history.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from adapters.matrix.backoff import delay_for, with_backoff
from adapters.matrix.config import MatrixConfig
from adapters.matrix.events import Incoming, Message, Reaction, command_text, parse_event
from adapters.matrix.render import (
    Content,
    actions_hint,
    board_content,
    edit_content,
    keycaps_for,
    notice_content,
    reaction_content,
    reaction_move,
)
from adapters.matrix.state import BoardRef, Credentials, KeyValueStore, MatrixState
from adapters.matrix.transport import Invite, Login, MatrixError, NioTransport, SyncBatch, Transport
from core.i18n import render
from core.ports import PlatformStyle
from core.replies import Actor, BoardView, Reply

log = logging.getLogger(__name__)

T = TypeVar("T")

PLATFORM = "matrix"
SYNC_TIMEOUT_MS = 30_000
DRAIN_TIMEOUT_S = 8.0  # the application must exit within 10 s of a signal
ROOM_IDLE_S = 300.0


def mentioned_user(actor: Actor, written: str) -> str:
    """The user id a Matrix mention stands for: ``@bob`` is ``@bob`` on the actor's server,
    a full ``@bob:example.org`` is itself."""
    text = written.strip()
    if text.startswith("@") and ":" not in text and ":" in actor.user_id:
        return f"{text}:{actor.user_id.split(':', 1)[1]}"
    return text


# Element keeps "/" for its own commands, so Matrix users are told to type "!".
STYLE = PlatformStyle(PLATFORM, prefix="!", user_id=mentioned_user)


class GameServiceLike(Protocol):
    """The part of ``core.sessions.GameService`` the adapter uses."""

    @property
    def store(self) -> KeyValueStore: ...

    def register_platform(self, style: PlatformStyle) -> None: ...

    async def handle_text(
        self, actor: Actor, text: str, *, addressed: bool = False
    ) -> list[Reply]: ...

    async def handle_move(
        self, actor: Actor, session_id: str, move: int, version: int | None = None
    ) -> list[Reply]: ...


@dataclass(slots=True)
class _Batch:
    """One sync response in flight: its token and how many of its jobs are still open."""

    seq: int
    token: str
    pending: int


class _Watermark:
    """Saves the newest sync token whose events, and all before them, are handled."""

    def __init__(self, state: MatrixState) -> None:
        self._state = state
        self._open: deque[_Batch] = deque()
        self._seq = 0
        self._saved_seq = 0
        self._lock = asyncio.Lock()

    def open(self, token: str, jobs: int) -> _Batch:
        self._seq += 1
        batch = _Batch(self._seq, token, jobs)
        self._open.append(batch)
        return batch

    async def done(self, batch: _Batch) -> None:
        batch.pending -= 1
        await self.advance()

    async def advance(self) -> None:
        newest: _Batch | None = None
        while self._open and self._open[0].pending <= 0:
            newest = self._open.popleft()
        if newest is None:
            return
        async with self._lock:
            if newest.seq > self._saved_seq:
                await self._state.set_next_batch(newest.token)
                self._saved_seq = newest.seq


@dataclass(frozen=True, slots=True)
class _Join:
    invite: Invite


_Job = Incoming | _Join


@dataclass(slots=True)
class _Room:
    queue: asyncio.Queue[tuple[_Job, _Batch]] = field(default_factory=asyncio.Queue)
    task: asyncio.Task[None] | None = None


class MatrixAdapter:
    """Serves games in Matrix rooms through a :class:`GameServiceLike`.

    Args:
        service: the game service (its ``store`` also keeps the adapter's state).
        config: homeserver, credentials and policies.
        transport: the client to use; by default a matrix-nio client built in :meth:`run`
            (tests pass a fake).
        add_keycaps: put the keycap reactions under new gravity boards, so a column is one click.
    """

    name = "matrix"

    def __init__(
        self,
        service: GameServiceLike,
        config: MatrixConfig,
        *,
        transport: Transport | None = None,
        add_keycaps: bool = True,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self._service = service
        service.register_platform(STYLE)
        self._config = config
        self._transport = transport
        self._add_keycaps = add_keycaps
        self._sleep = sleep
        self._state = MatrixState(service.store, config.user_id)
        self._watermark = _Watermark(self._state)
        self._rooms: dict[str, _Room] = {}
        self._background: set[asyncio.Task[Any]] = set()
        self._user_id = config.user_id
        self.device_id: str | None = None  # once logged in
        self.ready = asyncio.Event()  # set once logged in and caught up (tests, benchmarks)

    @property
    def locale(self) -> str:
        return self._config.default_locale

    # --- life cycle -----------------------------------------------------------------------------

    async def run(self, stop: asyncio.Event) -> None:
        """Log in, sync and serve until ``stop`` is set; then stop taking input, let the
        handlers in flight finish (up to a few seconds), save the sync token and close."""
        if self._transport is None:
            self._transport = NioTransport(
                self._config.homeserver, self._config.user_id, self._config.store_path
            )
        transport = self._transport
        try:
            login = await self._until(stop, self._login(transport))
            if login is None:
                return
            self._user_id = login.user_id
            self.device_id = login.device_id
            log.info("matrix: logged in as %s (device %s)", login.user_id, login.device_id)
            if not transport.encryption:
                log.info("matrix: matrix-nio[e2e] not installed; encrypted rooms are not served")
            await self._sync_loop(transport, stop)
        finally:
            await self._shutdown(transport)

    async def _until(self, stop: asyncio.Event, work: Awaitable[T]) -> T | None:
        """``work``'s result, or None when ``stop`` is set first (``work`` is cancelled)."""
        task = asyncio.ensure_future(work)
        stopper = asyncio.ensure_future(stop.wait())
        try:
            await asyncio.wait({task, stopper}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            stopper.cancel()
        if task.done():
            return task.result()
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, MatrixError):
            await task
        return None

    async def _login(self, transport: Transport) -> Login:
        config = self._config
        if config.access_token:
            return await with_backoff(
                lambda: transport.restore(
                    config.user_id, config.device_id, config.access_token or ""
                ),
                what="matrix login (token)",
                attempts=1_000_000,
                sleep=self._sleep,
            )
        saved = await self._state.credentials()
        if saved is not None:
            try:
                return await with_backoff(
                    lambda: transport.restore(config.user_id, saved.device_id, saved.access_token),
                    what="matrix login (saved token)",
                    attempts=1_000_000,
                    sleep=self._sleep,
                )
            except MatrixError as error:
                if not error.unknown_token:
                    raise
                log.warning("matrix: the saved access token was revoked; logging in again")
                await self._state.forget_credentials()
        device = saved.device_id if saved is not None else config.device_id
        return await self._password_login(transport, device)

    async def _password_login(self, transport: Transport, device_id: str | None) -> Login:
        config = self._config
        login = await with_backoff(
            lambda: transport.login(config.user_id, config.password or "", device_id),
            what="matrix login (password)",
            attempts=1_000_000,
            sleep=self._sleep,
        )
        # Kept so that a restart reuses the device (and its encryption keys).
        await self._state.set_credentials(Credentials(login.access_token, login.device_id))
        return login

    async def _sync_loop(self, transport: Transport, stop: asyncio.Event) -> None:
        token = await self._state.next_batch()
        first = token is None
        # full_state: after a restart the client knows no room yet (members, encryption).
        batch = await self._sync(transport, stop, token, 0, first=first, full_state=True)
        if batch is None:
            return
        if first:
            log.info("matrix: first start; earlier messages are not replayed")
            batch = SyncBatch(batch.next_batch, batch.invites, ())
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
                return await self._until(
                    stop,
                    transport.sync(since, timeout_ms, first=first, full_state=full_state),
                )
            except MatrixError as error:
                if error.unknown_token and self._config.password and not self._config.access_token:
                    # Logged out from elsewhere (an admin, a device list): log in again, on the
                    # same device, and carry on from the same token.
                    log.warning("matrix: the access token was revoked; logging in again")
                    await self._password_login(transport, self.device_id)
                    continue
                if not error.transient:
                    raise
                delay = delay_for(error, attempt, cap=60.0)
                attempt += 1
                log.warning("matrix: sync failed (%s); trying again in %.1f s", error, delay)
                await self._until(stop, self._sleep(delay))
        return None

    async def _dispatch(self, batch: SyncBatch) -> None:
        jobs: list[tuple[str, _Job]] = [(invite.room_id, _Join(invite)) for invite in batch.invites]
        for event in batch.events:
            incoming = parse_event(event.room_id, event.source, self._user_id)
            if incoming is not None:
                jobs.append((event.room_id, incoming))
        mark = self._watermark.open(batch.next_batch, len(jobs))
        for room_id, job in jobs:
            self._room(room_id).queue.put_nowait((job, mark))
        if not jobs:
            await self._watermark.advance()

    def _room(self, room_id: str) -> _Room:
        room = self._rooms.get(room_id)
        if room is None:
            room = _Room()
            room.task = asyncio.create_task(self._room_worker(room_id, room), name=room_id)
            self._rooms[room_id] = room
        return room

    async def _room_worker(self, room_id: str, room: _Room) -> None:
        while True:
            try:
                job, mark = await asyncio.wait_for(room.queue.get(), ROOM_IDLE_S)
            except TimeoutError:
                if room.queue.empty():
                    # No await between the check and the removal: nothing can be queued here
                    # in between, the next event for the room starts a new worker.
                    self._rooms.pop(room_id, None)
                    return
                continue
            try:
                await self._handle(room_id, job)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("matrix: handling an event in %s failed", room_id)
            finally:
                room.queue.task_done()
            await self._watermark.done(mark)

    async def _shutdown(self, transport: Transport) -> None:
        workers = [room for room in self._rooms.values() if room.task is not None]
        if workers:
            drained = asyncio.gather(*(room.queue.join() for room in workers))
            try:
                await asyncio.wait_for(drained, DRAIN_TIMEOUT_S)
            except TimeoutError:
                log.warning(
                    "matrix: stopping with events still queued; they are handled next start"
                )
        for room in workers:
            if room.task is not None:
                room.task.cancel()
        for task in self._background:
            task.cancel()  # courtesy keycaps: not worth a slow exit
        for task in [*(room.task for room in workers if room.task), *self._background]:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._rooms.clear()
        with contextlib.suppress(Exception):
            await self._watermark.advance()
        try:
            await transport.close()
        except Exception:
            log.exception("matrix: closing the client failed")

    # --- events ---------------------------------------------------------------------------------

    async def _handle(self, room_id: str, job: _Job) -> None:
        if isinstance(job, _Join):
            await self._join(job.invite)
        elif isinstance(job, Message):
            await self._on_message(job)
        else:
            await self._on_reaction(job)

    async def _join(self, invite: Invite) -> None:
        transport = self._client()
        inviter = invite.inviter or ""
        if not self._config.invite_allowed(inviter):
            log.info("matrix: declining an invite to %s from %s", invite.room_id, inviter)
            await with_backoff(
                lambda: transport.leave(invite.room_id), what="leave", sleep=self._sleep
            )
            return
        log.info("matrix: joining %s (invited by %s)", invite.room_id, inviter)
        await with_backoff(lambda: transport.join(invite.room_id), what="join", sleep=self._sleep)

    def _actor(self, room_id: str, user_id: str) -> Actor:
        name = self._client().display_name(room_id, user_id)
        return Actor(PLATFORM, room_id, user_id, name, self.locale)

    async def _on_message(self, message: Message) -> None:
        room_id = message.room_id
        if await self._state.was_handled(room_id, message.event_id):
            return
        text, addressed = command_text(message, self._user_id, self._client().own_names(room_id))
        if not text and not addressed:
            return
        actor = self._actor(room_id, message.sender)
        try:
            replies = await self._service.handle_text(actor, text, addressed=addressed)
        except Exception:
            log.exception("matrix: the service failed on a message in %s", room_id)
            await self._state.mark_handled(room_id, message.event_id)
            await self._notice(
                room_id, render("matrix.internal_error", self.locale), message.event_id
            )
            return
        await self._state.mark_handled(room_id, message.event_id)
        await self._apply(room_id, replies, reply_to=message.event_id)

    async def _on_reaction(self, reaction: Reaction) -> None:
        move = reaction_move(reaction.key)
        if move is None:
            return  # 👍 and friends are for people
        board = await self._state.board_at(reaction.target)
        if board is None or board.room_id != reaction.room_id:
            return
        room_id = reaction.room_id
        if await self._state.was_handled(room_id, reaction.event_id):
            return
        actor = self._actor(room_id, reaction.sender)
        try:
            replies = await self._service.handle_move(actor, board.session_id, move)
        except Exception:
            log.exception("matrix: the service failed on a reaction in %s", room_id)
            replies = []
            await self._notice(
                room_id,
                f"{actor.display_name}: {render('matrix.internal_error', self.locale)}",
                board.event_id,
            )
        await self._state.mark_handled(room_id, reaction.event_id)
        # A reaction cannot be replied to in most clients: notices answer on the board,
        # naming the player.
        await self._apply(room_id, replies, reply_to=board.event_id, addressee=actor.display_name)
        # Consumed: take it away, so the same key can be pressed again (Synapse refuses a
        # second identical annotation). Needs the power to redact others' events.
        try:
            await with_backoff(
                lambda: self._client().redact(room_id, reaction.event_id, "move played"),
                what="redact",
                attempts=3,
                sleep=self._sleep,
            )
        except MatrixError as error:
            log.info("matrix: could not remove a reaction in %s: %s", room_id, error)

    # --- replies --------------------------------------------------------------------------------

    async def _apply(
        self,
        room_id: str,
        replies: Sequence[Reply],
        *,
        reply_to: str | None,
        addressee: str | None = None,
    ) -> None:
        for reply in replies:
            lines = []
            if reply.text is not None:
                lines.append(reply.text.render(self.locale))
            hint = actions_hint(reply.actions, self.locale)
            if hint:
                lines.append(hint)
            text = "\n".join(lines)
            if text and addressee:
                text = f"{addressee}: {text}"
            # A new board follows its announcement; an edited one comes before the result, so
            # the move itself is answered first (and by the edit alone when there is no text).
            if reply.board is not None and reply.new_message:
                if text:
                    await self._notice(room_id, text, reply_to)
                await self._show_board(room_id, reply.board, new=True)
                continue
            if reply.board is not None:
                await self._show_board(room_id, reply.board, new=False)
            if text:
                await self._notice(room_id, text, reply_to)

    async def _show_board(self, room_id: str, board: BoardView, *, new: bool) -> None:
        content = board_content(board, self.locale)
        ref = None if new else await self._state.board(board.session_id)
        if ref is None or ref.room_id != room_id:
            event_id = await self._send(room_id, content)
            ref = BoardRef(board.session_id, room_id, event_id)
            await self._state.set_board(ref)
            if self._add_keycaps and board.rules.gravity and board.playable:
                self._spawn(self._react_keycaps(ref, keycaps_for(board.rules)))
        else:
            # Always an edit of the original event, never of an edit.
            await self._send(room_id, edit_content(ref.event_id, content))
        if board.finished:
            await self._state.forget_board(ref)

    async def _react_keycaps(self, ref: BoardRef, keys: Sequence[str]) -> None:
        for key in keys:
            try:
                await self._send(ref.room_id, reaction_content(ref.event_id, key), "m.reaction")
            except MatrixError as error:
                log.info("matrix: could not add keycaps in %s: %s", ref.room_id, error)
                return

    async def _notice(self, room_id: str, text: str, reply_to: str | None) -> None:
        try:
            await self._send(room_id, notice_content(text, reply_to))
        except MatrixError as error:
            log.warning("matrix: could not send a notice to %s: %s", room_id, error)

    async def _send(
        self, room_id: str, content: Content, event_type: str = "m.room.message"
    ) -> str:
        transport = self._client()
        return await with_backoff(
            lambda: transport.send(room_id, content, event_type),
            what=f"send to {room_id}",
            sleep=self._sleep,
        )

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def _client(self) -> Transport:
        if self._transport is None:
            raise RuntimeError("the Matrix adapter is not running")
        return self._transport

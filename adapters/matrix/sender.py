"""The send path, built for homeservers that rate-limit the bot.

A non-exempt user may send about one event every 5 s after a burst of 10 (Synapse's
``rc_message``), across all its rooms. So every event counts, and none that answers a player
may be lost:

- Each room has a queue of *answers* (boards, edits, notices) and one of *courtesies* (keycap
  reactions, redactions of consumed reactions). A room's worker sends its answers in order, and
  a courtesy only when no answer waits.
- An answer is never dropped: a 429 is waited out (``retry_after_ms``), an outage is retried
  with back-off, an expired token is retried after a new login, for as long as the adapter runs.
  Only a permanent refusal (``M_FORBIDDEN``: the bot was kicked) ends it, and is logged.
- While a board's edit waits, a newer edit of the same board replaces it: the player sees the
  latest state and skips the ones in between.
- The rate limit is the account's, so a 429 in one room holds every room until the server's
  window ends; and from then until :data:`QUIET_S` seconds pass without one, courtesies are
  dropped rather than sent.
- A bot that does not know its limits yet spends nothing on courtesies: a fresh bot on a
  homeserver's defaults that seeded a board's nine keycaps before its first 429 would start its
  first game with the whole burst spent, and at a person's pace that debt is never repaid
  (every answer then waits about 5 s). Courtesies go once the bot is known to be free: the
  operator says it is exempt (``MATRIX_EXEMPT``), or the bot has sent more than Synapse's
  default allowance (:data:`DEFAULT_RATE`, :data:`DEFAULT_BURST`) would let through without
  being refused (:class:`Allowance`), which the adapter keeps in the store across restarts.
  A 429 forgets it.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import logging
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from adapters.matrix.backoff import delay_for
from adapters.matrix.transport import MatrixError, Transport

log = logging.getLogger(__name__)

QUIET_S = 300.0
"""Seconds without a 429 after which the bot counts as not limited again (courtesies resume)."""

NOTE_EVERY_S = 30.0
"""A 429 is remembered beyond the sender (:class:`Sender`'s ``note_limited``) at most this
often: once is enough to know, and a limited bot meets many."""

EXEMPT_HINT = (
    "exempt the bot from rate limits on its homeserver (Synapse: POST "
    "/_synapse/admin/v1/users/<bot user id>/override_ratelimit with "
    '{"messages_per_second": 0, "burst_count": 0}; see docs/matrix.md)'
)


DEFAULT_RATE = 0.2
"""Events a second Synapse allows a user who is not exempt (``rc_message.per_second``)."""
DEFAULT_BURST = 10.0
"""Events Synapse allows such a user at once (``rc_message.burst_count``)."""
PROOF_MARGIN = 3.0
"""Events beyond the default allowance, sent without a 429, that prove the bot free: a margin
for the server counting the window from its own clock, not ours."""


class Allowance:
    """What Synapse's default ``rc_message`` bucket would hold now, for the bot's sends.

    Only a model, never a limit of ours: answers go whatever it says. Its one use is proof:
    when the bot has sent :data:`PROOF_MARGIN` events more than the bucket allowed and the
    server refused none of them, the server does not hold the bot to its defaults.
    """

    def __init__(self, now: float) -> None:
        self._tokens = DEFAULT_BURST
        self._at = now

    def spend(self, now: float) -> None:
        """One event sent at ``now``."""
        self._tokens = min(DEFAULT_BURST, self._tokens + (now - self._at) * DEFAULT_RATE) - 1
        self._at = now

    @property
    def overdrawn(self) -> bool:
        """Whether the sends so far went beyond the defaults by the margin."""
        return self._tokens <= -PROOF_MARGIN

    def refill(self, now: float) -> None:
        """Start over full (after a 429: the server's own window is what counts now)."""
        self._tokens = DEFAULT_BURST
        self._at = now


class TokenDead(Exception):
    """The access token expired or was revoked and no new login is possible."""


@dataclass(slots=True)
class _Item:
    content: Mapping[str, Any]
    event_type: str
    done: asyncio.Future[str]
    board: str | None = None  # the board an edit replaces (coalescing key)
    redacts: str | None = None  # a redaction of this event instead of a send
    seq: int = 0  # queued as the seq-th item: the oldest waiting item goes first


class _Turns:
    """One request at a time for the whole account, the oldest waiting item first (not the
    room that asked first: a room with two players waiting must not get a third of the turns
    for both)."""

    def __init__(self) -> None:
        self._held = False
        self._waiting: list[tuple[int, asyncio.Future[None]]] = []

    @contextlib.asynccontextmanager
    async def turn(self, seq: int) -> AsyncIterator[None]:
        if self._held or self._waiting:
            waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            heapq.heappush(self._waiting, (seq, waiter))
            try:
                await waiter
            except asyncio.CancelledError:
                if waiter.done() and not waiter.cancelled():
                    self._release()  # granted as it was cancelled: pass it on
                raise
        self._held = True
        try:
            yield
        finally:
            self._release()

    def _release(self) -> None:
        while self._waiting:
            _, waiter = heapq.heappop(self._waiting)
            if not waiter.done():
                waiter.set_result(None)  # still held: handed over
                return
        self._held = False


@dataclass(slots=True)
class _Room:
    answers: deque[_Item] = field(default_factory=deque)
    courtesies: deque[_Item] = field(default_factory=deque)
    task: asyncio.Task[None] | None = None


class Sender:
    """Sends the adapter's events through per-room queues.

    Args:
        client: the running transport.
        relogin: called with the refusal and when (``time.monotonic()``) the refused request
            started, after a request was refused for its token; logs in again (the next try
            uses the new token) or raises :class:`TokenDead`.
        on_limited: called on every 429 (metrics).
        note_limited: called (at most every :data:`NOTE_EVERY_S`) after a 429, to remember it
            beyond this sender (the store); its failure is logged and changes nothing else.
        note_free: called once when the bot has proven free of the default limits (see
            :class:`Allowance`), to remember it beyond this sender; failures as above.
        exempt: the operator says the homeserver exempts the bot: courtesies from the start
            (until a 429 says otherwise).
        sleep: how waits wait (tests pass one that does not).
        clock: monotonic seconds.
    """

    def __init__(
        self,
        client: Callable[[], Transport],
        *,
        relogin: Callable[[MatrixError, float], Awaitable[None]],
        on_limited: Callable[[], None] = lambda: None,
        note_limited: Callable[[], Awaitable[None]] | None = None,
        note_free: Callable[[], Awaitable[None]] | None = None,
        exempt: bool = False,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._client = client
        self._relogin = relogin
        self._on_limited = on_limited
        self._note_limited = note_limited
        self._noted_at: float | None = None
        self._note_free = note_free
        self._free = exempt  # known not to be held to the defaults: courtesies may go
        self._allowance = Allowance(clock())
        self._noting: set[asyncio.Task[None]] = set()
        self._sleep = sleep
        self._clock = clock
        self._rooms: dict[str, _Room] = {}
        self._blocked_until = 0.0  # the server's window: nothing is sent before
        self._last_limited: float | None = None
        self._warned = False
        self._closing = False
        self._turns = _Turns()
        self._seq = 0
        self.limited_total = 0  # 429s seen (metrics read it)
        self.dropped_courtesies = 0

    @property
    def limited(self) -> bool:
        """Whether the homeserver refused a send for its rate within :data:`QUIET_S`."""
        last = self._last_limited
        return last is not None and self._clock() - last < QUIET_S

    @property
    def courtesies_go(self) -> bool:
        """Whether a courtesy may be sent now: the bot is known to be free and not limited."""
        return self._free and not self.limited

    def free_known(self) -> None:
        """The bot was proven free of the default limits before (an earlier term, another
        process): courtesies go, unless a 429 is known."""
        self._free = True

    def limited_since(self, seconds_ago: float | None) -> None:
        """The homeserver refused this account for its rate ``seconds_ago`` seconds ago (in an
        earlier term, or another process; None: not that anyone knows): courtesies stay off
        as if this sender had seen it."""
        if seconds_ago is not None:
            since = self._clock() - seconds_ago
            self._last_limited = max(self._last_limited or -QUIET_S, since)

    def transport(self) -> Transport:
        """The transport sends go through now (uploads use it too)."""
        return self._client()

    # --- queueing -------------------------------------------------------------------------------

    def send(
        self, room_id: str, content: Mapping[str, Any], event_type: str = "m.room.message"
    ) -> asyncio.Future[str]:
        """Queue an answer; the future is its event id (or the permanent refusal)."""
        return self._queue(room_id, _Item(content, event_type, self._future()))

    def edit(self, room_id: str, board: str, content: Mapping[str, Any]) -> asyncio.Future[str]:
        """Queue an edit of ``board``, replacing that board's edit still waiting, if any."""
        room = self._rooms.get(room_id)
        if room is not None:
            for item in room.answers:
                if item.board == board:
                    item.content = content  # the newer state, in the older one's place
                    return item.done
        return self._queue(room_id, _Item(content, "m.room.message", self._future(), board))

    def courtesy(
        self, room_id: str, content: Mapping[str, Any], event_type: str = "m.reaction"
    ) -> None:
        """Queue something nice to have (a keycap), behind the room's answers; dropped while
        limited or while the limits are not known."""
        self._queue(room_id, _Item(content, event_type, self._future()), courtesy=True)

    def redact(self, room_id: str, event_id: str, reason: str) -> None:
        """Remove an event (a consumed reaction) when there is time: a courtesy."""
        item = _Item({"reason": reason}, "m.room.redaction", self._future(), redacts=event_id)
        self._queue(room_id, item, courtesy=True)

    def drop_courtesies(self, room_id: str, about: str) -> None:
        """Forget the courtesies still waiting about the event ``about`` (the keycaps of a
        board whose game just ended)."""
        room = self._rooms.get(room_id)
        if room is None:
            return
        for item in [i for i in room.courtesies if _relates_to(i.content) == about]:
            room.courtesies.remove(item)
            self._drop(item)

    def _future(self) -> asyncio.Future[str]:
        future: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        # Most answers are not awaited: a failure is logged where it happens.
        future.add_done_callback(_consume)
        return future

    def _queue(self, room_id: str, item: _Item, *, courtesy: bool = False) -> asyncio.Future[str]:
        self._seq += 1
        item.seq = self._seq
        if courtesy and not self.courtesies_go:
            self._drop(item)
            return item.done
        room = self._rooms.setdefault(room_id, _Room())
        (room.courtesies if courtesy else room.answers).append(item)
        if room.task is None or room.task.done():
            room.task = asyncio.create_task(self._work(room_id, room), name=f"send {room_id}")
        return item.done

    def _drop(self, item: _Item) -> None:
        self.dropped_courtesies += 1
        if not item.done.done():
            item.done.cancel()

    # --- sending --------------------------------------------------------------------------------

    async def _work(self, room_id: str, room: _Room) -> None:
        while room.answers or room.courtesies:
            if room.answers:
                item = room.answers.popleft()
                await self._deliver(room_id, item)
            else:
                item = room.courtesies.popleft()
                if not self.courtesies_go:
                    self._drop(item)
                    continue
                await self._deliver(room_id, item, courtesy=True)
        # Nothing between the last check and here awaits: a new item starts a new worker.
        if self._rooms.get(room_id) is room:
            del self._rooms[room_id]

    async def _deliver(self, room_id: str, item: _Item, *, courtesy: bool = False) -> None:
        attempt = 0
        while not item.done.done():
            # Limited, one request at a time for the whole account, the oldest waiting answer
            # first: when the window opens, one goes, rather than every room at once and all
            # but one refused again. Refused for the rate, it keeps its turn and waits out the
            # window: handing the turn over would let a younger answer take the next token
            # while this one is refused again, and again.
            async with self._turns.turn(item.seq) if self.limited else contextlib.nullcontext():
                while True:
                    wait = self._blocked_until - self._clock()
                    if wait > 0:
                        await self._sleep(wait)
                        if courtesy and not self.courtesies_go:
                            self._drop(item)
                            return
                    started = time.monotonic()
                    try:
                        event_id = await self._request(room_id, item)
                    except MatrixError as error:
                        failure: MatrixError | None = error
                        if error.rate_limited:
                            self._limited(error, attempt)
                            attempt += 1
                            if not courtesy:
                                continue
                    else:
                        failure = None
                    break
            if failure is None:
                self._sent()
                item.done.set_result(event_id)
            elif not await self._recover(room_id, item, failure, started, attempt, courtesy):
                return
            attempt += 1

    async def _recover(
        self,
        room_id: str,
        item: _Item,
        error: MatrixError,
        started: float,
        attempt: int,
        courtesy: bool,
    ) -> bool:
        """Whether to try ``item`` again after ``error``; if not, it is settled."""
        if error.rate_limited:
            if courtesy:
                self._drop(item)
                return False
            return True
        if error.unknown_token:
            try:
                await self._relogin(error, started)
            except TokenDead as dead:
                item.done.set_exception(dead)
                return False
            return True
        if error.transient and not self._closing:
            delay = delay_for(error, attempt)
            log.warning("matrix: send to %s failed (%s); again in %.1f s", room_id, error, delay)
            await self._sleep(delay)
            return True
        log.warning("matrix: the homeserver refused a send to %s: %s", room_id, error)
        item.done.set_exception(error)
        return False

    async def _request(self, room_id: str, item: _Item) -> str:
        transport = self._client()
        if item.redacts is not None:
            await transport.redact(room_id, item.redacts, item.content.get("reason"))
            return item.redacts
        return await transport.send(room_id, item.content, item.event_type)

    def _sent(self) -> None:
        self._allowance.spend(self._clock())
        if self._free or not self._allowance.overdrawn or self.limited:
            return
        self._free = True
        log.info("matrix: the homeserver lets the bot past its default rate; keycaps go")
        if self._note_free is not None:
            self._spawn_note(self._note_free)

    def _spawn_note(self, note: Callable[[], Awaitable[None]]) -> None:
        task = asyncio.create_task(self._note(note))
        self._noting.add(task)
        task.add_done_callback(self._noting.discard)

    def _limited(self, error: MatrixError, attempt: int) -> None:
        now = self._clock()
        self.limited_total += 1
        self._last_limited = now
        self._free = False  # whatever was known: the server holds the bot to a limit now
        self._allowance.refill(now)
        self._blocked_until = max(self._blocked_until, now + delay_for(error, attempt))
        with contextlib.suppress(Exception):  # metrics must never stop a send
            self._on_limited()
        if self._note_limited is not None and (
            self._noted_at is None or now - self._noted_at >= NOTE_EVERY_S
        ):
            self._noted_at = now
            self._spawn_note(self._note_limited)
        if not self._warned:
            self._warned = True
            log.warning(
                "matrix: the homeserver is rate-limiting the bot (%s); answers wait their "
                "turn, keycaps and reaction clean-up are skipped. To fix it, %s",
                error,
                EXEMPT_HINT,
            )

    @staticmethod
    async def _note(note: Callable[[], Awaitable[None]]) -> None:
        try:
            await note()
        except Exception as error:  # a courtesy of its own: the sends go on
            log.warning("matrix: could not note the rate limit in the store: %s", error)

    async def flush(self) -> None:
        """Returns once every queue is empty (tests, benchmarks)."""
        while tasks := [r.task for r in self._rooms.values() if r.task and not r.task.done()]:
            await asyncio.wait(tasks)

    async def close(self, drain: float) -> None:
        """Send what is queued for up to ``drain`` seconds, then stop."""
        self._closing = True
        await asyncio.gather(*self._noting, return_exceptions=True)
        tasks = [room.task for room in self._rooms.values() if room.task and not room.task.done()]
        if tasks:
            _, late = await asyncio.wait(tasks, timeout=drain)
            if late:
                log.warning("matrix: stopping with %d rooms' answers unsent", len(late))
            for task in late:
                task.cancel()
            await asyncio.gather(*late, return_exceptions=True)
        for room in self._rooms.values():
            for item in (*room.answers, *room.courtesies):
                if not item.done.done():
                    item.done.cancel()
        self._rooms.clear()


def _consume(future: asyncio.Future[str]) -> None:
    # Marks the exception as retrieved: an answer nobody awaited was already logged.
    if not future.cancelled():
        future.exception()


def _relates_to(content: Mapping[str, Any]) -> object:
    relates = content.get("m.relates_to")
    return relates.get("event_id") if isinstance(relates, dict) else None

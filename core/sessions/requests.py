"""Every request the service serves: counted while in flight (so closing can drain them), its
failures turned into replies (in this one place), its receipt written, one log line each.

Whose fault it is decides the answer: a :class:`UserError` is the player's mistake, shown to them
in their language; a store that is locked or cannot write is temporary, and says so; anything
else is ours, logged with its traceback and answered with a short apology.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

from core.admin.limits import Limited
from core.errors import UserError
from core.ports import KvEntry, ServiceObserver
from core.replies import Actor, Reply
from core.sessions.context import begin_receipt, end_receipt
from core.sessions.outages import Outages
from core.sessions.views import error_reply
from core.store import StoreBusy, StoreUnavailable, kv
from core.store.port import Store

log = logging.getLogger("core.sessions")

Work = Callable[[], Awaitable[list[Reply]]]
Around = Callable[[Actor, Work], Work]
"""Wraps one request's work (see :attr:`Requests.around`)."""


class Requests:
    """Runs requests; :meth:`drain` waits for the ones in flight once :meth:`close` was
    called."""

    def __init__(self, store: Store, observer: ServiceObserver, outages: Outages) -> None:
        self._store = store
        self._observer = observer
        self._outages = outages
        self._in_flight = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self._closing = False
        self.around: Around | None = None
        """Wraps every request's work (the matchmaker shows open games in their other chat)."""

    def close(self) -> None:
        """Refuse new requests from now on (``error.shutting_down``)."""
        self._closing = True

    async def drain(self, seconds: float) -> bool:
        """Wait up to ``seconds`` for the requests in flight; True if none is left."""
        try:
            async with asyncio.timeout(seconds):
                await self._idle.wait()
        except TimeoutError:
            log.warning("service closing with %d requests still in flight", self._in_flight)
            return False
        return True

    async def run(
        self,
        actor: Actor,
        action: str,
        session_id: str | None,
        work: Work,
        receipt: KvEntry | None = None,
    ) -> list[Reply]:
        """Run one request and answer it, whatever happens."""
        started = time.perf_counter()
        if self._closing:
            # No receipt: the event was not handled, and is again after the restart.
            return [error_reply(UserError("error.shutting_down"), session_id)]
        self._in_flight += 1
        self._idle.clear()
        token = begin_receipt(receipt)
        outcome = "ok"
        replies: list[Reply] = []
        since = self._outages.now()
        try:
            # Clocks an outage stopped are moved before a request could end or delete a game
            # against them (a move after its deadline, an expired game looked at). A store
            # still down is the work's to meet: /help needs none.
            await self._outages.settled(f"a request ({action})")
            replies = await (work if self.around is None else self.around(actor, work))()
        except UserError as error:
            outcome = error.key
            replies = [error_reply(error, session_id)]
            if isinstance(error, Limited):
                self._observer.request_limited(actor.platform)
        except (StoreBusy, StoreUnavailable) as error:
            self._outages.refused(error, since=since, work=f"a request ({action})")
            outcome = self._store_failed(actor, action, session_id, error)
            key = "error.busy" if isinstance(error, StoreBusy) else "error.store_unavailable"
            replies = [error_reply(UserError(key), session_id)]
        except Exception:
            outcome = "internal"
            log.exception(
                "internal error: platform=%s chat=%s session=%s user=%s action=%s",
                actor.platform,
                actor.chat_id,
                session_id,
                actor.user_id,
                action,
                extra={
                    "platform": actor.platform,
                    "chat": actor.chat_id,
                    "session": session_id,
                    "action": action,
                },
            )
            replies = [error_reply(UserError("error.internal"), session_id)]
        finally:
            unwritten = end_receipt(token)
            try:
                # A request that changed nothing and answered nothing (chatter in a room) needs
                # no receipt: handling it again after a restart does nothing either.
                if unwritten is not None and replies:
                    await self._write_receipt(unwritten)
            finally:
                self._in_flight -= 1
                if not self._in_flight:
                    self._idle.set()
        if outcome != "ok":
            self._observer.request_failed(actor.platform, outcome)
        self._log(actor, action, session_id, outcome, replies, started)
        return replies

    async def _write_receipt(self, receipt: KvEntry) -> None:
        # The request changed nothing: the receipt alone says it was handled. Should even that
        # fail, the event is handled again after a restart, which changes nothing either.
        try:
            await self._store.run(
                kv.kv_set(
                    receipt.namespace,
                    receipt.key,
                    receipt.value,
                    session_id=receipt.session_id,
                    expires_at=receipt.expires_at,
                )
            )
        except Exception:
            log.exception("could not write a receipt", extra={"action": "receipt"})

    @staticmethod
    def _store_failed(actor: Actor, action: str, session_id: str | None, error: Exception) -> str:
        outcome = "busy" if isinstance(error, StoreBusy) else "store_unavailable"
        log.warning(
            "database %s: platform=%s chat=%s session=%s action=%s error=%s",
            outcome,
            actor.platform,
            actor.chat_id,
            session_id,
            action,
            error,
            extra={"platform": actor.platform, "chat": actor.chat_id, "action": action},
        )
        return outcome

    @staticmethod
    def _log(
        actor: Actor,
        action: str,
        session_id: str | None,
        outcome: str,
        replies: list[Reply],
        started: float,
    ) -> None:
        session = session_id or next((r.session_id for r in replies if r.session_id), None)
        duration = (time.perf_counter() - started) * 1000
        log.info(
            "platform=%s chat=%s session=%s user=%s action=%s outcome=%s duration_ms=%.1f",
            actor.platform,
            actor.chat_id,
            session,
            actor.user_id,
            action,
            outcome,
            duration,
            extra={
                "platform": actor.platform,
                "chat": actor.chat_id,
                "session": session,
                "user": actor.user_id,
                "action": action,
                "outcome": outcome,
                "duration_ms": duration,
            },
        )

"""What every part of the service shares: its dependencies, the lookups of a player's games, and
the writes that carry a request's receipt.

A request may carry a receipt (an adapter's "this event was handled" row). The first change the
request makes writes it in the same transaction (:meth:`Context.create`, :meth:`Context.update`,
:meth:`Context.delete`, :meth:`Context.swap`); a request that changes nothing writes it alone at
its end. The receipt travels in a context variable, so the functions between the entry point and
the store need not pass it along.
"""

from __future__ import annotations

import contextvars
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from core.admin.keys import Effective
from core.errors import UserError
from core.ports import KvEntry, PlatformStyle, ServiceObserver
from core.replies import Actor
from core.sessions.openplay.open_games import noted, other_boards
from core.sessions.outages import Outages
from core.sessions.settings import ServiceSettings
from core.sessions.views import game_name
from core.store import AlreadyPlaying, GameLimits, Session, Status, sessions
from core.store.models import OutboxItem
from core.store.port import Store
from core.workers.runner import AiRunner


@dataclass(slots=True)
class _Receipt:
    entry: KvEntry | None


_RECEIPT: contextvars.ContextVar[_Receipt | None] = contextvars.ContextVar(
    "chatbots_receipt", default=None
)


def begin_receipt(entry: KvEntry | None) -> contextvars.Token[_Receipt | None]:
    """Attach ``entry`` to the request running in this context (see the module docstring)."""
    return _RECEIPT.set(_Receipt(entry))


def end_receipt(token: contextvars.Token[_Receipt | None]) -> KvEntry | None:
    """Detach the request's receipt; it is returned when no change has written it yet."""
    box = _RECEIPT.get()
    _RECEIPT.reset(token)
    return None if box is None else box.entry


def _take_receipt() -> KvEntry | None:
    box = _RECEIPT.get()
    if box is None:
        return None
    entry, box.entry = box.entry, None
    return entry


@dataclass(slots=True)
class Context:
    """The service's dependencies and the lookups its parts share."""

    store: Store
    settings: ServiceSettings
    clock: Callable[[], float]
    rng: random.Random
    runner: AiRunner
    observer: ServiceObserver
    styles: dict[str, PlatformStyle] = field(default_factory=dict)
    followers: list[Callable[[Session], None]] = field(default_factory=list)
    """Told of every session this process stored with a change (a move, an accept, an end)."""
    outages: Outages = field(init=False)
    """The store's outage as this process saw it (see :mod:`core.sessions.outages`)."""

    def __post_init__(self) -> None:
        self.outages = Outages(self.store, self.clock, self.settings.outage_grace)

    # --- platform conventions --------------------------------------------------------------

    def style(self, actor: Actor) -> PlatformStyle:
        """How ``actor``'s platform writes prefixes and mentions (plain defaults if unknown)."""
        return self.styles.get(actor.platform) or PlatformStyle(actor.platform)

    def prefix(self, actor: Actor) -> str:
        return self.style(actor).prefix

    # --- writes (each carries the request's receipt, if not written yet) ------------------

    async def create(
        self, actor: Actor, session: Session, limits: GameLimits | None = None
    ) -> None:
        """Store a new session (if it keeps ``limits``); a lost race with another start by the
        same user names the game that won."""
        try:
            await self.store.run(sessions.create(session, receipt=_take_receipt(), limits=limits))
        except AlreadyPlaying as error:
            raise await self.already_playing_error(actor, error) from None

    async def update(
        self,
        session: Session,
        *,
        expected_version: int,
        limits: GameLimits | None = None,
        notices: Sequence[OutboxItem] = (),
    ) -> bool:
        """Store ``session`` if the stored one is still at ``expected_version`` (and it keeps
        ``limits``), with the ``notices`` that follow the change left in the outbox in the same
        transaction; whether it was. Every change to a kept session passes here, so a game's
        end is announced here alone: once, by the process whose write ended it."""
        applied = await self.store.run(
            sessions.update(
                session,
                expected_version=expected_version,
                receipt=_take_receipt(),
                limits=limits,
                notices=(*notices, *other_boards(session, followed=True)),
                now=self.clock(),
            )
        )
        if applied:
            self.applied(session)
        return applied

    def applied(self, session: Session) -> None:
        """``session`` was stored with a change by this process: count a game it ended, and
        tell the followers (also for a write whose answer was lost, once it is found stored:
        :mod:`core.sessions.play.fate`)."""
        if session.status is Status.FINISHED:
            self.observer.game_finished(session.counted_platform, session.variant.label)
        for follower in self.followers:
            follower(session)

    async def delete(self, session: Session, notices: Sequence[OutboxItem] = ()) -> bool:
        """Delete ``session`` at its version, with ``notices`` left in the outbox in the same
        transaction; whether it was."""
        deleted = await self.store.run(
            sessions.delete(
                session.id,
                expected_version=session.version,
                receipt=_take_receipt(),
                notices=(*notices, *other_boards(session)),
                now=self.clock(),
            )
        )
        if deleted:
            noted(session)  # an open game's other chat is told it ended
        return deleted

    async def swap(
        self, actor: Actor, old: Session, new: Session, limits: GameLimits | None = None
    ) -> bool:
        try:
            return await self.store.run(
                sessions.swap(
                    old,
                    new,
                    receipt=_take_receipt(),
                    limits=limits,
                    notices=other_boards(new),
                    now=self.clock(),
                )
            )
        except AlreadyPlaying as error:
            raise await self.already_playing_error(actor, error) from None

    # --- lookups ---------------------------------------------------------------------------

    async def load(self, session_id: str, actor: Actor) -> Session:
        """The live session ``session_id`` in the actor's chat.

        Raises:
            UserError: no such game here (a forged button, a forwarded message), or expired.
        """
        session = await self.store.run(sessions.get(session_id))
        # An open game is shown in the chat of each seat (see Seat), and played from both.
        if session is None or not session.shown_in(actor.platform, actor.chat_id):
            raise UserError("error.no_such_game")
        return await self.check_expiry(session)

    async def check_expiry(self, session: Session) -> Session:
        """The session if it is still alive; an expired one is deleted and reported."""
        if session.expires_at > self.clock():
            return session
        await self.store.run(sessions.delete(session.id, expected_version=session.version))
        key = "error.challenge_expired" if session.status is Status.CHALLENGE else "error.expired"
        raise UserError(key)

    async def live_game(self, actor: Actor) -> Session | None:
        """The actor's live game in this chat; an expired one is deleted and ignored."""
        session = await self.store.run(
            sessions.live_game(actor.platform, actor.chat_id, actor.user_id)
        )
        if session is not None and session.expires_at <= self.clock():
            await self.store.run(sessions.delete(session.id, expected_version=session.version))
            return None
        return session

    async def challenge_for(self, actor: Actor) -> Session:
        session = await self.store.run(
            sessions.challenge_for(actor.platform, actor.chat_id, actor.user_id)
        )
        if session is None:
            raise UserError("error.no_challenge")
        return await self.check_expiry(session)

    async def ensure_free(self, actor: Actor) -> None:
        """Refuse a second live game of the actor in this chat, saying where the first is."""
        session = await self.live_game(actor)
        if session is not None:
            raise self.already_playing(actor, session)

    def already_playing(self, actor: Actor, session: Session) -> UserError:
        seat = session.seat_of(actor.user_id)
        if seat is not None:
            opponent = session.seats[2 - seat].name
        else:  # a challenge the actor sent, or a bots' game they watch
            opponent = next(
                (s.name for s in session.seats if s.user_id != actor.user_id),
                session.seats[1].name,
            )
        return UserError(
            "error.already_playing",
            game=game_name(session.rules),
            opponent=opponent,
            prefix=self.prefix(actor),
        )

    async def already_playing_error(self, actor: Actor, error: AlreadyPlaying) -> UserError:
        existing = await self.store.run(sessions.get(error.session_id))
        if existing is None:
            return UserError("error.busy")
        return self.already_playing(actor, existing)

    def now_and_ttl(
        self, status: Status, chat: Effective | None = None, *, kept: Session | None = None
    ) -> tuple[float, float]:
        """The time now and how long a session in ``status`` lives from now.

        Args:
            status: the session's new status.
            chat: the settings of the chat (a new game, an accepted challenge); None: the
                service's defaults.
            kept: a running game that changes (a move, a resignation): it keeps the lifetime it
                started with, so that a setting changed meanwhile never cuts a game short.
        """
        if kept is not None and kept.status is Status.ACTIVE and kept.expires_at > kept.updated_at:
            return self.clock(), kept.expires_at - kept.updated_at
        source = chat if chat is not None else self.settings
        ttl = source.challenge_ttl if status is Status.CHALLENGE else source.game_ttl
        return self.clock(), ttl

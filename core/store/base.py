"""The seam between the service and its storage: :class:`SessionStore`, errors, :class:`KvEntry`,
and the leases that elect one process for work that must run once (:class:`LeaseStore`)."""

from __future__ import annotations

import math
from collections.abc import Coroutine, Generator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, Generic, Protocol, TypeVar

from core.errors import UserError
from core.store.models import LiveCounts, PlatformTotals, Session, SettingRow, StatsRow
from core.store.outbox import OutboxItem, OutboxStore
from core.store.rating_base import RatingStore
from core.store.seek_base import SeekStore


class StoreError(Exception):
    """Base of the store's own failures (not the player's)."""


class StoreBusy(StoreError):
    """The database stayed locked by another connection beyond the busy timeout.

    Temporary: nothing was written; the same request may simply be tried again.
    """


class StoreUnavailable(StoreError):
    """The database cannot be used: read-only, full, failing disk, corrupt, not a database.

    At open it means "do not start" (the message is one line naming the file and the cause). At
    run time it is temporary from the player's view: nothing of the request was written, so
    "cannot save right now" is the honest answer, and health reports it.

    Attributes:
        path: the database file.
        cause: what is wrong, in words (one line).
    """

    def __init__(self, path: str | Path, cause: str) -> None:
        self.path = str(path)
        self.cause = " ".join(cause.split())  # one line, whatever SQLite or the OS said
        super().__init__(f"cannot use the database {self.path!r}: {self.cause}")


class WriteUnknown(StoreUnavailable):
    """The database failed while a write was under way: it may have been stored or not (the
    connection dropped between the commit and its answer). Only reading it back once the
    store answers again tells (:mod:`core.sessions.play.fate`)."""


class SchemaTooNew(StoreUnavailable):
    """The database was written by a newer version of the code; refusing to touch it."""


class AlreadyPlaying(StoreError):
    """A user already has a live game in that chat (one per user per chat).

    Attributes:
        session_id: the game the user is in.
        user_id: who.
    """

    def __init__(self, session_id: str, user_id: str) -> None:
        super().__init__(f"user {user_id!r} already plays session {session_id!r} in this chat")
        self.session_id = session_id
        self.user_id = user_id


class Limited(UserError):
    """A request refused by a limit (``limits.*``, ``error.rate_limited``); counted in
    ``chatbots_rate_limited_total``."""


def whole_seconds(seconds: float) -> int:
    """A wait as people read it: whole seconds, at least 1."""
    return max(1, math.ceil(seconds))


@dataclass(frozen=True, slots=True)
class GameLimits:
    """What a new live game must keep, checked by the store in the transaction that writes it
    (``create``, ``swap``, an ``update`` that accepts a challenge), so simultaneous requests
    cannot all pass: each check first locks a row of its scope (see :mod:`core.store.limit_ops`).

    Attributes:
        user_id: whose live games and cooldown these are (the one starting or accepting).
        now: the service's time, seconds since the epoch.
        max_user_games: refuse when the user already has this many live games on the
            platform (``limits.user_games``); None: no cap.
        max_chat_games: refuse when the chat already has this many (``limits.chat_games``).
        cooldown: refuse while the user's last cooldown runs (``limits.cooldown``), and start
            one of this many seconds with this game; 0: neither.
        boards_per_minute: refuse when the chat had this many new boards in the last minute
            (``limits.boards``), and count this game's board; None: neither.
        check_boards: False: count the board without refusing it (an accepted challenge).
    """

    user_id: str
    now: float
    max_user_games: int | None = None
    max_chat_games: int | None = None
    cooldown: float = 0.0
    boards_per_minute: int | None = None
    check_boards: bool = True


@dataclass(frozen=True, slots=True)
class KvEntry:
    """One adapter-state row: a value under ``(namespace, key)``.

    Passed as ``receipt=`` to a write, it is stored in the same transaction as the change, and
    only if the change applies ("this event was handled" exactly when its move was saved).

    Attributes:
        session_id: tie the row to a session: it is deleted with the session, and not stored at
            all when the session no longer exists.
        expires_at: seconds since the epoch after which :meth:`SessionStore.delete_expired`
            removes the row; None keeps it until deleted.
    """

    namespace: str
    key: str
    value: str
    session_id: str | None = None
    expires_at: float | None = None


class KeyValueStore(Protocol):
    """Adapter state in the store (board message ids, sync tokens, handled events)."""

    async def kv_get(self, namespace: str, key: str) -> str | None:
        """Adapter state: the value under ``(namespace, key)``, or None."""
        ...

    async def kv_set(
        self,
        namespace: str,
        key: str,
        value: str,
        *,
        session_id: str | None = None,
        expires_at: float | None = None,
    ) -> None:
        """Adapter state: store (or replace) a value; see :class:`KvEntry` for the keywords.

        A row tied to a session that no longer exists is not stored (no error).
        """
        ...

    async def kv_delete(self, namespace: str, key: str) -> None:
        """Adapter state: remove a value (no error when absent)."""
        ...

    async def kv_of_session(self, namespace: str, session_id: str) -> dict[str, str]:
        """Adapter state: every value in ``namespace`` tied to ``session_id``, by key."""
        ...


@dataclass(frozen=True, slots=True)
class LeaseHolder:
    """Who holds a lease now, read by the database's clock.

    Attributes:
        holder: the holder id given to :meth:`LeaseStore.acquire_lease`.
        expires_in: seconds until the lease expires unless its holder renews it (> 0).
    """

    holder: str
    expires_in: float


class LeaseStore(Protocol):
    """Leases: a named right to do some work alone, for a time, among processes sharing the
    database (the Matrix sync of one account, the sweeper, Discord's command sync).

    A lease is a row of the key-value table under the namespace :data:`LEASE_NAMESPACE`: its
    key is the lease's name, its value the holder id, its ``expires_at`` the expiry. Each
    operation is one statement, and every time in it is the database's clock (PostgreSQL's
    ``statement_timestamp()``, SQLite's ``julianday('now')`` on the one machine that has the
    file), so processes whose clocks disagree still agree on who holds a lease. A holder must
    therefore count its own time from before it sent the statement: it holds the lease at most
    ``ttl`` seconds after that, however late the answer arrives (clocks may disagree on the
    time, they are assumed to agree on the length of a second). The sweep leaves lease rows
    alone: only these methods write them.
    """

    async def acquire_lease(self, name: str, holder: str, ttl: float) -> bool:
        """Take the lease ``name`` for ``holder`` for ``ttl`` seconds, if it is free, expired
        or already held by ``holder`` (then this renews it). Atomic: of several processes
        trying at once, exactly one gets a free lease.

        Returns:
            True if ``holder`` holds the lease now, until ``ttl`` seconds from now.

        Raises:
            ValueError: an empty name or holder, or a ``ttl`` that is not a positive number.
        """
        ...

    async def release_lease(self, name: str, holder: str) -> bool:
        """Give the lease up, if ``holder`` holds it (another holder's lease stays as it is).

        Returns:
            True if it was released, False if ``holder`` did not hold it.
        """
        ...

    async def lease_holder(self, name: str) -> LeaseHolder | None:
        """Who holds the lease ``name`` now; None when it is free or expired."""
        ...


LEASE_NAMESPACE = "lease"
"""The key-value namespace of the leases (see :class:`LeaseStore`); no one else writes there."""


def check_lease_arguments(name: str, holder: str, ttl: float = 1.0) -> None:
    """Refuse what no lease can be (both stores call this first).

    Raises:
        ValueError: an empty name or holder, a ``ttl`` that is not a positive finite number.
    """
    if not isinstance(name, str) or not name:
        raise ValueError(f"a lease needs a name, got {name!r}")
    if not isinstance(holder, str) or not holder:
        raise ValueError(f"a lease needs a holder id, got {holder!r}")
    if isinstance(ttl, bool) or not isinstance(ttl, (int, float)) or not 0 < ttl < float("inf"):
        raise ValueError(f"a lease's ttl must be a positive number of seconds, got {ttl!r}")


class SessionStore(KeyValueStore, LeaseStore, SeekStore, OutboxStore, RatingStore, Protocol):
    """Where sessions, results and adapter state live; the single source of truth.

    Every change to a session is a compare-and-set on its ``version``: :meth:`update`,
    :meth:`delete` and :meth:`swap` say whether they applied, so two clicks, tasks or processes
    can never both apply a move. Every method raises :class:`StoreBusy` when the database stays
    locked and :class:`StoreUnavailable` when it cannot be written or read (nothing was written
    in either case). A write's ``receipt`` is stored in the same transaction, iff it applies.
    """

    async def create(
        self,
        session: Session,
        *,
        receipt: KvEntry | None = None,
        limits: GameLimits | None = None,
    ) -> None:
        """Store a new session (if it keeps ``limits``).

        Raises:
            AlreadyPlaying: one of ``session.live_users`` already has a live game in the chat.
            Limited: ``limits`` refused it; nothing was written.
        """
        ...

    async def get(self, session_id: str) -> Session | None:
        """The session, or None when there is none with that id (or it could not be loaded)."""
        ...

    async def live_game(self, platform: str, chat_id: str, user_id: str) -> Session | None:
        """The user's live game in the chat (active, or a challenge they sent), if any."""
        ...

    async def challenge_for(self, platform: str, chat_id: str, user_id: str) -> Session | None:
        """The latest pending challenge addressed to the user in the chat, if any."""
        ...

    async def last_finished(
        self, platform: str, chat_id: str, user_id: str | None
    ) -> Session | None:
        """The most recently finished game in the chat that the user played or started (any
        user's when ``user_id`` is None), if any."""
        ...

    async def live_in_chats(
        self,
        platform: str,
        chat_ids: Sequence[str],
        user_id: str | None = None,
        *,
        server_id: str | None = None,
    ) -> list[Session]:
        """The live sessions (games and challenges) in any of ``chat_ids`` and, with
        ``server_id``, in any chat of that server, oldest first: every one (``user_id`` None),
        or those the user sits at, started or was challenged to."""
        ...

    async def update(
        self,
        session: Session,
        *,
        expected_version: int,
        receipt: KvEntry | None = None,
        limits: GameLimits | None = None,
        notices: Sequence[OutboxItem] = (),
        now: float = 0.0,
    ) -> bool:
        """Replace the stored session if its version is still ``expected_version`` (and it
        keeps ``limits``), leaving ``notices`` in the outbox in the same transaction (kept from
        ``now``: what follows the change, told by the outbox's delivery).

        When the update moves the session to ``FINISHED``, the result is added to the players'
        stats in the same transaction (so it is counted exactly once).

        Returns:
            True if applied; False if the session changed meanwhile or is gone.

        Raises:
            AlreadyPlaying: a newly live user (an accepted challenge) has another live game.
            Limited: ``limits`` refused it; nothing was written.
        """
        ...

    async def delete(
        self,
        session_id: str,
        *,
        expected_version: int | None = None,
        receipt: KvEntry | None = None,
    ) -> bool:
        """Delete a session (only at ``expected_version`` if given); True if it was deleted."""
        ...

    async def swap(
        self,
        old: Session,
        new: Session,
        *,
        receipt: KvEntry | None = None,
        limits: GameLimits | None = None,
    ) -> bool:
        """Delete ``old`` (only at ``old.version``) and create ``new`` (if it keeps ``limits``),
        in one transaction.

        Returns:
            True if done; False, with nothing written, if ``old`` changed meanwhile or is gone.

        Raises:
            AlreadyPlaying: as :meth:`create`; ``old`` is then left as it was.
            Limited: ``limits`` refused it; ``old`` is then left as it was.
        """
        ...

    async def delete_expired(self, now: float) -> int:
        """Delete every session whose ``expires_at`` is at or before ``now``, with its kv rows,
        and every kv row whose own ``expires_at`` has passed.

        Returns:
            How many sessions were deleted.
        """
        ...

    async def due_clocks(self, now: float, limit: int) -> list[str]:
        """Ids of at most ``limit`` running games whose clock ran out at or before ``now``,
        the earliest first (read from the deadline's index). Ending one is a compare-and-set
        (:meth:`update`), so a move racing it gives one outcome."""
        ...

    async def due_reminders(self, now: float, limit: int) -> list[str]:
        """Ids of at most ``limit`` running games whose player to move is due a reminder."""
        ...

    async def take_reminder(
        self, session_id: str, version: int, *, notice: OutboxItem | None = None, now: float = 0.0
    ) -> tuple[OutboxItem, ...] | None:
        """Claim the reminder of ``session_id`` at ``version``, for exactly one caller (None
        for the others), while the move it is about is still the one to play (the version is
        not bumped: the board's buttons stay valid). ``notice`` (the reminder to show) is left
        in the outbox in the same transaction (kept from ``now``); what was left, with its id."""
        ...

    async def pause_clocks(self, start: float, back: float, grace: float) -> int:
        """Give live games back the time an outage of the store took (from ``start`` to
        ``back``, merged with the outage paused last, which another process may have seen from
        another moment): every deadline, reminder and lifetime that ran in it moves by its
        length, and to ``grace`` seconds after ``back`` at least. How many games were moved
        (see :mod:`core.store.outage_ops`)."""
        ...

    async def player_stats(
        self, platform: str, user_id: str, chat_id: str | None = None
    ) -> StatsRow | None:
        """The user's results on the platform (all chats), or in one chat; None if none."""
        ...

    async def top(self, platform: str, chat_id: str, limit: int = 10) -> list[StatsRow]:
        """The chat's leaderboard: most wins first, then most draws, then fewest losses."""
        ...

    async def count_sessions(self) -> int:
        """How many sessions are stored, whatever their status (health and metrics)."""
        ...

    async def live_counts(self, platform: str, chat_id: str, user_id: str) -> LiveCounts:
        """Live games (challenges and games being played) of the user on the platform, and of
        the chat (the limits on live games)."""
        ...

    async def totals(self, since: float) -> list[PlatformTotals]:
        """Per platform, by name: live and finished games stored, results recorded, and moves
        in games changed at or after ``since`` (``chatbots stats``)."""
        ...

    # --- settings (core.admin) -------------------------------------------------------------

    async def settings_rows(self, platform: str, scopes: Sequence[str]) -> list[SettingRow]:
        """Every setting stored for the platform in any of ``scopes``, in no order."""
        ...

    async def setting_put(self, row: SettingRow) -> None:
        """Store (or replace) the value of ``row.key`` in ``row.scope``."""
        ...

    async def setting_delete(self, platform: str, scope: str, key: str) -> bool:
        """Forget a setting; True if there was one."""
        ...

    async def check(self) -> None:
        """Prove the store can answer and write now (for health).

        Raises:
            StoreUnavailable: it cannot (closed, read-only, full, failing disk).
            StoreBusy: the database stayed locked.
        """
        ...

    async def close(self) -> None:
        """Release the connection; the store is unusable afterwards."""
        ...


class _Closable(Protocol):
    async def close(self) -> None: ...


StoreT = TypeVar("StoreT", bound=_Closable)


class Opening(Generic[StoreT]):
    """What a store's ``open`` returns: await it for the store, or use it with ``async with``
    (the store is closed when the block ends)."""

    def __init__(self, opening: Coroutine[Any, Any, StoreT]) -> None:
        self._opening = opening
        self._store: StoreT | None = None

    def __await__(self) -> Generator[Any, None, StoreT]:
        return self._opening.__await__()

    async def __aenter__(self) -> StoreT:
        self._store = await self._opening
        return self._store

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._store is not None:
            await self._store.close()

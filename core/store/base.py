"""The seam between the service and its storage: :class:`SessionStore`, and its errors."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from core.store.models import Session, StatsRow


@dataclass(frozen=True, slots=True)
class KvEntry:
    """A key-value row to write with a change (a receipt: "this event was handled").

    Attributes:
        session_id: the row goes when that session is deleted.
        expires_at: the row goes at the first sweep after this time.
    """

    namespace: str
    key: str
    value: str
    session_id: str | None = None
    expires_at: float | None = None


class StoreError(Exception):
    """Base of the store's own failures (not the player's)."""


class StoreBusy(StoreError):
    """The database stayed locked by another connection beyond the busy timeout.

    Temporary: nothing was written; the same request may simply be tried again.
    """


class StoreUnavailable(StoreError):
    """The database cannot be written (or read) now: read-only, full, corrupt or failing.

    Nothing was written; the message names the path and the cause.
    """


class SchemaTooNew(StoreError):
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
        """Adapter state: store (or replace) a value; one tied to ``session_id`` goes with its
        session, one with ``expires_at`` at the first sweep after that time."""
        ...

    async def kv_delete(self, namespace: str, key: str) -> None:
        """Adapter state: remove a value (no error when absent)."""
        ...


class SessionStore(KeyValueStore, Protocol):
    """Where sessions, results and adapter state live; the single source of truth.

    Every change to a session is a compare-and-set on its ``version``: :meth:`update` and
    :meth:`delete` say whether they applied, so two clicks, tasks or processes can never both
    apply a move. Methods raise :class:`StoreBusy` when the database stays locked.
    """

    async def create(self, session: Session, *, receipt: KvEntry | None = None) -> None:
        """Store a new session (and ``receipt``, in the same transaction).

        Raises:
            AlreadyPlaying: one of ``session.live_users`` already has a live game in the chat.
        """
        ...

    async def get(self, session_id: str) -> Session | None:
        """The session, or None when there is none with that id."""
        ...

    async def live_game(self, platform: str, chat_id: str, user_id: str) -> Session | None:
        """The user's live game in the chat (active, or a challenge they sent), if any."""
        ...

    async def challenge_for(self, platform: str, chat_id: str, user_id: str) -> Session | None:
        """The latest pending challenge addressed to the user in the chat, if any."""
        ...

    async def last_finished(self, platform: str, chat_id: str, user_id: str) -> Session | None:
        """The user's most recently finished game in the chat, if any."""
        ...

    async def update(
        self, session: Session, *, expected_version: int, receipt: KvEntry | None = None
    ) -> bool:
        """Replace the stored session if its version is still ``expected_version``.

        When the update moves the session to ``FINISHED``, the result is added to the players'
        stats in the same transaction (so it is counted exactly once).

        Returns:
            True if applied; False if the session changed meanwhile or is gone.

        Raises:
            AlreadyPlaying: a newly live user (an accepted challenge) has another live game.
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

    async def swap(self, old: Session, new: Session, *, receipt: KvEntry | None = None) -> bool:
        """Delete ``old`` (only at ``old.version``) and create ``new``, in one transaction.

        Returns:
            False, with nothing written, when ``old`` changed or is gone.

        Raises:
            AlreadyPlaying: as :meth:`create`.
        """
        ...

    async def delete_expired(self, now: float) -> int:
        """Delete every session whose ``expires_at`` is at or before ``now``; how many."""
        ...

    async def player_stats(
        self, platform: str, user_id: str, chat_id: str | None = None
    ) -> StatsRow | None:
        """The user's results on the platform (all chats), or in one chat; None if none."""
        ...

    async def top(self, platform: str, chat_id: str, limit: int = 10) -> list[StatsRow]:
        """The chat's leaderboard: most wins first, then most draws, then fewest losses."""
        ...

    async def close(self) -> None:
        """Release the connection; the store is unusable afterwards."""
        ...

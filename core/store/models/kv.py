"""What the store keeps beside sessions for the service and its adapters: key-value rows
(:mod:`core.store.kv`), the holder of a lease (:mod:`core.store.leases`) and the limits a new
game must keep (:mod:`core.store.limits`)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class GameLimits:
    """What a new live game must keep, checked by the store in the transaction that writes it
    (``create``, ``swap``, an ``update`` that accepts a challenge), so simultaneous requests
    cannot all pass: each check first locks a row of its scope (see :mod:`core.store.limits`).

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
        expires_at: seconds since the epoch after which :func:`core.store.sessions.delete_expired`
            removes the row; None keeps it until deleted.
    """

    namespace: str
    key: str
    value: str
    session_id: str | None = None
    expires_at: float | None = None


@dataclass(frozen=True, slots=True)
class LeaseHolder:
    """Who holds a lease now, read by the database's clock.

    Attributes:
        holder: the holder id given to :func:`core.store.leases.acquire_lease`.
        expires_in: seconds until the lease expires unless its holder renews it (> 0).
    """

    holder: str
    expires_in: float

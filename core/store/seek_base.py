"""What the matchmaking queue of the store answers (:class:`SeekStore`); the operations are in
:mod:`core.store.seek_ops`, the rules in :mod:`core.pairing.seeks`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from core.pairing.seeks import Seek
from core.store.models import Session
from core.store.outbox import OutboxItem

MakeGame = Callable[[Seek, Seek], Session]
"""The game two seeks make (the one that waited longer first), built inside the transaction
that takes both out of the queue."""


@dataclass(frozen=True, slots=True)
class Paired:
    """Two seeks met: their game, stored in the transaction that took them out of the queue,
    with the notices of it (``notices``: the new board for each chat the pairing's answer does
    not reach, left in the outbox in that transaction, with their ids)."""

    session: Session
    seeks: tuple[Seek, Seek]
    notices: tuple[OutboxItem, ...] = ()


@dataclass(frozen=True, slots=True)
class Queued:
    """A seek waits in the queue."""

    seek: Seek


@dataclass(frozen=True, slots=True)
class AlreadySeeking:
    """The player already waits (maybe from another chat): their seek, unchanged."""

    seek: Seek


SeekResult = Paired | Queued | AlreadySeeking


class SeekStore(Protocol):
    """The queue of seeks and the blocks between players (part of ``SessionStore``)."""

    async def seek(
        self, new: Seek, make: MakeGame, *, max_user_games: int | None = None
    ) -> SeekResult:
        """Pair ``new`` with a compatible waiting seek (their game stored), or queue it.

        Raises:
            Limited: the player has ``max_user_games`` live games already (open games count).
        """
        ...

    async def pair_waiting(self, now: float, make: MakeGame, *, batch: int = 500) -> list[Paired]:
        """Pair among the oldest ``batch`` waiting seeks that no other process is pairing."""
        ...

    async def expire_seeks(self, now: float) -> list[Seek]:
        """Delete the seeks expired by ``now``; each is returned to one caller only."""
        ...

    async def any_seeks(self) -> bool:
        """Whether any seek is queued (expired ones included)."""
        ...

    async def cancel_seek(self, player: str) -> Seek | None:
        """Take the player's seek out of the queue (it, or None)."""
        ...

    async def seeks_in(self, platform: str, chat_id: str, server_id: str | None) -> list[Seek]:
        """The seeks from the chat, or from every chat of the Discord server ``server_id``."""
        ...

    async def drop_seeks(self, ids: Sequence[str], now: float) -> list[Seek]:
        """Take the seeks ``ids`` out of the queue, each with its seeker's notice left in the
        outbox (kept from ``now``); those that were still there."""
        ...

    async def seek_of(self, player: str) -> Seek | None:
        """The player's waiting seek, if any."""
        ...

    async def waiting_seeks(self, now: float, limit: int = 50) -> list[Seek]:
        """The oldest waiting seeks."""
        ...

    async def open_games_of(
        self, platform: str, chat_id: str, user_id: str, limit: int = 10
    ) -> list[Session]:
        """The latest open games ``user_id`` played from that chat (live or finished, while
        kept), newest first."""
        ...

    async def block(self, player: str, blocked: str, now: float) -> bool:
        """``player`` is never paired with ``blocked`` again; False if already blocked."""
        ...

    async def blocked(self, a: str, b: str) -> bool:
        """Whether either of two players blocked the other."""
        ...

"""What the matchmaking queue of the store answers; the operations are in
:mod:`core.store.seeks`, the rules in :mod:`core.pairing.seeks`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from core.pairing.seeks import Seek
from core.store.models.outbox import OutboxItem
from core.store.models.session import Session

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

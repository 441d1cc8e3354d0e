"""Encrypted events whose room key has not arrived yet, kept in the store until it does.

The sync token moves on past such an event, so keeping it in memory alone would lose it at a
restart. Each one (its raw encrypted source and room) is stored before the token can pass it,
tried again after every sync, and dropped once it is handled (its receipt then guards it) or
:data:`KEPT_S` after it came. After a restart the stored ones are tried again.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from adapters.matrix.state import MatrixState
from adapters.matrix.transport import TimelineEvent

log = logging.getLogger(__name__)

KEPT_S = 3600.0
"""A room key follows its message within seconds (the same sync, usually); an hour covers a
sender whose device was offline for a while."""
MAX_KEPT = 200  # a room flooding us with events we cannot read must not grow the row forever

Decrypt = Callable[[str, Mapping[str, Any]], Mapping[str, Any] | None]


@dataclass(slots=True)
class _Waiting:
    room_id: str
    source: Mapping[str, Any]
    until: float
    handed_out: bool = False  # decrypted and being handled: stays stored until it is


class Undecrypted:
    """The waiting events of one bot, mirrored in its :class:`MatrixState`."""

    def __init__(self, state: MatrixState, clock: Callable[[], float]) -> None:
        self._state = state
        self._clock = clock
        self._waiting: dict[str, _Waiting] = {}

    def __contains__(self, event_id: object) -> bool:
        return event_id in self._waiting

    def __len__(self) -> int:
        return len(self._waiting)

    async def load(self) -> None:
        """Read what an earlier run left waiting."""
        for item in await self._state.undecrypted():
            room_id, source, until = item.get("room_id"), item.get("event"), item.get("until")
            if (
                isinstance(room_id, str)
                and isinstance(source, dict)
                and isinstance(source.get("event_id"), str)
                and isinstance(until, int | float)
            ):
                self._waiting[source["event_id"]] = _Waiting(room_id, source, float(until))

    async def update(self, new: Sequence[TimelineEvent], decrypt: Decrypt) -> list[TimelineEvent]:
        """After a sync: the waiting events that decrypt now (oldest first), then ``new``
        (this sync's undecryptable events) stored with the rest, the expired ones dropped.

        The decrypted ones stay stored until :meth:`done`, so a crash while handling them
        leaves them to the next run.
        """
        decrypted: list[TimelineEvent] = []
        for event_id, waiting in self._waiting.items():
            if waiting.handed_out:
                continue
            plain = decrypt(waiting.room_id, waiting.source)
            if plain is not None:
                waiting.handed_out = True
                decrypted.append(TimelineEvent(waiting.room_id, plain))
                log.info("matrix: decrypted %s in %s late", event_id, waiting.room_id)
        now = self._clock()
        changed = False
        for event in new:
            new_id = event.source.get("event_id")
            if isinstance(new_id, str) and new_id not in self._waiting:
                self._waiting[new_id] = _Waiting(event.room_id, event.source, now + KEPT_S)
                changed = True
        for event_id, waiting in list(self._waiting.items()):
            if waiting.until <= now and not waiting.handed_out:
                log.warning(
                    "matrix: could not decrypt %s in %s; giving up", event_id, waiting.room_id
                )
                del self._waiting[event_id]
                changed = True
        while len(self._waiting) > MAX_KEPT:
            event_id = next(iter(self._waiting))  # the oldest
            log.warning("matrix: too many events waiting for keys; dropping %s", event_id)
            del self._waiting[event_id]
            changed = True
        if changed:
            await self._save()
        return decrypted

    async def done(self, event_id: str) -> None:
        """The decrypted event ``event_id`` was handled: it waits no more."""
        if self._waiting.pop(event_id, None) is not None:
            await self._save()

    async def _save(self) -> None:
        entries: list[Mapping[str, Any]] = [
            {"room_id": w.room_id, "event": dict(w.source), "until": w.until}
            for w in self._waiting.values()
        ]
        until = max((w.until for w in self._waiting.values()), default=None)
        await self._state.set_undecrypted(entries, expires_at=until)

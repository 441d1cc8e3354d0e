"""What the Matrix adapter keeps in the store's key-value table.

Everything is under the namespace ``matrix:<bot user id>``, so two bots can share a database:

- ``next_batch``: the sync token up to which every event has been handled;
- ``credentials``: access token and device id from a password login (a restart reuses the
  device, and with it the encryption keys);
- ``posted:<session id> <room id>``: a board's place (its board location, platform
  ``matrix:<bot user id>``, is in the store's :mod:`core.store.boards`, deleted with its game),
  not tied to the session and kept for :data:`POSTED_KEPT_S`, written in the board location's
  transaction: a game ended before its first move (``!final`` right after the start) is
  deleted with its board location, and its board must still be edited to say so, by whichever
  process handles the ``!final``;
- ``board-at:<event id>``: the place of a board that names no game of the store (a puzzle's:
  ``GameServicePort.handle_move`` takes it as a game's), kept for :data:`POSTED_KEPT_S`, so
  that its keycap reactions find it as a game's board is found by its location;
- ``handled:<event id>``: the receipt of an event the service handled, written in the same
  transaction as the first change it made (alone when it made none); it expires after
  :data:`HANDLED_KEPT_S`;
- ``undecrypted``: encrypted events still waiting for their room key (see
  :mod:`adapters.matrix.undecrypted`);
- ``unshown``: boards whose newest edit was queued and not yet delivered (see
  :mod:`adapters.matrix.unshown`);
- ``rate_limited_at``: when the homeserver last refused the bot for its rate, so that a new
  term (a restart, a takeover) does not spend its first events on keycaps to learn it again.

The previous version kept ``handled:<room id>``, a list of the room's last event ids written
after the change (room ids begin with ``!``, event ids with ``$``: the keys never collide).
Such a list is read during the first sync after an upgrade (the only events it can cover come
from the token saved before it) and deleted once that sync's events are handled.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

from core.ports import BoardLocation, KvEntry, Store
from core.store import boards, kv

HANDLED_KEPT_S = 3 * 86400.0
"""How long a receipt outlives its event. An event comes back only in a sync from a token saved
before it was handled, and the token follows the handled events within seconds; days cover a
bot that crashed and stayed down over a weekend."""

POSTED_KEPT_S = 3 * 86400.0
"""How long the untied copy of a board's place outlives its posting: games that end before
their first move are almost always ended within minutes (an unanswered start, a mistake)."""

_UNDECRYPTED = "undecrypted"
_UNSHOWN = "unshown"
_LIMITED_AT = "rate_limited_at"
_FREE = "rate_free"


@dataclass(frozen=True, slots=True)
class Credentials:
    """A login to reuse: never logged (the token is a secret)."""

    access_token: str
    device_id: str

    def __repr__(self) -> str:
        return f"Credentials(access_token='***', device_id={self.device_id!r})"


@dataclass(frozen=True, slots=True)
class BoardRef:
    """Where a session's board lives: its room and original event."""

    session_id: str
    room_id: str
    event_id: str


@dataclass(frozen=True, slots=True)
class Waiting:
    """A board whose newest edit is queued: the version it shows, and for a game's last
    board its content (a game ended before its first move is deleted: the store cannot
    show it again)."""

    ref: BoardRef
    version: int
    final: Mapping[str, Any] | None = None


class MatrixState:
    """Typed access to the adapter's keys for one bot user."""

    def __init__(self, store: Store, user_id: str) -> None:
        self._store = store
        self._namespace = f"matrix:{user_id}"
        # Per-room lists of the previous version, read while the first sync is handled.
        self._legacy: dict[str, frozenset[str]] | None = {}

    # --- sync token and login -------------------------------------------------------------

    async def next_batch(self) -> str | None:
        return await self._store.run(kv.kv_get(self._namespace, "next_batch"))

    async def set_next_batch(self, token: str) -> None:
        await self._store.run(kv.kv_set(self._namespace, "next_batch", token))

    async def credentials(self) -> Credentials | None:
        raw = await self._store.run(kv.kv_get(self._namespace, "credentials"))
        if raw is None:
            return None
        try:
            data = json.loads(raw)
            return Credentials(str(data["access_token"]), str(data["device_id"]))
        except (ValueError, KeyError, TypeError):
            return None

    async def set_credentials(self, credentials: Credentials) -> None:
        await self._store.run(
            kv.kv_set(self._namespace, "credentials", json.dumps(asdict(credentials)))
        )

    async def forget_credentials(self) -> None:
        await self._store.run(kv.kv_delete(self._namespace, "credentials"))

    # --- rate limits ----------------------------------------------------------------------

    async def limited_ago(self, now: float) -> float | None:
        """Seconds since the homeserver last refused the bot for its rate, if it is noted."""
        raw = await self._store.run(kv.kv_get(self._namespace, _LIMITED_AT))
        try:
            return None if raw is None else max(0.0, now - float(raw))
        except ValueError:
            return None

    async def set_limited_at(self, now: float, *, keep: float) -> None:
        """Note that the homeserver refused the bot for its rate at ``now``, for ``keep`` s;
        whatever freedom was noted before is forgotten (the server holds the bot to a limit)."""
        await self._store.run(
            kv.kv_set(self._namespace, _LIMITED_AT, repr(now), expires_at=now + keep)
        )
        await self._store.run(kv.kv_delete(self._namespace, _FREE))

    async def free(self) -> bool:
        """Whether the bot was proven free of the homeserver's default rate (and no refusal
        came since)."""
        return await self._store.run(kv.kv_get(self._namespace, _FREE)) is not None

    async def set_free(self, now: float) -> None:
        """Note that the homeserver let the bot past its default rate (at ``now``)."""
        await self._store.run(kv.kv_set(self._namespace, _FREE, repr(now)))

    # --- boards ---------------------------------------------------------------------------

    async def board(self, session_id: str, room_id: str | None = None) -> BoardRef | None:
        """The board of ``session_id``; in ``room_id`` when given (an open game between two
        rooms has a board in each), else its first. A room's board is found shortly after its
        game was deleted too (``posted:<session> <room>``)."""
        if room_id is None:
            found = await self._store.run(boards.boards_of(self._namespace, session_id))
            return _ref(found[0]) if found else None
        at = await self._store.run(boards.board_at(self._namespace, session_id, room_id))
        if at is not None:
            return _ref(at)
        return _board(
            await self._store.run(kv.kv_get(self._namespace, _posted(session_id, room_id)))
        )

    async def board_at(self, event_id: str, room_id: str | None = None) -> BoardRef | None:
        """The board whose original event is ``event_id`` (a reaction's target), in
        ``room_id`` when given."""
        at = await self._store.run(boards.board_by_message(self._namespace, event_id))
        ref = _ref(at) if at is not None else None
        if ref is None:
            ref = _board(await self._store.run(kv.kv_get(self._namespace, _by_event(event_id))))
        if ref is None or (room_id is not None and ref.room_id != room_id):
            return None
        return ref

    async def set_board(self, ref: BoardRef, now: float) -> None:
        """Remember the board of ``ref.session_id`` in ``ref.room_id`` (until its game is
        deleted, and also until :data:`POSTED_KEPT_S` after ``now``, seconds since the
        epoch): one transaction."""
        location = BoardLocation(self._namespace, ref.session_id, ref.room_id, ref.event_id)
        posted = KvEntry(
            self._namespace,
            _posted(ref.session_id, ref.room_id),
            json.dumps(asdict(ref)),
            expires_at=now + POSTED_KEPT_S,
        )
        if not await self._store.run(boards.put_board(location, now, kept=posted)):
            # No game of that id: a puzzle's board, found again by its event (board_at).
            raw = json.dumps(asdict(ref))
            by_event = KvEntry(
                self._namespace, _by_event(ref.event_id), raw, expires_at=now + POSTED_KEPT_S
            )
            await self._store.run(kv.put(by_event))

    async def forget_board(self, ref: BoardRef) -> None:
        await self._store.run(boards.forget_board(self._namespace, ref.session_id, ref.room_id))
        await self._store.run(kv.kv_delete(self._namespace, _posted(ref.session_id, ref.room_id)))

    async def unshown(self) -> list[Waiting]:
        """The boards whose newest edit was queued and not delivered."""
        found = []
        for item in _objects(await self._store.run(kv.kv_get(self._namespace, _UNSHOWN))):
            ref = _board(json.dumps(item))
            final = item.get("final")
            if ref is not None and isinstance(item.get("version"), int):
                kept = final if isinstance(final, dict) else None
                found.append(Waiting(ref, int(item["version"]), kept))
        return found

    async def set_unshown(self, waiting: list[Waiting]) -> None:
        if not waiting:
            await self._store.run(kv.kv_delete(self._namespace, _UNSHOWN))
            return
        rows = [
            {**asdict(entry.ref), "version": entry.version, "final": entry.final}
            for entry in waiting
        ]
        await self._store.run(kv.kv_set(self._namespace, _UNSHOWN, json.dumps(rows)))

    # --- handled events -------------------------------------------------------------------

    def receipt(self, event_id: str, now: float) -> KvEntry:
        """The row that says ``event_id`` was handled, for the service to write with the
        change the event makes."""
        return KvEntry(self._namespace, f"handled:{event_id}", "1", expires_at=now + HANDLED_KEPT_S)

    async def mark_handled(self, event_id: str, now: float) -> None:
        """Write the receipt of ``event_id`` alone (an event the service made no change for
        in one transaction: a room upgrade)."""
        entry = self.receipt(event_id, now)
        await self._store.run(
            kv.kv_set(entry.namespace, entry.key, entry.value, expires_at=entry.expires_at)
        )

    async def was_handled(self, room_id: str, event_id: str) -> bool:
        """Whether the event's receipt (or the previous version's list) names it."""
        if await self._store.run(kv.kv_get(self._namespace, f"handled:{event_id}")) is not None:
            return True
        return event_id in await self._legacy_list(room_id)

    async def _legacy_list(self, room_id: str) -> frozenset[str]:
        if self._legacy is None:
            return frozenset()
        known = self._legacy.get(room_id)
        if known is None:
            raw = await self._store.run(kv.kv_get(self._namespace, f"handled:{room_id}"))
            known = frozenset(_strings(raw))
            if self._legacy is not None:  # the first sync may have ended while reading
                self._legacy[room_id] = known
        return known

    async def first_sync_handled(self) -> None:
        """The events of the first sync are handled: the previous version's lists cover
        nothing later, so the ones read are deleted and no more are read."""
        if self._legacy is None:
            return
        read, self._legacy = self._legacy, None
        for room_id, known in read.items():
            if known:
                await self._store.run(kv.kv_delete(self._namespace, f"handled:{room_id}"))

    # --- encrypted events waiting for their key -------------------------------------------

    async def undecrypted(self) -> list[Mapping[str, Any]]:
        """The stored entries (as :meth:`set_undecrypted` wrote them)."""
        return list(_objects(await self._store.run(kv.kv_get(self._namespace, _UNDECRYPTED))))

    async def set_undecrypted(
        self, entries: list[Mapping[str, Any]], *, expires_at: float | None
    ) -> None:
        """Replace the stored entries (none: delete the row); the row goes at ``expires_at``."""
        if not entries:
            await self._store.run(kv.kv_delete(self._namespace, _UNDECRYPTED))
            return
        await self._store.run(
            kv.kv_set(self._namespace, _UNDECRYPTED, json.dumps(entries), expires_at=expires_at)
        )


def _objects(raw: str | None) -> list[dict[str, Any]]:
    """The JSON objects of a stored JSON list (none when it is missing or unreadable)."""
    try:
        loaded = json.loads(raw) if raw else []
    except ValueError:
        return []
    return [item for item in loaded if isinstance(item, dict)] if isinstance(loaded, list) else []


def _strings(raw: str | None) -> list[str]:
    try:
        loaded = json.loads(raw) if raw else []
    except ValueError:
        return []
    return [item for item in loaded if isinstance(item, str)] if isinstance(loaded, list) else []


def _posted(session_id: str, room_id: str) -> str:
    return f"posted:{session_id} {room_id}"


def _by_event(event_id: str) -> str:
    return f"board-at:{event_id}"


def _ref(location: BoardLocation) -> BoardRef:
    return BoardRef(location.session_id, location.chat_id, location.message_id)


def _board(raw: str | None) -> BoardRef | None:
    if raw is None:
        return None
    try:
        data = json.loads(raw)
        return BoardRef(str(data["session_id"]), str(data["room_id"]), str(data["event_id"]))
    except (ValueError, KeyError, TypeError):
        return None

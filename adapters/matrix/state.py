"""What the Matrix adapter keeps in the store's key-value table.

Everything is under the namespace ``matrix:<bot user id>``, so two bots can share a database:

- ``next_batch``: the sync token up to which every event has been handled;
- ``credentials``: access token and device id from a password login (a restart reuses the
  device, and with it the encryption keys);
- ``board:<session id>`` and ``event:<event id>``: a session's board message (the original
  event, which every edit points at) and the way back from a reaction's target;
- ``handled:<room id>``: the last events handled in a room, so a crash between handling an
  event and saving the sync token never handles it twice.
"""

from __future__ import annotations

import json
from collections import deque
from dataclasses import asdict, dataclass
from typing import Protocol

_HANDLED_KEPT = 64


class KeyValueStore(Protocol):
    """The adapter-state part of ``core.store.SessionStore``."""

    async def kv_get(self, namespace: str, key: str) -> str | None: ...

    async def kv_set(self, namespace: str, key: str, value: str) -> None: ...

    async def kv_delete(self, namespace: str, key: str) -> None: ...


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


class MatrixState:
    """Typed access to the adapter's keys for one bot user."""

    def __init__(self, store: KeyValueStore, user_id: str) -> None:
        self._store = store
        self._namespace = f"matrix:{user_id}"
        self._handled: dict[str, deque[str]] = {}

    async def next_batch(self) -> str | None:
        return await self._store.kv_get(self._namespace, "next_batch")

    async def set_next_batch(self, token: str) -> None:
        await self._store.kv_set(self._namespace, "next_batch", token)

    async def credentials(self) -> Credentials | None:
        raw = await self._store.kv_get(self._namespace, "credentials")
        if raw is None:
            return None
        try:
            data = json.loads(raw)
            return Credentials(str(data["access_token"]), str(data["device_id"]))
        except (ValueError, KeyError, TypeError):
            return None

    async def set_credentials(self, credentials: Credentials) -> None:
        await self._store.kv_set(self._namespace, "credentials", json.dumps(asdict(credentials)))

    async def forget_credentials(self) -> None:
        await self._store.kv_delete(self._namespace, "credentials")

    async def board(self, session_id: str) -> BoardRef | None:
        return _board(await self._store.kv_get(self._namespace, f"board:{session_id}"))

    async def board_at(self, event_id: str) -> BoardRef | None:
        """The board whose original event is ``event_id`` (a reaction's target)."""
        session_id = await self._store.kv_get(self._namespace, f"event:{event_id}")
        return None if session_id is None else await self.board(session_id)

    async def set_board(self, ref: BoardRef) -> None:
        old = await self.board(ref.session_id)
        if old is not None and old.event_id != ref.event_id:
            await self._store.kv_delete(self._namespace, f"event:{old.event_id}")
        await self._store.kv_set(
            self._namespace, f"board:{ref.session_id}", json.dumps(asdict(ref))
        )
        await self._store.kv_set(self._namespace, f"event:{ref.event_id}", ref.session_id)

    async def forget_board(self, ref: BoardRef) -> None:
        await self._store.kv_delete(self._namespace, f"event:{ref.event_id}")
        await self._store.kv_delete(self._namespace, f"board:{ref.session_id}")

    async def was_handled(self, room_id: str, event_id: str) -> bool:
        return event_id in await self._recent(room_id)

    async def mark_handled(self, room_id: str, event_id: str) -> None:
        recent = await self._recent(room_id)
        recent.append(event_id)
        await self._store.kv_set(self._namespace, f"handled:{room_id}", json.dumps(list(recent)))

    async def _recent(self, room_id: str) -> deque[str]:
        recent = self._handled.get(room_id)
        if recent is None:
            raw = await self._store.kv_get(self._namespace, f"handled:{room_id}")
            try:
                loaded = json.loads(raw) if raw else []
            except ValueError:
                loaded = []
            items = (
                [item for item in loaded if isinstance(item, str)]
                if isinstance(loaded, list)
                else []
            )
            recent = deque(items, maxlen=_HANDLED_KEPT)
            self._handled[room_id] = recent
        return recent


def _board(raw: str | None) -> BoardRef | None:
    if raw is None:
        return None
    try:
        data = json.loads(raw)
        return BoardRef(str(data["session_id"]), str(data["room_id"]), str(data["event_id"]))
    except (ValueError, KeyError, TypeError):
        return None

"""A hand-written stand-in for the homeserver side of :class:`adapters.matrix.transport.Transport`.

Tests script the sync responses (:meth:`FakeTransport.deliver`) and read what the adapter sent.
Decryption is scripted too (:attr:`FakeTransport.keys`): the order in which a real homeserver
hands out an encrypted message and its room key cannot be arranged from outside.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from adapters.matrix.departures import Departure
from adapters.matrix.transport import Login, MatrixError, SyncBatch, TimelineEvent

BOT = "@gamebot:example.org"


@dataclass(frozen=True, slots=True)
class Sent:
    room_id: str
    event_type: str
    content: Mapping[str, Any]
    event_id: str


class FakeTransport:
    def __init__(self) -> None:
        self._batches: asyncio.Queue[SyncBatch | MatrixError] = asyncio.Queue()
        self.syncs: list[tuple[str | None, bool, bool]] = []
        self.sent: list[Sent] = []
        self.redacted: list[tuple[str, str]] = []
        self.joined: list[str] = []
        self.left: list[str] = []
        self.send_errors: list[MatrixError] = []
        self.room_errors: dict[str, list[MatrixError]] = {}  # the next sends to that room fail
        self.gates: dict[str, asyncio.Event] = {}  # sends to these rooms wait for the gate
        self.waiting = 0  # sends that came to a gate
        self.room_members: dict[str, list[str]] = {}
        self.public_rooms: set[str] = set()
        self.join_errors: dict[str, MatrixError] = {}
        self.logins: list[tuple[str, str | None]] = []
        # Encrypted event id -> its plain source, once "its room key has arrived".
        self.keys: dict[str, dict[str, Any]] = {}
        self.decrypt_attempts: list[str] = []
        self.closed = False
        self._changed = asyncio.Condition()
        self._count = 0
        self._token = 0

    # --- scripting -------------------------------------------------------------------------

    def deliver(
        self,
        *events: tuple[str, dict[str, Any]],
        invites: tuple[Any, ...] = (),
        undecrypted: tuple[tuple[str, dict[str, Any]], ...] = (),
        state: tuple[tuple[str, dict[str, Any]], ...] = (),
        gone: tuple[Departure, ...] = (),
    ) -> str:
        """Queue one sync response with ``(room id, event source)`` pairs (and encrypted ones
        that could not be decrypted, the rooms' state sections, and the members who left in
        the gap before a limited timeline); its token."""
        self._token += 1
        token = f"s{self._token}"
        timeline = tuple(TimelineEvent(room, source) for room, source in events)
        waiting = tuple(TimelineEvent(room, source) for room, source in undecrypted)
        sections = tuple(TimelineEvent(room, source) for room, source in state)
        self._batches.put_nowait(
            SyncBatch(token, tuple(invites), timeline, waiting, sections, gone=gone)
        )
        return token

    def fail_sync(self, error: MatrixError) -> None:
        self._batches.put_nowait(error)

    async def wait_sent(
        self, predicate: Callable[[Sent], bool], *, count: int = 1, within: float = 5.0
    ) -> list[Sent]:
        async def wait() -> list[Sent]:
            async with self._changed:
                while len(found := [s for s in self.sent if predicate(s)]) < count:
                    await self._changed.wait()
                return found

        return await asyncio.wait_for(wait(), within)

    async def wait_until(self, condition: Callable[[], bool], *, within: float = 5.0) -> None:
        async def wait() -> None:
            async with self._changed:
                while not condition():
                    await self._changed.wait()

        await asyncio.wait_for(wait(), within)

    async def _changed_now(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    # --- Transport -------------------------------------------------------------------------

    @property
    def encryption(self) -> bool:
        return False

    async def restore(self, user_id: str, device_id: str | None, access_token: str) -> Login:
        self.logins.append(("token", device_id))
        if access_token == "revoked":
            raise MatrixError("whoami", "gone", "M_UNKNOWN_TOKEN")
        return Login(user_id, device_id or "TOKENDEV", access_token)

    async def login(self, user_id: str, password: str, device_id: str | None) -> Login:
        self.logins.append(("password", device_id))
        return Login(user_id, device_id or "NEWDEVICE", f"token-{len(self.logins)}")

    async def sync(
        self, since: str | None, timeout_ms: int, *, first: bool = False, full_state: bool = False
    ) -> SyncBatch:
        self.syncs.append((since, first, full_state))
        await self._changed_now()
        item = await self._batches.get()
        if isinstance(item, MatrixError):
            raise item
        return item

    async def after_sync(self) -> None:
        await self._changed_now()

    def decrypt(self, room_id: str, source: Mapping[str, Any]) -> Mapping[str, Any] | None:
        event_id = str(source.get("event_id"))
        self.decrypt_attempts.append(event_id)
        return self.keys.get(event_id)

    async def send(self, room_id: str, content: Mapping[str, Any], event_type: str) -> str:
        gate = self.gates.get(room_id)
        if gate is not None:
            self.waiting += 1
            await self._changed_now()
            await gate.wait()
        if self.send_errors:
            raise self.send_errors.pop(0)
        if self.room_errors.get(room_id):
            raise self.room_errors[room_id].pop(0)
        self._count += 1
        event_id = f"$bot{self._count}"
        self.sent.append(Sent(room_id, event_type, content, event_id))
        await self._changed_now()
        return event_id

    async def redact(self, room_id: str, event_id: str, reason: str | None = None) -> None:
        self.redacted.append((room_id, event_id))
        await self._changed_now()

    async def join(self, room_id: str) -> None:
        if room_id in self.join_errors:
            raise self.join_errors[room_id]
        self.joined.append(room_id)
        await self._changed_now()

    async def leave(self, room_id: str) -> None:
        self.left.append(room_id)
        await self._changed_now()

    def display_name(self, room_id: str, user_id: str) -> str:
        return user_id.removeprefix("@").partition(":")[0]

    def own_names(self, room_id: str) -> tuple[str, ...]:
        return ("Game Bot",)

    def members(self, room_id: str) -> tuple[str, ...]:
        return tuple(self.room_members.get(room_id, ()))

    def open_to_join(self, room_id: str) -> bool:
        return room_id in self.public_rooms

    async def close(self) -> None:
        self.closed = True
        await self._changed_now()


def text(event_id: str, sender: str, body: str) -> dict[str, Any]:
    return {
        "type": "m.room.message",
        "event_id": event_id,
        "sender": sender,
        "content": {"msgtype": "m.text", "body": body},
    }


def reaction(event_id: str, sender: str, target: str, key: str) -> dict[str, Any]:
    return {
        "type": "m.reaction",
        "event_id": event_id,
        "sender": sender,
        "content": {"m.relates_to": {"rel_type": "m.annotation", "event_id": target, "key": key}},
    }


def power_levels(
    event_id: str, sender: str, users: Mapping[str, int], users_default: int = 0
) -> dict[str, Any]:
    """An ``m.room.power_levels`` state event (the whole of the room's levels)."""
    return {
        "type": "m.room.power_levels",
        "state_key": "",
        "event_id": event_id,
        "sender": sender,
        "content": {"users": dict(users), "users_default": users_default, "events_default": 0},
    }


def encrypted(event_id: str, sender: str) -> dict[str, Any]:
    """An ``m.room.encrypted`` event as it arrives before its room key."""
    return {
        "type": "m.room.encrypted",
        "event_id": event_id,
        "sender": sender,
        "content": {
            "algorithm": "m.megolm.v1.aes-sha2",
            "ciphertext": "AwgAEnAC...",
            "device_id": "PHONE",
            "sender_key": "curve-key",
            "session_id": "megolm-session",
        },
    }

"""The I/O seam: a typed :class:`Transport` protocol and its matrix-nio implementation.

The adapter speaks to the homeserver only through :class:`Transport`, in plain values (raw
event dicts, event ids) and :class:`MatrixError` exceptions, so its logic is tested with a
hand-written fake and nio's untyped surface stays in this one module.
"""

from __future__ import annotations

import contextlib
import io
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import aiohttp
import nio

from adapters.matrix.departures import Departure, gap_departures
from adapters.matrix.events import events_after_own_join
from adapters.matrix.power import is_tracked

log = logging.getLogger(__name__)

# A generous timeline per room and sync: after a restart every message sent while the bot was
# down must be there (Synapse's default is 10 per room).
SYNC_FILTER: dict[str, Any] = {"room": {"timeline": {"limit": 100}}}
# The very first sync only learns the rooms and the token; history is not replayed.
FIRST_SYNC_FILTER: dict[str, Any] = {"room": {"timeline": {"limit": 1}}}
# Join rules under which nobody joins without a member letting them in.
INVITE_ONLY = frozenset({"invite", "knock", "private"})


class MatrixError(Exception):
    """A request the homeserver refused or that could not be made.

    Attributes:
        status: the Matrix ``errcode`` (``M_FORBIDDEN``) or an HTTP status, when known.
        retry_after_ms: how long the server asked us to wait (rate limits).
        soft_logout: the server says the token expired (rather than was revoked).
    """

    def __init__(
        self,
        what: str,
        message: str,
        status: str | None = None,
        retry_after_ms: int | None = None,
        *,
        soft_logout: bool = False,
    ) -> None:
        super().__init__(f"{what} failed: {status or 'error'} {message}".strip())
        self.status = status
        self.retry_after_ms = retry_after_ms
        self.soft_logout = soft_logout

    @property
    def rate_limited(self) -> bool:
        return self.status in ("M_LIMIT_EXCEEDED", "429")

    @property
    def unknown_token(self) -> bool:
        return self.status in ("M_UNKNOWN_TOKEN", "M_MISSING_TOKEN")

    @property
    def transient(self) -> bool:
        """Worth trying again: rate limits, server errors, no connection."""
        return self.rate_limited or self.status is None or self.status.startswith("5")


@dataclass(frozen=True, slots=True)
class Invite:
    room_id: str
    inviter: str | None


@dataclass(frozen=True, slots=True)
class TimelineEvent:
    room_id: str
    source: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class SyncBatch:
    """One sync response: the token after it, pending invites, new timeline events in order,
    and the encrypted events it could not decrypt yet (raw, for :meth:`Transport.decrypt`).

    ``state`` holds the room state events that power levels depend on
    (:data:`adapters.matrix.power.TRACKED`) and that come before ``events``: the rooms' state
    sections, and the timeline's events from before the bot joined. Later ones are in ``events``,
    in their order. ``gone``: the members who left in the gap before a limited timeline, read
    from its state section (:func:`adapters.matrix.departures.gap_departures`); those who left
    in the timeline are in ``events``.
    """

    next_batch: str
    invites: tuple[Invite, ...] = ()
    events: tuple[TimelineEvent, ...] = ()
    undecrypted: tuple[TimelineEvent, ...] = ()
    state: tuple[TimelineEvent, ...] = ()
    left: tuple[str, ...] = ()  # rooms the bot left, or was kicked or banned from
    gone: tuple[Departure, ...] = ()


@dataclass(frozen=True, slots=True)
class Login:
    user_id: str
    device_id: str
    access_token: str

    def __repr__(self) -> str:
        return f"Login(user_id={self.user_id!r}, device_id={self.device_id!r}, access_token='***')"


class Transport(Protocol):
    """What the adapter needs from a Matrix client. Failures raise :class:`MatrixError`."""

    @property
    def encryption(self) -> bool:
        """Whether end-to-end encryption is available (``matrix-nio[e2e]`` installed)."""
        ...

    async def restore(self, user_id: str, device_id: str | None, access_token: str) -> Login:
        """Use an existing token; checks it (and learns the device id) with ``whoami``."""
        ...

    async def login(self, user_id: str, password: str, device_id: str | None) -> Login:
        """Log in with a password, on ``device_id`` when given (the same device again)."""
        ...

    async def sync(
        self, since: str | None, timeout_ms: int, *, first: bool = False, full_state: bool = False
    ) -> SyncBatch: ...

    async def after_sync(self) -> None:
        """Housekeeping between syncs (encryption keys, to-device messages)."""
        ...

    def decrypt(self, room_id: str, source: Mapping[str, Any]) -> Mapping[str, Any] | None:
        """The plain event of an encrypted one from :attr:`SyncBatch.undecrypted`, or None
        while its room key is still missing."""
        ...

    async def send(self, room_id: str, content: Mapping[str, Any], event_type: str) -> str:
        """Send an event; its event id."""
        ...

    async def redact(self, room_id: str, event_id: str, reason: str | None = None) -> None: ...

    async def join(self, room_id: str) -> None: ...

    async def leave(self, room_id: str) -> None: ...

    def display_name(self, room_id: str, user_id: str) -> str:
        """How the room calls ``user_id`` (its display name, else the localpart)."""
        ...

    def own_names(self, room_id: str) -> tuple[str, ...]:
        """The bot's display names (in the room, and its global one)."""
        ...

    def members(self, room_id: str) -> tuple[str, ...]:
        """The room's joined members as the client knows them."""
        ...

    def open_to_join(self, room_id: str) -> bool:
        """Someone may join the room without an invite (a public or restricted join rule), or
        the client does not know the room."""
        ...

    async def close(self) -> None: ...


def _error(what: str, response: object) -> MatrixError:
    status = getattr(response, "status_code", None)
    retry = getattr(response, "retry_after_ms", None)
    return MatrixError(
        what,
        str(getattr(response, "message", response)),
        None if status is None else str(status),
        retry if isinstance(retry, int) else None,
        soft_logout=getattr(response, "soft_logout", False) is True,
    )


class NioTransport:
    """:class:`Transport` over ``nio.AsyncClient``.

    The client does no 429 retries of its own (``max_limit_exceeded=0``): rate limits come back
    as :class:`MatrixError` so the adapter backs off per room, and one rate-limited room does not
    hold the others. Encryption is on when ``matrix-nio[e2e]`` is installed; its keys live in
    ``store_path``, per user and device.
    """

    def __init__(self, homeserver: str, user_id: str, store_path: str) -> None:
        self._encryption = bool(nio.crypto.ENCRYPTION_ENABLED)
        self._store_path = Path(store_path)
        if self._encryption:
            self._store_path.mkdir(parents=True, exist_ok=True)
        config = nio.AsyncClientConfig(
            max_limit_exceeded=0,
            max_timeouts=2,
            request_timeout=30,
            encryption_enabled=self._encryption,
            store_sync_tokens=False,  # the adapter keeps its token in our store
        )
        self._client = nio.AsyncClient(
            homeserver,
            user_id,
            store_path=str(self._store_path) if self._encryption else "",
            config=config,
        )
        self._global_name: str | None = None

    @property
    def encryption(self) -> bool:
        return self._encryption

    async def restore(self, user_id: str, device_id: str | None, access_token: str) -> Login:
        self._client.user_id = user_id
        self._client.access_token = access_token
        try:
            response = await self._client.whoami()
        except (aiohttp.ClientError, OSError, TimeoutError) as error:
            raise MatrixError("whoami", str(error)) from error
        if not isinstance(response, nio.WhoamiResponse):
            self._client.access_token = ""
            raise _error("whoami", response)
        device = device_id or response.device_id
        if not device:
            raise MatrixError("whoami", "the server did not say which device the token is for")
        self._client.restore_login(str(response.user_id), str(device), access_token)
        await self._after_login()
        return Login(str(response.user_id), str(device), access_token)

    async def login(self, user_id: str, password: str, device_id: str | None) -> Login:
        self._client.user = user_id
        self._client.device_id = device_id
        try:
            response = await self._client.login(password=password, device_name="chatbots")
        except (aiohttp.ClientError, OSError, TimeoutError) as error:
            raise MatrixError("login", str(error)) from error
        if not isinstance(response, nio.LoginResponse):
            raise _error("login", response)
        await self._after_login()
        return Login(str(response.user_id), str(response.device_id), str(response.access_token))

    async def _after_login(self) -> None:
        if self._client.olm and self._client.should_upload_keys:
            response = await self._client.keys_upload()
            if not isinstance(response, nio.KeysUploadResponse):
                log.warning("uploading encryption keys failed: %s", response)
        response = await self._client.get_displayname()
        if isinstance(response, nio.ProfileGetDisplayNameResponse) and response.displayname:
            self._global_name = str(response.displayname)

    async def sync(
        self, since: str | None, timeout_ms: int, *, first: bool = False, full_state: bool = False
    ) -> SyncBatch:
        try:
            response = await self._client.sync(
                timeout=timeout_ms,
                sync_filter=FIRST_SYNC_FILTER if first else SYNC_FILTER,
                since=since,
                full_state=full_state or None,
            )
        except (
            nio.exceptions.LocalProtocolError,
            aiohttp.ClientError,
            OSError,
            TimeoutError,
        ) as error:
            raise MatrixError("sync", str(error)) from error
        if not isinstance(response, nio.SyncResponse):
            raise _error("sync", response)
        own = str(self._client.user_id)
        invites = tuple(
            Invite(room_id, _inviter(info.invite_state, own))
            for room_id, info in response.rooms.invite.items()
        )
        events: list[TimelineEvent] = []
        undecrypted: list[TimelineEvent] = []
        state: list[TimelineEvent] = []
        gone: list[Departure] = []
        for room_id, info in response.rooms.join.items():
            sources = [
                event.source
                for event in info.state
                if isinstance(getattr(event, "source", None), dict)
            ]
            state += (TimelineEvent(room_id, source) for source in sources if is_tracked(source))
            timeline = [
                (event, event.source)
                for event in info.timeline.events
                if isinstance(getattr(event, "source", None), dict)
            ]
            if info.timeline.limited:
                gone += gap_departures(room_id, sources, [s for _, s in timeline], own)
            kept = events_after_own_join([source for _, source in timeline], own)
            skipped = len(timeline) - len(kept)
            state += (TimelineEvent(room_id, s) for _, s in timeline[:skipped] if is_tracked(s))
            for event, source in timeline[skipped:]:
                # Not decrypted (yet): the room key usually follows within a sync or two.
                found = undecrypted if isinstance(event, nio.MegolmEvent) else events
                found.append(TimelineEvent(room_id, source))
        return SyncBatch(
            str(response.next_batch),
            invites,
            tuple(events),
            tuple(undecrypted),
            tuple(state),
            left=tuple(response.rooms.leave),
            gone=tuple(gone),
        )

    def decrypt(self, room_id: str, source: Mapping[str, Any]) -> Mapping[str, Any] | None:
        if not self._client.olm:
            return None
        event = nio.MegolmEvent.from_dict({**source, "room_id": room_id})
        if not isinstance(event, nio.MegolmEvent):
            return None  # malformed: it never will decrypt
        try:
            plain = self._client.decrypt_event(event)
        except Exception:  # nio raises EncryptionError and friends: just not yet
            return None
        plain_source = getattr(plain, "source", None)
        if isinstance(plain, nio.MegolmEvent) or not isinstance(plain_source, dict):
            return None
        return plain_source

    async def after_sync(self) -> None:
        client = self._client
        if not client.olm:
            return
        try:
            await client.send_to_device_messages()
            if client.should_upload_keys:
                await client.keys_upload()
            if client.should_query_keys:
                await client.keys_query()
            if client.should_claim_keys:
                await client.keys_claim(client.get_users_for_key_claiming())
        except (
            nio.exceptions.LocalProtocolError,
            aiohttp.ClientError,
            OSError,
            TimeoutError,
        ) as error:
            log.warning("encryption housekeeping failed: %s", error)

    async def send(self, room_id: str, content: Mapping[str, Any], event_type: str) -> str:
        try:
            response = await self._client.room_send(
                room_id, event_type, dict(content), ignore_unverified_devices=True
            )
        except (
            nio.exceptions.LocalProtocolError,
            nio.SendRetryError,
            aiohttp.ClientError,
            OSError,
            TimeoutError,
        ) as e:
            raise MatrixError("send", str(e)) from e
        if not isinstance(response, nio.RoomSendResponse):
            raise _error("send", response)
        return str(response.event_id)

    async def upload(
        self, room_id: str, data: bytes, content_type: str, filename: str
    ) -> dict[str, Any]:
        """Put ``data`` in the homeserver's media repository for ``room_id``: the content
        fields that point at it, ``url`` (an ``mxc://`` URI) or, in an encrypted room, ``file``
        (the encrypted attachment and its keys: the media repository is not end-to-end
        encrypted). See ``adapters/matrix/pictures.py``."""
        room = self._client.rooms.get(room_id)
        encrypt = bool(self._encryption and room is not None and room.encrypted)
        try:
            response, keys = await self._client.upload(
                io.BytesIO(data), content_type, filename, encrypt=encrypt, filesize=len(data)
            )
        except (aiohttp.ClientError, OSError, TimeoutError) as error:
            raise MatrixError("upload", str(error)) from error
        if not isinstance(response, nio.UploadResponse):
            raise _error("upload", response)
        if keys is None:
            return {"url": response.content_uri}
        return {"file": {**keys, "url": response.content_uri}}

    async def redact(self, room_id: str, event_id: str, reason: str | None = None) -> None:
        try:
            response = await self._client.room_redact(room_id, event_id, reason)
        except (aiohttp.ClientError, OSError, TimeoutError) as error:
            raise MatrixError("redact", str(error)) from error
        if not isinstance(response, nio.RoomRedactResponse):
            raise _error("redact", response)

    async def join(self, room_id: str) -> None:
        try:
            response = await self._client.join(room_id)
        except (aiohttp.ClientError, OSError, TimeoutError) as error:
            raise MatrixError("join", str(error)) from error
        if not isinstance(response, nio.JoinResponse):
            raise _error("join", response)

    async def leave(self, room_id: str) -> None:
        try:
            response = await self._client.room_leave(room_id)
        except (aiohttp.ClientError, OSError, TimeoutError) as error:
            raise MatrixError("leave", str(error)) from error
        if not isinstance(response, nio.RoomLeaveResponse):
            raise _error("leave", response)

    def display_name(self, room_id: str, user_id: str) -> str:
        room = self._client.rooms.get(room_id)
        name = room.user_name(user_id) if room is not None else None
        return str(name) if name else user_id.removeprefix("@").partition(":")[0]

    def members(self, room_id: str) -> tuple[str, ...]:
        room = self._client.rooms.get(room_id)
        return tuple(str(user) for user in room.users) if room is not None else ()

    def open_to_join(self, room_id: str) -> bool:
        room = self._client.rooms.get(room_id)
        return room is None or room.join_rule not in INVITE_ONLY

    def own_names(self, room_id: str) -> tuple[str, ...]:
        names: list[str] = []
        room = self._client.rooms.get(room_id)
        if room is not None:
            name = room.user_name(self._client.user_id)
            if name:
                names.append(str(name))
        if self._global_name and self._global_name not in names:
            names.append(self._global_name)
        return tuple(names)

    async def close(self) -> None:
        await self._client.close()
        store = self._client.store
        if store is not None:
            # nio's encryption store is SQLite (peewee): close it with the client.
            with contextlib.suppress(Exception):
                store.database.close()


def _inviter(invite_state: Sequence[Any], own_user_id: str) -> str | None:
    # nio's InviteMemberEvent pops "content" out of its source: read its attributes instead.
    for event in invite_state:
        if (
            getattr(event, "state_key", None) == own_user_id
            and getattr(event, "membership", None) == "invite"
        ):
            sender = getattr(event, "sender", None)
            return sender if isinstance(sender, str) else None
    return None

"""The connection state of each adapter, for ``/healthz`` and ``chatbots_platform_connected``.

An adapter that implements :class:`chatbots.health.Connection` (a ``connected`` property) is
its own report. The adapters of today do not yet, so this module reads what they do expose:

- the console is always connected;
- Discord: the adapter's client (``DiscordAdapter.bot``) is ready, not closed, and its gateway
  websocket is open (discord.py keeps ``is_ready()`` true across a reconnect, so the socket
  must be asked too);
- Matrix: the adapter's transport is wrapped in a :class:`SyncWatch`, so the last sync it made
  is known: connected while the last one succeeded, recently (after a failure, the next sync
  returns at once rather than long-polling, so the end of an outage is seen at once).

Once the adapters report ``connected`` themselves, :func:`connection_of` returns them as they
are and the rest of this module can go.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from chatbots.health import Connection

if TYPE_CHECKING:
    import asyncio

    from adapters.discord import DiscordAdapter
    from adapters.matrix import MatrixConfig
    from adapters.matrix.transport import Login, SyncBatch, Transport
    from core.ports import GameServicePort

__all__ = ["SyncWatch", "connection_of", "connections", "matrix_adapter"]

SYNC_STALE_AFTER = 90.0
"""Seconds after the last successful sync at which Matrix counts as down even with no error:
a long poll lasts 30 s and its request may take 30 s more to time out."""


class _Adapter(Protocol):
    name: str

    async def run(self, stop: asyncio.Event) -> None: ...


def connection_of(adapter: _Adapter) -> Connection:
    """How ``adapter``'s connection state is read.

    Raises:
        TypeError: an adapter of an unknown kind that does not report its state.
    """
    if isinstance(adapter, Connection):
        return adapter
    if adapter.name == "console":
        return _Fixed("console", up=True)
    if adapter.name == "discord":
        from adapters.discord import DiscordAdapter

        if isinstance(adapter, DiscordAdapter):
            return _DiscordGateway(adapter)
    raise TypeError(f"adapter {adapter.name!r} does not report its connection state")


def connections(adapters: Sequence[_Adapter]) -> list[Connection]:
    """:func:`connection_of` each adapter."""
    return [connection_of(adapter) for adapter in adapters]


class _Fixed:
    def __init__(self, name: str, *, up: bool) -> None:
        self.name = name
        self.connected = up


class _DiscordGateway:
    name = "discord"

    def __init__(self, adapter: DiscordAdapter) -> None:
        self._adapter = adapter

    @property
    def connected(self) -> bool:
        bot = self._adapter.bot
        if bot is None or bot.is_closed() or not bot.is_ready():
            return False
        # None before the first connection although the attribute is not typed Optional.
        socket: Any = bot.ws
        return socket is not None and bool(socket.open)


# --- Matrix -------------------------------------------------------------------------------------


class _WatchedAdapter:
    """An adapter together with what tells its connection state."""

    def __init__(self, adapter: _Adapter, state: Callable[[], bool]) -> None:
        self.adapter = adapter
        self.name = adapter.name
        self._state = state

    @property
    def connected(self) -> bool:
        return self._state()

    async def run(self, stop: asyncio.Event) -> None:
        """The adapter's own ``run``."""
        await self.adapter.run(stop)


def matrix_adapter(service: GameServicePort, config: MatrixConfig) -> _WatchedAdapter:
    """The Matrix adapter over matrix-nio, as ``MatrixAdapter`` builds it, with its syncs
    watched; the result reports ``connected``."""
    from adapters.matrix import MatrixAdapter
    from adapters.matrix.transport import NioTransport

    watch = SyncWatch(NioTransport(config.homeserver, config.user_id, config.store_path))
    adapter = MatrixAdapter(service, config, transport=watch)
    return _WatchedAdapter(adapter, lambda: watch.connected)


class SyncWatch:
    """A Matrix :class:`~adapters.matrix.transport.Transport` that remembers how its last sync
    went; everything else is passed through.

    Args:
        transport: the real transport.
        stale_after: seconds without a successful sync after which it counts as down.
        clock: monotonic seconds (injected for tests).
    """

    def __init__(
        self,
        transport: Transport,
        *,
        stale_after: float = SYNC_STALE_AFTER,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._transport = transport
        self._stale_after = stale_after
        self._clock = clock
        self._last_ok: float | None = None
        self._failing = False

    @property
    def connected(self) -> bool:
        """The last sync succeeded, less than ``stale_after`` seconds ago."""
        last = self._last_ok
        return not self._failing and last is not None and self._clock() - last < self._stale_after

    async def sync(
        self, since: str | None, timeout_ms: int, *, first: bool = False, full_state: bool = False
    ) -> SyncBatch:
        if self._failing:
            # The first sync after a failure does not long-poll: with nothing new it would only
            # answer after the full timeout, and the outage would look 30 s longer than it was.
            timeout_ms = 0
        try:
            batch = await self._transport.sync(
                since, timeout_ms, first=first, full_state=full_state
            )
        except Exception:
            self._failing = True
            raise
        self._failing = False
        self._last_ok = self._clock()
        return batch

    @property
    def encryption(self) -> bool:
        return self._transport.encryption

    async def restore(self, user_id: str, device_id: str | None, access_token: str) -> Login:
        return await self._transport.restore(user_id, device_id, access_token)

    async def login(self, user_id: str, password: str, device_id: str | None) -> Login:
        return await self._transport.login(user_id, password, device_id)

    async def after_sync(self) -> None:
        await self._transport.after_sync()

    def decrypt(self, room_id: str, source: Mapping[str, Any]) -> Mapping[str, Any] | None:
        return self._transport.decrypt(room_id, source)

    async def send(self, room_id: str, content: Mapping[str, Any], event_type: str) -> str:
        return await self._transport.send(room_id, content, event_type)

    async def redact(self, room_id: str, event_id: str, reason: str | None = None) -> None:
        await self._transport.redact(room_id, event_id, reason)

    async def join(self, room_id: str) -> None:
        await self._transport.join(room_id)

    async def leave(self, room_id: str) -> None:
        await self._transport.leave(room_id)

    def display_name(self, room_id: str, user_id: str) -> str:
        return self._transport.display_name(room_id, user_id)

    def own_names(self, room_id: str) -> tuple[str, ...]:
        return self._transport.own_names(room_id)

    async def close(self) -> None:
        await self._transport.close()

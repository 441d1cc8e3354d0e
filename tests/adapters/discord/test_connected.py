"""DiscordAdapter.connected: the client is ready, not closed, and its gateway socket open."""

from __future__ import annotations

from adapters.discord import DiscordAdapter, DiscordConfig


class Socket:
    open = True


class Client:
    ready, closed = True, False
    ws: Socket | None = Socket()

    def is_ready(self) -> bool:
        return self.ready

    def is_closed(self) -> bool:
        return self.closed


def test_connected_while_ready_and_the_gateway_is_open() -> None:
    adapter = DiscordAdapter(object(), DiscordConfig(token="t"))  # type: ignore[arg-type]

    def up() -> bool:  # a call: each read is a new state, not one mypy narrowed
        return adapter.connected

    assert not up()  # no client yet
    client = Client()
    adapter.bot = client  # type: ignore[assignment]
    assert up()
    assert client.ws is not None
    client.ws.open = False  # the gateway dropped: discord.py stays "ready" while it reconnects
    assert not up()
    client.ws = None
    assert not up()
    client.ws, client.closed = Socket(), True
    assert not up()


def test_a_process_standing_by_for_its_shards_is_connected() -> None:
    from adapters.discord.takeover import ShardLeases

    config = DiscordConfig(token="t", shard_count=2, shard_ids=(0,))
    leases = ShardLeases(object(), 2, (0,), holder="h", ttl=3.0)  # type: ignore[arg-type]
    adapter = DiscordAdapter(object(), config, shard_leases=leases)  # type: ignore[arg-type]
    # Every shard it could run runs in another process: nothing of its own is down.
    assert adapter.connected
    leases.running = frozenset({0})  # its lease taken: now its client must be up
    assert not adapter.connected

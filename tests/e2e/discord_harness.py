"""The real bot against the Discord double: store, service and adapter in the test's loop.

Kept out of ``conftest.py`` (other platforms' e2e tests live in the same folder); the Discord
tests import the fixtures from here.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from adapters.discord import DiscordAdapter, DiscordConfig
from adapters.discord.bot import COMMAND_SYNC_LEASE, GameBot
from adapters.discord.identify import IdentifyGate
from core.leases import Lease
from core.sessions import GameService, ServiceSettings
from core.store import SqliteStore
from core.workers.runner import AiRunner
from tests.e2e.discord_double import TOKEN, DiscordDouble


class ManualClock:
    """A clock the test moves by hand (expiry without sleeping)."""

    def __init__(self, now: float = 1_700_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class Harness:
    """One bot process, as the application would run it, that can be stopped and restarted."""

    def __init__(
        self,
        double: DiscordDouble,
        db_path: Path,
        *,
        clock: ManualClock | None = None,
        settings: ServiceSettings | None = None,
        runner: AiRunner | None = None,
    ) -> None:
        self.double = double
        self.runner = runner  # None: the service's own process pool
        self.db_path = db_path
        self.clock = clock or ManualClock()
        self.settings = settings or ServiceSettings(
            ai_workers=0, ai_warm_up=False, ai_budget=0.3, sweep_interval=3600.0
        )
        self.starts = 0
        self._stop: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None
        self._store: SqliteStore | None = None
        self._service: GameService | None = None
        self.adapter: DiscordAdapter | None = None

    @property
    def service(self) -> GameService:
        assert self._service is not None
        return self._service

    @property
    def bot(self) -> GameBot:
        assert self.adapter is not None and self.adapter.bot is not None
        return self.adapter.bot

    async def start(
        self,
        *,
        guild_ids: tuple[int, ...] = (),
        shard_count: int | None = None,
        shard_ids: tuple[int, ...] = (),
        syncs: bool = True,
        member_events: bool = False,
    ) -> None:
        """Open the store, start the service, connect the bot (on ``shard_ids`` of
        ``shard_count`` shards, when given); return once every shard identified and, if
        ``syncs`` (this process takes the command-sync lease), the commands were synced."""
        self._store = await SqliteStore.open(self.db_path)
        self._service = GameService(
            self._store,
            settings=self.settings,
            clock=self.clock,
            rng=random.Random(4),
            runner=self.runner,
        )
        await self._service.start()
        config = DiscordConfig(
            token=TOKEN,
            guild_ids=guild_ids,
            api_base_url=self.double.api_base_url,
            gateway_url=self.double.gateway_url,
            shard_count=shard_count,
            shard_ids=shard_ids,
            member_events=member_events,
        )
        # As the application runs it: the one process that syncs holds the lease.
        lease = Lease(self._store, COMMAND_SYNC_LEASE)
        gate = IdentifyGate(self._store, lease.holder) if config.sharded else None
        self.adapter = DiscordAdapter(self._service, config, sync_lease=lease, identify_gate=gate)
        sessions = self.double.identify_count + max(1, len(config.shards))
        synced = self.double.command_syncs + syncs
        self._stop = asyncio.Event()
        self._task = asyncio.create_task(self.adapter.run(self._stop))
        self.starts += 1
        ready = asyncio.create_task(
            self.double.wait_for(
                lambda: (
                    self.double.identify_count >= sessions and self.double.command_syncs >= synced
                ),
                within=20.0,  # discord.py identifies a process's shards 5 s apart
            )
        )
        done, _ = await asyncio.wait({ready, self._task}, return_when=asyncio.FIRST_COMPLETED)
        if self._task in done:
            ready.cancel()
            self._task.result()
            raise AssertionError("the bot stopped before it was ready")
        ready.result()
        self.double.settle = self.bot.wait_idle

    async def stop(self) -> None:
        """Stop as on SIGTERM: the adapter, then the service, then the store."""
        if self._stop is not None and self._task is not None:
            self._stop.set()
            await asyncio.wait_for(self._task, 15)
        if self._service is not None:
            await self._service.close()
        if self._store is not None:
            await self._store.close()
        self._stop = self._task = None
        self._service = None
        self._store = None
        self.double.settle = None


@pytest.fixture
async def double() -> AsyncIterator[DiscordDouble]:
    async with DiscordDouble() as server:
        yield server


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
async def harness(
    double: DiscordDouble, tmp_path: Path, clock: ManualClock
) -> AsyncIterator[Harness]:
    running = Harness(double, tmp_path / "bot.sqlite3", clock=clock)
    await running.start()
    try:
        yield running
    finally:
        await running.stop()

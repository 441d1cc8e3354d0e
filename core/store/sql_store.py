""":class:`SqlStore`: the :class:`~core.store.SessionStore` methods, once for both databases.

Every method is one operation of :mod:`core.store.ops` run through :meth:`SqlStore._run`, the
one call path: it times the operation when a timer is set (:meth:`time_operations`; the
metrics' ``chatbots_store_operation_seconds``), and hands it to the store's driver
(:class:`~core.store.sqlite.SqliteStore`: one hop of its connection's thread;
:class:`~core.store.postgres.PostgresStore`: a connection of the pool).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from types import TracebackType
from typing import Self, TypeVar

from core.pairing.seeks import Seek
from core.ratings import Merge, RatedResult, Rating, RatingChange
from core.store import (
    departure_ops,
    link_ops,
    ops,
    outage_ops,
    outbox_ops,
    rating_ops,
    seek_ops,
    table_ops,
)
from core.store.base import (
    GameLimits,
    KvEntry,
    LeaseHolder,
    SchemaTooNew,
    StoreUnavailable,
    check_lease_arguments,
)
from core.store.link_ops import Linked
from core.store.migrations import Dialect
from core.store.models import LiveCounts, PlatformTotals, Session, SettingRow, StatsRow
from core.store.outbox import OutboxItem
from core.store.rating_ops import LadderRow, PoolRating, RatingChangeRow
from core.store.seek_base import MakeGame, Paired, SeekResult
from core.store.sql import Op

log = logging.getLogger(__name__)

T = TypeVar("T")

Timer = Callable[[str, float], None]
"""Told each operation's name and duration in seconds, failures included."""


class SqlStore:
    """What both stores share; a subclass gives :attr:`dialect`, :meth:`_drive`, :meth:`close`
    and :meth:`_where` (the database, for messages)."""

    dialect: Dialect

    def __init__(self, clock: Callable[[], float]) -> None:
        self._clock = clock
        self._timer: Timer | None = None

    def time_operations(self, timer: Timer | None) -> None:
        """Tell ``timer`` the name and duration of every operation from now on (None: stop)."""
        self._timer = timer

    async def _drive(self, op: Op[T]) -> T:
        """Run ``op`` on the database, errors translated to the store's own."""
        raise NotImplementedError

    def _where(self) -> str:
        raise NotImplementedError

    async def close(self) -> None:
        raise NotImplementedError

    async def _upgrade(
        self, current: int, known: int, step: Callable[[int], Awaitable[bool]], setting: str
    ) -> None:
        """Bring the schema from version ``current`` to ``known``, one ``step(version)`` at a
        time (each in a transaction of its own; False: another process did it meanwhile).

        Raises:
            SchemaTooNew: ``current`` is beyond ``known`` (``setting`` names where the
                database is chosen).
        """
        if current > known:
            raise SchemaTooNew(
                self._where(),
                f"it has schema version {current}, but this code knows versions up to"
                f" {known}: upgrade the bot, or point {setting} at another database",
            )
        for version in range(current, known):
            started = time.perf_counter()
            if await step(version):
                log.info(
                    "schema migrated to version %d in %.1f ms (%s)",
                    version + 1,
                    (time.perf_counter() - started) * 1000,
                    self._where(),
                )

    async def _run(self, name: str, op: Op[T]) -> T:
        timer = self._timer
        if timer is None:
            return await self._drive(op)
        started = time.perf_counter()
        try:
            return await self._drive(op)
        finally:
            timer(name, time.perf_counter() - started)

    # --- sessions --------------------------------------------------------------------------

    async def create(
        self,
        session: Session,
        *,
        receipt: KvEntry | None = None,
        limits: GameLimits | None = None,
    ) -> None:
        await self._run("create", ops.create(session, receipt, limits))

    async def get(self, session_id: str) -> Session | None:
        return await self._run("get", ops.get(self.dialect, session_id, self._clock))

    async def live_game(self, platform: str, chat_id: str, user_id: str) -> Session | None:
        op = ops.live_game(self.dialect, platform, chat_id, user_id, self._clock)
        return await self._run("live_game", op)

    async def challenge_for(self, platform: str, chat_id: str, user_id: str) -> Session | None:
        op = ops.challenge_for(self.dialect, platform, chat_id, user_id, self._clock)
        return await self._run("challenge_for", op)

    async def last_finished(
        self, platform: str, chat_id: str, user_id: str | None
    ) -> Session | None:
        op = ops.last_finished(self.dialect, platform, chat_id, user_id, self._clock)
        return await self._run("last_finished", op)

    async def live_in_chats(
        self,
        platform: str,
        chat_ids: Sequence[str],
        user_id: str | None = None,
        *,
        server_id: str | None = None,
    ) -> list[Session]:
        op = departure_ops.live_in_chats(
            self.dialect, platform, chat_ids, user_id, self._clock, server_id
        )
        return await self._run("live_in_chats", op)

    async def update(
        self,
        session: Session,
        *,
        expected_version: int,
        receipt: KvEntry | None = None,
        limits: GameLimits | None = None,
        notices: Sequence[OutboxItem] = (),
        now: float = 0.0,
    ) -> bool:
        op = ops.update(self.dialect, session, expected_version, receipt, limits, (notices, now))
        return await self._run("update", op)

    async def delete(
        self,
        session_id: str,
        *,
        expected_version: int | None = None,
        receipt: KvEntry | None = None,
    ) -> bool:
        return await self._run("delete", ops.delete(session_id, expected_version, receipt))

    async def swap(
        self,
        old: Session,
        new: Session,
        *,
        receipt: KvEntry | None = None,
        limits: GameLimits | None = None,
    ) -> bool:
        return await self._run("swap", ops.swap(old, new, receipt, limits))

    async def delete_expired(self, now: float) -> int:
        return await self._run("delete_expired", ops.delete_expired(now))

    async def due_clocks(self, now: float, limit: int) -> list[str]:
        return await self._run("due_clocks", ops.due_clocks(now, limit))

    async def due_reminders(self, now: float, limit: int) -> list[str]:
        return await self._run("due_reminders", ops.due_reminders(now, limit))

    async def take_reminder(
        self, session_id: str, version: int, *, notice: OutboxItem | None = None, now: float = 0.0
    ) -> tuple[OutboxItem, ...] | None:
        return await self._run("take_reminder", ops.take_reminder(session_id, version, notice, now))

    async def pause_clocks(self, start: float, back: float, grace: float) -> int:
        return await self._run("pause_clocks", outage_ops.pause_clocks(start, back, grace))

    async def count_sessions(self) -> int:
        """How many sessions are stored (any status)."""
        return await self._run("count_sessions", table_ops.count_sessions())

    async def live_counts(self, platform: str, chat_id: str, user_id: str) -> LiveCounts:
        return await self._run("live_counts", table_ops.live_counts(platform, chat_id, user_id))

    async def totals(self, since: float) -> list[PlatformTotals]:
        return await self._run("totals", table_ops.totals(since))

    # --- matchmaking (core/store/seek_ops.py) ----------------------------------------------

    async def seek(
        self, new: Seek, make: MakeGame, *, max_user_games: int | None = None
    ) -> SeekResult:
        return await self._run("seek", seek_ops.seek(new, make, max_user_games))

    async def pair_waiting(self, now: float, make: MakeGame, *, batch: int = 500) -> list[Paired]:
        return await self._run("pair_waiting", seek_ops.pair_waiting(now, make, batch))

    async def expire_seeks(self, now: float) -> list[Seek]:
        return await self._run("expire_seeks", seek_ops.expire(now))

    async def any_seeks(self) -> bool:
        return await self._run("any_seeks", seek_ops.any_seeks())

    async def cancel_seek(self, player: str) -> Seek | None:
        return await self._run("cancel_seek", seek_ops.cancel(player))

    async def seek_of(self, player: str) -> Seek | None:
        return await self._run("seek_of", seek_ops.seek_of(player))

    async def seeks_in(self, platform: str, chat_id: str, server_id: str | None) -> list[Seek]:
        return await self._run("seeks_in", seek_ops.seeks_in(platform, chat_id, server_id))

    async def drop_seeks(self, ids: Sequence[str], now: float) -> list[Seek]:
        return await self._run("drop_seeks", seek_ops.drop_seeks(ids, now))

    async def waiting_seeks(self, now: float, limit: int = 50) -> list[Seek]:
        return await self._run("waiting_seeks", seek_ops.waiting(now, limit))

    async def open_games_of(
        self, platform: str, chat_id: str, user_id: str, limit: int = 10
    ) -> list[Session]:
        op = seek_ops.open_games_of(self.dialect, platform, chat_id, user_id, limit, self._clock)
        return await self._run("open_games_of", op)

    async def block(self, player: str, blocked: str, now: float) -> bool:
        return await self._run("block", seek_ops.block(player, blocked, now))

    async def blocked(self, a: str, b: str) -> bool:
        return await self._run("blocked", seek_ops.blocked(a, b))

    async def outbox_put(self, item: OutboxItem, expires_at: float) -> None:
        await self._run("outbox_put", outbox_ops.put(item, expires_at))

    async def outbox_due(self, platform: str, now: float, limit: int = 100) -> list[OutboxItem]:
        return await self._run("outbox_due", outbox_ops.due(platform, now, limit))

    async def outbox_take(self, item_id: int, now: float, until: float) -> bool:
        return await self._run("outbox_take", outbox_ops.take(item_id, now, until))

    async def outbox_done(self, item: OutboxItem) -> None:
        await self._run("outbox_done", outbox_ops.done(item))

    # --- settings and stats ----------------------------------------------------------------

    async def settings_rows(self, platform: str, scopes: Sequence[str]) -> list[SettingRow]:
        return await self._run("settings_rows", table_ops.settings_rows(platform, tuple(scopes)))

    async def setting_put(self, row: SettingRow) -> None:
        await self._run("setting_put", table_ops.setting_put(row))

    async def setting_delete(self, platform: str, scope: str, key: str) -> bool:
        return await self._run("setting_delete", table_ops.setting_delete(platform, scope, key))

    async def player_stats(
        self, platform: str, user_id: str, chat_id: str | None = None
    ) -> StatsRow | None:
        return await self._run("player_stats", table_ops.player_stats(platform, user_id, chat_id))

    async def top(self, platform: str, chat_id: str, limit: int = 10) -> list[StatsRow]:
        return await self._run("top", table_ops.top(platform, chat_id, limit))

    # --- ratings (core.store.rating_ops, core.store.link_ops) -------------------------------

    async def ladder(
        self, place: str | None, pool: str, now: float, limit: int = 10
    ) -> list[LadderRow]:
        return await self._run("ladder", rating_ops.ladder(place, pool, now, limit))

    async def player_ratings(self, platform: str, user_id: str) -> tuple[str, list[PoolRating]]:
        return await self._run("player_ratings", rating_ops.player_ratings(platform, user_id))

    async def rating_of(self, platform: str, user_id: str, pool: str) -> Rating:
        return await self._run("rating_of", rating_ops.rating_of(platform, user_id, pool))

    async def rating_rank(self, pool: str, rating: float, now: float) -> int:
        return await self._run("rating_rank", rating_ops.rank(pool, rating, now))

    async def rating_changes(self, identity: str, limit: int = 5) -> list[RatingChangeRow]:
        return await self._run("rating_changes", rating_ops.recent_changes(identity, limit))

    async def rating_change_of(self, session_id: str) -> RatingChange | None:
        return await self._run("rating_change_of", rating_ops.change_of(session_id))

    async def rating_log(self) -> list[RatedResult | Merge]:
        return await self._run("rating_log", rating_ops.log())

    async def stored_ratings(self) -> dict[tuple[str, str], Rating]:
        return await self._run("stored_ratings", rating_ops.stored())

    async def rating_totals(self) -> tuple[int, int, int]:
        return await self._run("rating_totals", rating_ops.totals())

    async def link_code(self, code: str, platform: str, user_id: str, expires_at: float) -> None:
        await self._run("link_code", link_ops.put_code(code, platform, user_id, expires_at))

    async def link(self, code: str, platform: str, user_id: str, now: float) -> Linked:
        return await self._run("link", link_ops.redeem(code, platform, user_id, now))

    async def unlink(self, platform: str, user_id: str) -> int:
        return await self._run("unlink", link_ops.unlink(platform, user_id))

    # --- adapter state ---------------------------------------------------------------------

    async def kv_get(self, namespace: str, key: str) -> str | None:
        return await self._run("kv_get", table_ops.kv_get(namespace, key))

    async def kv_set(
        self,
        namespace: str,
        key: str,
        value: str,
        *,
        session_id: str | None = None,
        expires_at: float | None = None,
    ) -> None:
        entry = KvEntry(namespace, key, value, session_id=session_id, expires_at=expires_at)
        await self._run("kv_set", table_ops.kv_set(entry))

    async def kv_delete(self, namespace: str, key: str) -> None:
        await self._run("kv_delete", table_ops.kv_delete(namespace, key))

    async def kv_of_session(self, namespace: str, session_id: str) -> dict[str, str]:
        return await self._run("kv_of_session", table_ops.kv_of_session(namespace, session_id))

    # --- leases ----------------------------------------------------------------------------

    async def acquire_lease(self, name: str, holder: str, ttl: float) -> bool:
        check_lease_arguments(name, holder, ttl)
        return await self._run(
            "acquire_lease", table_ops.acquire_lease(self.dialect, name, holder, ttl)
        )

    async def release_lease(self, name: str, holder: str) -> bool:
        check_lease_arguments(name, holder)
        return await self._run("release_lease", table_ops.release_lease(self.dialect, name, holder))

    async def lease_holder(self, name: str) -> LeaseHolder | None:
        return await self._run("lease_holder", table_ops.lease_holder(self.dialect, name))

    # --- health and lifetime ---------------------------------------------------------------

    async def schema_version(self) -> int:
        """The schema version of the database."""
        return await self._drive(table_ops.schema_version(self.dialect))

    async def check(self) -> None:
        """Prove the store answers and takes a write now (a committed write that changes
        nothing).

        Raises:
            StoreUnavailable: closed, unreachable, read-only, full, failing or corrupt.
            StoreBusy: the database stayed locked beyond the busy timeout.
        """
        try:
            await self._run("check", table_ops.check(self.dialect))
        except RuntimeError as error:  # closed
            raise StoreUnavailable(self._where(), str(error)) from error

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

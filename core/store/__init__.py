"""Session storage: every operation declared once, as a generator of its feature's module, and
run by the store: ``await store.run(sessions.get(session_id))``.

Operations by feature: ``sessions`` (games and challenges), ``departures`` (the live games of
chats left), ``stats``, ``settings``, ``kv`` (adapter state), ``leases``, ``seeks`` (the
matchmaking queue), ``outbox``, ``ratings``, ``links``, ``puzzles`` (attempts, puzzle
ratings, streaks, daily posts), ``limits`` (checked inside a game's write), ``schema`` (its
version, the health check). What they keep and answer: ``models``; their errors: ``errors``.
The machinery: ``sql`` (the steps an operation yields), ``runner``
(:class:`~core.store.runner.SqlStore`: ``run``, the timer, the schema upgrade loop), ``port``
(:class:`~core.store.port.Store`, what callers hold), ``rows`` (sessions to rows and back),
``migrations`` (both dialects); SQLite: ``sqlite``, ``sqlite_driver`` (operations driven in the
connection's thread), ``sqlite_thread``, ``sqlite_health``; PostgreSQL: ``postgres`` and
``postgres_health`` (asyncpg, imported only when a
:class:`~core.store.postgres.PostgresStore` is opened).

Usage (both forms close the connection at the end)::

    store = await SqliteStore.open("data/chatbots.sqlite3")
    ...
    await store.close()

    async with SqliteStore.open("data/chatbots.sqlite3") as store:
        session = await store.run(sessions.get(session_id))
"""

from core.store.errors import (
    AlreadyPlaying,
    Limited,
    SchemaTooNew,
    StoreBusy,
    StoreError,
    StoreFault,
    StoreUnavailable,
    WriteUnknown,
)
from core.store.models import (
    GameLimits,
    KvEntry,
    LeaseHolder,
    LiveCounts,
    PlatformTotals,
    Seat,
    Session,
    SettingRow,
    StatsRow,
    Status,
    new_public_id,
    new_session_id,
)
from core.store.port import Store
from core.store.sqlite import SCHEMA_VERSION, SqliteStore

__all__ = [
    "SCHEMA_VERSION",
    "AlreadyPlaying",
    "GameLimits",
    "KvEntry",
    "LeaseHolder",
    "Limited",
    "LiveCounts",
    "PlatformTotals",
    "SchemaTooNew",
    "Seat",
    "Session",
    "SettingRow",
    "SqliteStore",
    "StatsRow",
    "Status",
    "Store",
    "StoreBusy",
    "StoreError",
    "StoreFault",
    "StoreUnavailable",
    "WriteUnknown",
    "new_public_id",
    "new_session_id",
]

"""Session storage: the :class:`SessionStore` protocol and its SQLite and PostgreSQL stores.

Modules: ``base`` (protocol, errors, :class:`KvEntry`), ``models`` (what is stored), ``rows``
(sessions to rows and back, for both stores), ``sql`` (the connection protocol the operations
are written over), ``ops`` (every operation, once for both stores), ``sql_store`` (the store's
methods, once, and their timer), ``migrations`` (both dialects); SQLite: ``sqlite``,
``sqlite_run`` (operations driven in the connection's thread), ``thread``, ``health``;
PostgreSQL: ``postgres`` and ``pg_health`` (asyncpg, imported only when a
:class:`~core.store.postgres.PostgresStore` is opened).

Usage (both forms close the connection at the end)::

    store = await SqliteStore.open("data/chatbots.sqlite3")
    ...
    await store.close()

    async with SqliteStore.open("data/chatbots.sqlite3") as store:
        ...
"""

from core.store.base import (
    AlreadyPlaying,
    GameLimits,
    KvEntry,
    LeaseHolder,
    LeaseStore,
    Limited,
    SchemaTooNew,
    SessionStore,
    StoreBusy,
    StoreError,
    StoreUnavailable,
    WriteUnknown,
)
from core.store.models import (
    LiveCounts,
    PlatformTotals,
    Seat,
    Session,
    SettingRow,
    StatsRow,
    Status,
    new_session_id,
)
from core.store.sqlite import SCHEMA_VERSION, SqliteStore

__all__ = [
    "SCHEMA_VERSION",
    "AlreadyPlaying",
    "GameLimits",
    "KvEntry",
    "LeaseHolder",
    "LeaseStore",
    "Limited",
    "LiveCounts",
    "PlatformTotals",
    "SchemaTooNew",
    "Seat",
    "Session",
    "SessionStore",
    "SettingRow",
    "SqliteStore",
    "StatsRow",
    "Status",
    "StoreBusy",
    "StoreError",
    "StoreUnavailable",
    "WriteUnknown",
    "new_session_id",
]

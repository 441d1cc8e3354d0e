"""Session storage: the :class:`SessionStore` protocol and its SQLite and PostgreSQL stores.

Modules: ``base`` (protocol, errors, :class:`KvEntry`), ``models`` (what is stored), ``rows``
(sessions to rows and back, for both stores), ``ops`` (the work done in the connection's
thread), ``health`` (failures and open checks), ``thread`` (the connection's thread),
``migrations`` (both dialects), ``sqlite``; ``postgres``, ``pg_ops`` and ``pg_health``
(asyncpg, imported only when a :class:`~core.store.postgres.PostgresStore` is opened).

Usage (both forms close the connection at the end)::

    store = await SqliteStore.open("data/chatbots.sqlite3")
    ...
    await store.close()

    async with SqliteStore.open("data/chatbots.sqlite3") as store:
        ...
"""

from core.store.base import (
    AlreadyPlaying,
    KvEntry,
    SchemaTooNew,
    SessionStore,
    StoreBusy,
    StoreError,
    StoreUnavailable,
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
    "KvEntry",
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
    "new_session_id",
]

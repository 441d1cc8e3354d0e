"""Schema migrations, one function per version, keyed by ``PRAGMA user_version``.

Version *n* is reached by running ``MIGRATIONS[n - 1]`` on a database at version *n - 1*. The
store runs each step in its own transaction together with the bump of ``user_version`` (as
calibre's ``schema_upgrades.py`` and maubot do), so a crash mid-upgrade leaves the previous
version intact. Never edit a released step: add the next one.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence

Migration = Callable[[sqlite3.Connection], None]
"""One step: runs in the connection's thread, inside the transaction the store opened."""


def _v1_initial(db: sqlite3.Connection) -> None:
    # One row per game. Seats are columns (x_*, o_*): a game always has exactly two, and the
    # rematch/stats queries look players up by user id, which an index on columns serves well.
    db.execute(
        """
        CREATE TABLE sessions (
            id          TEXT PRIMARY KEY,
            platform    TEXT NOT NULL,
            chat_id     TEXT NOT NULL,
            rows        INTEGER NOT NULL,
            cols        INTEGER NOT NULL,
            k           INTEGER NOT NULL,
            gravity     INTEGER NOT NULL CHECK (gravity IN (0, 1)),
            x_user      TEXT,
            x_name      TEXT NOT NULL,
            x_level     TEXT,
            o_user      TEXT,
            o_name      TEXT NOT NULL,
            o_level     TEXT,
            moves       TEXT NOT NULL,
            status      TEXT NOT NULL CHECK (status IN ('challenge', 'active', 'finished')),
            version     INTEGER NOT NULL,
            created_at  REAL NOT NULL,
            updated_at  REAL NOT NULL,
            expires_at  REAL NOT NULL,
            challenger  TEXT,
            challenged  TEXT,
            winner      INTEGER CHECK (winner IN (1, 2))
        )
        """
    )
    db.execute("CREATE INDEX sessions_chat ON sessions (platform, chat_id, status)")
    db.execute("CREATE INDEX sessions_expiry ON sessions (expires_at)")
    # "One live game per user per chat" as a primary key, so it holds across connections and
    # processes without a check-then-insert race. Rows go with their session (ON DELETE CASCADE).
    db.execute(
        """
        CREATE TABLE players (
            platform    TEXT NOT NULL,
            chat_id     TEXT NOT NULL,
            user_id     TEXT NOT NULL,
            session_id  TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
            PRIMARY KEY (platform, chat_id, user_id)
        ) WITHOUT ROWID
        """
    )
    db.execute("CREATE INDEX players_session ON players (session_id)")
    # Results per chat; per-platform totals are sums over the chats.
    db.execute(
        """
        CREATE TABLE stats (
            platform    TEXT NOT NULL,
            chat_id     TEXT NOT NULL,
            user_id     TEXT NOT NULL,
            name        TEXT NOT NULL,
            wins        INTEGER NOT NULL DEFAULT 0,
            losses      INTEGER NOT NULL DEFAULT 0,
            draws       INTEGER NOT NULL DEFAULT 0,
            updated_at  REAL NOT NULL,
            PRIMARY KEY (platform, chat_id, user_id)
        ) WITHOUT ROWID
        """
    )
    db.execute("CREATE INDEX stats_user ON stats (platform, user_id)")
    db.execute(
        """
        CREATE TABLE kv (
            namespace   TEXT NOT NULL,
            key         TEXT NOT NULL,
            value       TEXT NOT NULL,
            PRIMARY KEY (namespace, key)
        ) WITHOUT ROWID
        """
    )


def _v2_kv_lifetimes_and_quarantine(db: sqlite3.Connection) -> None:
    # An adapter's row about a game (a Matrix board's event id, a Discord message) dies with
    # the game: the sweeper deletes sessions, and the foreign key takes their rows along. The
    # column must default to NULL for ALTER TABLE to add a REFERENCES clause.
    db.execute(
        "ALTER TABLE kv ADD COLUMN session_id TEXT REFERENCES sessions (id) ON DELETE CASCADE"
    )
    # Receipts ("this event was handled") need only outlive the platform's redelivery window.
    db.execute("ALTER TABLE kv ADD COLUMN expires_at REAL")
    # Without an index on the child column every session delete would scan all of kv.
    db.execute("CREATE INDEX kv_session ON kv (session_id) WHERE session_id IS NOT NULL")
    db.execute("CREATE INDEX kv_expiry ON kv (expires_at) WHERE expires_at IS NOT NULL")
    # Rows the code cannot load are moved here (not deleted) so an operator can look at them.
    # No foreign key: the session row is gone by design. The row is JSON, column name -> value.
    db.execute(
        """
        CREATE TABLE quarantine (
            id              INTEGER PRIMARY KEY,
            session_id      TEXT,
            row             TEXT NOT NULL,
            reason          TEXT NOT NULL,
            quarantined_at  REAL NOT NULL
        )
        """
    )


MIGRATIONS: Sequence[Migration] = (_v1_initial, _v2_kv_lifetimes_and_quarantine)
"""Step ``i`` upgrades version ``i`` to ``i + 1``."""

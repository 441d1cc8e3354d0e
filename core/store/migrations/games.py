"""Steps 1 to 4 (November 2026, before the competitive play): games, the kv rows' lifetimes and
the quarantine, the chat settings, how a game ended. Released: never edit one."""

from __future__ import annotations

from core.store.migrations.step import Step

# One row per game. Seats are columns (x_*, o_*): a game always has exactly two, and the
# rematch/stats queries look players up by user id, which an index on columns serves well.
# "One live game per user per chat" is the players table's primary key, so it holds across
# connections and processes without a check-then-insert race; rows go with their session
# (ON DELETE CASCADE). Results are per chat; per-platform totals are sums over the chats.
V1_INITIAL = Step(
    "initial",
    (
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
            created_at  {REAL} NOT NULL,
            updated_at  {REAL} NOT NULL,
            expires_at  {REAL} NOT NULL,
            challenger  TEXT,
            challenged  TEXT,
            winner      INTEGER CHECK (winner IN (1, 2))
        )
        """,
        "CREATE INDEX sessions_chat ON sessions (platform, chat_id, status)",
        "CREATE INDEX sessions_expiry ON sessions (expires_at)",
        """
        CREATE TABLE players (
            platform    TEXT NOT NULL,
            chat_id     TEXT NOT NULL,
            user_id     TEXT NOT NULL,
            session_id  TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
            PRIMARY KEY (platform, chat_id, user_id)
        ){WITHOUT_ROWID}
        """,
        "CREATE INDEX players_session ON players (session_id)",
        """
        CREATE TABLE stats (
            platform    TEXT NOT NULL,
            chat_id     TEXT NOT NULL,
            user_id     TEXT NOT NULL,
            name        TEXT NOT NULL,
            wins        INTEGER NOT NULL DEFAULT 0,
            losses      INTEGER NOT NULL DEFAULT 0,
            draws       INTEGER NOT NULL DEFAULT 0,
            updated_at  {REAL} NOT NULL,
            PRIMARY KEY (platform, chat_id, user_id)
        ){WITHOUT_ROWID}
        """,
        "CREATE INDEX stats_user ON stats (platform, user_id)",
        """
        CREATE TABLE kv (
            namespace   TEXT NOT NULL,
            key         TEXT NOT NULL,
            value       TEXT NOT NULL,
            PRIMARY KEY (namespace, key)
        ){WITHOUT_ROWID}
        """,
    ),
)

# An adapter's row about a game (a Matrix board's event id, a Discord message) dies with the
# game: the sweeper deletes sessions, and the foreign key takes their rows along (SQLite needs
# the column to default to NULL for ALTER TABLE to add a REFERENCES clause). Receipts ("this
# event was handled") need only outlive the platform's redelivery window. Without an index on
# the child column every session delete would scan all of kv. Rows the code cannot load are
# moved to quarantine (not deleted) so an operator can look at them; no foreign key there: the
# session row is gone by design. The row is JSON, column name -> value.
V2_KV_LIFETIMES_AND_QUARANTINE = Step(
    "kv lifetimes and quarantine",
    (
        "ALTER TABLE kv ADD COLUMN session_id TEXT REFERENCES sessions (id) ON DELETE CASCADE",
        "ALTER TABLE kv ADD COLUMN expires_at {REAL}",
        "CREATE INDEX kv_session ON kv (session_id) WHERE session_id IS NOT NULL",
        "CREATE INDEX kv_expiry ON kv (expires_at) WHERE expires_at IS NOT NULL",
        """
        CREATE TABLE quarantine (
            id              {AUTO_ID},
            session_id      TEXT,
            row             TEXT NOT NULL,
            reason          TEXT NOT NULL,
            quarantined_at  {REAL} NOT NULL
        )
        """,
    ),
)

# Settings admins set per chat scope (core.admin): a Discord server or channel, a Matrix room.
# One row per key, so setting one key never rewrites the others, and who changed what when is
# kept. Reads ask for one platform and two scopes at most: the primary key serves them. The
# limit on a player's live games counts their players rows across chats: an index by user.
V3_SETTINGS = Step(
    "settings",
    (
        """
        CREATE TABLE settings (
            platform    TEXT NOT NULL,
            scope       TEXT NOT NULL,
            key         TEXT NOT NULL,
            value       TEXT NOT NULL,
            updated_at  {REAL} NOT NULL,
            updated_by  TEXT NOT NULL,
            PRIMARY KEY (platform, scope, key)
        ){WITHOUT_ROWID}
        """,
        "CREATE INDEX players_user ON players (platform, user_id)",
    ),
)

# How a finished game ended, stored with it (core.games.Termination's values) next to its
# winner, rather than worked out again from the moves. Rows finished before this step keep NULL
# and are read as the board shows them (core/store/rows.py); new ones always carry it.
V4_CHECK = (
    "CHECK (termination IN ('win', 'draw', 'resignation', 'timeout', 'abandoned', 'stopped'))"
)
V4_OUTCOME = Step("outcome", (f"ALTER TABLE sessions ADD COLUMN termination TEXT {V4_CHECK}",))

"""Steps 5 to 14 (November 2026, competitive play): the move clock, ratings, matchmaking and
open games across chats, the outbox, terminations as a table, board locations. Released: never
edit one."""

from __future__ import annotations

import sqlite3

from core.games import Termination
from core.store.migrations.games import V4_CHECK
from core.store.migrations.step import Step, terminations

# The move clock of a game between people: its seconds per move, when the player to move runs
# out of time, and when they are reminded (cleared once sent, so one process reminds once). The
# sweep of due clocks asks for the earliest deadlines every second: partial indexes hold only
# running timed games, so it reads a few index entries, never the table. The Discord server of
# the game's chat, so that what the sweep says there is said with the chat's settings.
CLOCK = Step(
    "clock",
    (
        "ALTER TABLE sessions ADD COLUMN clock {REAL}",
        "ALTER TABLE sessions ADD COLUMN deadline {REAL}",
        "ALTER TABLE sessions ADD COLUMN remind_at {REAL}",
        "ALTER TABLE sessions ADD COLUMN server_id TEXT",
        "CREATE INDEX sessions_deadline ON sessions (deadline) WHERE deadline IS NOT NULL",
        "CREATE INDEX sessions_remind ON sessions (remind_at) WHERE remind_at IS NOT NULL",
    ),
)

# Ratings (core.ratings, issue 23). A game carries whether its players chose it casual (or its
# chat does not allow rated play), from its start (its Discord server is step 5's server_id).
# ratings: one row per identity per pool; the partial index serves every ladder in rating
# order (only settled ratings are listed, and PROVISIONAL_GAMES is 10), so a ladder reads its
# first rows and never sorts. rating_changes is the log every rating comes from, in id order:
# each rated game (both players before and after, to show and audit it) and each merge of two
# linked accounts' ratings; ``chatbots ratings rebuild`` replays it. rating_places says who
# played rated games in which chat and which Discord server (the chat and server ladders).
# links: accounts a person joined with /link (one identity); absent, an account is its own.
RATINGS = Step(
    "ratings",
    (
        "ALTER TABLE sessions ADD COLUMN casual INTEGER NOT NULL DEFAULT 0"
        " CHECK (casual IN (0, 1))",
        """
        CREATE TABLE ratings (
            identity        TEXT NOT NULL,
            pool            TEXT NOT NULL,
            rating          {REAL} NOT NULL,
            deviation       {REAL} NOT NULL,
            games           INTEGER NOT NULL,
            last_rated_at   {REAL} NOT NULL,
            platform        TEXT NOT NULL,
            name            TEXT NOT NULL,
            PRIMARY KEY (identity, pool)
        ){WITHOUT_ROWID}
        """,
        "CREATE INDEX ratings_ladder ON ratings (pool, rating DESC, last_rated_at)"
        " WHERE games >= 10",
        """
        CREATE TABLE rating_changes (
            id                  {AUTO_ID},
            kind                TEXT NOT NULL CHECK (kind IN ('game', 'merge')),
            session_id          TEXT,
            pool                TEXT NOT NULL,
            at                  {REAL} NOT NULL,
            first_identity      TEXT NOT NULL,
            second_identity     TEXT NOT NULL,
            winner              INTEGER CHECK (winner IN (1, 2)),
            termination         TEXT,
            first_rating        {REAL} NOT NULL,
            first_deviation     {REAL} NOT NULL,
            first_games         INTEGER NOT NULL,
            second_rating       {REAL} NOT NULL,
            second_deviation    {REAL} NOT NULL,
            second_games        INTEGER NOT NULL,
            first_rating_after      {REAL} NOT NULL,
            first_deviation_after   {REAL} NOT NULL,
            second_rating_after     {REAL} NOT NULL,
            second_deviation_after  {REAL} NOT NULL
        )
        """,
        "CREATE INDEX rating_changes_pair ON rating_changes (first_identity, second_identity, at)",
        "CREATE INDEX rating_changes_second ON rating_changes (second_identity, id)",
        "CREATE INDEX rating_changes_first ON rating_changes (first_identity, id)",
        "CREATE INDEX rating_changes_session ON rating_changes (session_id)",
        """
        CREATE TABLE rating_places (
            place       TEXT NOT NULL,
            pool        TEXT NOT NULL,
            identity    TEXT NOT NULL,
            PRIMARY KEY (place, pool, identity)
        ){WITHOUT_ROWID}
        """,
        "CREATE INDEX rating_places_identity ON rating_places (identity)",
        """
        CREATE TABLE links (
            platform    TEXT NOT NULL,
            user_id     TEXT NOT NULL,
            identity    TEXT NOT NULL,
            linked_at   {REAL} NOT NULL,
            PRIMARY KEY (platform, user_id)
        ){WITHOUT_ROWID}
        """,
        "CREATE INDEX links_identity ON links (identity)",
    ),
)

# Matchmaking (issue 24). A seat may sit in another chat than its session's (an open game):
# its platform and chat, NULL for the session's own, as every row written before. The queue of
# seeks lives here, never in one process's memory: pairing locks seeks with FOR UPDATE SKIP
# LOCKED (core/store/seeks.py); one seek per player is the primary key of ``player``, and
# the queue is read by game and age. A block names two players (their rating identities).
MATCHMAKING = Step(
    "matchmaking",
    (
        "ALTER TABLE sessions ADD COLUMN x_platform TEXT",
        "ALTER TABLE sessions ADD COLUMN x_chat TEXT",
        "ALTER TABLE sessions ADD COLUMN o_platform TEXT",
        "ALTER TABLE sessions ADD COLUMN o_chat TEXT",
        # A challenge or a finished game looked up from a seat's own chat (/accept, /rematch).
        "CREATE INDEX sessions_x_chat ON sessions (x_platform, x_chat) WHERE x_chat IS NOT NULL",
        "CREATE INDEX sessions_o_chat ON sessions (o_platform, o_chat) WHERE o_chat IS NOT NULL",
        """
        CREATE TABLE seeks (
            player      TEXT PRIMARY KEY,
            id          TEXT NOT NULL UNIQUE,
            platform    TEXT NOT NULL,
            chat_id     TEXT NOT NULL,
            user_id     TEXT NOT NULL,
            name        TEXT NOT NULL,
            rows        INTEGER NOT NULL,
            cols        INTEGER NOT NULL,
            k           INTEGER NOT NULL,
            gravity     INTEGER NOT NULL CHECK (gravity IN (0, 1)),
            rated       INTEGER NOT NULL CHECK (rated IN (0, 1)),
            clock       {REAL} NOT NULL,
            rating      {REAL} NOT NULL,
            created_at  {REAL} NOT NULL,
            expires_at  {REAL} NOT NULL
        )
        """,
        "CREATE INDEX seeks_queue ON seeks (rows, cols, k, gravity, rated, created_at)",
        "CREATE INDEX seeks_age ON seeks (created_at)",
        "CREATE INDEX seeks_expiry ON seeks (expires_at)",
        "CREATE INDEX seeks_chat ON seeks (platform, chat_id)",
        """
        CREATE TABLE blocks (
            player      TEXT NOT NULL,
            blocked     TEXT NOT NULL,
            created_at  {REAL} NOT NULL,
            PRIMARY KEY (player, blocked)
        ){WITHOUT_ROWID}
        """,
        "CREATE INDEX blocks_blocked ON blocks (blocked)",
        # An open game's board due in a chat that the process which changed the game does not
        # serve (a Matrix room whose account syncs elsewhere): the serving process shows it.
        """
        CREATE TABLE open_boards (
            platform    TEXT NOT NULL,
            chat_id     TEXT NOT NULL,
            session_id  TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
            version     INTEGER NOT NULL,
            PRIMARY KEY (platform, chat_id, session_id)
        ){WITHOUT_ROWID}
        """,
        "CREATE INDEX open_boards_session ON open_boards (session_id)",
    ),
)

# The outbox (core/store/outbox.py): what one process has to show in a chat another process
# serves (a Matrix room whose account syncs elsewhere, a platform this process does not run),
# as neutral items that the serving process shows in the chat's language: an open game's
# board (open_boards' rows, which it replaces), a new open game's pairing, a clock's timeout and
# reminder, an expired seek's notice. Read by platform in the order left (outbox_due), claimed
# by deleting the row; one board row per chat and game (the partial unique index: a newer
# version moves the row on). No reference to sessions: a seek's notice has no game, and an item
# whose game is gone shows nothing; items nobody showed go at expires_at (the sweep).
RELAY = Step(
    "relay",
    (
        """
        CREATE TABLE outbox (
            id          {AUTO_ID},
            platform    TEXT NOT NULL,
            chat_id     TEXT NOT NULL,
            kind        TEXT NOT NULL,
            session_id  TEXT,
            version     INTEGER NOT NULL,
            seat        INTEGER CHECK (seat IN (1, 2)),
            detail      TEXT NOT NULL,
            expires_at  {REAL} NOT NULL
        )
        """,
        "CREATE INDEX outbox_due ON outbox (platform, id)",
        "CREATE UNIQUE INDEX outbox_board ON outbox (platform, chat_id, session_id)"
        " WHERE kind = 'board'",
        "CREATE INDEX outbox_expiry ON outbox (expires_at)",
        "INSERT INTO outbox (platform, chat_id, kind, session_id, version, detail, expires_at)"
        " SELECT platform, chat_id, 'board', session_id, version, '{{}}', {NOW} + 86400"
        " FROM open_boards",
        "DROP TABLE open_boards",
    ),
)

# Open games, each seat's own chat (issue 24): a seat in a chat of its own keeps that chat's
# Discord server (x_server, o_server; the session's server_id is its own chat's), so what is
# said there later is said with its own settings and its rating counts on its own server's
# ladder. A seek carries its chat's server and the player's whole rating (deviation and games:
# the pairing line shows "1500?" while provisional). NULL in rows written before: no server, a
# new player's deviation and games.
OPEN_SEATS = Step(
    "open seats",
    (
        "ALTER TABLE sessions ADD COLUMN x_server TEXT",
        "ALTER TABLE sessions ADD COLUMN o_server TEXT",
        "ALTER TABLE seeks ADD COLUMN server_id TEXT",
        "ALTER TABLE seeks ADD COLUMN deviation {REAL}",
        "ALTER TABLE seeks ADD COLUMN games INTEGER",
    ),
)

# The live games of a Discord server, looked up when the bot is removed from it or a member
# leaves it: by the server, which finds the games of chats the client does not know (archived
# threads). Live games alone, as the lookup asks (core.store.stats.LIVE, spelled alike so
# that both planners see the index cover it): finished ones, kept for rematches, never count.
SERVER_GAMES = Step(
    "server_games",
    (
        "CREATE INDEX sessions_server ON sessions (platform, server_id)"
        " WHERE server_id IS NOT NULL AND status IN ('challenge', 'active')",
    ),
)

# An outbox item is shown at least once (core/store/outbox.py): a process claims it until
# claimed_until (its clock, as outbox_due reads expires_at) and deletes it once shown; a claim
# whose process died lapses, and the next pass takes the item again. NULL: not claimed.
OUTBOX_CLAIMS = Step(
    "outbox claims",
    ("ALTER TABLE outbox ADD COLUMN claimed_until {REAL}",),
)


_REFERENCE = "REFERENCES terminations (name)"


def _check_to_reference(db: sqlite3.Connection) -> None:
    """SQLite's ALTER TABLE can neither drop a CHECK nor add a foreign key to a column without
    copying the table: the declaration is edited in place instead, the way SQLite's
    documentation gives for constraints every row already meets ("Making Other Kinds Of Table
    Schema Changes"). No row is rewritten, and the schema's version is bumped so that every
    open connection reads the new declaration."""
    (version,) = db.execute("PRAGMA schema_version").fetchone()
    db.execute("PRAGMA writable_schema = ON")
    try:
        edited = db.execute(
            "UPDATE sqlite_master SET sql = replace(sql, ?, ?)"
            " WHERE type = 'table' AND name = 'sessions' AND instr(sql, ?) > 0",
            (V4_CHECK, _REFERENCE, V4_CHECK),
        ).rowcount
        if edited != 1:
            raise RuntimeError("the sessions table has no termination CHECK to replace")
        db.execute(f"PRAGMA schema_version = {int(version) + 1}")
    finally:
        db.execute("PRAGMA writable_schema = OFF")


# How a game ended is checked against a table, not a CHECK: adding a termination is then one
# INSERT (``terminations(...)``), where a CHECK would mean copying the sessions table on SQLite,
# whose ALTER TABLE cannot change one. A foreign key rather than a trigger: the same
# declaration on both stores, and the SQLite store turns foreign keys on for every connection
# already (the players' ON DELETE CASCADE relies on it). The step swaps step 4's CHECK for it:
# PostgreSQL drops the constraint and adds the key (one scan, no rewrite); SQLite edits the
# declaration in place (no rewrite either, see _check_to_reference).
TERMINATIONS = Step(
    "terminations",
    (
        "CREATE TABLE terminations (name TEXT PRIMARY KEY){WITHOUT_ROWID}",
        terminations(
            Termination.WIN,
            Termination.DRAW,
            Termination.RESIGNATION,
            Termination.TIMEOUT,
            Termination.ABANDONED,
            Termination.STOPPED,
        ),
    ),
    postgres=(
        "ALTER TABLE sessions DROP CONSTRAINT sessions_termination_check",
        "ALTER TABLE sessions ADD CONSTRAINT sessions_termination_fkey"
        f" FOREIGN KEY (termination) {_REFERENCE}",
    ),
    sqlite=_check_to_reference,
)

# A seek keeps its player's live-game cap (the chat's max_games_per_user when they sought):
# pairing a waiting seek checks it (core.store.limits). NULL: no cap, as rows written before.
SEEK_CAPS = Step("seek caps", ("ALTER TABLE seeks ADD COLUMN max_games INTEGER",))

_ROOM_AT = """{INSTR}(value, '"room_id": "') + 12"""
_EVENT_AT = """{INSTR}(value, '", "event_id": "')"""


def _matrix_boards(which: str, placed: str) -> str:
    """The step ``boards``' copy of the Matrix rows ``which`` picks (see the step)."""
    return (
        "INSERT INTO boards (platform, session_id, chat_id, message_id, version, detail, placed)"
        f" SELECT namespace, session_id, substr(value, {_ROOM_AT}, {_EVENT_AT} - ({_ROOM_AT})),"
        f" substr(value, {_EVENT_AT} + 16, length(value) - ({_EVENT_AT} + 16) - 1), NULL, '',"
        f" {placed} FROM kv WHERE namespace LIKE 'matrix:%' AND session_id IS NOT NULL"
        f" AND {which} AND {_ROOM_AT} > 12 AND {_EVENT_AT} > {_ROOM_AT} AND value LIKE '%\"}}}}'"
        " ON CONFLICT (platform, session_id, chat_id) DO NOTHING"
    )


# Board locations (core/store/boards.py): where each game's board message is, one row per
# platform, game and chat, the same for every platform where each adapter kept kv rows of its
# own. Tied to the session as kv rows are (deleted with it); found back from a message by the
# index. The adapters' rows tied to a session are copied, so that boards posted before the
# upgrade are still edited: Discord's (``board:<session>:<channel>`` -> message) and Matrix's
# (``board:<session>`` for the first room, ``board:<session> <room>`` for the other, each the
# JSON ``{"session_id": ..., "room_id": ..., "event_id": ...}`` that json.dumps wrote, read
# with text functions: no JSON function is in both dialects, and PostgreSQL's cast would fail
# the step on one damaged row). Their time is unknown: Matrix's first room is placed first.
BOARDS = Step(
    "boards",
    (
        """
        CREATE TABLE boards (
            platform    TEXT NOT NULL,
            session_id  TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
            chat_id     TEXT NOT NULL,
            message_id  TEXT NOT NULL,
            version     INTEGER,
            detail      TEXT NOT NULL,
            placed      {REAL} NOT NULL,
            PRIMARY KEY (platform, session_id, chat_id)
        ){WITHOUT_ROWID}
        """,
        "CREATE INDEX boards_message ON boards (platform, message_id)",
        "INSERT INTO boards (platform, session_id, chat_id, message_id, version, detail, placed)"
        " SELECT 'discord', session_id, substr(key, length(session_id) + 8), value, NULL, '',"
        " {NOW} FROM kv WHERE namespace = 'discord' AND session_id IS NOT NULL"
        " AND substr(key, 1, length(session_id) + 7) = 'board:' || session_id || ':'"
        " AND length(key) > length(session_id) + 7",
        _matrix_boards("key = 'board:' || session_id", "{NOW}"),
        _matrix_boards(
            "substr(key, 1, length(session_id) + 7) = 'board:' || session_id || ' '", "{NOW} + 1"
        ),
    ),
)

"""Steps 15 on (November 2026 and after: web pages, tournaments, puzzles). Released: never edit
one. A new step goes at the end of this file (until this era's file nears 500 lines: then a
new era's file) and at the end of ``STEPS`` in ``core/store/migrations/__init__.py``."""

from __future__ import annotations

from core.store.migrations.step import Step

# Each game's public id (Session.public_id): the address of its web page, unguessable, so
# games live at the upgrade get one here; unique, and looked up by it.
PUBLIC_IDS = Step(
    "public ids",
    (
        "ALTER TABLE sessions ADD COLUMN public_id TEXT",
        "UPDATE sessions SET public_id = {RANDOM_ID}",
        "CREATE UNIQUE INDEX sessions_public_id ON sessions (public_id)",
    ),
)

# An outbox item's messages once posted (core/store/outbox.py: outbox_posted), a JSON list of the
# platform's message ids, kept until the item is done: shown again after a crash (its claim
# lapsed), the notice edits them rather than posting again. NULL: nothing posted yet.
OUTBOX_POSTED = Step(
    "outbox posted",
    ("ALTER TABLE outbox ADD COLUMN posted TEXT",),
)


# The archive of finished games (issue 33's game pages): one row per game, keyed by its public
# id, written in the transaction that finishes it (core/store/archive.py) and never tied to
# the session, so the expiry sweep leaves it. Each seat's name, identity (a person's, as the
# ratings know them) and level (the bot's); whether the game was rated and may be listed (never
# one from a direct chat or a room the store cannot tell public); the solver's analysis once
# computed. ``archive_session`` joins a rating log row (session id, time) to its game.
ARCHIVE = Step(
    "archive",
    (
        """
        CREATE TABLE archive (
            public_id   TEXT PRIMARY KEY,
            session_id  TEXT NOT NULL,
            rows        INTEGER NOT NULL,
            cols        INTEGER NOT NULL,
            k           INTEGER NOT NULL,
            gravity     INTEGER NOT NULL CHECK (gravity IN (0, 1)),
            x_name      TEXT NOT NULL,
            x_identity  TEXT,
            x_level     TEXT,
            o_name      TEXT NOT NULL,
            o_identity  TEXT,
            o_level     TEXT,
            moves       TEXT NOT NULL,
            termination TEXT NOT NULL REFERENCES terminations (name),
            winner      INTEGER CHECK (winner IN (1, 2)),
            rated       INTEGER NOT NULL CHECK (rated IN (0, 1)),
            clock       {REAL},
            started_at  {REAL} NOT NULL,
            finished_at {REAL} NOT NULL,
            listed      INTEGER NOT NULL CHECK (listed IN (0, 1)),
            analysis    TEXT
        ){WITHOUT_ROWID}
        """,
        "CREATE INDEX archive_session ON archive (session_id, finished_at)",
    ),
)

# Tournaments (core/store/events.py; issue 34): an event, its players (by identity: linked
# accounts are one), its pairings with their results, and its byes. A game's result reaches
# its pairing in the transaction that finishes the game (core/store/event_results.py), found
# by the session's id (unique); no reference to sessions: a finished game is swept, its
# pairing stays. The live events' partial index is what the directors read every pass.
EVENTS = Step(
    "events",
    (
        """
        CREATE TABLE events (
            id          TEXT PRIMARY KEY,
            format      TEXT NOT NULL CHECK (format IN ('arena', 'swiss', 'roundrobin')),
            rows        INTEGER NOT NULL,
            cols        INTEGER NOT NULL,
            k           INTEGER NOT NULL,
            gravity     INTEGER NOT NULL CHECK (gravity IN (0, 1)),
            length      {REAL} NOT NULL,
            clock       {REAL} NOT NULL,
            rated       INTEGER NOT NULL CHECK (rated IN (0, 1)),
            open        INTEGER NOT NULL CHECK (open IN (0, 1)),
            starts_at   {REAL} NOT NULL,
            platform    TEXT NOT NULL,
            chat_id     TEXT NOT NULL,
            server_id   TEXT,
            created_by  TEXT NOT NULL,
            name        TEXT NOT NULL,
            status      TEXT NOT NULL
                        CHECK (status IN ('scheduled', 'running', 'finished', 'cancelled')),
            round       INTEGER NOT NULL,
            version     INTEGER NOT NULL,
            reminded    INTEGER NOT NULL CHECK (reminded IN (0, 1)),
            created_at  {REAL} NOT NULL
        )
        """,
        "CREATE INDEX events_live ON events (starts_at) WHERE status IN ('scheduled', 'running')",
        "CREATE INDEX events_chat ON events (platform, chat_id, created_at)",
        """
        CREATE TABLE event_players (
            event_id    TEXT NOT NULL REFERENCES events (id) ON DELETE CASCADE,
            player      TEXT NOT NULL,
            platform    TEXT NOT NULL,
            user_id     TEXT NOT NULL,
            chat_id     TEXT NOT NULL,
            server_id   TEXT,
            name        TEXT NOT NULL,
            rating      {REAL} NOT NULL,
            score       {REAL} NOT NULL,
            joined      INTEGER NOT NULL,
            withdrawn   INTEGER NOT NULL CHECK (withdrawn IN (0, 1)),
            berserk     INTEGER NOT NULL CHECK (berserk IN (0, 1)),
            PRIMARY KEY (event_id, player)
        ){WITHOUT_ROWID}
        """,
        "CREATE INDEX event_players_user ON event_players (platform, user_id)",
        """
        CREATE TABLE event_games (
            seq         {AUTO_ID},
            event_id    TEXT NOT NULL REFERENCES events (id) ON DELETE CASCADE,
            round       INTEGER NOT NULL,
            session_id  TEXT NOT NULL UNIQUE,
            x           TEXT NOT NULL,
            o           TEXT NOT NULL,
            started     INTEGER NOT NULL CHECK (started IN (0, 1)),
            x_score     {REAL},
            o_score     {REAL},
            plies       INTEGER NOT NULL,
            finished_at {REAL}
        )
        """,
        "CREATE INDEX event_games_event ON event_games (event_id, seq)",
        """
        CREATE TABLE event_byes (
            event_id    TEXT NOT NULL REFERENCES events (id) ON DELETE CASCADE,
            round       INTEGER NOT NULL,
            player      TEXT NOT NULL,
            points      {REAL} NOT NULL,
            PRIMARY KEY (event_id, round, player)
        ){WITHOUT_ROWID}
        """,
    ),
)

# Puzzles (issue 35, core/store/puzzles.py): a player's puzzle rating, count and streak (one row
# per identity, so a link carries it), each puzzle's own rating (a row once someone tried it;
# before, its difficulty), the attempts (a person tries a puzzle once: the unique key; the
# latest one of a user in a chat is their current puzzle, its moves kept so an answer survives
# a restart), and the day each chat's daily puzzle was last posted.
PUZZLES = Step(
    "puzzles",
    (
        """
        CREATE TABLE puzzle_players (
            identity    TEXT PRIMARY KEY,
            rating      {REAL} NOT NULL,
            deviation   {REAL} NOT NULL,
            attempts    INTEGER NOT NULL,
            solved      INTEGER NOT NULL,
            streak      INTEGER NOT NULL,
            best_streak INTEGER NOT NULL,
            streak_day  INTEGER,
            platform    TEXT NOT NULL,
            name        TEXT NOT NULL,
            last_at     {REAL} NOT NULL
        ){WITHOUT_ROWID}
        """,
        "CREATE INDEX puzzle_players_ladder ON puzzle_players (rating DESC) WHERE attempts >= 10",
        """
        CREATE TABLE puzzle_ratings (
            puzzle_id   TEXT PRIMARY KEY,
            rating      {REAL} NOT NULL,
            deviation   {REAL} NOT NULL,
            attempts    INTEGER NOT NULL,
            solved      INTEGER NOT NULL
        ){WITHOUT_ROWID}
        """,
        """
        CREATE TABLE puzzle_attempts (
            id          TEXT PRIMARY KEY,
            identity    TEXT NOT NULL,
            puzzle_id   TEXT NOT NULL,
            platform    TEXT NOT NULL,
            chat_id     TEXT NOT NULL,
            user_id     TEXT NOT NULL,
            played      TEXT NOT NULL,
            status      TEXT NOT NULL CHECK (status IN ('going', 'solved', 'failed')),
            version     INTEGER NOT NULL,
            started_at  {REAL} NOT NULL,
            updated_at  {REAL} NOT NULL,
            UNIQUE (identity, puzzle_id)
        )
        """,
        "CREATE INDEX puzzle_attempts_chat ON puzzle_attempts"
        " (platform, chat_id, user_id, started_at)",
        """
        CREATE TABLE puzzle_posts (
            platform    TEXT NOT NULL,
            chat_id     TEXT NOT NULL,
            day         INTEGER NOT NULL,
            posted_at   {REAL} NOT NULL,
            PRIMARY KEY (platform, chat_id)
        ){WITHOUT_ROWID}
        """,
    ),
)

# A player's record in each pool (won, lost, drawn), kept with the rating and counted by the
# same write that rates a game (core/store/ratings.py): a player page read it from the log, a
# row per game (28 ms at the median for a player of 5,000 games: python -m benchmarks
# web_pages). Counted here once from the log, as the page counted it: each identity's own games.
_RECORD = (
    "(SELECT count(*) FROM rating_changes c WHERE c.kind = 'game' AND c.pool = ratings.pool"
    " AND ((c.first_identity = ratings.identity AND {first})"
    " OR (c.second_identity = ratings.identity AND {second})))"
)
PAGE_RECORDS = Step(
    "page records",
    (
        "ALTER TABLE ratings ADD COLUMN won INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE ratings ADD COLUMN lost INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE ratings ADD COLUMN drawn INTEGER NOT NULL DEFAULT 0",
        "UPDATE ratings SET won = "
        + _RECORD.format(first="c.winner = 1", second="c.winner = 2")
        + ", lost = "
        + _RECORD.format(first="c.winner = 2", second="c.winner = 1")
        + ", drawn = "
        + _RECORD.format(first="c.winner IS NULL", second="c.winner IS NULL"),
    ),
)

# Each event's public id (Event.public_id): the address of its web page (/event/<id>). The event's
# own id is short (it is typed in /tournament join) and an event of a private chat must not be
# found by trying ids, so the page has 128 random bits of its own, as a game's has.
EVENT_PUBLIC_IDS = Step(
    "event public ids",
    (
        "ALTER TABLE events ADD COLUMN public_id TEXT",
        "UPDATE events SET public_id = {RANDOM_ID}",
        "CREATE UNIQUE INDEX events_public_id ON events (public_id)",
    ),
)

# Berserk in arena events (issue 34, core/sessions/events/berserk.py): which seats of a game
# play on half the clock (a bit per seat: 1 X, 2 O; the deadline of their moves is computed
# from it), whether an event allows it, and which seats of a tournament game did (copied from
# the session when the game ends, in the finishing transaction: an arena scores +1 for a
# berserk win).
BERSERK = Step(
    "berserk",
    (
        "ALTER TABLE sessions ADD COLUMN berserk INTEGER NOT NULL DEFAULT 0"
        " CHECK (berserk BETWEEN 0 AND 3)",
        "ALTER TABLE events ADD COLUMN berserk INTEGER NOT NULL DEFAULT 0"
        " CHECK (berserk IN (0, 1))",
        "ALTER TABLE event_games ADD COLUMN berserk INTEGER NOT NULL DEFAULT 0"
        " CHECK (berserk BETWEEN 0 AND 3)",
    ),
)

# Puzzles an operator added (issue 35, `chatbots puzzles add`): made by the generator, proven
# by the solver before the insert, then offered by /puzzle next and the pages beside the
# package's shipped sets. A row is the puzzle's one-line form (core/puzzles/puzzle.py,
# to_line), its id the digest of what defines it, so a puzzle added twice is one row.
PUZZLES_ADDED = Step(
    "puzzles added",
    (
        """
        CREATE TABLE puzzles_added (
            id          TEXT PRIMARY KEY,
            line        TEXT NOT NULL,
            added_at    {REAL} NOT NULL
        ){WITHOUT_ROWID}
        """,
    ),
)

# An added puzzle's answer tree and the refutations of the wrong moves at its positions
# (issue 35; core/puzzles/lines.py, answers_of), made when `--add` adds it, so that its answers
# are lookups as the shipped puzzles' are. NULL for a puzzle added before: searched.
PUZZLE_ANSWERS = Step(
    "puzzle answers",
    ("ALTER TABLE puzzles_added ADD COLUMN answers TEXT",),
)

# A new step goes here, above this line, and at the end of STEPS (__init__.py).

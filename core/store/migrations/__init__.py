"""Schema migrations, one step per version, written once for SQLite and PostgreSQL.

Version *n* is reached by running step *n* on a database at version *n - 1*. Each store runs a
step in its own transaction together with the bump of the version (SQLite: ``PRAGMA
user_version``, as calibre's ``schema_upgrades.py`` does; PostgreSQL: a version table, as
mautrix's ``async_db`` does), so a crash mid-upgrade leaves the previous version intact. Never
edit a released step: add the next one.

A step is a list of statements in which the few words the two dialects spell differently are
placeholders (``{REAL}``, ``{WITHOUT_ROWID}``, ``{AUTO_ID}``): SQLite's rendering is, to the
character, the schema released before PostgreSQL existed (a test compares it with a snapshot).

The steps live in a module per era (``games``: 1 to 4, ``play``: 5 to 14, ``pages``: 15 on),
what a step is in ``step``. **A new step** is defined at the end of ``pages.py`` and appended to
:data:`STEPS` below.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.store.migrations.games import (
    V1_INITIAL,
    V2_KV_LIFETIMES_AND_QUARANTINE,
    V3_SETTINGS,
    V4_OUTCOME,
)
from core.store.migrations.pages import (
    ARCHIVE,
    BERSERK,
    EVENT_PUBLIC_IDS,
    EVENTS,
    OUTBOX_POSTED,
    PAGE_RECORDS,
    PUBLIC_IDS,
    PUZZLE_ANSWERS,
    PUZZLES,
    PUZZLES_ADDED,
)
from core.store.migrations.play import (
    BOARDS,
    CLOCK,
    MATCHMAKING,
    OPEN_SEATS,
    OUTBOX_CLAIMS,
    RATINGS,
    RELAY,
    SEEK_CAPS,
    SERVER_GAMES,
    TERMINATIONS,
)
from core.store.migrations.step import Dialect, Migration, Step, sqlite_migration, terminations

__all__ = [
    "ARCHIVE",
    "BERSERK",
    "BOARDS",
    "CLOCK",
    "EVENTS",
    "EVENT_PUBLIC_IDS",
    "MATCHMAKING",
    "MIGRATIONS",
    "OPEN_SEATS",
    "OUTBOX_CLAIMS",
    "OUTBOX_POSTED",
    "PAGE_RECORDS",
    "PUBLIC_IDS",
    "PUZZLES",
    "PUZZLES_ADDED",
    "PUZZLE_ANSWERS",
    "RATINGS",
    "RELAY",
    "SEEK_CAPS",
    "SERVER_GAMES",
    "STEPS",
    "TERMINATIONS",
    "V1_INITIAL",
    "V2_KV_LIFETIMES_AND_QUARANTINE",
    "V3_SETTINGS",
    "V4_OUTCOME",
    "Dialect",
    "Migration",
    "Step",
    "terminations",
]

STEPS: Sequence[Step] = (
    V1_INITIAL,
    V2_KV_LIFETIMES_AND_QUARANTINE,
    V3_SETTINGS,
    V4_OUTCOME,
    CLOCK,
    RATINGS,
    MATCHMAKING,
    RELAY,
    OPEN_SEATS,
    SERVER_GAMES,
    OUTBOX_CLAIMS,
    TERMINATIONS,
    SEEK_CAPS,
    BOARDS,
    PUBLIC_IDS,
    OUTBOX_POSTED,
    ARCHIVE,
    EVENTS,
    PUZZLES,
    PAGE_RECORDS,
    EVENT_PUBLIC_IDS,
    BERSERK,
    PUZZLES_ADDED,
    PUZZLE_ANSWERS,
)
"""Step ``i`` upgrades version ``i`` to ``i + 1``, in every dialect."""

MIGRATIONS: Sequence[Migration] = tuple(sqlite_migration(step) for step in STEPS)
"""The SQLite steps: ``MIGRATIONS[i]`` upgrades version ``i`` to ``i + 1``."""

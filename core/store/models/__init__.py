"""What the store keeps and answers: plain values, no I/O (the operations that read and write
them are the store's feature modules, such as :mod:`core.store.sessions`).

``session`` (sessions, seats, stats and settings rows, counts), ``kv`` (key-value rows, a
lease's holder, the limits a new game keeps), ``seeks`` (the matchmaking queue's answers),
``boards`` (where a board is shown), ``outbox`` (its items), ``ratings`` (ladders, ratings, links).
"""

from core.store.models.boards import BoardLocation
from core.store.models.kv import GameLimits, KvEntry, LeaseHolder
from core.store.models.outbox import SHOWS_THE_BOARD, JsonValue, Kind, OutboxItem
from core.store.models.ratings import LadderRow, Linked, PoolRating, RatingChangeRow
from core.store.models.seeks import AlreadySeeking, MakeGame, Paired, Queued, SeekResult
from core.store.models.session import (
    OPEN_GAMES,
    LiveCounts,
    PlatformTotals,
    Seat,
    Session,
    SettingRow,
    StatsRow,
    Status,
    new_public_id,
    new_session_id,
    replay,
)

__all__ = [
    "OPEN_GAMES",
    "SHOWS_THE_BOARD",
    "AlreadySeeking",
    "BoardLocation",
    "GameLimits",
    "JsonValue",
    "Kind",
    "KvEntry",
    "LadderRow",
    "LeaseHolder",
    "Linked",
    "LiveCounts",
    "MakeGame",
    "OutboxItem",
    "Paired",
    "PlatformTotals",
    "PoolRating",
    "Queued",
    "RatingChangeRow",
    "Seat",
    "SeekResult",
    "Session",
    "SettingRow",
    "StatsRow",
    "Status",
    "new_public_id",
    "new_session_id",
    "replay",
]

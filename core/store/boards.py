"""Board locations: where each game's board is shown (platform, chat, message, version), the
same operations for every platform (their rows are :class:`core.store.models.BoardLocation`).

A row per chat: an open game between two chats has two, and two processes saving them at the
same instant each write their own row (no row of the game read, changed and written back).
A row is tied to its session (deleted with it, schema step ``boards``) and found back from its
message (a reaction's or a click's target) by the index on ``(platform, message_id)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.store import kv
from core.store.models.boards import BoardLocation
from core.store.models.kv import KvEntry
from core.store.sql import Atomic, Op, count, row, rows

_COLUMNS = "platform, session_id, chat_id, message_id, version, detail"


def _location(found: Sequence[Any]) -> BoardLocation:
    platform, session_id, chat_id, message_id, version, detail = found
    return BoardLocation(
        str(platform),
        str(session_id),
        str(chat_id),
        str(message_id),
        None if version is None else int(version),
        str(detail),
    )


def board_at(platform: str, session_id: str, chat_id: str) -> Op[BoardLocation | None]:
    """The board of ``session_id`` in ``chat_id``, or None."""
    found = yield row(
        f"SELECT {_COLUMNS} FROM boards WHERE platform = $1 AND session_id = $2 AND chat_id = $3",
        platform,
        session_id,
        chat_id,
    )
    return None if found is None else _location(found)


def boards_of(platform: str, session_id: str) -> Op[list[BoardLocation]]:
    """Every board of ``session_id``, the first posted first."""
    found = yield rows(
        f"SELECT {_COLUMNS} FROM boards WHERE platform = $1 AND session_id = $2 ORDER BY placed",
        platform,
        session_id,
    )
    return [_location(each) for each in found]


def board_by_message(platform: str, message_id: str) -> Op[BoardLocation | None]:
    """The board shown by ``message_id``, or None."""
    found = yield row(
        f"SELECT {_COLUMNS} FROM boards WHERE platform = $1 AND message_id = $2",
        platform,
        message_id,
    )
    return None if found is None else _location(found)


def put_board(location: BoardLocation, placed: float, *, kept: KvEntry | None = None) -> Op[bool]:
    """Store (or replace) the board of its game in its chat, posted at ``placed`` (seconds
    since the epoch; a replaced board keeps its first time, so the first chat stays first),
    with ``kept``, a kv row of the adapter's, in the same transaction (Matrix's copy of the
    place that outlives a game deleted before its first move). The message's index comes with
    the row. False when the game is gone (no board is stored; ``kept`` is).

    As :func:`core.store.kv.put`, the session's existence is tested in the same statement and
    ``FOR KEY SHARE`` holds its row until the insert commits: a concurrent delete either ran
    first (nothing is stored) or waits (the row then goes with it)."""
    return bool((yield Atomic(_put_board(location, placed, kept))))


def _put_board(location: BoardLocation, placed: float, kept: KvEntry | None) -> Op[bool]:
    if kept is not None:
        yield from kv.put(kept)
    stored = yield count(
        f"INSERT INTO boards ({_COLUMNS}, placed)"
        " SELECT $1, $2, $3, $4, $5::integer, $6, $7::double precision"
        " WHERE EXISTS (SELECT 1 FROM sessions WHERE id = $2 FOR KEY SHARE)"
        " ON CONFLICT (platform, session_id, chat_id) DO UPDATE SET"
        " message_id = excluded.message_id, version = excluded.version,"
        " detail = excluded.detail",
        location.platform,
        location.session_id,
        location.chat_id,
        location.message_id,
        location.version,
        location.detail,
        placed,
    )
    return bool(stored)


def forget_board(platform: str, session_id: str, chat_id: str) -> Op[bool]:
    """Forget the board of ``session_id`` in ``chat_id`` (its message was deleted); True if
    there was one."""
    deleted = yield count(
        "DELETE FROM boards WHERE platform = $1 AND session_id = $2 AND chat_id = $3",
        platform,
        session_id,
        chat_id,
    )
    return bool(deleted)

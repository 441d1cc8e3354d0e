"""The outbox's operations, written once for SQLite and PostgreSQL (see :mod:`core.store.sql`;
its items are :class:`core.store.models.OutboxItem`).

Each item is shown at least once, and once when no process dies: of several processes that
read it, one claims it (:func:`outbox_take` sets its ``claimed_until``, by the caller's clock, as
``expires_at`` is read) and deletes it only once it was shown (:func:`outbox_done`). A claim whose
process died, or whose platform could not be reached, lapses, and the next pass takes the item
again; an item is not taken while an older item of its chat is claimed, so a chat is shown its
items in the order they were left, a lapsed claim's first. A board item is
one row per chat and game (a partial unique index), moved on to the newest version rather than
added again, so a game that changed three times while the serving process looked elsewhere is
shown once, as it stands.
"""

from __future__ import annotations

import dataclasses
import json
import logging
from collections.abc import Sequence
from typing import Any

from core.store.models.outbox import SHOWS_THE_BOARD, Kind, OutboxItem
from core.store.sql import Atomic, Op, count, row, rows

log = logging.getLogger(__name__)

_COLUMNS = "platform, chat_id, kind, session_id, version, seat, detail, expires_at"
_INSERT = f"INSERT INTO outbox ({_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"
_SELECT = (
    "SELECT id, platform, chat_id, kind, session_id, version, seat, detail, posted FROM outbox"
)
_SHOWING_THE_BOARD = ", ".join(f"'{kind.value}'" for kind in sorted(SHOWS_THE_BOARD, key=str))


def _row(item: OutboxItem, expires_at: float) -> tuple[Any, ...]:
    return (
        item.platform,
        item.chat_id,
        item.kind.value,
        item.session_id,
        item.version,
        item.seat,
        json.dumps(dict(item.detail), separators=(",", ":")),
        expires_at,
    )


def outbox_put(item: OutboxItem, expires_at: float) -> Op[None]:
    """Leave ``item``."""
    if item.kind is Kind.BOARD:
        yield from _put_board(item, expires_at)
        return
    yield Atomic(_put(item, expires_at))


def _put_board(item: OutboxItem, expires_at: float) -> Op[None]:
    # Not while an item that shows the whole board waits unclaimed: it shows the game as it
    # stands when it is taken, which is after this change (a claimed one may have read the
    # game before it, so the board goes after it).
    yield count(
        f"INSERT INTO outbox ({_COLUMNS}) SELECT $1, $2, $3, $4, $5::integer, $6::integer,"
        " $7, $8::double precision WHERE NOT EXISTS (SELECT 1 FROM outbox"
        " WHERE platform = $1 AND chat_id = $2 AND session_id = $4"
        f" AND kind IN ({_SHOWING_THE_BOARD}) AND claimed_until IS NULL)"
        " ON CONFLICT (platform, chat_id, session_id) WHERE kind = 'board'"
        " DO UPDATE SET version = excluded.version, expires_at = excluded.expires_at"
        " WHERE excluded.version > outbox.version",
        *_row(item, expires_at),
    )


def _put(item: OutboxItem, expires_at: float) -> Op[int]:
    if item.kind in SHOWS_THE_BOARD and item.session_id is not None:
        # The board it shows is newer: the older item would show it twice (and the result with
        # it, once the game has ended). A claimed one is being shown (or its claim lapses and
        # it is shown again first): it stays, so that this item waits for it.
        yield count(
            "DELETE FROM outbox WHERE platform = $1 AND chat_id = $2 AND session_id = $3"
            " AND kind = 'board' AND version <= $4 AND claimed_until IS NULL",
            item.platform,
            item.chat_id,
            item.session_id,
            item.version,
        )
    found = yield row(f"{_INSERT} RETURNING id", *_row(item, expires_at), writes=True)
    return int(found[0])


def notices(items: Sequence[OutboxItem], expires_at: float) -> Op[tuple[OutboxItem, ...]]:
    """Leave the notices that follow a change, inside the change's own transaction: a process
    that dies after the commit leaves them for the next pass (a chat of another process, or its
    own after a restart); the items, with their ids, for the caller to show at once (a board
    item, one per chat and game, is moved on rather than added, and found by :func:`board_of`).
    A part of other operations (sessions, seeks), not one of its own."""
    left = []
    for item in items:
        if item.kind is Kind.BOARD:
            yield from _put_board(item, expires_at)
            continue
        item_id = yield from _put(item, expires_at)
        left.append(dataclasses.replace(item, id=item_id))
    return tuple(left)


def _decoded(found: Sequence[Any]) -> OutboxItem | None:
    """A row back to an item; None for one that does not make one (a kind this version does
    not know, written by a newer one, is left for it)."""
    id_, platform, chat_id, kind, session_id, version, seat, detail, posted = found
    try:
        decoded = json.loads(detail)
        if not isinstance(decoded, dict):
            raise ValueError("detail is not an object")
        messages = [] if posted is None else json.loads(posted)
        if not isinstance(messages, list):
            raise ValueError("posted is not a list")
        return OutboxItem(
            kind=Kind(kind),
            platform=str(platform),
            chat_id=str(chat_id),
            session_id=None if session_id is None else str(session_id),
            version=int(version),
            seat=None if seat is None else int(seat),
            detail=decoded,
            id=int(id_),
            posted=tuple(str(message) for message in messages),
        )
    except (TypeError, ValueError):
        return None


def board_of(platform: str, chat_id: str, session_id: str) -> Op[OutboxItem | None]:
    """The board item of ``session_id`` due in that chat (claimed or not), if any."""
    found = yield row(
        f"{_SELECT} WHERE platform = $1 AND chat_id = $2 AND session_id = $3 AND kind = 'board'",
        platform,
        chat_id,
        session_id,
    )
    return None if found is None else _decoded(found)


def outbox_due(platform: str, now: float, limit: int = 100) -> Op[list[OutboxItem]]:
    """The oldest items of ``platform`` not claimed: the index on
    the platform and id gives them in order, a few entries read (none when nothing is due)."""
    found = yield rows(
        f"{_SELECT} WHERE platform = $1 AND expires_at > $2"
        f" AND (claimed_until IS NULL OR claimed_until <= $2) ORDER BY id LIMIT {int(limit)}",
        platform,
        now,
    )
    items = []
    for one in found:
        item = _decoded(one)
        if item is None:
            # Every pass would say it again: it goes at its expiry.
            log.debug("outbox item %s (%r) is not one this version shows", one[0], one[3])
            continue
        items.append(item)
    return items


def outbox_take(item_id: int, now: float, until: float) -> Op[bool]:
    """Claim an item until ``until``: the one update that finds it
    unclaimed, or its claim lapsed by ``now``, wins; not while an older item of its chat is
    claimed (it is shown first). PostgreSQL makes a second update of the row wait for the first
    and check the claim again, SQLite writes one at a time."""
    claimed = yield count(
        "UPDATE outbox SET claimed_until = $3 WHERE id = $1"
        " AND (claimed_until IS NULL OR claimed_until <= $2) AND NOT EXISTS (SELECT 1"
        " FROM outbox AS older WHERE older.platform = outbox.platform"
        " AND older.chat_id = outbox.chat_id AND older.id < outbox.id"
        " AND older.claimed_until > $2)",
        item_id,
        now,
        until,
    )
    return bool(claimed == 1)


def outbox_posted(item_id: int, posted: Sequence[str]) -> Op[None]:
    """The claimed item's messages were posted as ``posted`` (the platform's ids, in order):
    kept until it is done, so that a later try edits them rather than posting again."""
    yield count(
        "UPDATE outbox SET posted = $2 WHERE id = $1",
        item_id,
        json.dumps(list(posted), separators=(",", ":")),
    )


def outbox_done(item: OutboxItem) -> Op[None]:
    """The claimed ``item`` was shown: it goes; a board item moved
    on to a newer version meanwhile stays, unclaimed, to be shown as it now stands."""
    if (yield count("DELETE FROM outbox WHERE id = $1 AND version = $2", item.id, item.version)):
        return
    yield count("UPDATE outbox SET claimed_until = NULL WHERE id = $1", item.id)


def moved(session_id: str, before: tuple[str, str], after: tuple[str, str]) -> Op[None]:
    """The game's items due in chat ``before`` are due in ``after`` now (a room upgrade moved
    the game; inside its transaction). A board item already due there stays the one."""
    (platform, old_chat), (_, new_chat) = before, after
    yield count(
        "DELETE FROM outbox WHERE platform = $1 AND chat_id = $2 AND session_id = $3"
        " AND kind = 'board' AND EXISTS (SELECT 1 FROM outbox AS there WHERE"
        " there.platform = $1 AND there.chat_id = $4 AND there.session_id = $3"
        " AND there.kind = 'board')",
        platform,
        old_chat,
        session_id,
        new_chat,
    )
    yield count(
        "UPDATE outbox SET chat_id = $4 WHERE platform = $1 AND chat_id = $2 AND session_id = $3",
        platform,
        old_chat,
        session_id,
        new_chat,
    )


def expire(now: float) -> Op[int]:
    """Drop the items nobody showed in time (no process served their chat)."""
    return int((yield count("DELETE FROM outbox WHERE expires_at <= $1", now)))

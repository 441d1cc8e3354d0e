"""Sessions to rows and back: the one place that knows the ``sessions`` table's columns.

Decoding trusts nothing: a row may have been written by an older bug, edited by hand or damaged,
and a row that cannot be loaded must not block its players (the store quarantines it). So every
column is checked for its type and range, and the moves are replayed under the rules.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from typing import Any

from core.ai.levels import Level
from core.games import Outcome, Position, Rules, Termination
from core.store.models.session import Seat, Session, Status, replay

SESSION_COLUMNS = (
    "id",
    "platform",
    "chat_id",
    "rows",
    "cols",
    "k",
    "gravity",
    "x_user",
    "x_name",
    "x_level",
    "o_user",
    "o_name",
    "o_level",
    "moves",
    "status",
    "version",
    "created_at",
    "updated_at",
    "expires_at",
    "challenger",
    "challenged",
    "winner",
    "termination",
    "clock",
    "deadline",
    "remind_at",
    "server_id",
    "casual",
    "x_platform",
    "x_chat",
    "o_platform",
    "o_chat",
    "x_server",
    "o_server",
    "public_id",
    "berserk",
)
_COLUMN_LIST = ", ".join(SESSION_COLUMNS)

SELECT_SESSION = f"SELECT rowid, {_COLUMN_LIST} FROM sessions"
"""Every column, after the ``rowid`` (which a damaged row may need: its id may be NULL)."""

INSERT_SESSION = (
    f"INSERT INTO sessions ({_COLUMN_LIST}) VALUES ({', '.join('?' * len(SESSION_COLUMNS))})"
)
"""Takes :func:`session_row`."""

UPDATE_SESSION = (
    "UPDATE sessions SET "
    + ", ".join(f"{name} = ?" for name in SESSION_COLUMNS[1:])
    + " WHERE id = ? AND version = ?"
)
"""Takes ``(*session_row(s)[1:], s.id, expected_version)``."""

# The same three statements for PostgreSQL ($n placeholders, asyncpg's). Its ``id`` is NOT NULL
# (a primary key there is), so the id itself is the handle that a quarantine needs.
PG_SELECT_SESSION = f"SELECT id, {_COLUMN_LIST} FROM sessions"
"""As :data:`SELECT_SESSION`, with the id as the handle."""

PG_INSERT_SESSION = (
    f"INSERT INTO sessions ({_COLUMN_LIST})"
    f" VALUES ({', '.join(f'${n}' for n in range(1, len(SESSION_COLUMNS) + 1))})"
)
"""As :data:`INSERT_SESSION`; takes :func:`session_row`."""

PG_UPDATE_SESSION = (
    "UPDATE sessions SET "
    + ", ".join(f"{name} = ${n}" for n, name in enumerate(SESSION_COLUMNS[1:], start=1))
    + f" WHERE id = ${len(SESSION_COLUMNS)} AND version = ${len(SESSION_COLUMNS) + 1}"
)
"""As :data:`UPDATE_SESSION`; takes ``(*session_row(s)[1:], s.id, expected_version)``."""


class BadRow(ValueError):
    """A ``sessions`` row that does not make a valid :class:`Session`; the message says why."""


def encode_moves(moves: Iterable[int]) -> str:
    """Moves as stored: decimal numbers separated by commas (``""`` for none)."""
    return ",".join(str(move) for move in moves)


# Only ASCII digits are ours: isdigit() alone accepts "²", int() accepts " 4" and "4_0".
_MOVES = re.compile(r"[0-9]+(?:,[0-9]+)*", re.ASCII)


def decode_moves(text: object) -> tuple[int, ...]:
    """The stored moves column back to moves.

    Raises:
        BadRow: not a comma-separated list of plain decimal numbers.
    """
    if type(text) is not str:
        raise BadRow(f"moves must be text, got {text!r}")
    if not text:
        return ()
    if _MOVES.fullmatch(text) is None:
        raise BadRow(f"moves do not parse: {text!r}")
    return tuple(map(int, text.split(",")))


def session_row(s: Session) -> tuple[Any, ...]:
    """The values of :data:`SESSION_COLUMNS` for ``s``, in order."""
    x, o = s.seats
    return (
        s.id,
        s.platform,
        s.chat_id,
        s.rules.rows,
        s.rules.cols,
        s.rules.k,
        int(s.rules.gravity),
        x.user_id,
        x.name,
        x.level.value if x.level else None,
        o.user_id,
        o.name,
        o.level.value if o.level else None,
        encode_moves(s.moves),
        s.status.value,
        s.version,
        s.created_at,
        s.updated_at,
        s.expires_at,
        s.challenger,
        s.challenged,
        s.winner,
        None if s.outcome is None else s.outcome.termination.value,
        s.clock,
        s.deadline,
        s.remind_at,
        s.server_id,
        int(s.casual),
        x.platform,
        x.chat_id,
        o.platform,
        o.chat_id,
        x.server_id,
        o.server_id,
        s.public_id,
        s.berserk,
    )


_Kind = tuple[type, ...]
_TEXT: _Kind = (str,)
_TEXT_OR_NONE: _Kind = (str, type(None))
_WHOLE: _Kind = (int,)  # type() is exact: bool is not int here (SQLite never returns bool anyway)
_WHOLE_OR_NONE: _Kind = (int, type(None))
_TIME: _Kind = (int, float)
_TIME_OR_NONE: _Kind = (int, float, type(None))
_KINDS: dict[str, _Kind] = dict(
    zip(
        SESSION_COLUMNS,
        (
            *(_TEXT, _TEXT, _TEXT),  # id, platform, chat_id
            *(_WHOLE, _WHOLE, _WHOLE, _WHOLE),  # rows, cols, k, gravity
            *(_TEXT_OR_NONE, _TEXT, _TEXT_OR_NONE),  # x_user, x_name, x_level
            *(_TEXT_OR_NONE, _TEXT, _TEXT_OR_NONE),  # o_user, o_name, o_level
            *(_TEXT, _TEXT, _WHOLE),  # moves, status, version
            *(_TIME, _TIME, _TIME),  # created_at, updated_at, expires_at
            *(_TEXT_OR_NONE, _TEXT_OR_NONE, _WHOLE_OR_NONE),  # challenger, challenged, winner
            _TEXT_OR_NONE,  # termination
            *(_TIME_OR_NONE, _TIME_OR_NONE, _TIME_OR_NONE),  # clock, deadline, remind_at
            _TEXT_OR_NONE,  # server_id
            _WHOLE,  # casual
            *(_TEXT_OR_NONE,) * 4,  # x_platform, x_chat, o_platform, o_chat
            *(_TEXT_OR_NONE,) * 2,  # x_server, o_server
            _TEXT,  # public_id
            _WHOLE,  # berserk
        ),
        strict=True,
    )
)
_KIND_LIST = tuple(_KINDS.values())
_KIND_NAMES: dict[_Kind, str] = {
    _TEXT: "text",
    _TEXT_OR_NONE: "text or empty",
    _WHOLE: "a whole number",
    _WHOLE_OR_NONE: "a whole number or empty",
    _TIME: "a time in seconds",
    _TIME_OR_NONE: "a time in seconds or empty",
}
_STATUSES = {status.value: status for status in Status}
_TERMINATIONS = {termination.value: termination for termination in Termination}
_LEVELS = {level.value: level for level in Level}


def stats_rows(s: Session) -> list[tuple[str, str, int, int, int]]:
    """What a finished game adds to its players' stats: ``(user id, name, wins, losses,
    draws)`` for each person at the board (bots keep no stats). A game abandoned with no winner
    (the bot left the chat, or nobody had moved) counts for nobody: it is not a draw."""
    if s.outcome is not None and s.outcome.termination is Termination.ABANDONED and not s.winner:
        return []
    rows = []
    for number, seat in enumerate(s.seats, start=1):
        if seat.user_id is None:
            continue
        if s.winner is None:
            wins, losses, draws = 0, 0, 1
        elif s.winner == number:
            wins, losses, draws = 1, 0, 0
        else:
            wins, losses, draws = 0, 1, 0
        rows.append((seat.user_id, seat.name, wins, losses, draws))
    return rows


def _check_types(values: Sequence[Any]) -> None:
    # One pass over plain type() identities: this runs on every load of every session.
    for value, kind in zip(values, _KIND_LIST, strict=True):
        if type(value) not in kind:
            break
    else:
        return
    for (name, kind), value in zip(_KINDS.items(), values, strict=True):
        if type(value) not in kind:
            raise BadRow(f"{name} must be {_KIND_NAMES[kind]}, got {value!r}")


def _seat(
    side: str,
    user_id: str | None,
    name: str,
    level: str | None,
    where: tuple[str | None, str | None, str | None] = (None, None, None),
) -> Seat:
    try:
        return Seat(name, user_id, None if level is None else _LEVELS[level], *where)
    except KeyError:
        raise BadRow(f"seat {side}: unknown level {level!r}") from None
    except ValueError as error:
        raise BadRow(f"seat {side}: {error}") from None


def decode_session(row: Sequence[Any]) -> Session:
    """A row of :data:`SELECT_SESSION` (``rowid`` first) back to a :class:`Session`.

    Raises:
        BadRow: a column has the wrong type or range, the rules or seats are invalid, or the
            moves do not parse or are not a legal game under the rules.
    """
    if len(row) != len(SESSION_COLUMNS) + 1:
        raise BadRow(f"expected {len(SESSION_COLUMNS) + 1} columns, got {len(row)}")
    _check_types(row[1:])
    (
        _,
        session_id,
        platform,
        chat_id,
        rows,
        cols,
        k,
        gravity,
        x_user,
        x_name,
        x_level,
        o_user,
        o_name,
        o_level,
        moves_text,
        status_text,
        version,
        created_at,
        updated_at,
        expires_at,
        challenger,
        challenged,
        winner,
        termination,
        clock,
        deadline,
        remind_at,
        server_id,
        casual,
        *away,
    ) = row
    if gravity not in (0, 1):
        raise BadRow(f"gravity must be 0 or 1, got {gravity!r}")
    if casual not in (0, 1):
        raise BadRow(f"casual must be 0 or 1, got {casual!r}")
    berserk = away[7]
    if berserk not in (0, 1, 2, 3):
        raise BadRow(f"berserk must be 0 to 3 (a bit per seat), got {berserk!r}")
    try:
        rules = Rules(rows, cols, k, gravity=gravity == 1)
    except ValueError as error:
        raise BadRow(f"rules: {error}") from None
    status = _STATUSES.get(status_text)
    if status is None:
        raise BadRow(f"unknown status {status_text!r}")
    if winner not in (None, 1, 2):
        raise BadRow(f"winner must be 1, 2 or empty, got {winner!r}")
    if created_at != created_at or updated_at != updated_at or expires_at != expires_at:
        raise BadRow(f"a time is not a number: {(created_at, updated_at, expires_at)!r}")
    moves = decode_moves(moves_text)
    try:
        position = replay(rules, moves)
    except ValueError as error:  # IllegalMove is one
        raise BadRow(f"moves are not a legal game: {error}") from None
    outcome = _outcome(status, winner, termination, position)
    if any(t is not None and not 0 <= t < float("inf") for t in (clock, deadline, remind_at)):
        raise BadRow(f"a clock time is not a time: {(clock, deadline, remind_at)!r}")
    if deadline is not None and (clock is None or status is not Status.ACTIVE):
        raise BadRow(f"a deadline without a running clock ({status.value}, {clock!r})")
    return Session(
        id=session_id,
        platform=platform,
        chat_id=chat_id,
        seats=(
            _seat("X", x_user, x_name, x_level, (away[0], away[1], away[4])),
            _seat("O", o_user, o_name, o_level, (away[2], away[3], away[5])),
        ),
        rules=rules,
        moves=moves,
        status=status,
        version=version,
        created_at=float(created_at),
        updated_at=float(updated_at),
        expires_at=float(expires_at),
        challenger=challenger,
        challenged=challenged,
        outcome=outcome,
        clock=None if clock is None else float(clock),
        deadline=None if deadline is None else float(deadline),
        remind_at=None if remind_at is None else float(remind_at),
        server_id=server_id,
        casual=casual == 1,
        public_id=away[6],
        berserk=berserk,
    )


def _outcome(
    status: Status, winner: int | None, termination: str | None, position: Position
) -> Outcome | None:
    if status is not Status.FINISHED:
        if termination is not None:
            raise BadRow(f"a {status.value} game has a termination ({termination!r})")
        return None
    if termination is None:
        # Finished before the outcome was stored (schema 4): the board says a win or a draw;
        # a finished game whose board goes on was resigned (a winner) or stopped (none).
        if position.outcome is not None:
            return position.outcome
        return Outcome(Termination.STOPPED if winner is None else Termination.RESIGNATION, winner)
    kind = _TERMINATIONS.get(termination)
    if kind is None:
        raise BadRow(f"unknown termination {termination!r}")
    try:
        outcome = Outcome(kind, winner)
    except ValueError as error:
        raise BadRow(f"outcome: {error}") from None
    if outcome.on_the_board and outcome != position.outcome:
        raise BadRow(f"the board does not show a {termination} for {winner!r}")
    return outcome


def row_json(row: Sequence[Any], *, handle: bool = True) -> str:
    """A raw :data:`SELECT_SESSION` row as JSON (column name to value) for the quarantine.

    Blobs become hex strings; everything else SQLite returns is JSON already. ``handle=False``
    leaves out the first column (PostgreSQL's handle is the id, already there).
    """
    names = ("rowid", *SESSION_COLUMNS) if handle else ("", *SESSION_COLUMNS)
    values = dict(zip(names, row, strict=False))
    values.pop("", None)

    def blob(value: object) -> str:
        if isinstance(value, bytes):
            return value.hex()
        raise TypeError(f"cannot store {value!r} as JSON")

    # NaN and infinities are legal floats in SQLite but not in JSON: allow_nan writes them as
    # the bare words NaN/Infinity, which Python's json reads back.
    return json.dumps(values, default=blob, ensure_ascii=False, sort_keys=True)

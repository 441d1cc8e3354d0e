"""The archive of finished games: one row per game, keyed by its public id, for the web pages'
game pages (issue 33). Written once for both databases (:mod:`core.store.sql`).

- :func:`archive_in` runs inside the transaction that finishes a game
  (``sessions._record_result``, after the rating change), so the game is archived exactly when
  its result is recorded: by the one writer whose compare-and-set ended it. Its row is tied to
  nothing: the expiry sweep that deletes the session leaves it.
- A seat is kept with its identity (a person's, linked accounts followed, as the ratings know
  it), so a player who hides (``/hide``) later is shown as "anonymous" on every game of theirs:
  the pages read who is hidden when they draw a game, never when it is archived.
- A game is listed (a page may link it) only where it was played in public
  (:mod:`core.store.public_play`: every chat's admins turned ``public_ladder`` on, as it stood
  when the game ended); any other game is reached only by its address.
- A game finished before the archive existed is archived by :func:`backfill` (``chatbots
  archive backfill``) while its session is still stored: the same row :func:`archive_in` would
  have written then, but listed as the chats' settings stand at the backfill. A game whose
  session was swept left no record of its seats' names and of how it ended (the rating log
  keeps identities and a result, a kept ``/review`` the moves, neither the rest): it has no
  page.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from core.games import Outcome, Rules, Termination
from core.store.models.archive import ArchivedGame, ArchivedSeat
from core.store.models.session import Session, Status
from core.store.public_play import played_in_public, public_places
from core.store.quarantine import load
from core.store.ratings import identities
from core.store.rows import BadRow, decode_moves, encode_moves
from core.store.sql import Atomic, Op, count, placeholders, row, rows, value

log = logging.getLogger("core.store")

_COLUMNS = (
    "public_id, session_id, rows, cols, k, gravity, x_name, x_identity, x_level, o_name,"
    " o_identity, o_level, moves, termination, winner, rated, clock, started_at, finished_at,"
    " listed, analysis"
)


def archive_in(session: Session) -> Op[None]:
    """Archive ``session``, which has just finished (inside the transaction that records its
    result; after ``ratings.record``, whose log row says whether it was rated). A game archived
    already (the same public id) stays as it was."""
    outcome = session.outcome
    if outcome is None:
        return
    seats = []
    for number, seat in enumerate(session.seats, start=1):
        identity = None
        if seat.user_id is not None:
            platform = session.chat_of(number)[0]
            identity = (yield from identities(platform, (seat.user_id,)))[seat.user_id]
        level = None if seat.level is None else seat.level.value
        seats.append((seat.name, identity, level))
    rated = False
    if all(identity is not None for _, identity, _ in seats):
        rated = bool(
            (
                yield value(
                    "SELECT count(*) FROM rating_changes"
                    " WHERE session_id = $1 AND at = $2 AND kind = 'game'",
                    session.id,
                    session.updated_at,
                )
            )
        )
    listed = played_in_public(session, (yield from public_places()))
    rules = session.rules
    (x_name, x_identity, x_level), (o_name, o_identity, o_level) = seats
    yield count(
        f"INSERT INTO archive ({_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10,"
        " $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, NULL)"
        " ON CONFLICT (public_id) DO NOTHING",
        session.public_id,
        session.id,
        rules.rows,
        rules.cols,
        rules.k,
        int(rules.gravity),
        x_name,
        x_identity,
        x_level,
        o_name,
        o_identity,
        o_level,
        encode_moves(session.moves),
        outcome.termination.value,
        outcome.winner,
        int(rated),
        session.clock,
        session.created_at,
        session.updated_at,
        int(listed),
    )


def backfill(limit: int) -> Op[int]:
    """Archive up to ``limit`` finished games whose sessions are stored and not archived (the
    oldest first), each as :func:`archive_in` archives a game at its end; how many. Run it
    again until it answers 0; a game archived meanwhile by anyone stays as it was."""
    found = yield rows(
        "SELECT s.id FROM sessions s WHERE s.status = $1 AND s.termination IS NOT NULL"
        " AND s.public_id IS NOT NULL"
        " AND NOT EXISTS (SELECT 1 FROM archive a WHERE a.public_id = s.public_id)"
        " ORDER BY s.updated_at, s.id LIMIT $2",
        Status.FINISHED.value,
        limit,
    )
    done = 0
    for (session_id,) in found:
        session = yield from load("id = $1", str(session_id))
        if session is not None and session.status is Status.FINISHED:
            yield Atomic(archive_in(session))
            done += 1
    return done


def archived(public_id: str) -> Op[ArchivedGame | None]:
    """The archived game ``public_id``, or None (none such, or a row that cannot be read)."""
    found = yield row(f"SELECT {_COLUMNS} FROM archive WHERE public_id = $1", public_id)
    return None if found is None else _decode(found)


def keep_analysis(public_id: str, analysis: str) -> Op[bool]:
    """Keep the solver's ``analysis`` with the archived game ``public_id``, unless one is kept
    already (two processes computing it at once keep the first: the values are exact, so both
    are the same); whether this one was kept."""
    kept = yield count(
        "UPDATE archive SET analysis = $2 WHERE public_id = $1 AND analysis IS NULL",
        public_id,
        analysis,
    )
    return bool(kept)


def recent_pages(identity: str, limit: int) -> Op[list[tuple[str, float, str | None]]]:
    """The identity's last ``limit`` rated games, newest first, as ``ratings.rating_changes``
    lists them: each one's pool, time, and its game's public id where the archive lists it
    (else None)."""
    seat = (
        "SELECT r.id, r.pool, r.at, a.public_id FROM rating_changes r LEFT JOIN archive a"
        " ON a.session_id = r.session_id AND a.finished_at = r.at AND a.listed = 1"
        " WHERE r.{}_identity = $1 AND r.kind = 'game' ORDER BY r.id DESC LIMIT $2"
    )
    found = yield rows(
        f"SELECT * FROM ({seat.format('first')}) AS x UNION ALL"
        f" SELECT * FROM ({seat.format('second')}) AS o ORDER BY id DESC LIMIT $2",
        identity,
        limit,
    )
    return [(str(r[1]), float(r[2]), _text(r[3])) for r in found]


def listed_games(played: Sequence[tuple[str, float]]) -> Op[dict[tuple[str, float], str]]:
    """The public ids of the listed archived games among ``played`` (a rating log's session
    ids and times), by ``(session id, time)``."""
    if not played:
        return {}
    ids = tuple(dict.fromkeys(session_id for session_id, _ in played))
    found = yield rows(
        "SELECT session_id, finished_at, public_id FROM archive WHERE listed = 1"
        f" AND session_id IN ({placeholders(1, len(ids))})",
        *ids,
    )
    wanted = set(played)
    return {
        (str(r[0]), float(r[1])): str(r[2]) for r in found if (str(r[0]), float(r[1])) in wanted
    }


def _decode(found: Sequence[Any]) -> ArchivedGame | None:
    try:
        rules = Rules(int(found[2]), int(found[3]), int(found[4]), bool(found[5]))
        seats = (
            ArchivedSeat(str(found[6]), _text(found[7]), _text(found[8])),
            ArchivedSeat(str(found[9]), _text(found[10]), _text(found[11])),
        )
        winner = None if found[14] is None else int(found[14])
        return ArchivedGame(
            public_id=str(found[0]),
            session_id=str(found[1]),
            rules=rules,
            seats=seats,
            moves=decode_moves(found[12]),
            outcome=Outcome(Termination(found[13]), winner),
            rated=bool(found[15]),
            clock=None if found[16] is None else float(found[16]),
            started_at=float(found[17]),
            finished_at=float(found[18]),
            listed=bool(found[19]),
            analysis=_text(found[20]),
        )
    except (BadRow, ValueError, TypeError):
        log.warning("archived game %s cannot be read", found[0], exc_info=True)
        return None


def _text(cell: object) -> str | None:
    return None if cell is None else str(cell)

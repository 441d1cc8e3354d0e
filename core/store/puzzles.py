"""The puzzles' store operations, written once for SQLite and PostgreSQL (see
:mod:`core.store.sql`); the puzzles themselves are :mod:`core.puzzles`' (pure).

- A person tries a puzzle once (``puzzle_attempts``' unique key on identity and puzzle): the
  daily puzzle asked again on another platform is the same attempt, solved or failed once.
  The latest attempt of a user in a chat is their current puzzle there; its moves are stored
  with each answer, under a version (``UPDATE ... WHERE version = $n``), so two answers to one
  board cannot both apply and a restart loses none.
- The attempt that ends is rated in the same transaction: the player against the puzzle
  (:func:`core.puzzles.rating.after_attempt`), both rows locked, player first, then puzzle.
- Everything is keyed by identity, so a ``/link`` carries it (:func:`carried`, called by
  :mod:`core.store.links`).
- Puzzles an operator added (``puzzles_added``, proven before the insert) are offered beside the
  shipped sets (:func:`added_puzzles`).
- A chat's daily post is claimed for the day and left in the outbox in one transaction
  (:func:`post_daily`): one item per chat and day, however many processes try.
"""

from __future__ import annotations

import dataclasses
import datetime
import json
from collections.abc import Mapping, Sequence
from typing import Any

from core.puzzles import shipped
from core.puzzles.puzzle import Puzzle, from_line
from core.puzzles.rating import after_attempt, of_difficulty
from core.puzzles.streak import Streak, day_number
from core.ratings import PROVISIONAL_GAMES, Rating, merged
from core.store import outbox
from core.store.models.outbox import Kind, OutboxItem
from core.store.models.puzzles import (
    AttemptStatus,
    PuzzlePlayer,
    PuzzleResult,
    StoredAttempt,
)
from core.store.ratings import identities
from core.store.rows import BadRow, decode_moves
from core.store.sql import Atomic, Op, count, row, rows

_ATTEMPT = (
    "SELECT id, identity, puzzle_id, platform, chat_id, user_id, played, status, version,"
    " started_at FROM puzzle_attempts"
)
_PLAYER = (
    "SELECT identity, rating, deviation, attempts, solved, streak, best_streak, streak_day,"
    " name, platform FROM puzzle_players"
)
_LISTED = f"attempts >= {PROVISIONAL_GAMES}"
"""Spelled as the partial index's predicate (``puzzle_players_ladder``)."""


def _attempt(found: Sequence[Any]) -> StoredAttempt:
    return StoredAttempt(
        id=str(found[0]),
        identity=str(found[1]),
        puzzle_id=str(found[2]),
        platform=str(found[3]),
        chat_id=str(found[4]),
        user_id=str(found[5]),
        played=tuple(json.loads(str(found[6]))),
        status=AttemptStatus(str(found[7])),
        version=int(found[8]),
        started_at=float(found[9]),
    )


def _player(found: Sequence[Any]) -> PuzzlePlayer:
    day = None if found[7] is None else int(found[7])
    return PuzzlePlayer(
        identity=str(found[0]),
        rating=Rating(float(found[1]), float(found[2]), int(found[3])),
        solved=int(found[4]),
        streak=Streak(int(found[5]), int(found[6]), day),
        name=str(found[8]),
        platform=str(found[9]),
    )


def start_attempt(
    attempt_id: str, platform: str, chat_id: str, user_id: str, puzzle_id: str, now: float
) -> Op[StoredAttempt]:
    """The user's attempt at ``puzzle_id``, now their current puzzle in ``chat_id``: a new one
    (``attempt_id``), or the person's earlier one (the same id as before; one still going
    moves here and goes on, one finished is answered as such)."""
    started: StoredAttempt = yield Atomic(
        _start(attempt_id, platform, chat_id, user_id, puzzle_id, now)
    )
    return started


def _start(
    attempt_id: str, platform: str, chat_id: str, user_id: str, puzzle_id: str, now: float
) -> Op[StoredAttempt]:
    identity = (yield from identities(platform, (user_id,)))[user_id]
    yield count(
        "INSERT INTO puzzle_attempts (id, identity, puzzle_id, platform, chat_id, user_id,"
        " played, status, version, started_at, updated_at)"
        " VALUES ($1, $2, $3, $4, $5, $6, '[]', 'going', 0, $7, $7)"
        " ON CONFLICT (identity, puzzle_id) DO UPDATE SET platform = excluded.platform,"
        " chat_id = excluded.chat_id, user_id = excluded.user_id,"
        " started_at = excluded.started_at",
        attempt_id,
        identity,
        puzzle_id,
        platform,
        chat_id,
        user_id,
        now,
    )
    found = yield row(f"{_ATTEMPT} WHERE identity = $1 AND puzzle_id = $2", identity, puzzle_id)
    return _attempt(found)  # written just above, in this transaction


def current_attempt(platform: str, chat_id: str, user_id: str) -> Op[StoredAttempt | None]:
    """The user's current puzzle in the chat (the latest started or shown there), or None."""
    found = yield row(
        f"{_ATTEMPT} WHERE platform = $1 AND chat_id = $2 AND user_id = $3"
        " ORDER BY started_at DESC, id LIMIT 1",
        platform,
        chat_id,
        user_id,
    )
    return None if found is None else _attempt(found)


def attempt_at(platform: str, user_id: str, puzzle_id: str) -> Op[StoredAttempt | None]:
    """The user's identity's attempt at ``puzzle_id``, or None if they never tried it."""
    identity = (yield from identities(platform, (user_id,)))[user_id]
    found = yield row(f"{_ATTEMPT} WHERE identity = $1 AND puzzle_id = $2", identity, puzzle_id)
    return None if found is None else _attempt(found)


def attempt_of(attempt_id: str) -> Op[StoredAttempt | None]:
    found = yield row(f"{_ATTEMPT} WHERE id = $1", attempt_id)
    return None if found is None else _attempt(found)


def answered(
    attempt: StoredAttempt,
    played: tuple[int, ...],
    status: AttemptStatus,
    *,
    difficulty: int,
    day: int,
    name: str,
    now: float,
) -> Op[PuzzleResult | bool]:
    """Store an answer to ``attempt`` as read (its version): the moves now ``played`` and how
    it stands. An attempt that ends is rated in the same transaction (the puzzle starts at
    ``difficulty``), and a solve counts for the streak on ``day`` (a day number).

    Returns:
        The rating change and the streak when the attempt ended; True when it goes on; False
        when the attempt had moved on or ended already (another answer came first).
    """
    result: PuzzleResult | bool = yield Atomic(
        _answered(attempt, played, status, difficulty, day, name, now)
    )
    return result


def _answered(
    attempt: StoredAttempt,
    played: tuple[int, ...],
    status: AttemptStatus,
    difficulty: int,
    day: int,
    name: str,
    now: float,
) -> Op[PuzzleResult | bool]:
    applied = yield count(
        "UPDATE puzzle_attempts SET played = $3, status = $4, version = version + 1,"
        " updated_at = $5 WHERE id = $1 AND version = $2 AND status = 'going'",
        attempt.id,
        attempt.version,
        json.dumps(list(played)),
        status.value,
        now,
    )
    if not applied:
        return False
    if status is AttemptStatus.GOING:
        return True
    found = yield row("SELECT identity FROM puzzle_attempts WHERE id = $1", attempt.id)
    identity = str(found[0])  # a link may have moved the attempt since it was read
    player = yield from _locked_player(identity, attempt.platform, name, now)
    fresh = of_difficulty(difficulty)
    yield count(
        "INSERT INTO puzzle_ratings (puzzle_id, rating, deviation, attempts, solved)"
        " VALUES ($1, $2, $3, 0, 0) ON CONFLICT (puzzle_id) DO NOTHING",
        attempt.puzzle_id,
        fresh.rating,
        fresh.deviation,
    )
    kept = yield row(
        "SELECT rating, deviation, attempts FROM puzzle_ratings WHERE puzzle_id = $1 FOR UPDATE",
        attempt.puzzle_id,
    )
    puzzle = Rating(float(kept[0]), float(kept[1]), int(kept[2]))
    solved = status is AttemptStatus.SOLVED
    change = after_attempt(player.rating, puzzle, solved)
    streak = player.streak.solved(day) if solved else player.streak
    yield count(
        "UPDATE puzzle_players SET rating = $2, deviation = $3, attempts = $4,"
        " solved = solved + $5, streak = $6, best_streak = $7, streak_day = $8::integer,"
        " platform = $9, name = $10, last_at = $11 WHERE identity = $1",
        identity,
        change.after[0].rating,
        change.after[0].deviation,
        change.after[0].games,
        int(solved),
        streak.days,
        streak.best,
        streak.last_day,
        attempt.platform,
        name,
        now,
    )
    yield count(
        "UPDATE puzzle_ratings SET rating = $2, deviation = $3, attempts = $4,"
        " solved = solved + $5 WHERE puzzle_id = $1",
        attempt.puzzle_id,
        change.after[1].rating,
        change.after[1].deviation,
        change.after[1].games,
        int(solved),
    )
    return PuzzleResult(change.before[0], change.after[0], streak)


def _locked_player(identity: str, platform: str, name: str, now: float) -> Op[PuzzlePlayer]:
    fresh = Rating()
    yield count(
        "INSERT INTO puzzle_players (identity, rating, deviation, attempts, solved, streak,"
        " best_streak, streak_day, platform, name, last_at)"
        " VALUES ($1, $2, $3, 0, 0, 0, 0, NULL, $4, $5, $6) ON CONFLICT (identity) DO NOTHING",
        identity,
        fresh.rating,
        fresh.deviation,
        platform,
        name,
        now,
    )
    found = yield row(f"{_PLAYER} WHERE identity = $1 FOR UPDATE", identity)
    return _player(found)


def player_of(platform: str, user_id: str) -> Op[PuzzlePlayer | None]:
    """The user's puzzle rating, count solved and streak (their identity's); None before their
    first finished puzzle."""
    identity = (yield from identities(platform, (user_id,)))[user_id]
    found = yield row(f"{_PLAYER} WHERE identity = $1", identity)
    return None if found is None else _player(found)


def top(limit: int = 10) -> Op[list[PuzzlePlayer]]:
    """The best solvers: by puzzle rating, among those past their provisional attempts."""
    found = yield rows(f"{_PLAYER} WHERE {_LISTED} ORDER BY rating DESC, identity LIMIT $1", limit)
    return [_player(r) for r in found]


def attempted(platform: str, user_id: str) -> Op[frozenset[str]]:
    """The puzzles the user's identity has tried (finished or not)."""
    identity = (yield from identities(platform, (user_id,)))[user_id]
    found = yield rows("SELECT puzzle_id FROM puzzle_attempts WHERE identity = $1", identity)
    return frozenset(str(r[0]) for r in found)


def puzzle_ratings() -> Op[dict[str, Rating]]:
    """Every puzzle's rating, of those someone has tried (the others still stand at their
    difficulty)."""
    found = yield rows("SELECT puzzle_id, rating, deviation, attempts FROM puzzle_ratings")
    return {str(r[0]): Rating(float(r[1]), float(r[2]), int(r[3])) for r in found}


def add_puzzles(
    lines: Sequence[tuple[str, str]], now: float, answers: Mapping[str, str] | None = None
) -> Op[int]:
    """Puzzles an operator adds (``chatbots puzzles generate --add``), as (id, one-line form),
    each proven before by the caller, with their ``answers`` by id where made
    (:func:`core.puzzles.lines.answers_of`); one already there is left as it is, but given its
    answers if it had none. All or none; how many were new."""
    added: int = yield Atomic(_add(lines, now, answers or {}))
    return added


def _add(lines: Sequence[tuple[str, str]], now: float, answers: Mapping[str, str]) -> Op[int]:
    added = 0
    for ident, line in lines:
        kept = answers.get(ident)
        new = yield count(
            "INSERT INTO puzzles_added (id, line, added_at, answers) VALUES ($1, $2, $3, $4)"
            " ON CONFLICT (id) DO NOTHING",
            ident,
            line,
            now,
            kept,
        )
        if not new and kept is not None:
            yield count(
                "UPDATE puzzles_added SET answers = $2 WHERE id = $1 AND answers IS NULL",
                ident,
                kept,
            )
        added += new
    return added


def added_puzzles() -> Op[list[str]]:
    """Every added puzzle's one-line form, by id."""
    found = yield rows("SELECT line FROM puzzles_added ORDER BY id")
    return [str(line) for (line,) in found]


def added_puzzle(ident: str) -> Op[Puzzle | None]:
    """The added puzzle ``ident``, with its answers (None for one added before they were
    kept), or None."""
    found = yield row("SELECT line, answers FROM puzzles_added WHERE id = $1", ident)
    if found is None:
        return None
    line, answers = found
    puzzle = from_line(str(line))
    return puzzle if answers is None else dataclasses.replace(puzzle, answers=str(answers))


def puzzle_of(ident: str) -> Op[Puzzle | None]:
    """The puzzle ``ident``: of the shipped sets, else an added one; None where neither is."""
    puzzle = shipped.by_id(ident)
    if puzzle is None:
        puzzle = yield from added_puzzle(ident)
    return puzzle


def offered() -> Op[tuple[Puzzle, ...]]:
    """Every puzzle ``/puzzle next`` chooses from: the shipped sets, then the added ones."""
    added = yield from added_puzzles()
    return (*shipped.every(), *map(from_line, added))


def carried(source: str, into: str) -> Op[None]:
    """``source`` joined ``into`` (a ``/link``, in its transaction): one puzzle rating (the
    one from more attempts, :func:`core.ratings.merged`), the counts added, one streak
    (:meth:`Streak.joined`), and the attempts (of a puzzle both tried, ``into``'s stays)."""
    found = yield rows(
        f"{_PLAYER} WHERE identity IN ($1, $2) ORDER BY identity FOR UPDATE", source, into
    )
    players = {p.identity: p for p in map(_player, found)}
    theirs, ours = players.get(source), players.get(into)
    if theirs is not None:
        if ours is None:
            yield count("UPDATE puzzle_players SET identity = $2 WHERE identity = $1", source, into)
        else:
            rating = merged(theirs.rating, ours.rating)
            streak = theirs.streak.joined(ours.streak)
            yield count(
                "UPDATE puzzle_players SET rating = $2, deviation = $3, attempts = $4,"
                " solved = $5, streak = $6, best_streak = $7, streak_day = $8::integer"
                " WHERE identity = $1",
                into,
                rating.rating,
                rating.deviation,
                rating.games,
                theirs.solved + ours.solved,
                streak.days,
                streak.best,
                streak.last_day,
            )
            yield count("DELETE FROM puzzle_players WHERE identity = $1", source)
    yield count(
        "DELETE FROM puzzle_attempts WHERE identity = $1 AND puzzle_id IN"
        " (SELECT puzzle_id FROM puzzle_attempts WHERE identity = $2)",
        source,
        into,
    )
    yield count("UPDATE puzzle_attempts SET identity = $2 WHERE identity = $1", source, into)


def finished_connect_four(limit: int) -> Op[list[tuple[int, ...]]]:
    """The moves of the ``limit`` latest finished 6x7 Connect Four games of the archive
    (:mod:`core.store.archive`), where ``chatbots puzzles generate --archive`` looks for
    mistakes."""
    found = yield rows(
        "SELECT moves FROM archive WHERE rows = 6 AND cols = 7 AND k = 4 AND gravity = 1"
        " ORDER BY finished_at DESC, public_id LIMIT $1",
        limit,
    )
    games = []
    for (moves,) in found:
        try:
            games.append(decode_moves(moves))
        except BadRow:
            continue  # a damaged row: not a game to learn from
    return games


def post_daily(
    platform: str,
    chat_id: str,
    day: datetime.date,
    now: float,
    expires_at: float,
    server: str | None = None,
) -> Op[OutboxItem | None]:
    """The chat's post of ``day``'s puzzle, left in the outbox with its claim in one
    transaction (with its id, for the caller to show at once); None when it was left before,
    by this process or another. ``server``: the chat's server, where known (its settings, the
    language included, apply to the post)."""
    item: OutboxItem | None = yield Atomic(_post(platform, chat_id, day, now, expires_at, server))
    return item


def _post(
    platform: str,
    chat_id: str,
    day: datetime.date,
    now: float,
    expires_at: float,
    server: str | None,
) -> Op[OutboxItem | None]:
    if not (yield from claim_post(platform, chat_id, day_number(day), now)):
        return None
    detail = {"day": day.isoformat()} | ({} if server is None else {"server": server})
    item = OutboxItem(Kind.DAILY_PUZZLE, platform, chat_id, detail=detail)
    (left,) = yield from outbox.notices((item,), expires_at)
    return left


def posted_on(platform: str, chat_id: str) -> Op[int | None]:
    """The day (a day number) the chat's daily puzzle was last posted, or None."""
    found = yield row(
        "SELECT day FROM puzzle_posts WHERE platform = $1 AND chat_id = $2", platform, chat_id
    )
    return None if found is None else int(found[0])


def claim_post(platform: str, chat_id: str, day: int, now: float) -> Op[bool]:
    """Whether the chat's daily puzzle of ``day`` is this caller's to post: True once per chat
    and day, whoever asks (the row's day moves forward only)."""
    claimed = yield count(
        "INSERT INTO puzzle_posts (platform, chat_id, day, posted_at) VALUES ($1, $2, $3, $4)"
        " ON CONFLICT (platform, chat_id) DO UPDATE SET day = excluded.day,"
        " posted_at = excluded.posted_at WHERE puzzle_posts.day < excluded.day",
        platform,
        chat_id,
        day,
        now,
    )
    return bool(claimed)


def posted_on_day(day: datetime.date) -> Op[set[tuple[str, str]]]:
    """(platform, chat id) of every chat whose daily puzzle of ``day`` was posted: the daily
    look skips them without a claim each."""
    found = yield rows(
        "SELECT platform, chat_id FROM puzzle_posts WHERE day >= $1", day_number(day)
    )
    return {(str(platform), str(chat_id)) for platform, chat_id in found}

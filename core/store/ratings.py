"""The store's operations on ratings, ladders and linked accounts, written once for SQLite and
PostgreSQL (see :mod:`core.store.sql`); the rules are :mod:`core.ratings`' (pure), this module
only reads and writes them.

- :func:`record` runs inside the transaction that finishes a game (``sessions._record_result``), so
  a result and its rating change are written together or not at all. Both players' rating rows
  are locked (``FOR UPDATE``, in identity order, so two games sharing players cannot deadlock)
  before they are read: two processes finishing games of one player at once apply both
  changes, one after the other. The log row is written after the locks, so its id orders the
  changes of one player as they were applied (the order a rebuild replays).
- Ladders read the partial index ``ratings_ladder`` in rating order; they never sort in Python
  (and the global ladder never sorts at all).
- Linking: see :mod:`core.store.links`.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.ratings import (
    ACTIVE_SECONDS,
    PROVISIONAL_GAMES,
    Merge,
    RatedResult,
    Rating,
    RatingChange,
    is_rated,
    pool_of,
)
from core.ratings.rebuild import Key, apply
from core.store.models.ratings import LadderRow, PoolRating, RatingChangeRow
from core.store.models.session import Session
from core.store.sql import Op, count, many, placeholders, row, rows, value

_LISTED = f"games >= {PROVISIONAL_GAMES}"
"""Spelled as the partial index's predicate (``ratings_ladder``), so both planners use it."""

_PAIR_WINDOW = 24 * 3600.0


def own_identity(platform: str, user_id: str) -> str:
    """The identity of an account nobody linked: its platform and id."""
    return f"{platform}:{user_id}"


def place_of_chat(platform: str, chat_id: str) -> str:
    """The ladder of one chat (a channel, a room)."""
    return f"{platform}:chat:{chat_id}"


def place_of_server(platform: str, server_id: str) -> str:
    """The ladder of a Discord server (every channel of it)."""
    return f"{platform}:server:{server_id}"


# --- identities --------------------------------------------------------------------------------


def identities(platform: str, user_ids: Sequence[str]) -> Op[dict[str, str]]:
    """Each user's identity (linked, or their own), by user id."""
    found = yield rows(
        "SELECT user_id, identity FROM links"
        f" WHERE platform = $1 AND user_id IN ({placeholders(2, len(user_ids))})",
        platform,
        *user_ids,
    )
    linked = {str(r[0]): str(r[1]) for r in found}
    return {user: linked.get(user, own_identity(platform, user)) for user in user_ids}


# --- the rating update, inside the finishing transaction ---------------------------------------


def record(session: Session) -> Op[None]:
    """Rate a game that has just finished, if :func:`core.ratings.is_rated` says it counts.

    Called inside the transaction that records the result. The cheap reasons (a bot seat, a
    casual game, an abandoned or stopped game, too few moves) cost no query at all.
    """
    x, o = session.seats
    outcome = session.outcome
    if outcome is None or x.user_id is None or o.user_id is None:
        return

    def verdict(players: tuple[str, str], pair_games: int) -> bool:
        # The chat's setting was read when the game started: a chat that disallows rated
        # play makes its games casual then (see Session.casual).
        return is_rated(
            ending=outcome.termination,
            people=(True, True),
            players=players,
            casual=session.casual,
            chat_allows_rated=True,
            moves=len(session.moves),
            pair_games_24h=pair_games,
        ).rated

    if not verdict((x.user_id, o.user_id), 0):
        return
    # Each player as the platform they play on (an open game may seat two platforms).
    x_platform, o_platform = session.chat_of(1)[0], session.chat_of(2)[0]
    first = (yield from identities(x_platform, (x.user_id,)))[x.user_id]
    second = (yield from identities(o_platform, (o.user_id,)))[o.user_id]
    if first == second:
        return  # one person on both seats (linked accounts)
    pool = pool_of(session.rules.rows, session.rules.cols, session.rules.k, session.rules.gravity)
    now = session.updated_at
    locked = yield from _lock(pool, ((first, x.name), (second, o.name)), session.platform, now)
    pair_games = yield value(
        "SELECT count(*) FROM rating_changes WHERE kind = 'game' AND at > $3"
        " AND ((first_identity = $1 AND second_identity = $2)"
        " OR (first_identity = $2 AND second_identity = $1))",
        first,
        second,
        now - _PAIR_WINDOW,
    )
    if not verdict((first, second), int(pair_games)):
        return
    result = RatedResult(pool, first, second, session.winner)
    change = apply(locked, result)
    winner = session.winner
    yield many(
        "UPDATE ratings SET rating = $1, deviation = $2, games = $3, last_rated_at = $4,"
        " platform = $5, name = $6, won = won + $9, lost = lost + $10, drawn = drawn + $11"
        " WHERE identity = $7 AND pool = $8",
        [
            (
                after.rating,
                after.deviation,
                after.games,
                now,
                session.chat_of(number)[0],
                seat.name,
                who,
                pool,
                # The player's record, kept with the rating (the step 'page records').
                int(winner == number),
                int(winner is not None and winner != number),
                int(winner is None),
            )
            for number, (after, seat, who) in enumerate(
                zip(change.after, session.seats, (first, second), strict=True), start=1
            )
        ],
    )
    (b1, b2), (a1, a2) = change.before, change.after
    yield count(
        "INSERT INTO rating_changes (kind, session_id, pool, at, first_identity,"
        " second_identity, winner, termination, first_rating, first_deviation, first_games,"
        " second_rating, second_deviation, second_games, first_rating_after,"
        " first_deviation_after, second_rating_after, second_deviation_after)"
        " VALUES ('game', $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15,"
        " $16, $17)",
        session.id,
        pool,
        now,
        first,
        second,
        session.winner,
        outcome.termination.value,
        b1.rating,
        b1.deviation,
        b1.games,
        b2.rating,
        b2.deviation,
        b2.games,
        a1.rating,
        a1.deviation,
        a2.rating,
        a2.deviation,
    )
    # Each player's chat ladder is the chat they played in (an open game has two), and their
    # server's where that chat has one.
    placed = [
        (place_of_chat(*session.chat_of(1)), first),
        (place_of_chat(*session.chat_of(2)), second),
    ]
    for who, n in ((first, 1), (second, 2)):
        server_id = session.server_of(n)
        if server_id is not None:
            placed.append((place_of_server(session.chat_of(n)[0], server_id), who))
    yield many(
        "INSERT INTO rating_places (place, pool, identity) VALUES ($1, $2, $3)"
        " ON CONFLICT DO NOTHING",
        [(place, pool, who) for place, who in placed],
    )


def _lock(
    pool: str, players: Sequence[tuple[str, str]], platform: str, now: float
) -> Op[dict[Key, Rating]]:
    """Make sure both rating rows exist, lock them in identity order and read them."""
    ordered = sorted(players)
    fresh = Rating()
    yield count(
        "INSERT INTO ratings (identity, pool, rating, deviation, games, last_rated_at,"
        " platform, name) VALUES ($1, $3, $4, $5, 0, $6, $7, $8), ($2, $3, $4, $5, 0, $6, $7, $9)"
        " ON CONFLICT (identity, pool) DO NOTHING",
        ordered[0][0],
        ordered[1][0],
        pool,
        fresh.rating,
        fresh.deviation,
        now,
        platform,
        ordered[0][1],
        ordered[1][1],
    )
    found = yield rows(
        "SELECT identity, rating, deviation, games FROM ratings"
        " WHERE pool = $1 AND identity IN ($2, $3) ORDER BY identity FOR UPDATE",
        pool,
        ordered[0][0],
        ordered[1][0],
    )
    return {(pool, str(r[0])): Rating(float(r[1]), float(r[2]), int(r[3])) for r in found}


# --- ladders and a player's ratings ------------------------------------------------------------


def ladder(place: str | None, pool: str, now: float, limit: int = 10) -> Op[list[LadderRow]]:
    """The listed players of a pool, best first: everyone (``place`` None), or those who played
    rated games in a chat or a server (:func:`place_of_chat`, :func:`place_of_server`)."""
    since = now - ACTIVE_SECONDS
    if place is None:
        found = yield rows(
            "SELECT identity, name, platform, rating, deviation, games FROM ratings"
            f" WHERE pool = $1 AND {_LISTED} AND last_rated_at >= $2"
            " ORDER BY rating DESC LIMIT $3",
            pool,
            since,
            limit,
        )
    else:
        found = yield rows(
            "SELECT r.identity, r.name, r.platform, r.rating, r.deviation, r.games"
            " FROM rating_places AS p JOIN ratings AS r"
            " ON r.identity = p.identity AND r.pool = p.pool"
            f" WHERE p.place = $1 AND p.pool = $2 AND r.{_LISTED} AND r.last_rated_at >= $3"
            " ORDER BY r.rating DESC LIMIT $4",
            place,
            pool,
            since,
            limit,
        )
    return [
        LadderRow(str(r[0]), str(r[1]), str(r[2]), Rating(float(r[3]), float(r[4]), int(r[5])))
        for r in found
    ]


def player_ratings(platform: str, user_id: str) -> Op[tuple[str, list[PoolRating]]]:
    """A player's identity and their rating in every pool they played rated games in."""
    identity = (yield from identities(platform, (user_id,)))[user_id]
    found = yield rows(
        "SELECT pool, rating, deviation, games, last_rated_at FROM ratings"
        " WHERE identity = $1 AND games > 0 ORDER BY games DESC, pool",
        identity,
    )
    return identity, [
        PoolRating(str(r[0]), Rating(float(r[1]), float(r[2]), int(r[3])), float(r[4]))
        for r in found
    ]


def rating_of(platform: str, user_id: str, pool: str) -> Op[Rating]:
    """A player's rating in one pool (a new player's if they have none)."""
    identity = (yield from identities(platform, (user_id,)))[user_id]
    found = yield row(
        "SELECT rating, deviation, games FROM ratings WHERE identity = $1 AND pool = $2",
        identity,
        pool,
    )
    return Rating() if found is None else Rating(float(found[0]), float(found[1]), int(found[2]))


def rating_rank(pool: str, rating: float, now: float) -> Op[int]:
    """The place a listed rating holds on the pool's global ladder (1 for the best)."""
    above = yield value(
        f"SELECT count(*) FROM ratings WHERE pool = $1 AND {_LISTED} AND last_rated_at >= $2"
        " AND rating > $3",
        pool,
        now - ACTIVE_SECONDS,
        rating,
    )
    return int(above) + 1


def rating_changes(identity: str, limit: int = 5) -> Op[list[RatingChangeRow]]:
    """The identity's last rated games, newest first."""
    columns = "id, pool, at, winner"
    found = yield rows(
        f"SELECT * FROM (SELECT {columns}, 1 AS seat, first_rating, first_rating_after"
        " FROM rating_changes WHERE first_identity = $1 AND kind = 'game'"
        " ORDER BY id DESC LIMIT $2) AS a UNION ALL"
        f" SELECT * FROM (SELECT {columns}, 2 AS seat, second_rating, second_rating_after"
        " FROM rating_changes WHERE second_identity = $1 AND kind = 'game'"
        " ORDER BY id DESC LIMIT $2) AS b ORDER BY id DESC LIMIT $2",
        identity,
        limit,
    )
    return [
        RatingChangeRow(
            str(r[1]),
            float(r[2]),
            None if r[3] is None else r[3] == r[4],
            float(r[5]),
            float(r[6]),
        )
        for r in found
    ]


def rating_change_of(session_id: str) -> Op[RatingChange | None]:
    """Both players' ratings before and after the rated game ``session_id``, or None."""
    found = yield row(
        "SELECT first_rating, first_deviation, first_games, second_rating, second_deviation,"
        " second_games, first_rating_after, first_deviation_after, second_rating_after,"
        " second_deviation_after FROM rating_changes WHERE session_id = $1 AND kind = 'game'",
        session_id,
    )
    if found is None:
        return None
    r = [float(v) for v in found]
    first, second = Rating(r[0], r[1], int(r[2])), Rating(r[3], r[4], int(r[5]))
    return RatingChange(
        before=(first, second),
        after=(
            Rating(r[6], r[7], first.games + 1),
            Rating(r[8], r[9], second.games + 1),
        ),
    )


# --- the log, for rebuilds and audits ----------------------------------------------------------


def rating_log() -> Op[list[RatedResult | Merge]]:
    """Every rated game and merge, in the order they were applied (ids)."""
    found = yield rows(
        "SELECT kind, pool, first_identity, second_identity, winner FROM rating_changes ORDER BY id"
    )
    return [
        RatedResult(str(r[1]), str(r[2]), str(r[3]), None if r[4] is None else int(r[4]))
        if r[0] == "game"
        else Merge(str(r[1]), str(r[2]), str(r[3]))
        for r in found
    ]


def stored_ratings() -> Op[dict[Key, Rating]]:
    """Every stored rating with at least one rated game, by (pool, identity)."""
    found = yield rows(
        "SELECT pool, identity, rating, deviation, games FROM ratings WHERE games > 0"
    )
    return {(str(r[0]), str(r[1])): Rating(float(r[2]), float(r[3]), int(r[4])) for r in found}


def rating_totals() -> Op[tuple[int, int, int]]:
    """Ratings with a rated game, rated games, and linked accounts (``chatbots stats``)."""
    found = yield row(
        "SELECT (SELECT count(*) FROM ratings WHERE games > 0),"
        " (SELECT count(*) FROM rating_changes WHERE kind = 'game'),"
        " (SELECT count(*) FROM links)"
    )
    return int(found[0]), int(found[1]), int(found[2])

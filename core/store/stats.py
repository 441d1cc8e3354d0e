"""Results and counts: the players' stats (wins, losses, draws), the live games of a user and
a chat, and the totals of ``chatbots stats``."""

from __future__ import annotations

from core.store.models.session import OPEN_GAMES, LiveCounts, PlatformTotals, StatsRow
from core.store.sql import Op, row, rows, value

LIVE = "status IN ('challenge', 'active')"
"""Live sessions (games and challenges), spelled as the partial index ``sessions_server``'s
predicate is, so that its lookups can use it."""


def player_stats(platform: str, user_id: str, chat_id: str | None = None) -> Op[StatsRow | None]:
    """The user's results on the platform (all chats), or in one chat; None if none."""
    # The latest name wins: people rename themselves.
    found = yield row(
        "SELECT user_id, (SELECT name FROM stats WHERE platform = $1 AND user_id = $2"
        " ORDER BY updated_at DESC LIMIT 1), sum(wins), sum(losses), sum(draws)"
        " FROM stats WHERE platform = $1 AND user_id = $2"
        " AND ($3::text IS NULL OR chat_id = $3) GROUP BY user_id",
        platform,
        user_id,
        chat_id,
    )
    if found is None:
        return None
    return StatsRow(str(found[0]), str(found[1]), int(found[2]), int(found[3]), int(found[4]))


def top(platform: str, chat_id: str, limit: int = 10) -> Op[list[StatsRow]]:
    """The chat's leaderboard: most wins first, then most draws, then fewest losses."""
    # COLLATE "C": names in code point order whatever the server's locale (SQLite's BINARY).
    found = yield rows(
        "SELECT user_id, name, wins, losses, draws FROM stats"
        " WHERE platform = $1 AND chat_id = $2"
        ' ORDER BY wins DESC, draws DESC, losses ASC, name COLLATE "C" ASC LIMIT $3',
        platform,
        chat_id,
        limit,
    )
    return [StatsRow(str(r[0]), str(r[1]), int(r[2]), int(r[3]), int(r[4])) for r in found]


def count_sessions() -> Op[int]:
    """How many sessions are stored, whatever their status (health and metrics)."""
    return int((yield value("SELECT count(*) FROM sessions")))


def live_counts(platform: str, chat_id: str, user_id: str) -> Op[LiveCounts]:
    """Live games (challenges and games being played) of the user on the platform, and of
    the chat (the limits on live games)."""
    # The players table holds exactly the live users of live games (one row per user per chat).
    found = yield row(
        "SELECT (SELECT count(*) FROM players WHERE platform = $1 AND user_id = $3),"
        f" (SELECT count(*) FROM sessions WHERE platform = $1 AND chat_id = $2 AND {LIVE})",
        platform,
        chat_id,
        user_id,
    )
    return LiveCounts(int(found[0]), int(found[1]))


def totals(since: float) -> Op[list[PlatformTotals]]:
    """Per platform, by name: live and finished games stored, results recorded, and moves in
    games changed at or after ``since`` (``chatbots stats``)."""
    # Moves are stored as "4,0,8": one comma fewer than moves. An open game (a seat in a chat
    # of its own) counts once, under OPEN_GAMES (Session.counted_platform); results are each
    # player's, under their own platform.
    found = yield rows(
        "SELECT platform, sum(live), sum(finished), sum(results), sum(moves) FROM ("
        f" SELECT CASE WHEN x_chat IS NULL AND o_chat IS NULL THEN platform ELSE $2 END"
        f" AS platform, sum(CASE WHEN {LIVE} THEN 1 ELSE 0 END) AS live,"
        " sum(CASE WHEN status = 'finished' THEN 1 ELSE 0 END) AS finished, 0 AS results,"
        " sum(CASE WHEN updated_at >= $1 AND moves <> ''"
        " THEN length(moves) - length(replace(moves, ',', '')) + 1 ELSE 0 END) AS moves"
        " FROM sessions GROUP BY 1"
        " UNION ALL SELECT platform, 0, 0, sum(wins + losses + draws), 0 FROM stats"
        " GROUP BY platform) AS counted GROUP BY platform ORDER BY platform",
        since,
        OPEN_GAMES,
    )
    return [PlatformTotals(str(r[0]), int(r[1]), int(r[2]), int(r[3]), int(r[4])) for r in found]

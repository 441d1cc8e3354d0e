"""Matchmaking's rules, pure (no I/O): what a seek is, which two seeks make a game, and how a
batch of waiting seeks is paired.

A seek is one player waiting for an opponent from any chat that allows open play. Two seeks
are compatible when they ask for the same game (the same rules, so the same variant), the same
rated or casual choice and clocks within a factor of :data:`CLOCK_RANGE` of each other, come
from two different players who have not blocked each other, and, when rated, have ratings
within the window that widens while the older of the two waits (lichess' pool does the same:
a range that grows with the wait). The store runs these rules inside the transaction that
locks the seeks, so every process pairs by the same rules and each seek once.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from core.games import Rules, Variant
from core.ratings.rating import START_DEVIATION

SEEK_TTL = 600.0
"""Seconds a seek waits before it expires (with a notice to its player)."""

WINDOW_START = 100.0
"""Rating points apart two rated seeks may be when neither has waited."""
WINDOW_GROWTH = 10.0
"""Rating points the window widens by for each second the older seek has waited."""
WINDOW_MAX = 800.0
"""The widest window (reached after 70 s): farther apart, a rated game is no contest."""

CLOCK_RANGE = 2.0
"""Two clocks are compatible when the longer is at most this many times the shorter."""

OPEN_PLAY_CLOCK = 120.0
"""Seconds a move of an open game (two chats) may take when the seeker named no clock."""


@dataclass(frozen=True, slots=True)
class Seek:
    """One player waiting for an opponent.

    Attributes:
        id: the seek's own id (short, random).
        player: the seeker's identity (``core.store.ratings.player_ratings``: linked accounts are
            one; one seek per player).
        platform, chat_id, user_id, name: where and who the seeker is; the name is what the
            other chat will see.
        rules: the game sought.
        rated: a rated game (paired by rating) or a casual one.
        clock: seconds a move may take.
        rating: the seeker's rating in the game's pool when they sought.
        created_at, expires_at: seconds since the epoch.
        deviation, games: the rest of that rating (the pairing line shows "1500?" while it is
            provisional).
        server_id: the Discord server of the seeker's chat (None where chats stand alone).
        max_games: the live games the seeker may hold, their chat's ``max_games_per_user``
            when they sought (None: no cap); checked again when the seek is paired.
    """

    id: str
    player: str
    platform: str
    chat_id: str
    user_id: str
    name: str
    rules: Rules
    rated: bool
    clock: float
    rating: float
    created_at: float
    expires_at: float
    deviation: float = START_DEVIATION
    games: int = 0
    server_id: str | None = None
    max_games: int | None = None

    @property
    def variant(self) -> Variant:
        return Variant.of(self.rules)


def window(waited: float) -> float:
    """How many rating points apart two rated seeks may be after the older waited ``waited``
    seconds."""
    return min(WINDOW_MAX, WINDOW_START + WINDOW_GROWTH * max(0.0, waited))


def clocks_match(a: float, b: float) -> bool:
    """Whether two clocks are close enough for one game (see :data:`CLOCK_RANGE`)."""
    low, high = sorted((a, b))
    return high <= low * CLOCK_RANGE


def compatible(
    a: Seek, b: Seek, now: float, blocked: Collection[tuple[str, str]] = frozenset()
) -> bool:
    """Whether ``a`` and ``b`` may be paired now.

    Args:
        blocked: ``(player, blocked player)`` pairs; a block either way keeps two apart.
    """
    if a.player == b.player or a.rules != b.rules or a.rated != b.rated:
        return False
    if (a.player, b.player) in blocked or (b.player, a.player) in blocked:
        return False
    if not clocks_match(a.clock, b.clock):
        return False
    if a.rated:
        waited = now - min(a.created_at, b.created_at)
        if abs(a.rating - b.rating) > window(waited):
            return False
    return True


def game_clock(a: Seek, b: Seek) -> float:
    """The clock of the game two compatible seeks make: the one who waited longer chose it."""
    return a.clock if (a.created_at, a.id) <= (b.created_at, b.id) else b.clock


def pair_up(
    seeks: Sequence[Seek], now: float, blocked: Collection[tuple[str, str]] = frozenset()
) -> list[tuple[Seek, Seek]]:
    """Pairs among waiting ``seeks``, each seek in at most one pair.

    The longest waiting seek chooses first, among the compatible seeks the one closest in
    rating (then the longest waiting), so nobody is passed over for a newcomer.
    """
    waiting = sorted(seeks, key=lambda s: (s.created_at, s.id))
    taken: set[str] = set()
    pairs: list[tuple[Seek, Seek]] = []
    for index, seek in enumerate(waiting):
        if seek.id in taken:
            continue
        best: Seek | None = None
        for other in waiting[index + 1 :]:
            if other.id in taken or not compatible(seek, other, now, blocked):
                continue
            if best is None or abs(other.rating - seek.rating) < abs(best.rating - seek.rating):
                best = other
        if best is not None:
            taken.update((seek.id, best.id))
            pairs.append((seek, best))
    return pairs


def choose(
    seek: Seek,
    candidates: Iterable[Seek],
    now: float,
    blocked: Collection[tuple[str, str]] = frozenset(),
) -> Seek | None:
    """The waiting seek that a new ``seek`` is paired with at once, or None: the compatible
    one closest in rating, the longest waiting among equals."""
    fitting = [c for c in candidates if compatible(seek, c, now, blocked)]
    if not fitting:
        return None
    return min(fitting, key=lambda c: (abs(c.rating - seek.rating), c.created_at, c.id))


NAME_LIMIT = 32
"""Characters of a display name another chat sees."""

# What could mention someone or something where the name is shown (Discord's <@id>, <#id>,
# @everyone and @here; a Matrix id or room alias): the other chat sees look-alikes instead.
_DEFUSED = str.maketrans({"@": "\uff20", "<": "\u2039", ">": "\u203a", "#": "\uff03", "\n": " "})


def crossing_name(name: str) -> str:
    """A display name as the other chat of an open game may show it: plain text, no mention,
    no markup that could name a user, a channel or a room, at most :data:`NAME_LIMIT`
    characters."""
    plain = " ".join(name.translate(_DEFUSED).split())
    if len(plain) > NAME_LIMIT:
        plain = plain[: NAME_LIMIT - 1] + "\u2026"
    return plain or "?"

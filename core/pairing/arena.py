"""An arena's pairing wave, pure (no I/O): which of the free players play each other now.

By lichess's rules (lila's ``modules/tournament/src/main/arena/PairingSystem.scala`` and
``AntmaPairing.scala``; our code, not a port): the free players sorted by rank are paired by a
weighted maximum matching whose cost is the distance in rank, weighted more at the top of the
table (``rankFactorFor``: 2000 for the leader down to 300 for the last) so that leaders meet
leaders, plus the distance in rating. Two players who just played each other get no edge: they
wait for the next wave rather than play again at once. Beyond 100 free players, as lichess does,
only the two best groups of up to 100 (by rank) are matched; the next six groups are paired by
neighbours in rank, the rest wait for the next wave: the matching is cubic in its players.

On top of lichess's rules: nobody plays himself, and never someone he blocked or who blocked
him (``blocked``, a callable or a set of pairs, either order).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

MAX_GROUP = 100
"""The most players one weighted matching takes (lichess's ``maxGroupSize``)."""
CHEAP_GROUPS = 6
"""Groups after the two matched ones that are paired by neighbours in rank."""
TOP_FACTOR = 2000
BOTTOM_FACTOR = 300


@dataclass(frozen=True, slots=True)
class FreePlayer:
    """A player waiting for his next arena game: ``rank`` 1 leads the event."""

    id: str
    rank: int
    rating: float


Pairs = Callable[[str, str], bool] | Collection[tuple[str, str]]
"""Pairs of player ids, either as a predicate or as a set of pairs (in either order)."""


def _predicate(pairs: Pairs) -> Callable[[str, str], bool]:
    if callable(pairs):
        return pairs
    known = {frozenset(pair) for pair in pairs}
    return lambda a, b: frozenset((a, b)) in known


def pair_wave(
    free: Sequence[FreePlayer], *, just_played: Pairs = (), blocked: Pairs = ()
) -> list[tuple[str, str]]:
    """The games of one wave, each a pair of ids: the better ranked first.

    ``just_played``: pairs who met in their last game; ``blocked``: pairs who must never meet.
    Each player is in at most one pair; some may stay free until the next wave.
    """
    is_recent, is_blocked = _predicate(just_played), _predicate(blocked)

    def allowed(a: FreePlayer, b: FreePlayer) -> bool:
        return a.id != b.id and not is_blocked(a.id, b.id) and not is_recent(a.id, b.id)

    players = sorted({p.id: p for p in free}.values(), key=lambda p: (p.rank, p.id))
    if len(players) < 2:
        return []
    size = min(MAX_GROUP, len(players) // 4 * 2) if len(players) > MAX_GROUP else len(players)
    pairs = _matched(players[:size], allowed)
    pairs += _matched(players[size : 2 * size], allowed)
    pairs += _neighbours(players[2 * size : (2 + CHEAP_GROUPS) * size], allowed)
    return pairs


def _matched(
    players: Sequence[FreePlayer], allowed: Callable[[FreePlayer, FreePlayer], bool]
) -> list[tuple[str, str]]:
    if len(players) < 2:
        return []
    # networkx on first use, not on import: it takes most of a second and loads the socket
    # module (its backends' entry points), which the pure packages keep out of their imports
    import networkx as nx

    last = max(p.rank for p in players)
    graph: nx.Graph[int] = nx.Graph()
    costs: list[tuple[int, int, float]] = []
    for i, a in enumerate(players):
        for j in range(i + 1, len(players)):
            b = players[j]
            if allowed(a, b):
                factor = BOTTOM_FACTOR + (TOP_FACTOR - BOTTOM_FACTOR) * (last - a.rank) / last
                costs.append((i, j, abs(a.rank - b.rank) * factor + abs(a.rating - b.rating)))
    if not costs:
        return []
    # the most pairs first (maxcardinality), then the cheapest: weights turn costs into gains
    ceiling = max(cost for _, _, cost in costs) + 1
    graph.add_weighted_edges_from((i, j, ceiling - cost) for i, j, cost in costs)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    return [(players[i].id, players[j].id) for i, j in sorted(map(sorted, matching))]


def _neighbours(
    players: Sequence[FreePlayer], allowed: Callable[[FreePlayer, FreePlayer], bool]
) -> list[tuple[str, str]]:
    pairs: list[tuple[str, str]] = []
    for i in range(0, len(players) - 1, 2):
        a, b = players[i], players[i + 1]
        if allowed(a, b):
            pairs.append((a.id, b.id))
    return pairs

"""An arena's pairing wave, pure (no I/O): which of the free players play each other now.

By lichess's rules (lila's ``modules/tournament/src/main/arena/PairingSystem.scala`` and
``AntmaPairing.scala``; our code, not a port): the free players sorted by rank are paired by a
weighted maximum matching whose cost is the distance in rank, weighted more at the top of the
table (``rankFactorFor``: 2000 for the leader down to 300 for the last) so that leaders meet
leaders, plus the distance in rating. Two players who just played each other get no edge: they
wait for the next wave rather than play again at once.

Lichess matches the two best groups of up to 100 free players and pairs the next ones by
neighbours in rank. networkx's matching is pure Python and cubic: 100 players take 3 s here, 30
take about 20 ms (``python -m benchmarks tournaments``). So the best :data:`MATCHED` players are
matched exactly (the whole wave in an event of that size, the top of the table in a big one),
and the others by neighbours in rank: each takes the cheapest allowed partner among the next
:data:`WINDOW` free players, and whoever is left is paired with anyone allowed, so that no two
players who could play each other stay free.

On top of lichess's rules: nobody plays himself, and never someone he blocked or who blocked
him (``blocked``, a callable or a set of pairs, either order).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

MATCHED = 30
"""The best ranked free players paired by the exact weighted matching."""
WINDOW = 8
"""How far down the ranking a player below them looks for his partner."""
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
    last = players[-1].rank
    pairs, left = _matched(players[:MATCHED], allowed, last)
    more, rest = _neighbours(left + players[MATCHED:], allowed, last)
    return pairs + more + _anyone(rest, allowed)


def _cost(a: FreePlayer, b: FreePlayer, last: int) -> float:
    """lila's pair score: ``a`` is the better ranked."""
    factor = BOTTOM_FACTOR + (TOP_FACTOR - BOTTOM_FACTOR) * (last - a.rank) / max(last, 1)
    return abs(a.rank - b.rank) * factor + abs(a.rating - b.rating)


def _matched(
    players: Sequence[FreePlayer], allowed: Callable[[FreePlayer, FreePlayer], bool], last: int
) -> tuple[list[tuple[str, str]], list[FreePlayer]]:
    """The cheapest of the largest sets of allowed games, and who is left out."""
    costs = [
        (i, j, _cost(a, b, last))
        for i, a in enumerate(players)
        for j, b in enumerate(players[i + 1 :], start=i + 1)
        if allowed(a, b)
    ]
    if not costs:
        return [], list(players)
    # networkx on first use, not on import: it takes most of a second and loads the socket
    # module (its backends' entry points), which the pure packages keep out of their imports
    import networkx as nx

    graph: nx.Graph[int] = nx.Graph()
    # the most pairs first (maxcardinality), then the cheapest: weights turn costs into gains
    ceiling = max(cost for _, _, cost in costs) + 1
    graph.add_weighted_edges_from((i, j, ceiling - cost) for i, j, cost in costs)
    matching = [sorted(pair) for pair in nx.max_weight_matching(graph, maxcardinality=True)]
    seated = {i for pair in matching for i in pair}
    pairs = [(players[i].id, players[j].id) for i, j in sorted(matching)]
    return pairs, [p for i, p in enumerate(players) if i not in seated]


def _neighbours(
    players: Sequence[FreePlayer], allowed: Callable[[FreePlayer, FreePlayer], bool], last: int
) -> tuple[list[tuple[str, str]], list[FreePlayer]]:
    taken = [False] * len(players)
    pairs: list[tuple[str, str]] = []
    for i, a in enumerate(players):
        if taken[i]:
            continue
        best: tuple[float, int] | None = None
        for j in range(i + 1, min(len(players), i + 1 + WINDOW)):
            if not taken[j] and allowed(a, players[j]):
                cost = _cost(a, players[j], last)
                if best is None or cost < best[0]:
                    best = (cost, j)
        if best is not None:
            taken[i] = taken[best[1]] = True
            pairs.append((a.id, players[best[1]].id))
    return pairs, [p for i, p in enumerate(players) if not taken[i]]


def _anyone(
    players: Sequence[FreePlayer], allowed: Callable[[FreePlayer, FreePlayer], bool]
) -> list[tuple[str, str]]:
    taken: set[int] = set()
    pairs: list[tuple[str, str]] = []
    for i, a in enumerate(players):
        if i in taken:
            continue
        for j in range(i + 1, len(players)):
            if j not in taken and allowed(a, players[j]):
                taken |= {i, j}
                pairs.append((a.id, players[j].id))
                break
    return pairs

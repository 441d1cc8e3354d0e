"""A Swiss round's pairings, pure (no I/O): our players and results in, boards out.

The pairing itself is caissify-pairings' (Apache-2.0): its ``dutch`` engine is FIDE's Dutch
system (Handbook C.04.3), cross-checked by its authors against bbpPairings, a FIDE-endorsed
program, to A.7 conformance. Its cost grows fast with the field: like bbpPairings it pairs the
whole round as one weighted matching and re-runs it while it fixes pairs one by one, but with
networkx's blossom from scratch each time (pure Python, cubic), not bbpPairings' incremental one
in C++ (0.7 matchings per player a round). Its edge weights run to 150-280 bits, past what a
compiled matcher with fixed-width weights takes (rustworkx's is 128 bits), so no faster matcher
can be slotted in. Measured here (``python -m benchmarks tournaments``, CPU): 0.2 s for a round
of 30 players, up to 0.5 s for :data:`DUTCH_MAX` (40), 2 s for 60, minutes for 150. Round 1 is
the exception: a split of the ranking with alternating colours, no matching, so it is paired by
the Dutch engine at any size (7 ms for 1,000). Later rounds of larger fields go to its
``casual`` engine (score groups paired greedily by rating, colours balanced, no rematch, floats
down), which pairs 1,000 players well under a second but is **not** FIDE's Dutch system: it does
not apply the Dutch criteria for which floater to choose, nor the transposition order inside a
score group, so its rounds are Swiss pairings, not FIDE-conformant ones. :func:`pair_round`
says which it used. (pairing-core, MIT, another maintained Dutch implementation on PyPI, is no
faster: its 2026 engine exhausts its step budget at round 2 of 30 players, and its pre-2026
kernel, which declares deviations, takes 4-10 s a round for 1,000. py4swiss 0.3.1, MIT, whose
Dutch engine says it pairs as bbpPairings does and runs bbpPairings' incremental matching
compiled, with weights of any width, through a TRF(x) model built with pydantic, took 0.05 s
of CPU a round for 40 players, 0.4 s for 100, 0.7-1.1 s for 150, and 97 s for round 1 of
1,000: a way to raise :data:`DUTCH_MAX` to about 100, not taken yet.)

What we derive for the engine from our own results: each player's score (games plus byes), his
colours in the order played, his floats (he floated down when he met someone with fewer points
before that round, up when more; a pairing-allocated bye is a down-float, as FIDE counts it),
his opponents, and how many pairing-allocated byes he had. Late joins and withdrawals: a player
is paired from his ``joined`` round and no longer from his ``withdrawn`` round; rounds he missed
score what the event gives them (a :class:`Bye`, 0 by default).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

DUTCH_MAX = 40
"""The largest field paired by the Dutch engine; larger ones by the casual engine."""

Engine = Literal["dutch", "casual"]


@dataclass(frozen=True, slots=True)
class SwissPlayer:
    """A registered player: his ``rating`` orders the initial ranking (FIDE's pairing numbers)."""

    id: str
    rating: float
    joined: int = 1
    withdrawn: int | None = None

    def plays(self, round_number: int) -> bool:
        return self.joined <= round_number and (
            self.withdrawn is None or round_number < self.withdrawn
        )


@dataclass(frozen=True, slots=True)
class SwissGame:
    """A finished game: ``score`` is the white player's points (1, 0.5 or 0)."""

    round: int
    white: str
    black: str
    score: float


@dataclass(frozen=True, slots=True)
class Bye:
    """A round without a game: ``allocated`` when the pairing gave it (the odd player out)."""

    round: int
    player: str
    points: float
    allocated: bool = False


@dataclass(frozen=True, slots=True)
class Board:
    """A pairing: ``black`` is None for the pairing-allocated bye."""

    white: str
    black: str | None


@dataclass(frozen=True, slots=True)
class Round:
    boards: tuple[Board, ...]
    engine: Engine


def scores(games: Iterable[SwissGame], byes: Iterable[Bye] = ()) -> dict[str, float]:
    """Each player's points from his games and byes."""
    points: dict[str, float] = defaultdict(float)
    for game in games:
        points[game.white] += game.score
        points[game.black] += 1 - game.score
    for bye in byes:
        points[bye.player] += bye.points
    return dict(points)


def pair_round(
    players: Sequence[SwissPlayer],
    games: Sequence[SwissGame],
    byes: Sequence[Bye],
    round_number: int,
    total_rounds: int,
    *,
    engine: Engine | None = None,
    bye_points: float = 1.0,
    white_first: bool = True,
) -> Round:
    """The boards of ``round_number``, from the results of the rounds before it.

    ``engine`` forces one (the tests do); by default the Dutch system in round 1 and up to
    :data:`DUTCH_MAX` players in the round, the casual engine beyond. A player with a
    :class:`Bye` already in ``round_number`` (he asked to sit it out) is not paired.
    ``white_first``: the colour of the top seed in round 1, drawn by lot (FIDE C.04.3's initial
    colour).
    """
    # caissify-pairings imports networkx: on first use, not on import (see core.pairing.arena)
    from caissify_pairings import generate_pairings

    resting = {bye.player for bye in byes if bye.round == round_number}
    active = [p for p in players if p.plays(round_number) and p.id not in resting]
    if len(active) < 2:
        return Round(tuple(Board(p.id, None) for p in active), "dutch")
    chosen: Engine = engine or (
        "dutch" if round_number == 1 or len(active) <= DUTCH_MAX else "casual"
    )
    ranking = sorted(players, key=lambda p: (-p.rating, p.id))
    number = {p.id: i + 1 for i, p in enumerate(ranking)}
    by_number = {i: p for p, i in number.items()}
    history = _histories(games, byes, round_number)
    entries: list[dict[str, Any]] = []
    for player in active:
        mine = history[player.id]
        entries.append(
            {
                "id": number[player.id],
                "name": player.id,
                "score": mine.score,
                "rating": round(player.rating),
                "starting_number": number[player.id],
                "color_hist": mine.colours,
                "float_history": mine.floats,
                "bye_count": mine.allocated_byes,
            }
        )
    # as (lower, higher): the casual engine looks pairs up in that order only
    met = {
        (min(number[g.white], number[g.black]), max(number[g.white], number[g.black]))
        for g in games
        if g.round < round_number and g.white in number and g.black in number
    }
    boards = generate_pairings(
        chosen,
        entries,
        met,
        round_number,
        max(total_rounds, round_number),
        bye_value=bye_points,
        initial_color="white" if white_first else "black",
    )
    if chosen == "casual":
        boards = _repaired(boards, entries, met)
    ordered = sorted(boards, key=lambda b: (b.get("black_id") is None, b.get("table", 0)))
    return Round(
        tuple(
            Board(by_number[b["white_id"]], by_number[b["black_id"]] if b.get("black_id") else None)
            for b in ordered
        ),
        chosen,
    )


REPAIR_PAIRS = 24
"""Boards at the bottom of a casual round re-paired with its leftovers (see :func:`_repaired`)."""


def _repaired(
    boards: list[dict[str, Any]], entries: list[dict[str, Any]], met: set[tuple[int, int]]
) -> list[dict[str, Any]]:
    """The casual engine's round without its extra byes.

    Its greedy pass gives a bye to every player it could not pair (two at the bottom who already
    met, say), so a round may give several. Those players and the players of the last
    :data:`REPAIR_PAIRS` boards are paired again by a maximum matching (networkx) that forbids
    rematches and prefers equal scores; only who is still left over (at most one if the round
    is odd and a pairing exists) gets a bye.
    """
    import networkx as nx

    byes = [b for b in boards if not b.get("black_id")]
    if len(byes) <= len(entries) % 2:
        return boards
    games = [b for b in boards if b.get("black_id")]
    of = {e["id"]: e for e in entries}

    def standing(board: dict[str, Any]) -> float:
        return -float(max(of[board["white_id"]]["score"], of[board["black_id"]]["score"]))

    games.sort(key=standing)
    kept, redo = games[: max(0, len(games) - REPAIR_PAIRS)], games[-REPAIR_PAIRS:]
    loose = [b["white_id"] for b in byes] + [
        p for b in redo for p in (b["white_id"], b["black_id"])
    ]
    graph: nx.Graph[int] = nx.Graph()
    for i, a in enumerate(loose):
        for b in loose[i + 1 :]:
            if (min(a, b), max(a, b)) not in met:
                gap = abs(of[a]["score"] - of[b]["score"])
                graph.add_edge(a, b, weight=1000 - 10 * gap - abs(a - b) / len(of))
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    seated = {p for pair in matching for p in pair}
    again = [_coloured(of[a], of[b]) for a, b in matching]
    left = [{"white_id": p, "black_id": None, "bye": True} for p in loose if p not in seated]
    return kept + again + left


def _coloured(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """White to the player who had it less, then to the one who had black last, then to the
    better ranked."""

    def need(p: dict[str, Any]) -> tuple[int, int, int]:
        colours = p["color_hist"]
        balance = colours.count("white") - colours.count("black")
        last = 1 if colours and colours[-1] == "white" else 0
        return (balance, last, p["starting_number"])

    white, black = sorted((a, b), key=need)
    return {"white_id": white["id"], "black_id": black["id"], "table": 10**9}


@dataclass(slots=True)
class _History:
    score: float = 0.0
    colours: list[str] = field(default_factory=list)
    floats: list[str] = field(default_factory=list)
    allocated_byes: int = 0


def _histories(games: Sequence[SwissGame], byes: Sequence[Bye], before: int) -> dict[str, _History]:
    """Scores, colours and floats of every player from the rounds before ``before``."""
    history: dict[str, _History] = defaultdict(_History)
    rounds = sorted({g.round for g in games} | {b.round for b in byes})
    for number in rounds:
        if number >= before:
            break
        at_start = {player: h.score for player, h in history.items()}
        for game in (g for g in games if g.round == number):
            white, black = history[game.white], history[game.black]
            white.colours.append("white")
            black.colours.append("black")
            ws, bs = at_start.get(game.white, 0.0), at_start.get(game.black, 0.0)
            white.floats.append("down" if ws > bs else "up" if ws < bs else "none")
            black.floats.append("down" if bs > ws else "up" if bs < ws else "none")
            white.score += game.score
            black.score += 1 - game.score
        for bye in (b for b in byes if b.round == number):
            mine = history[bye.player]
            mine.score += bye.points
            mine.floats.append("down" if bye.allocated else "none")
            mine.allocated_byes += bye.allocated
    return history

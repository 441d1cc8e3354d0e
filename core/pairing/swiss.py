"""A Swiss round's pairings, pure (no I/O): our players and results in, boards out.

The pairing itself is py4swiss' (MIT; it depends on pydantic, MIT): its Dutch engine is FIDE's
Dutch system (Handbook C.04.3), written after bbpPairings, a FIDE-endorsed program, whose
incremental weighted matching it runs compiled, with weights of any width. It pairs every
published example in tests/core/pairing/data (rounds paired by bbpPairings) as bbpPairings did,
colours included. We hand it a TRF(x), FIDE's report format, built from our results (see
:func:`_dutch`), and it derives scores, colours, floats and byes received from it as FIDE
counts them (a round without a game, for any reason, is a down-float). Measured here (CPU a
round, rounds 2-9, median, ``python -m benchmarks tournaments``): 3 ms for 10 players, 34 ms
for 40, 72 ms for 60, 0.23 s (p99 0.34 s) for :data:`DUTCH_MAX` (100); 0.57 s (slowest 1.1 s)
for 150 (docs/scaling.md). Round 1 above :data:`DUTCH_MAX` is the Dutch split computed here
(:func:`_split`, the same boards; py4swiss' matching takes 97 s for 1,000). Later rounds of
larger fields, and a round no pairing by the Dutch absolute criteria exists for (late in a small
field), go to our ``casual`` engine (score groups paired greedily by rating, colours balanced,
no rematch, extra byes re-paired), which pairs 1,000 players well under a second but is **not**
FIDE's Dutch system: it does not apply the Dutch criteria for which floater to choose, nor the
transposition order inside a score group. :func:`pair_round` says which it used. (Other
maintained Dutch implementations on PyPI measured here: caissify-pairings, Apache-2.0, which
this module used before, re-runs networkx's pure-Python blossom for every fixed pair: 0.5 s at
40 players, 2 s at 60; pairing-core, MIT, exhausts its step budget at round 2 of 30 players.)

Late joins and withdrawals: a player is paired from his ``joined`` round and no longer from his
``withdrawn`` round; rounds he missed score what the event gives them (a :class:`Bye`, 0 by
default).
"""

from __future__ import annotations

import importlib.util
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

DUTCH_MAX = 100
"""The largest field paired by the Dutch engine; larger ones by the casual engine."""

DUTCH_INSTALLED = importlib.util.find_spec("py4swiss") is not None
"""py4swiss is there: it ships wheels only, none for Linux arm64 (pyproject.toml asks for it on
x86-64 alone, so the bot installs everywhere). Without it, round 1 is still the Dutch split and
later rounds are the casual engine's."""

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
    white_first: bool = True,
) -> Round:
    """The boards of ``round_number``, from the results of the rounds before it.

    ``engine`` forces one (the tests do); by default the Dutch system in round 1 and up to
    :data:`DUTCH_MAX` players in the round, the casual engine beyond. A player with a
    :class:`Bye` already in ``round_number`` (he asked to sit it out) is not paired. Byes score
    what their :class:`Bye` says, the pairing-allocated ones included.
    ``white_first``: the colour of the top seed in round 1, drawn by lot (FIDE C.04.3's initial
    colour).
    """
    resting = {bye.player for bye in byes if bye.round == round_number}
    active = [p for p in players if p.plays(round_number) and p.id not in resting]
    if len(active) < 2:
        return Round(tuple(Board(p.id, None) for p in active), "dutch")
    chosen: Engine = engine or (
        "dutch" if round_number == 1 or (len(active) <= DUTCH_MAX and DUTCH_INSTALLED) else "casual"
    )
    ranking = sorted(players, key=lambda p: (-p.rating, p.id))
    number = {p.id: i + 1 for i, p in enumerate(ranking)}
    if chosen == "dutch" and round_number == 1 and (len(active) > DUTCH_MAX or not DUTCH_INSTALLED):
        return Round(_split(sorted(active, key=lambda p: number[p.id]), white_first), "dutch")
    if chosen == "dutch":
        from py4swiss.engines.common import PairingError

        try:
            boards = _dutch(ranking, number, games, byes, round_number, total_rounds, white_first)
            return Round(boards, "dutch")
        except PairingError:
            # no pairing meets the Dutch absolute criteria (late in a small field, every
            # opponent met or the colours exhausted): the casual engine still seats everyone
            pass
    history = _histories(games, byes, round_number)
    met = {frozenset((g.white, g.black)) for g in games if g.round < round_number}
    return Round(_casual(active, history, number, met), "casual")


def _split(ranked: Sequence[SwissPlayer], white_first: bool) -> tuple[Board, ...]:
    """FIDE's Dutch round 1 (C.04.3): the top half meets the bottom half in ranking order, the
    top seed has the colour drawn and the higher-ranked player's colour alternates board by
    board; the lowest ranked of an odd field has the bye. The same boards as py4swiss pairs,
    without its matching (97 s for 1,000 players)."""
    half = len(ranked) // 2
    boards = []
    for board in range(half):
        top, bottom = ranked[board].id, ranked[board + half].id
        top_white = (board % 2 == 0) is white_first
        boards.append(Board(top, bottom) if top_white else Board(bottom, top))
    if len(ranked) % 2:
        boards.append(Board(ranked[-1].id, None))
    return tuple(boards)


REPAIR_PAIRS = 24
"""Boards at the bottom of a casual round re-paired with its leftovers (see :func:`_repaired`)."""


def _casual(
    active: Sequence[SwissPlayer],
    history: dict[str, _History],
    number: dict[str, int],
    met: set[frozenset[str]],
) -> tuple[Board, ...]:
    """Score groups paired greedily: each player from the top meets the next one down he has
    not met; an odd field's bye goes first to the lowest ranked player who has not had one."""
    order = sorted(active, key=lambda p: (-history[p.id].score, number[p.id]))
    bye = None
    if len(order) % 2:
        bye = next((p for p in reversed(order) if not history[p.id].allocated_byes), order[-1])
        order.remove(bye)
    games: list[tuple[str, str]] = []
    loose: list[str] = []
    waiting = [p.id for p in order]
    while waiting:
        top = waiting.pop(0)
        partner = next((p for p in waiting if frozenset((top, p)) not in met), None)
        if partner is None:
            loose.append(top)
            continue
        waiting.remove(partner)
        games.append((top, partner))
    if loose:
        games, loose = _repaired(games, loose, history, number, met)
    boards = [_coloured(a, b, history, number) for a, b in games]
    boards += [Board(p, None) for p in loose]
    return tuple(boards + ([Board(bye.id, None)] if bye else []))


def _repaired(
    games: list[tuple[str, str]],
    loose: list[str],
    history: dict[str, _History],
    number: dict[str, int],
    met: set[frozenset[str]],
) -> tuple[list[tuple[str, str]], list[str]]:
    """The greedy pass's games and leftovers, its leftovers paired if they can be.

    The greedy pass leaves over players it could not pair (two at the bottom who already met,
    say). Those players and the players of the last :data:`REPAIR_PAIRS` games are paired again
    by a maximum matching (networkx) that forbids rematches and prefers equal scores; who is
    still left over gets a bye.
    """
    # networkx on first use, not on import (see core.pairing.arena)
    import networkx as nx

    kept, redo = games[: max(0, len(games) - REPAIR_PAIRS)], games[-REPAIR_PAIRS:]
    again = loose + [p for pair in redo for p in pair]
    graph: nx.Graph[str] = nx.Graph()
    for i, a in enumerate(again):
        for b in again[i + 1 :]:
            if frozenset((a, b)) not in met:
                gap = abs(history[a].score - history[b].score)
                closeness = abs(number[a] - number[b]) / len(number)
                graph.add_edge(a, b, weight=1000 - 10 * gap - closeness)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    seated = {p for pair in matching for p in pair}
    return kept + [(a, b) for a, b in matching], [p for p in again if p not in seated]


def _coloured(a: str, b: str, history: dict[str, _History], number: dict[str, int]) -> Board:
    """White to the player who had it less, then to the one who had black last, then to the
    better ranked."""

    def need(p: str) -> tuple[int, int, int]:
        colours = history[p].colours
        balance = colours.count("white") - colours.count("black")
        last = 1 if colours and colours[-1] == "white" else 0
        return (balance, last, number[p])

    white, black = sorted((a, b), key=need)
    return Board(white, black)


@dataclass(slots=True)
class _History:
    score: float = 0.0
    colours: list[str] = field(default_factory=list)
    allocated_byes: int = 0


def _histories(games: Sequence[SwissGame], byes: Sequence[Bye], before: int) -> dict[str, _History]:
    """Scores, colours and allocated byes of every player from the rounds before ``before``."""
    history: dict[str, _History] = defaultdict(_History)
    for game in sorted((g for g in games if g.round < before), key=lambda g: g.round):
        white, black = history[game.white], history[game.black]
        white.colours.append("white")
        black.colours.append("black")
        white.score += game.score
        black.score += 1 - game.score
    for bye in (b for b in byes if b.round < before):
        history[bye.player].score += bye.points
        history[bye.player].allocated_byes += bye.allocated
    return history


def _dutch(
    ranking: Sequence[SwissPlayer],
    number: dict[str, int],
    games: Sequence[SwissGame],
    byes: Sequence[Bye],
    round_number: int,
    total_rounds: int,
    white_first: bool,
) -> tuple[Board, ...]:
    """The round by py4swiss' Dutch engine, from a TRF(x) of every registered player.

    Every player has an entry for every round before this one (a round he did not play, before
    joining or after withdrawing, is a zero-point bye), since py4swiss takes the round to pair
    from the shortest list; who does not play this round is "zeroed". Scores are ours: the
    difference between them and what the TRF's tokens score (a bye of points no token gives, a
    pairing-allocated bye worth less than a point) goes in as acceleration, round by round, so
    the engine's score groups and floats are those of our points.
    """
    # py4swiss builds pydantic models on import: on first use, not on import
    from py4swiss.engines import DutchEngine
    from py4swiss.trf import ParsedTrf
    from py4swiss.trf.codes import PlayerCode
    from py4swiss.trf.results import ColorToken, ResultToken, RoundResult
    from py4swiss.trf.sections import PlayerSection, XSection
    from py4swiss.trf.sections.x_section import XSectionConfiguration

    played = {"1": 10, "=": 5, "0": 0}
    default = {ResultToken.PAIRING_ALLOCATED_BYE: 10, ResultToken.FULL_POINT_BYE: 10}
    default |= {ResultToken.HALF_POINT_BYE: 5, ResultToken.ZERO_POINT_BYE: 0}
    entries: dict[str, dict[int, tuple[RoundResult, int]]] = defaultdict(dict)
    for game in games:
        if game.round < round_number and game.white in number and game.black in number:
            white = round(game.score * 10)
            for me, opponent, colour, points in (
                (game.white, game.black, ColorToken.WHITE, white),
                (game.black, game.white, ColorToken.BLACK, 10 - white),
            ):
                token = ResultToken({10: "1", 5: "=", 0: "0"}.get(points, "="))
                result = RoundResult(id=number[opponent], color=colour, result=token)
                entries[me][game.round] = (result, points)
    unpaired = ColorToken.BYE_OR_NOT_PAIRED
    for bye in byes:
        if bye.round < round_number and bye.player in number:
            points = round(bye.points * 10)
            token = (
                ResultToken.PAIRING_ALLOCATED_BYE
                if bye.allocated
                else ResultToken.FULL_POINT_BYE
                if points >= 10
                else ResultToken.HALF_POINT_BYE
                if points >= 5
                else ResultToken.ZERO_POINT_BYE
            )
            bye_result = RoundResult(id=0, color=unpaired, result=token)
            entries[bye.player][bye.round] = (bye_result, points)
    absent = RoundResult(
        id=0, color=ColorToken.BYE_OR_NOT_PAIRED, result=ResultToken.ZERO_POINT_BYE
    )
    sections = []
    accelerations: dict[int, list[int]] = {}
    for player in ranking:
        mine = entries.get(player.id, {})
        results, extra, ours, theirs = [], [], 0, 0
        for past in range(1, round_number):
            result, points = mine.get(past, (absent, 0))
            results.append(result)
            extra.append(ours - theirs)
            ours += points
            theirs += played.get(result.result.value, default.get(result.result, 0))
        extra.append(ours - theirs)
        if any(extra):
            accelerations[number[player.id]] = extra
        sections.append(
            PlayerSection(
                code=PlayerCode.PLAYER,
                starting_number=number[player.id],
                name=player.id,
                fide_rating=round(player.rating),
                points_times_ten=ours,
                rank=number[player.id],
                results=results,
            )
        )
    resting = {bye.player for bye in byes if bye.round == round_number}
    trf = ParsedTrf(
        player_sections=sections,
        x_section=XSection(
            number_of_rounds=max(total_rounds, round_number),
            zeroed_ids={
                number[p.id] for p in ranking if not p.plays(round_number) or p.id in resting
            },
            configuration=XSectionConfiguration(first_round_color=white_first),
            accelerations=accelerations,
        ),
    )
    by_number = {i: p for p, i in number.items()}
    return tuple(
        Board(by_number[pair.white], by_number[pair.black] if pair.black else None)
        for pair in DutchEngine.generate_pairings(trf)
    )

"""Swiss rounds (core.pairing.swiss) against rounds paired by bbpPairings, FIDE-endorsed.

Each file in ``data/`` (see its README) is a whole event: every round is paired again by us from
the results of the rounds before it, through our own types, and compared with what bbpPairings
paired: who meets whom, and with which colours.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from core.pairing import swiss
from core.pairing.swiss import (
    DUTCH_MAX,
    Board,
    Bye,
    Engine,
    SwissGame,
    SwissPlayer,
    pair_round,
    scores,
)

DATA = Path(__file__).parent / "data"
RESULT = re.compile(r"(\d+) ([wb-]) ([10=+\-ZHFU])")
POINTS = {"1": 1.0, "0": 0.0, "=": 0.5, "+": 1.0, "-": 0.0, "Z": 0.0, "H": 0.5, "F": 1.0, "U": 1.0}

Entries = dict[str, tuple[str | None, str, str]]
"""One round of a report: each player's opponent, colour and result."""


def read_trf(text: str) -> tuple[list[SwissPlayer], dict[int, Entries]]:
    players: list[SwissPlayer] = []
    rounds: dict[int, Entries] = {}
    for line in text.splitlines():
        if line.startswith("001"):
            me = f"p{int(line[4:8]):02}"
            players.append(SwissPlayer(me, float(line[48:52])))
            for number, found in enumerate(RESULT.finditer(line[84:]), start=1):
                opponent = f"p{int(found[1]):02}" if int(found[1]) else None
                rounds.setdefault(number, {})[me] = (opponent, found[2], found[3])
    return players, rounds


@pytest.mark.parametrize("name", sorted(p.stem for p in DATA.glob("*.trf")))
def test_every_round_is_paired_as_bbppairings_paired_it(name: str) -> None:
    players, rounds = read_trf((DATA / f"{name}.trf").read_text())
    white_first = rounds[1]["p01"][1] == "w"
    games: list[SwissGame] = []
    byes: list[Bye] = []
    checked = 0
    for number in sorted(rounds):
        entries = rounds[number]
        # arbiter's byes (absent players) are known before the pairing
        byes += [
            Bye(number, me, POINTS[res]) for me, (opp, _, res) in entries.items() if res in "ZH"
        ]
        expected = {
            frozenset((me, opp)) for me, (opp, colour, _) in entries.items() if colour == "w"
        } | {frozenset((me,)) for me, (opp, _, res) in entries.items() if res in "UF"}
        if expected:
            paired = pair_round(
                players, games, byes, number, len(rounds), engine="dutch", white_first=white_first
            )
            assert paired.engine == "dutch"
            got = {frozenset(b for b in (board.white, board.black) if b) for board in paired.boards}
            assert got == expected, f"round {number}"
            for board in paired.boards:
                if board.black:
                    assert entries[board.white][1] == "w", f"round {number}: {board}"
            checked += 1
        for me, (opp, colour, res) in entries.items():
            if colour == "w" and res in "10=":
                assert opp is not None
                games.append(SwissGame(number, me, opp, POINTS[res]))
            elif res in "UF+-":  # the pairing's bye; forfeits are unplayed games
                byes.append(Bye(number, me, POINTS[res], allocated=res in "UF"))
    assert checked >= 1


def field(n: int) -> list[SwissPlayer]:
    return [SwissPlayer(f"p{i:04}", 2000 - i) for i in range(n)]


def play(
    players: list[SwissPlayer], rounds: int, engine: Engine | None = None, seed: int = 1
) -> tuple[list[SwissGame], list[Bye], list[Engine]]:
    """An event played to the end with random results; the engines used, round by round."""
    rng = random.Random(seed)
    games: list[SwissGame] = []
    byes: list[Bye] = []
    used = []
    for number in range(1, rounds + 1):
        paired = pair_round(players, games, byes, number, rounds, engine=engine)
        used.append(paired.engine)
        seated = [p for b in paired.boards for p in (b.white, b.black) if p]
        assert len(seated) == len(set(seated)), f"round {number}: someone twice"
        assert set(seated) == {p.id for p in players if p.plays(number)}
        for board in paired.boards:
            if board.black is None:
                byes.append(Bye(number, board.white, 1.0, allocated=True))
            else:
                games.append(SwissGame(number, board.white, board.black, rng.choice([0, 0.5, 1])))
    return games, byes, used


@pytest.mark.parametrize("engine", ["dutch", "casual"])
def test_no_rematch_one_bye_each_and_colours_kept_balanced(engine: Engine) -> None:
    players = field(11)
    games, byes, _ = play(players, 5, engine)
    met = [frozenset((g.white, g.black)) for g in games]
    assert len(met) == len(set(met))
    allotted = [b.player for b in byes if b.allocated]
    assert len(allotted) == 5 and len(set(allotted)) == 5
    for player in players:
        colours = [
            "w" if g.white == player.id else "b"
            for g in sorted(games, key=lambda g: g.round)
            if player.id in (g.white, g.black)
        ]
        if engine == "dutch":  # FIDE's absolute criteria: never 3 alike in a row, |w - b| <= 2
            assert all(len(set(colours[i : i + 3])) > 1 for i in range(len(colours) - 2))
            assert abs(colours.count("w") - colours.count("b")) <= 2


def test_late_joins_and_withdrawals_are_paired_only_while_in() -> None:
    players = [
        *field(8),
        SwissPlayer("late", 1500, joined=3),
        SwissPlayer("gone", 1500, withdrawn=2),
    ]
    games, byes, _ = play(players, 4, "dutch")
    rounds_of = {
        p.id: sorted({g.round for g in games if p.id in (g.white, g.black)}) for p in players
    }
    rounds_of = {
        k: sorted(set(v) | {b.round for b in byes if b.player == k}) for k, v in rounds_of.items()
    }
    assert rounds_of["late"] == [3, 4]
    assert rounds_of["gone"] == [1]


def test_a_player_with_a_requested_bye_sits_the_round_out() -> None:
    players = field(4)
    paired = pair_round(players, [], [Bye(1, "p0000", 0.5)], 1, 3)
    assert "p0000" not in {p for b in paired.boards for p in (b.white, b.black)}
    assert [b.black for b in paired.boards if b.white == "p0003" or b.black == "p0003"]


def test_a_round_without_a_dutch_pairing_goes_to_the_casual_engine() -> None:
    # 6 players, these results: by round 4 no pairing meets the Dutch absolute criteria (no
    # rematch, no third colour alike in a row)
    games, _, used = play(field(6), 5, "dutch", seed=1)
    assert used == ["dutch"] * 3 + ["casual"] * 2
    met = [frozenset((g.white, g.black)) for g in games]
    assert len(met) == len(set(met))


def test_big_fields_go_to_the_casual_engine_after_round_one() -> None:
    _, _, used = play(field(DUTCH_MAX + 2), 3)
    assert used == ["dutch", "casual", "casual"]
    _, _, used = play(field(DUTCH_MAX), 2)
    assert used == ["dutch"] * 2


@pytest.mark.parametrize("size", [2, 7, 10, 31])
def test_without_py4swiss_round_one_is_its_split_and_later_rounds_casual(
    size: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # py4swiss has no wheel for Linux arm64 (pyproject.toml asks for it on x86-64 only): the
    # bot still pairs there. Round 1 is the split, the boards py4swiss itself gives.
    players = field(size)
    for white_first in (True, False):
        by_py4swiss = pair_round(players, [], [], 1, 5, white_first=white_first)
        monkeypatch.setattr(swiss, "DUTCH_INSTALLED", False)
        split = pair_round(players, [], [], 1, 5, white_first=white_first)
        monkeypatch.undo()
        assert split == by_py4swiss
    monkeypatch.setattr(swiss, "DUTCH_INSTALLED", False)
    _, _, used = play(players, 4)
    assert used == ["dutch"] + ["casual"] * 3


@pytest.mark.parametrize("white_first", [True, False])
def test_round_one_of_a_big_field_is_the_dutch_split(white_first: bool) -> None:
    # C.04.3: the top half meets the bottom half in ranking order; the top seed has the colour
    # drawn, and the higher-ranked player's colour alternates board by board; the odd one out,
    # the lowest ranked, has the bye
    players = field(1001)
    paired = pair_round(players, [], [], 1, 9, white_first=white_first)
    assert paired.engine == "dutch"
    expected = []
    for board in range(500):
        top, bottom = f"p{board:04}", f"p{board + 500:04}"
        top_white = (board % 2 == 0) is white_first
        expected.append(Board(top, bottom) if top_white else Board(bottom, top))
    assert list(paired.boards) == [*expected, Board("p1000", None)]


def test_the_top_seed_has_the_colour_drawn_for_round_one() -> None:
    for white_first in (True, False):
        paired = pair_round(field(4), [], [], 1, 3, white_first=white_first)
        top = next(b for b in paired.boards if "p0000" in (b.white, b.black))
        assert (top.white == "p0000") is white_first


def test_scores_count_games_and_byes() -> None:
    games = [SwissGame(1, "a", "b", 1), SwissGame(2, "b", "a", 0.5)]
    assert scores(games, [Bye(1, "c", 1.0, allocated=True)]) == {"a": 1.5, "b": 0.5, "c": 1.0}


@pytest.mark.parametrize("seed", range(6))
def test_a_big_field_gets_no_rematch_and_no_extra_bye(seed: int) -> None:
    # the casual engine's greedy pass alone left 9 byes in 5 rounds of 11 players
    players = field(DUTCH_MAX + 11)
    games, byes, used = play(players, 9, seed=seed)
    assert used == ["dutch"] + ["casual"] * 8
    met = [frozenset((g.white, g.black)) for g in games]
    assert len(met) == len(set(met))
    assert [b.round for b in byes] == list(range(1, 10))


def test_byes_score_what_the_event_gives_them() -> None:
    # p0000, the top seed, had a pairing-allocated bye worth nothing: he stays with the players
    # on 0, and the two winners of round 1 meet (a bye counted as FIDE's default point would
    # put him at the top of their score group)
    players = field(5)
    games = [SwissGame(1, "p0001", "p0003", 1), SwissGame(1, "p0004", "p0002", 0)]
    byes = [Bye(1, "p0000", 0.0, allocated=True)]
    paired = pair_round(players, games, byes, 2, 3)
    assert paired.engine == "dutch"
    assert {frozenset(("p0001", "p0002"))} <= {frozenset((b.white, b.black)) for b in paired.boards}

"""Round robins follow FIDE's Berger tables."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from core.pairing.roundrobin import berger_numbers, round_robin

# FIDE Handbook C.05 (General Regulations for Competitions), Annex 1: "Berger Tables for
# Round-Robin Tournaments", the tables for 3 or 4, 5 or 6 and 7 or 8 players, copied round by
# round, board by board, white first.
FIDE = {
    4: ["1-4 2-3", "4-3 1-2", "2-4 3-1"],
    6: ["1-6 2-5 3-4", "6-4 5-3 1-2", "2-6 3-1 4-5", "6-5 1-4 2-3", "3-6 4-2 5-1"],
    8: [
        "1-8 2-7 3-6 4-5",
        "8-5 6-4 7-3 1-2",
        "2-8 3-1 4-7 5-6",
        "8-6 7-5 1-4 2-3",
        "3-8 4-2 5-1 6-7",
        "8-7 1-6 2-5 3-4",
        "4-8 5-3 6-2 7-1",
    ],
}


@pytest.mark.parametrize("n", sorted(FIDE))
def test_the_fide_berger_tables(n: int) -> None:
    ours = [" ".join(f"{a}-{b}" for a, b in boards) for boards in berger_numbers(n)]
    assert ours == FIDE[n]


@pytest.mark.parametrize("n", range(2, 21))
def test_everyone_meets_everyone_once_with_balanced_colours(n: int) -> None:
    rounds = round_robin(list(range(n)))
    games = [game for boards in rounds for game in boards]
    met = Counter(frozenset(g) for g in games)
    assert met == Counter(frozenset(p) for p in itertools.combinations(range(n), 2))
    for boards in rounds:
        seated = [p for game in boards for p in game]
        assert len(seated) == len(set(seated))  # nobody twice in a round
    for player in range(n):
        whites = sum(game[0] == player for game in games)
        blacks = sum(game[1] == player for game in games)
        assert abs(whites - blacks) <= 1 + (n % 2)


def test_an_odd_count_gives_each_player_one_bye() -> None:
    rounds = round_robin(["a", "b", "c", "d", "e"])
    assert len(rounds) == 5
    resting = [
        {"a", "b", "c", "d", "e"} - {p for game in boards for p in game} for boards in rounds
    ]
    assert sorted(p for r in resting for p in r) == ["a", "b", "c", "d", "e"]


def test_an_odd_berger_size_is_refused() -> None:
    with pytest.raises(ValueError, match="even"):
        berger_numbers(5)

"""Standings and their tie-breaks (core.tournaments.standings)."""

from __future__ import annotations

import gc
import random

import pytest

from core.tournaments.standings import ArenaRecord, Played, arena_standings, standings


def test_points_then_buchholz_then_sonneborn_berger() -> None:
    # a beat b and drew c; b beat c and d; c beat d; d beat a
    games = [
        Played("a", "b", 1),
        Played("a", "c", 0.5),
        Played("b", "c", 1),
        Played("b", "d", 1),
        Played("c", "d", 1),
        Played("d", "a", 1),
    ]
    table = standings("abcd", games)
    assert [(s.rank, s.player, s.points) for s in table] == [
        (1, "b", 2.0),
        (2, "a", 1.5),
        (3, "c", 1.5),
        (4, "d", 1.0),
    ]
    a, c = table[1], table[2]
    # a met b (2), c (1.5), d (1); c met a (1.5), b (2), d (1)
    assert a.buchholz == c.buchholz == 4.5
    # a: beat b (2) + half of drew c (0.75); c: beat d (1) + half of drew a (0.75)
    assert (a.sonneborn_berger, c.sonneborn_berger) == (2.75, 1.75)


def test_buchholz_breaks_a_tie_before_sonneborn_berger() -> None:
    # x and y have 1 point each; x's opponent scored more
    games = [Played("x", "p", 1), Played("p", "q", 1), Played("y", "q", 1)]
    table = standings("xypq", games)
    order = [s.player for s in table]
    assert order.index("x") < order.index("y")
    assert table[order.index("x")].buchholz == 1 and table[order.index("y")].buchholz == 0


def test_a_bye_counts_its_points_and_no_opponent() -> None:
    table = standings("ab", [Played("a", "b", 0.5)], byes={"c": 1.0})
    assert [(s.player, s.points, s.buchholz) for s in table] == [
        ("c", 1.0, 0.0),
        ("a", 0.5, 0.5),
        ("b", 0.5, 0.5),
    ]


def test_a_player_without_games_is_in_the_table() -> None:
    assert [s.player for s in standings(["late"], [])] == ["late"]


def test_arena_points_then_performance() -> None:
    table = arena_standings(
        [
            ArenaRecord.of_games("low", 4, [(1200, 1), (1200, 1)]),
            ArenaRecord.of_games("high", 4, [(1800, 1), (1800, 1)]),
            ArenaRecord.of_games("top", 6, [(1500, 1), (1500, 1), (1500, 1)]),
            ArenaRecord.of_games("idle", 0, []),
        ]
    )
    assert [(s.rank, s.player) for s in table] == [(1, "top"), (2, "high"), (3, "low"), (4, "idle")]
    assert table[1].performance == pytest.approx(2300)


def test_plain_tuples_are_games_too() -> None:
    games = [Played("a", "b", 1), Played("b", "c", 0.5), Played("c", "a", 0)]
    assert standings("abc", [(g.white, g.black, g.score) for g in games]) == standings("abc", games)


def test_a_big_table_makes_no_container_per_game() -> None:
    # The collector runs after every THRESHOLD containers made and still alive: a table that
    # kept a tuple per game and side and a list per player (some 12,000 for 1,000 players
    # after 4,500 games) set it off a hundred times, and the old generation's full passes
    # over the whole process with it. Its rows are all it may keep: about 10 runs (the bound
    # leaves room for another thread of the test process allocating meanwhile).
    rng = random.Random(34)
    players = [f"p{i}" for i in range(1000)]
    pairs = [rng.sample(players, 2) for _ in range(4500)]
    games = [(white, black, rng.choice((0.0, 0.5, 1.0))) for white, black in pairs]
    runs = 0

    def counted(phase: str, info: dict[str, int]) -> None:
        nonlocal runs
        runs += phase == "start"

    threshold = gc.get_threshold()
    gc.collect()
    gc.set_threshold(100, *threshold[1:])
    gc.callbacks.append(counted)
    try:
        table = standings(players, games)
    finally:
        gc.callbacks.remove(counted)
        gc.set_threshold(*threshold)
    assert len(table) == 1000
    assert runs <= 30, runs

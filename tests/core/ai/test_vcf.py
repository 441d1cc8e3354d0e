"""HARD converts every win by continuous fours (VCF) within its reach: on each position of
tests/data/gomoku/vcf.txt it wins by fours alone against the only defence a four allows."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from core.ai import freeboard, threat_search
from core.ai.heuristic import windows, winning_bits
from core.games import Position, Rules

GOMOKU_15 = Rules(15, 15, 5)
DATA = Path(__file__).parents[2] / "data" / "gomoku" / "vcf.txt"


def load() -> list[tuple[int, tuple[int, ...]]]:
    found = []
    for line in DATA.read_text().splitlines():
        if line and not line.startswith("#"):
            length, *moves = (int(word) for word in line.split())
            found.append((length, tuple(moves)))
    return found


POSITIONS = load()


def test_the_set_reaches_deep_fours() -> None:
    assert len(POSITIONS) >= 20
    assert max(length for length, _ in POSITIONS) >= 9


def wins_of(p: Position, player: int) -> int:
    """Empty cells where ``player`` (0 or 1) would complete five."""
    table = windows(p.rules)
    return winning_bits(p.stones[player], p.stones[1 - player], table) & ~p.occupied


@pytest.mark.parametrize(("length", "moves"), POSITIONS, ids=[str(m[-1]) for _, m in POSITIONS])
def test_a_win_by_fours_is_converted(length: int, moves: tuple[int, ...]) -> None:
    p = Position.from_moves(GOMOKU_15, moves)
    attacker = p.to_move - 1
    geo = p.geometry
    assert not wins_of(p, attacker) and not wins_of(p, 1 - attacker)
    fours = 0
    while p.winner is None:
        p = p.play(freeboard.hard_move(p, time.perf_counter() + 1.0))
        if p.winner is not None:
            break
        threats = wins_of(p, attacker)
        # Every move of a VCF is a four: the defender may only block it (or win, if he can).
        assert threats, f"move {fours + 1} of HARD is not a four: {p!r}"
        assert not wins_of(p, 1 - attacker), f"HARD's four lets the defender win: {p!r}"
        fours += 1
        if threats & (threats - 1):
            p = p.play(geo.cell_of_bit(threats.bit_length() - 1))
            continue  # two winning cells: one block leaves the other
        p = p.play(geo.cell_of_bit(threats.bit_length() - 1))
    assert p.winner == attacker + 1


@pytest.mark.parametrize(("length", "moves"), POSITIONS, ids=[str(m[-1]) for _, m in POSITIONS])
def test_the_search_by_fours_finds_the_shortest_win_across_depths(
    length: int, moves: tuple[int, ...]
) -> None:
    """One search, asked at several depths in turn (its memo shared between them, as
    threat_search's iterations share it): a win exactly from the shortest VCF's length on."""
    p = Position.from_moves(GOMOKU_15, moves)
    table = windows(p.rules)
    search = threat_search.Search(
        table, threat_search.Board(table, p.stones), time.perf_counter() + 600
    )
    attacker = p.to_move - 1
    for depth in (length - 1, length, length + 2, length - 1, 1, length):
        found = search.threat_win(attacker, depth, False)
        assert (found >= 0) == (depth >= length), depth

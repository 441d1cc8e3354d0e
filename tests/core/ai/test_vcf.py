"""Wins by continuous fours (VCF) on 15x15: HARD converts every one within its reach (on each
position of tests/data/gomoku/vcf.txt it wins by fours alone against the only defence a four
allows), and sees the opponent's (on each position of tests/data/gomoku/defence.txt its move
leaves him none)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from core.ai import freeboard, threat_search
from core.ai.heuristic import windows, winning_bits
from core.games import Position, Rules

GOMOKU_15 = Rules(15, 15, 5)
DATA = Path(__file__).parents[2] / "data" / "gomoku"


def load(name: str) -> list[tuple[int, tuple[int, ...]]]:
    """(a number, the moves) per line of a data file."""
    found = []
    for line in (DATA / name).read_text().splitlines():
        if line and not line.startswith("#"):
            length, *moves = (int(word) for word in line.split())
            found.append((length, tuple(moves)))
    return found


POSITIONS = load("vcf.txt")
DEFENCES = load("defence.txt")


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


def vcf_of(p: Position, attacker: int) -> int:
    """A first move of a VCF of ``attacker`` (0 or 1, to move) within VCF_DEPTH fours, or -1."""
    table = windows(p.rules)
    board = threat_search.Board(table, p.stones)
    search = threat_search.Search(table, board, time.perf_counter() + 600)
    return search.threat_search(attacker, freeboard.VCF_DEPTH, False)


def test_the_defence_set_is_what_it_says() -> None:
    assert len(DEFENCES) >= 10
    for _, moves in DEFENCES:
        p = Position.from_moves(GOMOKU_15, moves)
        assert vcf_of(p, 2 - p.to_move) >= 0  # as if HARD passed


@pytest.mark.parametrize(("refutations", "moves"), DEFENCES, ids=[str(len(m)) for _, m in DEFENCES])
def test_the_opponents_win_by_fours_is_refuted(refutations: int, moves: tuple[int, ...]) -> None:
    """At 1 s a move, as HARD plays. The first position was lost: out of time while checking
    the refutations, the defence kept every move, and read 10 fours only."""
    p = Position.from_moves(GOMOKU_15, moves)
    after = p.play(freeboard.hard_move(p, time.perf_counter() + 1.0))
    assert after.winner is None
    assert vcf_of(after, after.to_move - 1) < 0, f"{after!r} still loses by fours"

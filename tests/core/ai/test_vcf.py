"""Wins by continuous fours (VCF) on 15x15: HARD converts every one within its reach (on each
position of tests/data/gomoku/vcf.txt it wins by fours alone against the only defence a four
allows), and sees the opponent's (on each position of tests/data/gomoku/defence.txt its move
leaves him none)."""

from __future__ import annotations

import time
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.ai import freeboard, threat_search
from core.ai.heuristic import windows, winning_bits
from core.ai.pattern_board import PatternBoard
from core.ai.pattern_search import PatternSearch
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


def hard_move(p: Position) -> int:
    """HARD's move with 1 s of this process's CPU, as HARD plays at 1 s a move on a machine of
    its own: on a busy one a second of wall clock is a fraction of that, and a search cut short
    would fail these tests for the machine's sake. Every deadline of the AI (the compiled
    kernels' clock included) reads ``time.perf_counter`` when it runs."""
    with mock.patch.object(time, "perf_counter", time.process_time):
        return freeboard.hard_move(p, time.perf_counter() + 1.0)


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
        p = p.play(hard_move(p))
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
    after = p.play(hard_move(p))
    assert after.winner is None
    assert vcf_of(after, after.to_move - 1) < 0, f"{after!r} still loses by fours"


def kernel_vcf(p: Position, depth: int) -> int:
    """The compiled alpha-beta's search by fours for the side to move: a first move, or -1."""
    board = PatternBoard(p.rules, p.stones, p.to_move - 1)
    found = PatternSearch(board, time.perf_counter() + 600).vcf(depth)
    return -1 if found < 0 else p.geometry.cell_of_bit(board.bit_of(found))


@pytest.mark.parametrize(("length", "moves"), POSITIONS, ids=[str(m[-1]) for _, m in POSITIONS])
def test_the_alpha_betas_search_by_fours_finds_each_win(
    length: int, moves: tuple[int, ...]
) -> None:
    """Within the fours of the shortest VCF (an open four counts as won one four early, when
    the defender has no four: the block of one end leaves the other)."""
    p = Position.from_moves(GOMOKU_15, moves)
    first = kernel_vcf(p, length)
    assert first >= 0
    assert wins_of(p.play(first), p.to_move - 1)  # a four
    assert kernel_vcf(p, length - 2) < 0


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_the_two_searches_by_fours_agree(data: st.DataObject) -> None:
    """The alpha-beta's (patterns) and the threat search's (windows): a win found by one within
    some fours is found by the other within one more."""
    rules = data.draw(st.sampled_from([Rules(9, 9, 5), GOMOKU_15]))
    p = Position.start(rules)
    for _ in range(data.draw(st.integers(8, 30))):
        move = data.draw(st.sampled_from(p.legal_moves()))
        if p.play(move).is_over or wins_of(p.play(move), 0) or wins_of(p.play(move), 1):
            break
        p = p.play(move)
    attacker = p.to_move - 1
    table = windows(rules)
    search = threat_search.Search(
        table, threat_search.Board(table, p.stones), time.perf_counter() + 600
    )
    for depth in (2, 4):
        if kernel_vcf(p, depth) >= 0:
            assert search.threat_win(attacker, depth + 1, False) >= 0, (depth, p)
        if search.threat_win(attacker, depth, False) >= 0:
            assert kernel_vcf(p, depth + 1) >= 0, (depth, p)

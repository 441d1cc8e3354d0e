"""The shipped sets are facts: every puzzle in them is checked here, none left to a benchmark
(the Connect Four set by the exact solver, about 8 s on the development machine; the VCF set
by core.puzzles.vcf's own search, and the engine's threat search must find each win too: 31 s
with its 308 wins of N >= 3, on a machine at load 7)."""

from __future__ import annotations

import collections

from core.ai.heuristic import windows
from core.ai.threat_search import Board, Search
from core.puzzles import shipped
from core.puzzles.facts import MAX_DEPTH, verify
from core.puzzles.puzzle import Theme

CONNECT_FOUR_AT_LEAST = 1000
VCF_AT_LEAST = 300


def test_the_connect_four_set_is_large_and_spread_over_n_and_holds() -> None:
    puzzles = shipped.connect_four()  # missing data raises: the test fails
    assert len(puzzles) >= CONNECT_FOUR_AT_LEAST
    assert len({p.id for p in puzzles}) == len(puzzles)
    kinds = collections.Counter((p.theme, p.depth) for p in puzzles)
    assert set(kinds) == {(Theme.HOLD, 1)} | {(Theme.WIN, n) for n in range(1, MAX_DEPTH + 1)}


def test_every_shipped_connect_four_puzzle_has_a_unique_first_move_and_an_exact_n() -> None:
    puzzles = shipped.connect_four()
    assert puzzles
    for puzzle in puzzles:
        verify(puzzle)


def test_every_shipped_vcf_is_proven_unique_and_exact_and_the_threat_search_finds_it() -> None:
    puzzles = shipped.vcf()
    assert len(puzzles) >= VCF_AT_LEAST
    assert len({p.id for p in puzzles}) == len(puzzles)
    assert {p.depth for p in puzzles} > {2, 3, 4}
    # a real spread of lengths: the generator finds about ten N = 2 for one longer
    long = collections.Counter(p.depth for p in puzzles if p.depth >= 3)
    assert long.total() * 2 >= len(puzzles) and all(long[n] >= 20 for n in (3, 4, 5))
    for puzzle in puzzles:
        assert puzzle.theme is Theme.VCF
        verify(puzzle)
        p = puzzle.position
        table = windows(p.rules)
        search = Search(table, Board(table, p.stones), float("inf"))
        assert search.threat_search(p.to_move - 1, puzzle.depth, False) >= 0

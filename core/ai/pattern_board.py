"""A board evaluated by line patterns, updated incrementally (HARD's main search on free boards).

Every empty cell knows, for each player and each of its four lines, the pattern a stone of that
player would make there (:mod:`core.ai.patterns`), hence its class (a win, a flex four, a
four-three...) and its value. A stone changes only the lines through it: the ``k-1`` cells on
each side in each direction get their key updated (one base-3 digit), their pattern looked up
again, and the running sums and threat counts follow. Undoing a stone reverses exactly that.
The board lives in flat arrays worked by :mod:`core.ai._gomoku_kernel` (compiled); this module
builds its tables and gives its callers views of it.

Cells are indexed on a grid padded by ``k-1`` cells of edge on every side (an edge is a blocked
neighbour, preset in the keys), so a line never needs a bounds check. :meth:`PatternBoard.index_of`
and :meth:`PatternBoard.bit_of` translate from and to the bitboard layout of
:mod:`core.games.bitboard`.
"""

from __future__ import annotations

import math
import random
from functools import lru_cache
from typing import Any

from core.ai import _gomoku_kernel as kernel
from core.ai import _solver_jit
from core.ai.patterns import BLOCKED, FLEX4, FOUR, WIN, digit_weight, patterns, threat_table
from core.games import Rules
from core.games.bitboard import geometry, iter_bits

# Zobrist keys are drawn from a fixed seed: the same position hashes the same in every process.
_ZOBRIST_SEED = 0x5EED


class Layout:
    """The padded grid of one :class:`Rules`: per cell the lines through it (precomputed)."""

    __slots__ = ("_edges", "bits", "cells", "index", "lines", "near", "rules", "size", "zobrist")

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        k = rules.k
        pad = k - 1
        self.size = rules.cols + 2 * pad  # stride of a row
        stride = self.size
        rows_padded = rules.rows + 2 * pad
        offsets = (1, stride, stride + 1, stride - 1)
        geo = geometry(rules)
        count = rows_padded * stride
        self.cells: list[int] = []  # padded indices of the board's cells
        self.bits = [-1] * count  # padded index -> bitboard bit
        self.index: dict[int, int] = {}  # bitboard bit -> padded index
        for row in range(rules.rows):
            for col in range(rules.cols):
                here = (row + pad) * stride + col + pad
                self.cells.append(here)
                bit = geo.bit_of(row, col)
                self.bits[here] = bit
                self.index[bit] = here
        on_board = set(self.cells)
        # Per cell: (slot = 4*neighbour + direction, neighbour, shift, weight) for every board
        # cell within k-1 along a line; the weight is that of this cell in the neighbour's key.
        self.lines: list[tuple[tuple[int, int, int, int], ...]] = [() for _ in range(count)]
        for here in self.cells:
            entries = []
            for direction, step in enumerate(offsets):
                for distance in range(-pad, pad + 1):
                    there = here + distance * step
                    if distance and there in on_board:
                        weight = digit_weight(k, -distance)
                        entries.append((4 * there + direction, there, 4 * direction, weight))
            self.lines[here] = tuple(entries)
        # Per cell: the cells within two (the candidates a stone there adds).
        self.near = [0] * count
        for here in self.cells:
            mask = 0
            for d_row in range(-2, 3):
                for d_col in range(-2, 3):
                    there = here + d_row * stride + d_col
                    if (d_row or d_col) and there in on_board:
                        mask |= 1 << there
            self.near[here] = mask
        # 63 bits: the kernel's words are signed 64-bit integers
        rng = random.Random(_ZOBRIST_SEED)
        self.zobrist = [[rng.getrandbits(63) for _ in range(count)] for _ in range(2)]
        self._edges = (offsets, on_board, pad, k)

    def edge_keys(self) -> list[int]:
        """The line keys of the empty board: every neighbour off the board is blocked."""
        offsets, on_board, pad, k = self._edges
        keys = [0] * (4 * len(self.bits))
        for here in self.cells:
            for direction, step in enumerate(offsets):
                key = 0
                for distance in range(-pad, pad + 1):
                    if distance and here + distance * step not in on_board:
                        key += BLOCKED * digit_weight(k, distance)
                keys[4 * here + direction] = key
        return keys


@lru_cache(maxsize=16)
def layout(rules: Rules) -> Layout:
    """The (cached) layout of ``rules``."""
    return Layout(rules)


def _tables(rules: Rules) -> tuple[list[int], list[int]]:
    """The kernel's ``tab`` of ``rules`` (as a list) and the empty board's ``w``: line keys and
    packed cell patterns (the same for both players), every other part zero."""
    grid = layout(rules)
    tables = patterns(rules.k)
    count = len(grid.bits)
    tab = [0] * kernel.T_HEADER
    tab[kernel.T_COUNT] = count

    def append(header: int, values: list[int] | tuple[int, ...]) -> None:
        tab[header] = len(tab)
        tab.extend(values)

    append(kernel.T_LINE, tables.line)
    append(kernel.T_CLASS, tables.cell_class)
    append(kernel.T_VALUE, tables.cell_value)
    entries = [0] * (4 * kernel.LINE_ENTRIES * count)
    for here in grid.cells:
        for j, entry in enumerate(grid.lines[here]):
            at = 4 * (kernel.LINE_ENTRIES * here + j)
            entries[at : at + 4] = entry
    append(kernel.T_LINES, entries)
    append(kernel.T_LINES_N, [len(lines) for lines in grid.lines])
    near = [0] * (kernel.NEAR_ENTRIES * count)
    near_n = [0] * count
    for here in grid.cells:
        around = list(iter_bits(grid.near[here]))
        near[kernel.NEAR_ENTRIES * here : kernel.NEAR_ENTRIES * here + len(around)] = around
        near_n[here] = len(around)
    append(kernel.T_NEAR, near)
    append(kernel.T_NEAR_N, near_n)
    append(kernel.T_ZOBRIST, grid.zobrist[0] + grid.zobrist[1])
    append(kernel.T_CELLS, grid.cells)
    append(kernel.T_THREAT, threat_table(rules.k))
    tab[kernel.T_CELLS_N] = len(grid.cells)

    keys = grid.edge_keys()
    line = tables.line
    packed = [0] * count
    for here in grid.cells:
        value = 0
        for direction in range(4):
            value |= line[keys[4 * here + direction]] << (4 * direction)
        packed[here] = value
    w = [0] * kernel.W_HEADER

    def part(header: int, values: list[int]) -> None:
        w[header] = len(w)
        w.extend(values)

    part(kernel.W_KEYS, keys + keys)
    part(kernel.W_PACKED, packed + packed)
    part(kernel.W_CLASSES, [0] * (2 * count))
    part(kernel.W_VALUES, [0] * (2 * count))
    part(kernel.W_STONE, [0] * count)
    part(kernel.W_NEAR, [0] * count)
    part(kernel.W_PLAYED, [0] * len(grid.cells))
    part(kernel.W_MOVES, [0] * (2 * kernel.MOVE_SLOTS * (kernel.MAX_PLY + 1)))
    part(kernel.W_VCF_STACK, [0] * (kernel.VCF_FRAME * kernel.VCF_LEVELS))
    return tab, w


def functions() -> tuple[dict[str, Any], bool]:
    """The kernel's functions by name, compiled when numba is enabled, and whether they are."""
    compiled = _solver_jit.compiled()
    if compiled is None:
        return _solver_jit.plain_functions(), False
    return compiled, True


@lru_cache(maxsize=16)
def _start(rules: Rules, fast: bool) -> tuple[Any, Any]:
    """``tab`` and the empty board's ``w`` of ``rules``: int64 arrays for the compiled kernel
    (only those are kept: the lists would double the memory), else lists."""
    tab, w = _tables(rules)
    if not fast:
        return tab, w
    import numpy as np

    return np.array(tab, dtype=np.int64), np.array(w, dtype=np.int64)


class PatternBoard:
    """Stones, line keys, cell patterns, values and threat counts of both players: the kernel's
    board, with views for its callers and tests.

    ``total[p]``: the sum of ``p``'s values over the empty cells. ``fives[p]``: empty cells where
    ``p`` completes a line; ``fours[p]``: where ``p`` makes a four or better; ``flex[p]``: where
    ``p`` makes a threat that cannot be stopped by one stone (a flex four or a double four).
    ``packed`` and ``classes`` are right for the empty cells; a stone's cell keeps those it had
    when the stone was played.
    """

    __slots__ = ("count", "fn", "grid", "tab", "w")
    # numpy int64 arrays when compiled, lists when plain
    tab: Any
    w: Any

    def __init__(self, rules: Rules, stones: tuple[int, int], to_move: int) -> None:
        self.grid = grid = layout(rules)
        self.count = len(grid.bits)
        self.fn, fast = functions()
        self.tab, w = _start(rules, fast)
        self.w = w.copy()
        self.fn["gk_reset"](self.tab, self.w)
        for player in (0, 1):
            for bit in iter_bits(stones[player]):
                self.w[kernel.W_TO_MOVE] = player
                self.play(grid.index[bit])
        self.w[kernel.W_TO_MOVE] = to_move

    @property
    def to_move(self) -> int:
        return int(self.w[kernel.W_TO_MOVE])

    @to_move.setter
    def to_move(self, player: int) -> None:
        self.w[kernel.W_TO_MOVE] = player

    @property
    def hash(self) -> int:
        return int(self.w[kernel.W_HASH])

    @property
    def total(self) -> list[int]:
        return [int(self.w[kernel.W_TOTAL]), int(self.w[kernel.W_TOTAL + 1])]

    def _part(self, header: int, size: int) -> list[int]:
        start = int(self.w[header])
        return [int(v) for v in self.w[start : start + size]]

    @property
    def keys(self) -> list[list[int]]:
        keys = self._part(kernel.W_KEYS, 8 * self.count)
        return [keys[: 4 * self.count], keys[4 * self.count :]]

    @property
    def packed(self) -> list[list[int]]:
        packed = self._part(kernel.W_PACKED, 2 * self.count)
        return [packed[: self.count], packed[self.count :]]

    @property
    def classes(self) -> list[list[int]]:
        classes = self._part(kernel.W_CLASSES, 2 * self.count)
        return [classes[: self.count], classes[self.count :]]

    @property
    def stones(self) -> list[list[int]]:
        """Each player's stones (padded indices) in the order played."""
        played = self._part(kernel.W_PLAYED, self.stone_count)
        stone = self._part(kernel.W_STONE, self.count)
        return [[here for here in played if stone[here] == player + 1] for player in (0, 1)]

    @property
    def occupied(self) -> int:
        """The stones as a mask of padded indices."""
        return sum(1 << int(here) for here in self._part(kernel.W_PLAYED, self.stone_count))

    @property
    def stone_count(self) -> int:
        return int(self.w[kernel.W_STONES])

    def _empty_of_class(self, player: int, low: int, high: int) -> set[int]:
        classes = self.classes[player]
        stone = self._part(kernel.W_STONE, self.count)
        return {
            here for here in self.grid.cells if not stone[here] and low <= classes[here] <= high
        }

    @property
    def fives(self) -> list[set[int]]:
        return [self._empty_of_class(p, WIN, WIN) for p in (0, 1)]

    @property
    def fours(self) -> list[set[int]]:
        return [self._empty_of_class(p, FOUR, WIN) for p in (0, 1)]

    @property
    def flex(self) -> list[set[int]]:
        return [self._empty_of_class(p, FLEX4, FLEX4) for p in (0, 1)]

    def play(self, here: int) -> None:
        """Puts a stone of the side to move on the empty cell ``here``; the other side moves."""
        self.fn["gk_play"](self.tab, self.w, here)

    def undo(self) -> None:
        """Takes back the last stone played."""
        self.fn["gk_undo"](self.tab, self.w)

    def index_of(self, bit: int) -> int:
        return self.grid.index[bit]

    def bit_of(self, here: int) -> int:
        return self.grid.bits[here]

    def evaluate(self) -> int:
        """The position's value for the side to move (see the kernel's ``gk_evaluate``)."""
        return int(self.fn["gk_evaluate"](self.tab, self.w))


def warm_up(rules: Rules) -> None:
    """Build the tables of ``rules`` and compile (or load from numba's cache) every entry of the
    kernel, by a short search, before a player waits: compiling takes about 20 s and 100 MiB,
    loading a second."""
    from core.ai.pattern_search import PatternSearch

    grid = layout(rules)
    centre = grid.cells[len(grid.cells) // 2]
    board = PatternBoard(rules, (1 << grid.bits[centre], 0), 1)
    search = PatternSearch(board, math.inf)
    search.vcf(1)
    search.vct(1, 100)
    search.moves_at(kernel.INNER_WIDTH)
    search.negamax(1, -kernel.WIN_SCORE, kernel.WIN_SCORE, 0)
    search.deadline = 0.0  # one iteration: the deadline is read every few nodes
    search.root([centre + 1, centre - 1])
    board.evaluate()

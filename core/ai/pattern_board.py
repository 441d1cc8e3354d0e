"""A board evaluated by line patterns, updated incrementally (HARD's main search on free boards).

Every empty cell knows, for each player and each of its four lines, the pattern a stone of that
player would make there (:mod:`core.ai.patterns`), hence its class (a win, a flex four, a
four-three...) and its value. A stone changes only the lines through it: the ``k-1`` cells on
each side in each direction get their key updated (one base-3 digit), their pattern looked up
again, and the running sums and threat sets follow. Undoing a stone reverses exactly that.

Cells are indexed on a grid padded by ``k-1`` cells of edge on every side (an edge is a blocked
neighbour, preset in the keys), so a line never needs a bounds check. :meth:`PatternBoard.index_of`
and :meth:`PatternBoard.bit_of` translate from and to the bitboard layout of
:mod:`core.games.bitboard`.
"""

from __future__ import annotations

import random
from functools import lru_cache

from core.ai.patterns import BLOCKED, FLEX4, FOUR, FOUR_THREE, WIN, digit_weight, patterns
from core.games import Rules
from core.games.bitboard import geometry, iter_bits

# The side to move's potential counts this many eighths: its threats are a move ahead.
TEMPO = 12
# A four-three of the side to move that the opponent cannot answer with a four: above the
# potential of any ordinary position, below a proven win.
FOUR_THREE_BONUS = 20_000
# Zobrist keys are drawn from a fixed seed: the same position hashes the same in every process.
_ZOBRIST_SEED = 0x5EED


class Layout:
    """The padded grid of one :class:`Rules`: per cell the lines through it (precomputed)."""

    __slots__ = ("_edges", "bits", "cells", "index", "lines", "near", "size", "zobrist")

    def __init__(self, rules: Rules) -> None:
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
        rng = random.Random(_ZOBRIST_SEED)
        self.zobrist = [[rng.getrandbits(64) for _ in range(count)] for _ in range(2)]
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


@lru_cache(maxsize=16)
def _empty_state(rules: Rules) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Line keys and packed cell patterns of the empty board (the same for both players)."""
    grid = layout(rules)
    table = patterns(rules.k).line
    keys = grid.edge_keys()
    packed = [0] * len(grid.bits)
    for here in grid.cells:
        value = 0
        for direction in range(4):
            value |= table[keys[4 * here + direction]] << (4 * direction)
        packed[here] = value
    return tuple(keys), tuple(packed)


class PatternBoard:
    """Stones, line keys, cell patterns, values and threat sets of both players.

    ``total[p]``: the sum of ``p``'s values over the empty cells. ``fives[p]``: empty cells where
    ``p`` completes a line; ``fours[p]``: where ``p`` makes a four or better; ``flex[p]``: where
    ``p`` makes a threat that cannot be stopped by one stone (a flex four or a double four).
    """

    __slots__ = (
        "cell_class",
        "cell_value",
        "classes",
        "fives",
        "flex",
        "fours",
        "grid",
        "hash",
        "keys",
        "line",
        "occupied",
        "packed",
        "stones",
        "to_move",
        "total",
        "values",
    )

    def __init__(self, rules: Rules, stones: tuple[int, int], to_move: int) -> None:
        self.grid = grid = layout(rules)
        tables = patterns(rules.k)
        self.line = tables.line
        self.cell_class = tables.cell_class
        self.cell_value = tables.cell_value
        keys, packed = _empty_state(rules)
        self.keys = [list(keys), list(keys)]
        self.packed = [list(packed), list(packed)]
        self.classes = [[0] * len(packed), [0] * len(packed)]
        self.values = [[0] * len(packed), [0] * len(packed)]
        self.fives: list[set[int]] = [set(), set()]
        self.fours: list[set[int]] = [set(), set()]
        self.flex: list[set[int]] = [set(), set()]
        self.total = [0, 0]
        self.occupied = 0
        self.stones: list[list[int]] = [[], []]
        self.hash = 0
        self.to_move = 0
        for player in (0, 1):
            for here in grid.cells:
                self._set_cell(player, here, self.packed[player][here], True)
        for player in (0, 1):
            for bit in iter_bits(stones[player]):
                self.to_move = player
                self.play(grid.index[bit])
        self.to_move = to_move

    def _set_cell(self, player: int, here: int, packed: int, empty: bool) -> None:
        """Records ``packed`` as the patterns of ``here`` for ``player``; an empty cell also
        counts in the sums and sets."""
        self.packed[player][here] = packed
        cls = self.cell_class[packed]
        value = self.cell_value[packed]
        if empty:
            self.total[player] += value - self.values[player][here]
            old = self.classes[player][here]
            if old != cls:
                self._reclass(player, here, old, cls)
        self.classes[player][here] = cls
        self.values[player][here] = value

    def _reclass(self, player: int, here: int, old: int, new: int) -> None:
        if old == WIN:
            self.fives[player].discard(here)
        elif new == WIN:
            self.fives[player].add(here)
        if old >= FOUR and new < FOUR:
            self.fours[player].discard(here)
        elif new >= FOUR and old < FOUR:
            self.fours[player].add(here)
        if old == FLEX4:
            self.flex[player].discard(here)
        elif new == FLEX4:
            self.flex[player].add(here)

    def play(self, here: int) -> None:
        """Puts a stone of the side to move on the empty cell ``here``; the other side moves."""
        player = self.to_move
        other = 1 - player
        # The cell leaves the sums and sets of both players.
        for side in (player, other):
            self.total[side] -= self.values[side][here]
            self._reclass(side, here, self.classes[side][here], 0)
        self._update(here, player, 1)
        self.occupied |= 1 << here
        self.stones[player].append(here)
        self.hash ^= self.grid.zobrist[player][here]
        self.to_move = other

    def undo(self) -> None:
        """Takes back the last stone played."""
        player = 1 - self.to_move
        here = self.stones[player].pop()
        self.occupied &= ~(1 << here)
        self.hash ^= self.grid.zobrist[player][here]
        self._update(here, player, -1)
        for side in (player, 1 - player):
            self.total[side] += self.values[side][here]
            self._reclass(side, here, 0, self.classes[side][here])
        self.to_move = player

    def _update(self, here: int, player: int, sign: int) -> None:
        """Adds (``sign`` 1) or removes (-1) ``player``'s stone on ``here`` in every line key
        through it, and re-derives the patterns of the cells on those lines.

        The hot loop of the search: written out for both players, with the sums and sets
        touched only for the cells whose pattern changed (most farther cells keep theirs)."""
        line, cell_class, cell_value = self.line, self.cell_class, self.cell_value
        occupied = self.occupied & ~(1 << here)
        for side, step in ((player, sign), (1 - player, 2 * sign)):
            # For its owner the stone is an own neighbour (digit 1), for the other a blocked one.
            keys, packed, classes, values = (
                self.keys[side],
                self.packed[side],
                self.classes[side],
                self.values[side],
            )
            total = 0
            for slot, there, shift, weight in self.grid.lines[here]:
                key = keys[slot] + step * weight
                keys[slot] = key
                old = packed[there]
                new = old ^ ((((old >> shift) & 15) ^ line[key]) << shift)
                if new == old:
                    continue
                packed[there] = new
                cls = cell_class[new]
                value = cell_value[new]
                if not (occupied >> there) & 1:
                    total += value - values[there]
                    if cls != classes[there]:
                        self._reclass(side, there, classes[there], cls)
                classes[there] = cls
                values[there] = value
            self.total[side] += total

    def index_of(self, bit: int) -> int:
        return self.grid.index[bit]

    def bit_of(self, here: int) -> int:
        return self.grid.bits[here]

    def evaluate(self) -> int:
        """The position's value for the side to move: its potential, weighted up because it
        plays first, minus the opponent's; a four-three of its own, when he has no four to
        gain the tempo back, as good as won (short of a proof)."""
        player = self.to_move
        other = 1 - player
        score = self.total[player] * TEMPO // 8 - self.total[other]
        if not self.fours[other]:
            classes = self.classes[player]
            if any(classes[here] == FOUR_THREE for here in self.fours[player]):
                score += FOUR_THREE_BONUS
        return score


def warm_up(rules: Rules) -> None:
    """Build the tables of ``rules`` (a few tenths of a second for k 5) before a player waits."""
    _empty_state(rules)

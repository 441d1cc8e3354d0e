"""Bitboard geometry shared by the rules and the AI.

The layout is the one of Pascal Pons' Connect Four solver, generalised to any board: column-major,
each column has ``rows + 1`` bits, bit 0 of a column is its bottom cell and the extra top bit is a
sentinel that always stays 0. Because of the sentinel, shifting a board by 1 (vertical),
``rows + 1`` (horizontal), ``rows`` and ``rows + 2`` (the diagonals) never wraps a line from one
column into the next, so lines of any length are found with shifts and ANDs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from core.games.rules import Rules


@dataclass(frozen=True, slots=True)
class Geometry:
    """Precomputed masks and tables for one :class:`Rules`."""

    rules: Rules
    height: int  # bits per column: rows + the sentinel
    shifts: tuple[int, int, int, int]  # vertical, horizontal, the two diagonals
    board_mask: int  # every playable cell
    bottom_mask: int  # the bottom cell of every column
    column_masks: tuple[int, ...]
    cell_bits: tuple[int, ...] = field(repr=False)  # cell index (row-major, top-left 0) -> bit

    def bit_of(self, row: int, col: int) -> int:
        """Bit index of the cell at ``row`` (0 is the top row) and ``col``."""
        return col * self.height + (self.rules.rows - 1 - row)

    def cell_of_bit(self, bit: int) -> int:
        """Row-major cell index of a bit index."""
        col, from_bottom = divmod(bit, self.height)
        return (self.rules.rows - 1 - from_bottom) * self.rules.cols + col


@lru_cache(maxsize=256)
def geometry(rules: Rules) -> Geometry:
    """The (cached) :class:`Geometry` of ``rules``."""
    rows, cols = rules.rows, rules.cols
    height = rows + 1
    column_full = (1 << rows) - 1
    column_masks = tuple(column_full << (c * height) for c in range(cols))
    board_mask = 0
    bottom_mask = 0
    for c in range(cols):
        board_mask |= column_masks[c]
        bottom_mask |= 1 << (c * height)
    cell_bits = tuple(c * height + (rows - 1 - r) for r in range(rows) for c in range(cols))
    return Geometry(
        rules=rules,
        height=height,
        shifts=(1, height, height - 1, height + 1),
        board_mask=board_mask,
        bottom_mask=bottom_mask,
        column_masks=column_masks,
        cell_bits=cell_bits,
    )


def line_starts(stones: int, shift: int, k: int) -> int:
    """Bits where a run of ``k`` stones starts, going in the direction of ``shift``.

    A set bit ``b`` in the result means bits ``b, b + shift, ..., b + (k - 1) * shift`` are all in
    ``stones``. Runs are doubled (2, 4, 8, ...) so this takes O(log k) operations.
    """
    runs = stones
    length = 1
    while length * 2 <= k:
        runs &= runs >> (shift * length)
        length *= 2
    if length < k:
        runs &= runs >> (shift * (k - length))
    return runs


def has_line(stones: int, geo: Geometry) -> bool:
    """Whether ``stones`` contain ``k`` in a row in any direction."""
    k = geo.rules.k
    return any(line_starts(stones, shift, k) for shift in geo.shifts)


def line_bits_through(stones: int, bit: int, geo: Geometry) -> int:
    """Every bit of every ``k``-run in ``stones`` that passes through ``bit``."""
    k = geo.rules.k
    found = 0
    for shift in geo.shifts:
        starts = line_starts(stones, shift, k)
        for offset in range(k):
            start = bit - offset * shift
            if start >= 0 and starts >> start & 1:
                for i in range(k):
                    found |= 1 << (start + i * shift)
    return found


def iter_bits(mask: int) -> list[int]:
    """Indexes of the set bits of ``mask``, ascending."""
    bits = []
    while mask:
        low = mask & -mask
        bits.append(low.bit_length() - 1)
        mask ^= low
    return bits

"""Pattern tables shared by the players, and MEDIUM: the rules a person plays by.

Every line of ``k`` cells on the board (a *window*) is precomputed per :class:`Rules` as a bitmask
in the layout of :mod:`core.games.bitboard`. A window that holds stones of only one player is
still *live* for that player: the more stones it holds, the closer that player is to a line.
Counting live windows is the classic k-in-a-row evaluation; MEDIUM uses it for one ply, the HARD
free-board search (:mod:`core.ai.freeboard`) keeps the same counts incrementally.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import lru_cache

from core.games import Position, Rules
from core.games.bitboard import geometry, iter_bits

_DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


@dataclass(frozen=True, slots=True)
class Windows:
    """Every k-window of one :class:`Rules`, and what the players need to look them up fast."""

    rules: Rules
    masks: tuple[int, ...]  # window id -> bitmask of its k cells
    through: tuple[tuple[int, ...], ...] = field(repr=False)  # bit -> ids of windows through it
    centrality: tuple[int, ...] = field(repr=False)  # bit -> closeness to the centre, 0 outside
    near: tuple[int, ...] = field(repr=False)  # bit -> mask of the cells at distance <= 2
    weights: tuple[int, ...] = field(repr=False)  # stones in a live window -> value


@lru_cache(maxsize=64)
def windows(rules: Rules) -> Windows:
    """The (cached) window tables of ``rules``."""
    geo = geometry(rules)
    rows, cols, k = rules.rows, rules.cols, rules.k
    masks: list[int] = []
    through: list[list[int]] = [[] for _ in range(cols * geo.height)]
    for row in range(rows):
        for col in range(cols):
            for d_row, d_col in _DIRECTIONS:
                end_row, end_col = row + d_row * (k - 1), col + d_col * (k - 1)
                if not (0 <= end_row < rows and 0 <= end_col < cols):
                    continue
                bits = [geo.bit_of(row + d_row * i, col + d_col * i) for i in range(k)]
                for bit in bits:
                    through[bit].append(len(masks))
                masks.append(sum(1 << bit for bit in bits))
    centrality = [0] * (cols * geo.height)
    near = [0] * (cols * geo.height)
    for row in range(rows):
        for col in range(cols):
            bit = geo.bit_of(row, col)
            # Chebyshev distance to the centre, turned into "higher is more central".
            off_centre = max(abs(2 * row - (rows - 1)), abs(2 * col - (cols - 1)))
            centrality[bit] = max(rows, cols) + 1 - off_centre
            for r in range(max(0, row - 2), min(rows, row + 3)):
                for c in range(max(0, col - 2), min(cols, col + 3)):
                    if (r, c) != (row, col):
                        near[bit] |= 1 << geo.bit_of(r, c)
    # Each extra stone in a live window is worth several times the previous one, so one window
    # close to completion outweighs many barely started ones. Capped so huge k stays cheap.
    weights = tuple(0 if n == 0 else 1 << min(3 * (n - 1), 60) for n in range(k + 1))
    return Windows(
        rules=rules,
        masks=tuple(masks),
        through=tuple(tuple(ids) for ids in through),
        centrality=tuple(centrality),
        near=tuple(near),
        weights=weights,
    )


def playable_bits(p: Position) -> int:
    """Bits where the side to move may place a stone (the lowest empty cell of each column under
    gravity, every empty cell otherwise)."""
    geo = p.geometry
    occupied = p.occupied
    if p.rules.gravity:
        return (occupied + geo.bottom_mask) & geo.board_mask
    return geo.board_mask & ~occupied


def winning_bits(mine: int, theirs: int, table: Windows) -> int:
    """Empty cells that would complete a line of ``mine`` (whether playable now or not)."""
    k = table.rules.k
    found = 0
    for mask in table.masks:
        if not mask & theirs and (mask & mine).bit_count() == k - 1:
            found |= mask & ~mine
    return found


def move_of_bit(p: Position, bit: int) -> int:
    """The move that puts a stone on ``bit`` (its column under gravity, its cell otherwise)."""
    geo = p.geometry
    if p.rules.gravity:
        return bit // geo.height
    return geo.cell_of_bit(bit)


def cell_value(bit: int, mine: int, theirs: int, table: Windows) -> tuple[int, int]:
    """What a stone on ``bit`` is worth: (attack, defence).

    Attack: the value of the live windows of ``mine`` it extends; defence: the value of the live
    windows of ``theirs`` it spoils.
    """
    weights = table.weights
    attack = defence = 0
    for window in table.through[bit]:
        mask = table.masks[window]
        own = mask & mine
        other = mask & theirs
        if not other:
            attack += weights[own.bit_count() + 1]
        if not own:
            defence += weights[other.bit_count()]
    return attack, defence


def medium_move(p: Position, rng: random.Random) -> int:
    """A person's move: win now, else block an immediate win, else build the best line.

    Only one ply deep (it never sees a double threat coming), and noisy among near-equal moves so
    that it is not a fixed script: beatable on purpose.
    """
    table = windows(p.rules)
    player = p.to_move - 1
    mine, theirs = p.stones[player], p.stones[1 - player]
    playable = playable_bits(p)
    wins = winning_bits(mine, theirs, table) & playable
    if wins:
        return move_of_bit(p, rng.choice(iter_bits(wins)))
    blocks = winning_bits(theirs, mine, table) & playable
    if blocks:
        return move_of_bit(p, rng.choice(iter_bits(blocks)))
    scored: list[tuple[float, int]] = []
    for bit in iter_bits(playable):
        attack, defence = cell_value(bit, mine, theirs, table)
        # A person prefers building their own line to spoiling the other's, likes the centre,
        # and is not perfectly consistent: up to 30% noise on the value.
        value = (2 * attack + defence + table.centrality[bit]) * (1.0 + 0.3 * rng.random())
        scored.append((value, bit))
    best = max(value for value, _ in scored)
    choices = [bit for value, bit in scored if value >= 0.85 * best]
    return move_of_bit(p, rng.choice(choices))

"""The pattern board and its alpha-beta (HARD's main search for five in a row), as a kernel.

The single source of the algorithm of :mod:`core.ai.pattern_board` (the incremental board, here)
and :mod:`core.ai.pattern_search` (the searches, in :mod:`core.ai._gomoku_search`), written in the
subset numba compiles: integers and flat arrays, no objects. :mod:`core.ai._solver_jit` compiles
it with the solver's kernel; without numba, or with ``CHATBOTS_JIT=0``, the same functions run as
plain Python on lists.

Three arrays are passed around (each array argument costs on every call of the recursion):

- ``tab``, read-only, the tables of one board: line patterns of ``k``, cell classes and values,
  per cell the line entries through it and its neighbours within two, Zobrist keys. Its header
  (``T_*``) holds where each table starts.
- ``w``, the board and the search: per player the line keys, packed patterns, classes and values
  of every cell, the stones, the number of stones near each cell, the moves played, the class
  counts of the empty cells, the sums, the move buffers of every ply. Its header (``W_*``)
  holds the scalars and where each part starts.
- ``tt``, the transposition table: three words an entry (hash, value, depth | flag | move).

Cells are padded indices (:class:`core.ai.pattern_board.Layout`); ``count`` of them.
"""

from __future__ import annotations

import time
from typing import Any

from core.ai.patterns import FLEX4, FOUR, FOUR_THREE, THREAT_CLASSES, WIN

gk_now = time.perf_counter
# What the compiled copy rebinds (see _solver_kernel.COMPILED_CONSTANTS: numba bakes globals
# into its cache, renewed only when this file changes).
COMPILED_CONSTANTS = {"GK_CLOCK_EVERY": 1024}
GK_CLOCK_EVERY = 64  # nodes between two readings of the clock (compiled nodes are far faster)

# The side to move's potential counts this many eighths: its threats are a move ahead. 10, not
# 12, measured together with the short leaf search below (its commit has the figures).
TEMPO = 10
# A four-three of the side to move that the opponent cannot answer with a four: above the
# potential of any ordinary position, below a proven win.
FOUR_THREE_BONUS = 20_000
WIN_SCORE = 1 << 40  # above any evaluation
# Candidate moves searched below the root (the root searches every move it is given). Wider is
# shallower but misses fewer defences: at 1 s, 12 lost 44 in Rapfi's units a move against 10's
# 75 and 8's 105 on gomoku_judge's positions (1.6%, 4.7% and 7.9% blunders); even in self-play.
INNER_WIDTH = 12
ROOT_WIDTH = 16
MAX_PLY = 120  # a ply limit stops a chain of forced blocks at the horizon
# Fours read by the search for a win by fours at the horizon of the alpha-beta: few, since it
# runs at every leaf with a four (8 took most of the nodes; 4 still 83% of them), and the root
# reads longer wins. 3 against 4: 0.74 of the nodes to depth 8; self-play at 0.1 s 58% (+58 Elo),
# Rapfi at depth 8 19-0-1 against 18-0-2.
LEAF_VCF_DEPTH = 3
# Reverse futility (see pattern_search): a node this close to the horizon whose evaluation beats
# beta by this much a ply left is cut without a search. 400 is a third of the logistic scale of
# the evaluation (gomoku_tune); 250 cut too much (31/0/39 against none), 400 gained +70 Elo.
FUTILITY_DEPTH = 2
FUTILITY_MARGIN = 400
# Threat ranks for ordering, of a cell's class (index): ours (attack) and the opponent's that
# a stone there spoils (defence); a cell ranks by the higher of the two.
GK_ATTACK = (0, 3, 15, 10, 30, 50, 100)  # NONE, THREE, DOUBLE_THREE, FOUR, FOUR_THREE, FLEX4, WIN
GK_DEFENCE = (0, 2, 8, 5, 20, 40, 90)
RANK_SCALE = 1 << 24
CELL_SCALE = 1 << 12  # above any padded index: ties in a move's rank go to the higher cell
# TT flags: the stored value is exact, a lower bound or an upper bound.
GK_EXACT, GK_LOWER, GK_UPPER, GK_VCT = 0, 1, 2, 3
# Wins by fours and threes (gk_vct): the attacker's moves tried at each of his turns, the fours
# read at each, and keys of their own in the table (XOR the sides) beside the alpha-beta's.
VCT_WIDTH = 10
VCT_FOURS = 6
VCT_SALT = 0x5A17_C0DE_F00D
TT_WORDS = 3

# tab header: where each table starts, and the board's sizes
T_COUNT = 0  # padded cells
T_LINE = 1  # line key -> pattern code
T_CLASS = 2  # four packed codes -> class
T_VALUE = 3  # four packed codes -> value
T_LINES = 4  # per cell LINE_ENTRIES entries of 4 words: slot, neighbour, shift, weight
T_LINES_N = 5  # per cell: its entries
T_NEAR = 6  # per cell NEAR_ENTRIES board cells within two
T_NEAR_N = 7
T_ZOBRIST = 8  # per player and cell
T_CELLS = 9  # the board's cells
T_CELLS_N = 10
T_THREAT = 11  # threat mask -> value
T_HEADER = 12
LINE_ENTRIES = 40  # 8 (k-1) for k up to 6
NEAR_ENTRIES = 24

# w header: the scalars, then where each part starts
W_TO_MOVE = 0
W_HASH = 1
W_TOTAL = 2  # two words: the sums of the values of the empty cells, per player
W_STONES = 4  # stones on the board
W_NODES = 5
W_ABORT = 6  # set once the deadline passed: every search returns at once
W_COUNTS = 7  # 16 words: per player and class (8 each), the empty cells of that class
W_KEYS = 23  # per player and slot (4 a cell): the line key
W_PACKED = 24  # per player and cell: the four line patterns, 4 bits each
W_CLASSES = 25
W_VALUES = 26
W_STONE = 27  # per cell: 0 empty, else player + 1
W_NEAR = 28  # per cell: stones within two
W_PLAYED = 29  # the moves played, in order
W_MOVES = 30  # per ply MOVE_SLOTS moves, then as many ranks
W_VCF = 31  # the first four of the win gk_vcf found at its ply 0
W_NODE_LIMIT = 32  # the node count at which a search gives up
# per level of gk_vcf (VCF_FRAME words): the next cell to try (with a forced cell: 1 once it was
# tried), the forced cell or -1, the four played, the fours left to try
W_VCF_STACK = 33
W_HEADER = 34
VCF_LEVELS = 64
VCF_FRAME = 4
MOVE_SLOTS = 2 * ROOT_WIDTH + 2


def gk_play(tab: Any, w: Any, here: Any) -> None:
    """Puts a stone of the side to move on the empty cell ``here``; the other side moves."""
    gk_put(tab, w, here, 1)


def gk_undo(tab: Any, w: Any) -> None:
    """Takes back the last stone played."""
    gk_take(tab, w, 1)


def gk_put(tab: Any, w: Any, here: Any, full: Any) -> None:
    """:func:`gk_play`; with ``full`` 0 only the stones, patterns, classes and counts follow
    (what a win by fours reads), not the values, sums, hash and near counts: two thirds of the
    nodes are in those searches. A stone put so is taken back by ``gk_take(..., 0)``, which
    leaves those parts as they were."""
    count = tab[T_COUNT]
    player = w[W_TO_MOVE]
    classes = w[W_CLASSES]
    values = w[W_VALUES]
    # The cell leaves the sums and counts of both players.
    for side in range(2):
        at = side * count + here
        if full:
            w[W_TOTAL + side] -= w[values + at]
        w[W_COUNTS + 8 * side + w[classes + at]] -= 1
    gk_update(tab, w, here, player, 1, full)
    w[w[W_STONE] + here] = player + 1
    w[w[W_PLAYED] + w[W_STONES]] = here
    w[W_STONES] += 1
    if full:
        w[W_HASH] ^= tab[tab[T_ZOBRIST] + player * count + here]
        gk_near(tab, w, here, 1)
    w[W_TO_MOVE] = 1 - player


def gk_take(tab: Any, w: Any, full: Any) -> None:
    """Takes back the last stone, put by ``gk_put(..., full)``."""
    count = tab[T_COUNT]
    player = 1 - w[W_TO_MOVE]
    w[W_STONES] -= 1
    here = w[w[W_PLAYED] + w[W_STONES]]
    w[w[W_STONE] + here] = 0
    gk_update(tab, w, here, player, -1, full)
    classes = w[W_CLASSES]
    values = w[W_VALUES]
    for side in range(2):
        at = side * count + here
        if full:
            w[W_TOTAL + side] += w[values + at]
        w[W_COUNTS + 8 * side + w[classes + at]] += 1
    if full:
        w[W_HASH] ^= tab[tab[T_ZOBRIST] + player * count + here]
        gk_near(tab, w, here, -1)
    w[W_TO_MOVE] = player


def gk_near(tab: Any, w: Any, here: Any, sign: Any) -> None:
    near = tab[T_NEAR] + here * NEAR_ENTRIES
    counts = w[W_NEAR]
    for j in range(tab[tab[T_NEAR_N] + here]):
        w[counts + tab[near + j]] += sign


def gk_update(tab: Any, w: Any, here: Any, player: Any, sign: Any, full: Any) -> None:
    """Adds (``sign`` 1) or removes (-1) ``player``'s stone on ``here`` in every line key
    through it, and re-derives the patterns of the empty cells on those lines; the sums and
    counts follow where a pattern changed (most farther cells keep theirs)."""
    count = tab[T_COUNT]
    line = tab[T_LINE]
    cell_class = tab[T_CLASS]
    cell_value = tab[T_VALUE]
    entries = tab[T_LINES] + 4 * LINE_ENTRIES * here
    n = tab[tab[T_LINES_N] + here]
    stone = w[W_STONE]
    for s in range(2):
        # For its owner the stone is an own neighbour (digit 1), for the other a blocked one.
        side = player if s == 0 else 1 - player
        step = sign if s == 0 else 2 * sign
        keys = w[W_KEYS] + 4 * count * side
        packed = w[W_PACKED] + count * side
        classes = w[W_CLASSES] + count * side
        values = w[W_VALUES] + count * side
        counts = W_COUNTS + 8 * side
        total = 0
        for j in range(n):
            e = entries + 4 * j
            slot = keys + tab[e]
            there = tab[e + 1]
            shift = tab[e + 2]
            key = w[slot] + step * tab[e + 3]
            w[slot] = key
            if w[stone + there] != 0:
                # A stone's cell keeps the patterns it had when it was played: every stone
                # played after it is taken back before it is, so they are right again then.
                continue
            old = w[packed + there]
            new = old ^ ((((old >> shift) & 15) ^ tab[line + key]) << shift)
            if new == old:
                continue
            w[packed + there] = new
            cls = tab[cell_class + new]
            was = w[classes + there]
            if cls != was:
                w[counts + was] -= 1
                w[counts + cls] += 1
            w[classes + there] = cls
            if full:
                value = tab[cell_value + new]
                total += value - w[values + there]
                w[values + there] = value
        w[W_TOTAL + side] += total


def gk_reset(tab: Any, w: Any) -> None:
    """Derives classes, values, sums and counts from the packed patterns of an empty board."""
    count = tab[T_COUNT]
    for i in range(16):
        w[W_COUNTS + i] = 0
    for side in range(2):
        w[W_TOTAL + side] = 0
        for j in range(tab[T_CELLS_N]):
            here = tab[tab[T_CELLS] + j]
            at = side * count + here
            packed = w[w[W_PACKED] + at]
            cls = tab[tab[T_CLASS] + packed]
            value = tab[tab[T_VALUE] + packed]
            w[w[W_CLASSES] + at] = cls
            w[w[W_VALUES] + at] = value
            w[W_TOTAL + side] += value
            w[W_COUNTS + 8 * side + cls] += 1


def gk_fours(w: Any, player: Any) -> Any:
    """Empty cells where ``player`` makes a four or better."""
    at = W_COUNTS + 8 * player
    return w[at + FOUR] + w[at + FOUR_THREE] + w[at + FLEX4] + w[at + WIN]


def gk_evaluate(tab: Any, w: Any) -> Any:
    """The position's value for the side to move: its potential, weighted up because it plays
    first, minus the opponent's; a four-three of its own, when he has no four to gain the tempo
    back, as good as won (short of a proof); plus what the threats of both sides are worth with
    this side to move (``T_THREAT``, by :func:`gk_threats`)."""
    player = w[W_TO_MOVE]
    other = 1 - player
    score = w[W_TOTAL + player] * TEMPO // 8 - w[W_TOTAL + other]
    if gk_fours(w, other) == 0 and w[W_COUNTS + 8 * player + FOUR_THREE] > 0:
        score += FOUR_THREE_BONUS
    return score + tab[tab[T_THREAT] + gk_threats(w)]


def gk_threats(w: Any) -> Any:
    """The threat mask of the position (see :data:`core.ai.patterns.THREAT_CLASSES`)."""
    player = w[W_TO_MOVE]
    other = 1 - player
    n = len(THREAT_CLASSES)
    mask = 0
    for b in range(n):
        cls = THREAT_CLASSES[b]
        if w[W_COUNTS + 8 * player + cls] > 0:
            mask |= 1 << b
        if w[W_COUNTS + 8 * other + cls] > 0:
            mask |= 1 << (b + n)
    return mask


def gk_rank(tab: Any, w: Any, here: Any) -> Any:
    """How good a move ``here`` looks for the side to move (higher first; never 0)."""
    count = tab[T_COUNT]
    me = w[W_TO_MOVE]
    mine = me * count + here
    theirs = (1 - me) * count + here
    classes = w[W_CLASSES]
    values = w[W_VALUES]
    rank = max(GK_ATTACK[w[classes + mine]], GK_DEFENCE[w[classes + theirs]])
    score = rank * RANK_SCALE + w[values + mine] + w[values + theirs]
    return score * CELL_SCALE + here + 1


def gk_keep(w: Any, at: Any, n: Any, width: Any, rank: Any, here: Any) -> Any:
    """Inserts ``here`` of ``rank`` into the ``n`` moves kept at ``at`` (best first, ranks at
    ``at + MOVE_SLOTS``), at most ``width``; the new count."""
    ranks = at + MOVE_SLOTS
    if n == width:
        if rank <= w[ranks + n - 1]:
            return n
        n -= 1
    i = n
    while i > 0 and w[ranks + i - 1] < rank:
        w[at + i] = w[at + i - 1]
        w[ranks + i] = w[ranks + i - 1]
        i -= 1
    w[at + i] = here
    w[ranks + i] = rank
    return n + 1


def gk_moves(tab: Any, w: Any, at: Any, width: Any) -> Any:
    """Writes the moves worth searching for the side to move at ``at``, best first; their count,
    negative when they are forced (the blocks of a five, searched even at the horizon). None
    when the position is lost at once.

    When the opponent threatens a flex four (an open three, a four-three in the making), only
    the cells that stop it or make a four of ours are searched: any other move loses to it."""
    count = tab[T_COUNT]
    me = w[W_TO_MOVE]
    other = 1 - me
    classes = w[W_CLASSES]
    stone = w[W_STONE]
    near = w[W_NEAR]
    cells = tab[T_CELLS]
    n = 0
    if w[W_COUNTS + 8 * other + WIN] > 0:
        for j in range(tab[T_CELLS_N]):
            here = tab[cells + j]
            if w[stone + here] == 0 and w[classes + other * count + here] == WIN:
                n = gk_keep(w, at, n, MOVE_SLOTS, gk_rank(tab, w, here), here)
        return -n
    if w[W_COUNTS + 8 * other + FLEX4] > 0:
        for j in range(tab[T_CELLS_N]):
            here = tab[cells + j]
            if w[stone + here] == 0 and (
                w[classes + other * count + here] >= FOUR or w[classes + me * count + here] >= FOUR
            ):
                n = gk_keep(w, at, n, 2 * width, gk_rank(tab, w, here), here)
        return n
    for j in range(tab[T_CELLS_N]):
        here = tab[cells + j]
        if w[stone + here] == 0 and w[near + here] > 0:
            n = gk_keep(w, at, n, width, gk_rank(tab, w, here), here)
    return n


def gk_tick(w: Any, deadline: Any) -> Any:
    """Counts a node; whether the deadline (``W_ABORT`` 1) or the node limit (2) has passed:
    then every search returns."""
    w[W_NODES] += 1
    if w[W_NODES] % GK_CLOCK_EVERY == 0 and gk_now() > deadline:
        w[W_ABORT] = 1
    elif w[W_NODES] >= w[W_NODE_LIMIT]:
        w[W_ABORT] = 2
    return w[W_ABORT]


# The functions, callees first (compiled in this order by core.ai._solver_jit).
GOMOKU_FUNCTIONS = (
    "gk_near",
    "gk_update",
    "gk_put",
    "gk_take",
    "gk_play",
    "gk_undo",
    "gk_reset",
    "gk_fours",
    "gk_threats",
    "gk_evaluate",
    "gk_rank",
    "gk_keep",
    "gk_moves",
    "gk_tick",
)

"""The pattern board and its alpha-beta (HARD's main search for five in a row), as a kernel.

The single source of the algorithm of :mod:`core.ai.pattern_board` (the incremental board) and
:mod:`core.ai.pattern_search` (the search), written in the subset numba compiles: integers and
flat arrays, no objects. :mod:`core.ai._solver_jit` compiles it with the solver's kernel; without
numba, or with ``CHATBOTS_JIT=0``, the same functions run as plain Python on lists.

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

from core.ai.patterns import FLEX4, FOUR, FOUR_THREE, THREE, WIN

gk_now = time.perf_counter
# What the compiled copy rebinds (see _solver_kernel.COMPILED_CONSTANTS: numba bakes globals
# into its cache, renewed only when this file changes).
COMPILED_CONSTANTS = {"GK_CLOCK_EVERY": 1024}
GK_CLOCK_EVERY = 64  # nodes between two readings of the clock (compiled nodes are far faster)

# The side to move's potential counts this many eighths: its threats are a move ahead.
TEMPO = 12
# A four-three of the side to move that the opponent cannot answer with a four: above the
# potential of any ordinary position, below a proven win.
FOUR_THREE_BONUS = 20_000
WIN_SCORE = 1 << 40  # above any evaluation
# Candidate moves searched below the root (the root searches every move it is given).
INNER_WIDTH = 10
ROOT_WIDTH = 16
MAX_PLY = 120
# Fours read by the search for a win by fours at the horizon of the alpha-beta.
LEAF_VCF_DEPTH = 8  # forced replies cost no depth: a ply limit stops a chain of them
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
T_HEADER = 11
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
W_VCF_STACK = 33  # per level of gk_vcf: the next cell to try, the forced cell, the four played
W_HEADER = 34
VCF_LEVELS = 64
MOVE_SLOTS = 2 * ROOT_WIDTH + 2


def gk_play(tab: Any, w: Any, here: Any) -> None:
    """Puts a stone of the side to move on the empty cell ``here``; the other side moves."""
    count = tab[T_COUNT]
    player = w[W_TO_MOVE]
    classes = w[W_CLASSES]
    values = w[W_VALUES]
    # The cell leaves the sums and counts of both players.
    for side in range(2):
        at = side * count + here
        w[W_TOTAL + side] -= w[values + at]
        w[W_COUNTS + 8 * side + w[classes + at]] -= 1
    gk_update(tab, w, here, player, 1)
    w[w[W_STONE] + here] = player + 1
    w[w[W_PLAYED] + w[W_STONES]] = here
    w[W_STONES] += 1
    w[W_HASH] ^= tab[tab[T_ZOBRIST] + player * count + here]
    gk_near(tab, w, here, 1)
    w[W_TO_MOVE] = 1 - player


def gk_undo(tab: Any, w: Any) -> None:
    """Takes back the last stone played."""
    count = tab[T_COUNT]
    player = 1 - w[W_TO_MOVE]
    w[W_STONES] -= 1
    here = w[w[W_PLAYED] + w[W_STONES]]
    w[w[W_STONE] + here] = 0
    w[W_HASH] ^= tab[tab[T_ZOBRIST] + player * count + here]
    gk_update(tab, w, here, player, -1)
    classes = w[W_CLASSES]
    values = w[W_VALUES]
    for side in range(2):
        at = side * count + here
        w[W_TOTAL + side] += w[values + at]
        w[W_COUNTS + 8 * side + w[classes + at]] += 1
    gk_near(tab, w, here, -1)
    w[W_TO_MOVE] = player


def gk_near(tab: Any, w: Any, here: Any, sign: Any) -> None:
    near = tab[T_NEAR] + here * NEAR_ENTRIES
    counts = w[W_NEAR]
    for j in range(tab[tab[T_NEAR_N] + here]):
        w[counts + tab[near + j]] += sign


def gk_update(tab: Any, w: Any, here: Any, player: Any, sign: Any) -> None:
    """Adds (``sign`` 1) or removes (-1) ``player``'s stone on ``here`` in every line key
    through it, and re-derives the patterns of the cells on those lines; the sums and counts
    follow for the empty ones whose pattern changed (most farther cells keep theirs)."""
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
            old = w[packed + there]
            new = old ^ ((((old >> shift) & 15) ^ tab[line + key]) << shift)
            if new == old:
                continue
            w[packed + there] = new
            cls = tab[cell_class + new]
            value = tab[cell_value + new]
            if w[stone + there] == 0:
                total += value - w[values + there]
                was = w[classes + there]
                if cls != was:
                    w[counts + was] -= 1
                    w[counts + cls] += 1
            w[classes + there] = cls
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
    back, as good as won (short of a proof)."""
    player = w[W_TO_MOVE]
    other = 1 - player
    score = w[W_TOTAL + player] * TEMPO // 8 - w[W_TOTAL + other]
    if gk_fours(w, other) == 0 and w[W_COUNTS + 8 * player + FOUR_THREE] > 0:
        score += FOUR_THREE_BONUS
    return score


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


def gk_completion(tab: Any, w: Any, here: Any, player: Any) -> Any:
    """An empty cell on the lines through ``here`` where ``player`` completes a line (the one
    a four just played on ``here`` threatens), or -1."""
    count = tab[T_COUNT]
    entries = tab[T_LINES] + 4 * LINE_ENTRIES * here
    classes = w[W_CLASSES] + player * count
    stone = w[W_STONE]
    for j in range(tab[tab[T_LINES_N] + here]):
        there = tab[entries + 4 * j + 1]
        if w[stone + there] == 0 and w[classes + there] == WIN:
            return there
    return -1


def gk_vcf_enter(tab: Any, w: Any, level: Any, depth: Any, ply: Any) -> Any:
    """A node of :func:`gk_vcf` (the attacker to move): 1 won, 0 lost for the attacker (no four
    left to try), 2 to expand (its state set up on the stack at ``level``)."""
    count = tab[T_COUNT]
    me = w[W_TO_MOVE]
    other = 1 - me
    mine = W_COUNTS + 8 * me
    classes = w[W_CLASSES] + me * count
    stone = w[W_STONE]
    if w[mine + WIN] > 0:
        return 1
    forced = -1
    blocks = w[W_COUNTS + 8 * other + WIN]
    if blocks >= 2:
        return 0
    if blocks == 1:
        for j in range(tab[T_CELLS_N]):
            here = tab[tab[T_CELLS] + j]
            if w[stone + here] == 0 and w[w[W_CLASSES] + other * count + here] == WIN:
                forced = here
        if w[classes + forced] < FOUR:
            return 0
    elif w[mine + FLEX4] > 0 and gk_fours(w, other) == 0:
        if ply == 0:
            for j in range(tab[T_CELLS_N]):
                here = tab[tab[T_CELLS] + j]
                if w[stone + here] == 0 and w[classes + here] == FLEX4:
                    w[W_VCF] = here
        return 1
    if depth <= 0 or ply >= MAX_PLY:
        return 0
    at = w[W_VCF_STACK] + 3 * level
    w[at] = 0  # the next cell to try
    w[at + 1] = forced
    return 2


def gk_vcf(tab: Any, w: Any, depth: Any, ply: Any, deadline: Any) -> Any:
    """Whether the side to move wins by continuous fours (each answered by its one block)
    within ``depth`` of them; at ``ply`` 0 the first four of the win is left in ``W_VCF``.

    A flex four (or a double four) wins when the opponent has no four to reply with; a five
    of the opponent must be blocked first, which goes on only when the block is a four.
    Written as a loop over an explicit stack: numba's cache mishandles a recursive function
    calling another one."""
    found = gk_vcf_enter(tab, w, 0, min(depth, VCF_LEVELS - 1), ply)
    if found != 2:
        return found
    count = tab[T_COUNT]
    stack = w[W_VCF_STACK]
    stone = w[W_STONE]
    cells = tab[T_CELLS]
    n_cells = tab[T_CELLS_N]
    level = 0
    while True:
        if gk_tick(w, deadline):
            found = 0
            break
        at = stack + 3 * level
        me = w[W_TO_MOVE]
        classes = w[W_CLASSES] + me * count
        forced = w[at + 1]
        here = -1
        j = w[at]
        while j < n_cells:
            cell = tab[cells + j]
            j += 1
            if (
                w[stone + cell] == 0
                and w[classes + cell] >= FOUR
                and (forced < 0 or cell == forced)
            ):
                here = cell
                break
        w[at] = j
        if here < 0:
            if level == 0:
                return 0
            level -= 1
            gk_undo(tab, w)
            gk_undo(tab, w)
            continue
        gk_play(tab, w, here)
        block = gk_completion(tab, w, here, me)
        if block < 0 or w[W_COUNTS + 8 * (1 - me) + WIN] > 0:
            gk_undo(tab, w)
            continue
        w[at + 2] = here
        gk_play(tab, w, block)
        found = gk_vcf_enter(tab, w, level + 1, depth - level - 1, ply + 2 * level + 2)
        if found == 1:
            level += 1
            break
        if found == 0:
            gk_undo(tab, w)
            gk_undo(tab, w)
            continue
        level += 1
    if found == 1 and ply == 0:
        w[W_VCF] = w[stack + 2]
    for _ in range(2 * level):
        gk_undo(tab, w)
    return found


def gk_vct(tab: Any, w: Any, tt: Any, attacker: Any, depth: Any, ply: Any, deadline: Any) -> Any:
    """Whether ``attacker`` wins by fours and threes within ``depth`` of his moves, from here
    (either side to move); at ``ply`` 0 his first move is left in ``W_VCF``.

    At his turn: a five wins, a flex four wins when the other has no four, a win by fours is
    looked for, else each of his best ``VCT_WIDTH`` moves that make a three or more. At the
    defender's: a four is blocked, a three (a flex four in the making) is answered by every cell
    that spoils it or makes a four of his, and each answer must lose; a move that threatens
    nothing lets him go. Results are kept in the transposition table (flag ``GK_VCT``)."""
    if gk_tick(w, deadline):
        return 0
    count = tab[T_COUNT]
    me = w[W_TO_MOVE]
    other = 1 - me
    mine = W_COUNTS + 8 * me
    theirs = W_COUNTS + 8 * other
    if w[mine + WIN] > 0:
        return 1 if me == attacker else 0
    blocks = w[theirs + WIN]
    if blocks >= 2:
        return 0 if me == attacker else 1
    if ply >= MAX_PLY - 2:
        return 0
    # The hash leaves out the side to move, which a question "as if he were to move" changes.
    key = w[W_HASH] ^ (VCT_SALT + 2 * attacker + me)
    entry = TT_WORDS * (key & (len(tt) // TT_WORDS - 1))
    if ply > 0 and tt[entry] == key:
        info = tt[entry + 2]
        if (info >> 8) & 3 == GK_VCT:
            if tt[entry + 1] == 1 and (info & 255) <= depth:
                return 1
            if tt[entry + 1] == 0 and (info & 255) >= depth:
                return 0
    at = w[W_MOVES] + 2 * MOVE_SLOTS * ply
    stone = w[W_STONE]
    classes = w[W_CLASSES]
    found = 0
    if me == attacker:
        if blocks == 1:
            # his four first: the block, then his reply to whatever we still threaten
            gk_moves(tab, w, at, 1)
            gk_play(tab, w, w[at])
            found = gk_vct(tab, w, tt, attacker, depth, ply + 1, deadline)
            gk_undo(tab, w)
            if found and ply == 0:
                w[W_VCF] = w[at]
        elif w[mine + FLEX4] > 0 and gk_fours(w, other) == 0:
            found = 1
            if ply == 0:
                for j in range(tab[T_CELLS_N]):
                    here = tab[tab[T_CELLS] + j]
                    if w[stone + here] == 0 and w[classes + me * count + here] == FLEX4:
                        w[W_VCF] = here
        elif gk_vcf(tab, w, VCT_FOURS, ply, deadline):
            found = 1
        elif depth > 0:
            n = 0
            for j in range(tab[T_CELLS_N]):
                here = tab[tab[T_CELLS] + j]
                if w[stone + here] == 0 and w[classes + me * count + here] >= THREE:
                    n = gk_keep(w, at, n, VCT_WIDTH, gk_rank(tab, w, here), here)
            for i in range(n):
                here = w[at + i]
                gk_play(tab, w, here)
                won = gk_vct(tab, w, tt, attacker, depth - 1, ply + 1, deadline)
                gk_undo(tab, w)
                if w[W_ABORT]:
                    return 0
                if won:
                    if ply == 0:
                        w[W_VCF] = here
                    found = 1
                    break
    else:
        n = 0
        if blocks == 1 or w[theirs + FLEX4] > 0:
            n = gk_moves(tab, w, at, MOVE_SLOTS // 2)
            n = -n if n < 0 else n
        found = 1 if n > 0 else 0
        for i in range(n):
            gk_play(tab, w, w[at + i])
            won = gk_vct(tab, w, tt, attacker, depth, ply + 1, deadline)
            gk_undo(tab, w)
            if w[W_ABORT]:
                return 0
            if not won:
                found = 0
                break
    if w[W_ABORT]:
        return 0
    tt[entry] = key
    tt[entry + 1] = found
    tt[entry + 2] = min(depth, 255) | GK_VCT << 8
    return found


def gk_negamax(
    tab: Any, w: Any, tt: Any, depth: Any, alpha: Any, beta: Any, ply: Any, deadline: Any
) -> Any:
    """The value of the position for the side to move, searched ``depth`` plies (and a four's
    forced block beyond) within (``alpha``, ``beta``); 0 once aborted."""
    if gk_tick(w, deadline):
        return 0
    me = w[W_TO_MOVE]
    other = 1 - me
    mine = W_COUNTS + 8 * me
    theirs = W_COUNTS + 8 * other
    if w[mine + WIN] > 0:
        return WIN_SCORE - ply
    blocks = w[theirs + WIN]
    if blocks >= 2:
        return -(WIN_SCORE - ply - 1)
    if blocks == 0 and w[mine + FLEX4] > 0 and gk_fours(w, other) == 0:
        return WIN_SCORE - ply - 2
    if w[W_STONES] == tab[T_CELLS_N]:
        return 0
    slots = len(tt) // TT_WORDS
    entry = TT_WORDS * (w[W_HASH] & (slots - 1))
    tt_move = -1
    if tt[entry] == w[W_HASH]:
        info = tt[entry + 2]
        tt_move = (info >> 10) - 1
        value = tt[entry + 1]
        flag = (info >> 8) & 3
        if (
            (info & 255) >= depth
            and abs(value) < WIN_SCORE // 2
            and (
                flag == GK_EXACT
                or (flag == GK_LOWER and value >= beta)
                or (flag == GK_UPPER and value <= alpha)
            )
        ):
            return value
    if (depth <= 0 and blocks == 0) or ply >= MAX_PLY:
        # A win by fours is read out at the horizon: the evaluation does not see it.
        if (
            blocks == 0
            and w[mine + FOUR] + w[mine + FOUR_THREE] > 0
            and gk_vcf(tab, w, LEAF_VCF_DEPTH, ply, deadline)
        ):
            return WIN_SCORE - ply - 2 * LEAF_VCF_DEPTH
        return gk_evaluate(tab, w)
    at = w[W_MOVES] + 2 * MOVE_SLOTS * ply
    n = gk_moves(tab, w, at, INNER_WIDTH)
    next_depth = depth - 1
    if n < 0:
        n = -n
        if depth <= 0:
            next_depth = 0
    if n == 0:
        return gk_evaluate(tab, w)
    for i in range(n):
        if w[at + i] == tt_move:
            for j in range(i, 0, -1):
                w[at + j] = w[at + j - 1]
            w[at] = tt_move
            break
    original_alpha = alpha
    best = -WIN_SCORE
    best_move = w[at]
    for i in range(n):
        here = w[at + i]
        gk_play(tab, w, here)
        value = -gk_negamax(tab, w, tt, next_depth, -beta, -alpha, ply + 1, deadline)
        gk_undo(tab, w)
        if w[W_ABORT]:
            return 0
        if value > best:
            best = value
            best_move = here
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    break
    flag = GK_EXACT
    if best <= original_alpha:
        flag = GK_UPPER
    elif best >= beta:
        flag = GK_LOWER
    tt[entry] = w[W_HASH]
    tt[entry + 1] = best
    tt[entry + 2] = min(depth, 255) | flag << 8 | (best_move + 1) << 10
    return best


# The functions, callees first (compiled in this order by core.ai._solver_jit).
GOMOKU_FUNCTIONS = (
    "gk_near",
    "gk_update",
    "gk_play",
    "gk_undo",
    "gk_reset",
    "gk_fours",
    "gk_evaluate",
    "gk_rank",
    "gk_keep",
    "gk_moves",
    "gk_tick",
    "gk_completion",
    "gk_vcf_enter",
    "gk_vcf",
    "gk_vct",
    "gk_negamax",
)

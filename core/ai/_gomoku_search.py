"""The searches of the five-in-a-row kernel (:mod:`core.ai._gomoku_kernel`, whose board they
play on): the wins by fours (``gk_vcf``) and by fours and threes (``gk_vct``), and the alpha-beta
(``gk_negamax``). The same subset of Python, compiled in the same namespace."""

from __future__ import annotations

from typing import Any

from core.ai._gomoku_kernel import (
    FUTILITY_DEPTH,
    FUTILITY_MARGIN,
    GK_EXACT,
    GK_LOWER,
    GK_UPPER,
    GK_VCT,
    INNER_WIDTH,
    LEAF_VCF_DEPTH,
    LINE_ENTRIES,
    MAX_PLY,
    MOVE_SLOTS,
    T_CELLS,
    T_CELLS_N,
    T_COUNT,
    T_LINES,
    T_LINES_N,
    TT_WORDS,
    VCF_FRAME,
    VCF_LEVELS,
    VCT_FOURS,
    VCT_SALT,
    VCT_WIDTH,
    W_ABORT,
    W_CLASSES,
    W_COUNTS,
    W_HASH,
    W_MOVES,
    W_NEAR,
    W_PLAYED,
    W_STONE,
    W_STONES,
    W_TO_MOVE,
    W_VCF,
    W_VCF_STACK,
    WIN_SCORE,
    gk_evaluate,
    gk_fours,
    gk_keep,
    gk_moves,
    gk_play,
    gk_put,
    gk_rank,
    gk_take,
    gk_tick,
    gk_undo,
)
from core.ai.patterns import FLEX4, FOUR, FOUR_THREE, THREE, WIN


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
        # Inside the search the five was made by the block just played: look there first.
        if w[W_STONES] > 0:
            forced = gk_completion(tab, w, w[w[W_PLAYED] + w[W_STONES] - 1], other)
        if forced < 0:
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
    at = w[W_VCF_STACK] + VCF_FRAME * level
    w[at] = 0  # the next cell to try
    w[at + 1] = forced
    w[at + 3] = gk_fours(w, me)  # the fours not tried yet: the scan stops after the last
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
        at = stack + VCF_FRAME * level
        me = w[W_TO_MOVE]
        classes = w[W_CLASSES] + me * count
        here = -1
        if w[at + 1] >= 0:
            # the block of the opponent's five, which is a four of ours: the only move
            if w[at] == 0:
                here = w[at + 1]
            w[at] = 1
        else:
            j = w[at]
            left = w[at + 3]
            while left > 0 and j < n_cells:
                cell = tab[cells + j]
                j += 1
                if w[stone + cell] == 0 and w[classes + cell] >= FOUR:
                    here = cell
                    left -= 1
                    break
            w[at] = j
            w[at + 3] = left
        if here < 0:
            if level == 0:
                return 0
            level -= 1
            gk_take(tab, w, 0)
            gk_take(tab, w, 0)
            continue
        gk_put(tab, w, here, 0)
        block = gk_completion(tab, w, here, me)
        if block < 0 or w[W_COUNTS + 8 * (1 - me) + WIN] > 0:
            gk_take(tab, w, 0)
            continue
        w[at + 2] = here
        gk_put(tab, w, block, 0)
        found = gk_vcf_enter(tab, w, level + 1, depth - level - 1, ply + 2 * level + 2)
        if found == 1:
            level += 1
            break
        if found == 0:
            gk_take(tab, w, 0)
            gk_take(tab, w, 0)
            continue
        level += 1
    if found == 1 and ply == 0:
        w[W_VCF] = w[stack + 2]
    for _ in range(2 * level):
        gk_take(tab, w, 0)
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


def gk_horizon(tab: Any, w: Any, tt: Any, entry: Any, ply: Any, deadline: Any) -> Any:
    """The value of a leaf of :func:`gk_negamax` (its table entry at ``entry``): its evaluation,
    unless the side to move wins by fours (the evaluation does not see it). A win or a value
    read with a search is kept in the table: leaves transpose often."""
    me = w[W_TO_MOVE]
    mine = W_COUNTS + 8 * me
    if w[W_COUNTS + 8 * (1 - me) + WIN] > 0 or w[mine + FOUR] + w[mine + FOUR_THREE] == 0:
        return gk_evaluate(tab, w)
    if tt[entry] == w[W_HASH] and tt[entry + 1] == WIN_SCORE:
        return WIN_SCORE - ply - 2 * LEAF_VCF_DEPTH
    value = WIN_SCORE
    if not gk_vcf(tab, w, LEAF_VCF_DEPTH, ply, deadline):
        if w[W_ABORT]:
            return 0
        value = gk_evaluate(tab, w)
    # A deeper entry, of this position or another, is worth more than a leaf's.
    if tt[entry + 2] & 255 == 0 and tt[entry] != w[W_HASH]:
        tt[entry] = w[W_HASH]
        tt[entry + 1] = value
        tt[entry + 2] = GK_EXACT << 8
    if value == WIN_SCORE:
        return WIN_SCORE - ply - 2 * LEAF_VCF_DEPTH
    return value


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
        return gk_horizon(tab, w, tt, entry, ply, deadline)
    # The root's replies (ply 1) decide the move, so they are always read.
    if (
        depth <= FUTILITY_DEPTH
        and blocks == 0
        and ply > 1
        and w[theirs + FLEX4] == 0
        and w[theirs + FOUR_THREE] == 0
        and beta < WIN_SCORE // 2
    ):
        static = gk_evaluate(tab, w)
        if static - FUTILITY_MARGIN * depth >= beta:
            return static
    at = w[W_MOVES] + 2 * MOVE_SLOTS * ply
    n = gk_moves(tab, w, at, INNER_WIDTH)
    # Whether the beam may have left out moves (it holds every move that can stop a five or an
    # open three, but only the best few of the others).
    truncated = n == INNER_WIDTH and w[theirs + FLEX4] == 0
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
    stone = w[W_STONE]
    near = w[W_NEAR]
    cells = tab[T_CELLS]
    i = 0
    j = 0  # past the beam: the next cell to try
    while True:
        if i < n:
            here = w[at + i]
            i += 1
        elif truncated and best <= -(WIN_SCORE // 2):
            # Every move of the beam loses. The defence may be a move the beam left out (a cell
            # that breaks a win by fours ranks low): the position is lost only once every move
            # near the stones has been tried, or a win claimed above is one the opponent escapes.
            here = -1
            while here < 0 and j < tab[T_CELLS_N]:
                cell = tab[cells + j]
                j += 1
                if w[stone + cell] == 0 and w[near + cell] > 0:
                    here = cell
                    for k in range(n):
                        if w[at + k] == cell:
                            here = -1  # read in the beam
                            break
            if here < 0:
                break
        else:
            break
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
SEARCH_FUNCTIONS = ("gk_completion", "gk_vcf_enter", "gk_vcf", "gk_vct", "gk_horizon", "gk_negamax")

"""The search kernel: Pascal Pons' Connect Four solver, generalised to any k-in-a-row board.

This module is the single source of truth of the algorithm, with two companions compiled in the
same namespace: :mod:`core.ai._book_kernel` (the opening book) and
:mod:`core.ai._heuristic_kernel` (the depth-limited search for when the exact one cannot
finish). It is plain Python written in the subset numba compiles: integers, flat arrays, no
objects. :mod:`core.ai._solver_jit` builds a compiled copy of these very functions (same code
objects, globals rebound to compiled dispatchers); without numba, or with ``CHATBOTS_JIT=0``,
the functions run as they are, on Python ints and lists, which also covers boards too big for
64 bits.

A position is ``cur`` (stones of the side to move), ``mask`` (every stone) and ``nb`` (stones
played), in the bitboard layout of :mod:`core.games.bitboard`. Scores follow docs/design.md,
"Scores".

Arrays passed around (int64 numpy arrays when compiled, lists when plain):

- ``book``: the opening book's bytes, read-only (a uint8 array when compiled, the mapped file
  when plain; empty where no book applies).
- ``work``: everything but the table, in one array because every array argument costs on every
  call of the recursion: the board parameters (``G_*`` indexes), counters and results shared
  with the caller (``S_*``), the moves in order (``G_ORDER_AT`` onwards, most central first: a
  column mask with gravity, a single cell without), and the move sorter of every ply, so that
  nothing is allocated per node.
- ``tt_keys`` / ``tt_vals``: the transposition table. A value packs a generation (entries of
  older generations are empty, so the table is never cleared between searches), a bound flag
  and the score.
"""

from __future__ import annotations

import time
from typing import Any

from core.ai._book_kernel import BOOK_MISSING, book_probe

# Compiled integers are 64-bit: a shift by 64 or more is undefined there, so shifts that long are
# cut to 0 (the bits would be off the board anyway). Python ints need no limit.
SHIFT_LIMIT = 1 << 30
TT_OFFSET = 1 << 12  # added to a score so that it is stored as a non-negative number
TT_LOWER = 1 << 13  # flag: the stored score is a lower bound (else an upper bound)
TT_GEN_SHIFT = 14  # the generation sits above the score and the flag
CHECK_EVERY = 64  # nodes between two readings of the clock: well under a millisecond
now = time.perf_counter

# What the compiled copy rebinds (and a clock). They live here, not in the compiling module,
# because numba bakes globals into its on-disk cache, which it only renews when this file changes.
COMPILED_CONSTANTS = {
    "SHIFT_LIMIT": 64,
    # 64-bit boards have |score| <= 32; the table's 32-bit values then hold 23 generation bits
    "TT_OFFSET": 1 << 6,
    "TT_LOWER": 1 << 7,
    "TT_GEN_SHIFT": 8,
    "CHECK_EVERY": 2048,  # compiled nodes are about fifty times faster
}

# work: the board parameters
G_HEIGHT = 0  # bits per column: rows + the sentinel
G_K = 1
G_GRAVITY = 2
G_BOARD = 3  # every playable cell
G_BOTTOM = 4  # the bottom cell of every column
G_CELLS = 5
G_MOVES = 6  # how many moves in order
G_KEY_SHIFT = 7  # free boards: the key is mask << G_KEY_SHIFT | cur
G_MOVES_AT = 8  # where the sorted moves of ply 0 start (ply n: + n * G_MOVES)
G_SCORES_AT = 9  # where their scores start

G_ODD_ROWS = 10  # gravity: the cells of rows 1, 3, 5... counted from the bottom
G_BOOK_PLY = 11  # stones of the positions the opening book holds; -1 without a book

# work: what the search and its caller share (cleared before every search)
S_NODES = 12
S_NEXT_CHECK = 13  # node count at which the clock is read next
S_ABORT = 14  # set once the deadline has passed: every search returns at once
S_BEST = 15  # root: the move (a bit) proven to reach the lower bound S_LOW
S_PROVEN = 16  # 1 when S_BEST was proven by a fail-high (else it is only the first candidate)
S_LOW = 17  # root: proven bounds of the score so far
S_HIGH = 18
S_GEN = 19  # generation of the transposition table entries written by this search
S_HBEST = 20  # the best move of the last heuristic search
S_FIRST = 21  # root: a move (a bit) to try before the others, 0 for none
# work: the moves in order, then the sorters
G_ORDER_AT = 22


def shl(x: Any, s: Any) -> Any:
    if s >= SHIFT_LIMIT:
        return 0
    return x << s


def shr(x: Any, s: Any) -> Any:
    if s >= SHIFT_LIMIT:
        return 0
    return x >> s


def popcount(x: Any) -> Any:
    count = 0
    while x:
        x &= x - 1
        count += 1
    return count


def spots4(p: Any, d: Any) -> Any:
    """Cells completing four in a row of ``p`` along shift ``d`` (Pons' formula)."""
    q = (p << d) & (p << (2 * d))
    r = q & (p << (3 * d))
    r |= q & (p >> d)
    q = (p >> d) & (p >> (2 * d))
    r |= q & (p << d)
    r |= q & (p >> (3 * d))
    return r


def spots_k(p: Any, d: Any, k: Any, board: Any) -> Any:
    """Cells completing ``k`` in a row of ``p`` along shift ``d``, for any ``k``."""
    found = p & 0
    for before in range(k):
        run = board
        for i in range(1, before + 1):
            run &= shl(p, i * d)
        for i in range(1, k - before):
            run &= shr(p, i * d)
        found |= run
    return found


def winning_spots(p: Any, mask: Any, work: Any) -> Any:
    """Empty cells (playable or not) where a stone would give ``p`` a line."""
    h = work[G_HEIGHT]
    k = work[G_K]
    board = work[G_BOARD]
    if k == 4 and 3 * (h + 1) < SHIFT_LIMIT:
        # with gravity nothing lies above an empty cell, so only runs below count
        r = (p << 1) & (p << 2) & (p << 3) if work[G_GRAVITY] else spots4(p, 1)
        r |= spots4(p, h) | spots4(p, h - 1) | spots4(p, h + 1)
    else:
        r = spots_k(p, 1, k, board)
        r |= spots_k(p, h, k, board) | spots_k(p, h - 1, k, board)
        r |= spots_k(p, h + 1, k, board)
    return r & (board ^ mask)


def possible_moves(mask: Any, work: Any) -> Any:
    if work[G_GRAVITY]:
        return (mask + work[G_BOTTOM]) & work[G_BOARD]
    return work[G_BOARD] ^ mask


def non_losing_moves(cur: Any, mask: Any, work: Any) -> Any:
    """Moves after which the opponent cannot win at once (0 if every move allows it).

    Assumes the side to move cannot win at once.
    """
    possible = possible_moves(mask, work)
    opponent_wins = winning_spots(cur ^ mask, mask, work)
    forced = possible & opponent_wins
    if forced:
        if forced & (forced - 1):
            return 0  # two threats: one of them stays open
        possible = forced
    if work[G_GRAVITY]:
        # never fill the cell just below an opponent's winning spot
        possible &= ~(opponent_wins >> 1)
    return possible


def position_key(cur: Any, mask: Any, work: Any) -> Any:
    if work[G_GRAVITY]:
        # unique: columns are filled from the bottom, so mask + bottom marks the height
        return cur + mask + work[G_BOTTOM]
    return (mask << work[G_KEY_SHIFT]) | cur


def sort_moves(cur: Any, mask: Any, nb: Any, possible: Any, work: Any) -> Any:
    """Fill the sorter of ply ``nb`` with the moves of ``possible``; returns how many.

    The best move comes last: most winning spots created, then most central (moves are added
    from the edge inwards and an equal score goes after the ones already there).
    """
    moves = work[G_MOVES]
    base = work[G_MOVES_AT] + nb * moves
    scores = work[G_SCORES_AT] + nb * moves
    count = 0
    for i in range(moves - 1, -1, -1):
        move = possible & work[G_ORDER_AT + i]
        if move:
            score = popcount(winning_spots(cur | move, mask, work))
            pos = count
            while pos > 0 and work[scores + pos - 1] > score:
                work[base + pos] = work[base + pos - 1]
                work[scores + pos] = work[scores + pos - 1]
                pos -= 1
            work[base + pos] = move
            work[scores + pos] = score
            count += 1
    return count


def tick(work: Any, deadline: Any) -> Any:
    """Count a node; read the clock every CHECK_EVERY nodes. True when the search must stop."""
    work[S_NODES] += 1
    if work[S_NODES] >= work[S_NEXT_CHECK]:
        work[S_NEXT_CHECK] = work[S_NODES] + CHECK_EVERY
        if now() > deadline:
            work[S_ABORT] = 1
    return work[S_ABORT] != 0


def negamax(
    cur: Any,
    mask: Any,
    nb: Any,
    alpha: Any,
    beta: Any,
    work: Any,
    deadline: Any,
    tt_keys: Any,
    tt_vals: Any,
    book: Any,
) -> Any:
    """Score of the position within (alpha, beta), Pons' way; the side to move cannot win now.

    A result <= alpha is an upper bound, >= beta a lower bound. After an abort the result is
    meaningless (and nothing is stored).
    """
    if tick(work, deadline):
        return 0
    cells = work[G_CELLS]
    possible = non_losing_moves(cur, mask, work)
    if possible == 0:
        return -((cells - nb) // 2)
    if nb >= cells - 2:
        return 0
    low = -((cells - 2 - nb) // 2)
    if alpha < low:
        alpha = low
        if alpha >= beta:
            return alpha
    high = (cells - 1 - nb) // 2
    if beta > high:
        beta = high
        if alpha >= beta:
            return beta
    if nb == work[G_BOOK_PLY]:
        h = work[G_HEIGHT]
        value = book_probe(cur, mask, nb, h, cells // (h - 1), book)
        if value != BOOK_MISSING:
            return value
    key = position_key(cur, mask, work)
    slot = key % len(tt_keys)
    if tt_keys[slot] == key:
        packed = tt_vals[slot]
        if packed >> TT_GEN_SHIFT == work[S_GEN]:
            value = (packed & (TT_OFFSET - 1 + TT_OFFSET)) - TT_OFFSET
            if packed & TT_LOWER:
                if alpha < value:
                    alpha = value
                    if alpha >= beta:
                        return alpha
            elif beta > value:
                beta = value
                if alpha >= beta:
                    return beta
    # enhanced transposition cut-off: a child whose upper bound in the table is low enough cuts
    # here without a search (a quarter fewer nodes on 13-stone Connect Four positions: moves
    # transpose often in these games)
    rest = possible
    while rest:
        move = rest & -rest
        rest ^= move
        child_key = position_key(cur ^ mask, mask | move, work)
        child_slot = child_key % len(tt_keys)
        if tt_keys[child_slot] == child_key:
            packed = tt_vals[child_slot]
            if packed >> TT_GEN_SHIFT == work[S_GEN] and not packed & TT_LOWER:
                value = TT_OFFSET - (packed & (TT_OFFSET - 1 + TT_OFFSET))
                if value >= beta:
                    return value
    count = sort_moves(cur, mask, nb, possible, work)
    base = work[G_MOVES_AT] + nb * work[G_MOVES]
    generation = work[S_GEN] << TT_GEN_SHIFT
    for i in range(count - 1, -1, -1):
        move = work[base + i]
        child_mask = mask | move
        score = -negamax(
            cur ^ mask, child_mask, nb + 1, -beta, -alpha, work, deadline, tt_keys, tt_vals, book
        )
        if work[S_ABORT]:
            return 0
        if score >= beta:
            tt_keys[slot] = key
            tt_vals[slot] = generation | TT_LOWER | (score + TT_OFFSET)
            return score
        if score > alpha:
            alpha = score
    tt_keys[slot] = key
    tt_vals[slot] = generation | (alpha + TT_OFFSET)
    return alpha


def root_search(
    cur: Any,
    mask: Any,
    nb: Any,
    alpha: Any,
    beta: Any,
    work: Any,
    deadline: Any,
    tt_keys: Any,
    tt_vals: Any,
    book: Any,
    possible: Any,
) -> Any:
    """Like :func:`negamax` at the root, without table cut-offs, recording a fail-high move."""
    count = sort_moves(cur, mask, nb, possible, work)
    base = work[G_MOVES_AT] + nb * work[G_MOVES]
    first = work[S_FIRST]
    for i in range(count - 1):
        if work[base + i] == first:
            # the caller's favourite goes last, where the loop starts; the others keep their order
            for j in range(i, count - 1):
                work[base + j] = work[base + j + 1]
            work[base + count - 1] = first
            break
    for i in range(count - 1, -1, -1):
        move = work[base + i]
        score = -negamax(
            cur ^ mask, mask | move, nb + 1, -beta, -alpha, work, deadline, tt_keys, tt_vals, book
        )
        if work[S_ABORT]:
            return 0
        if score >= beta:
            work[S_BEST] = move
            work[S_PROVEN] = 1
            return score
        if score > alpha:
            alpha = score
    return alpha


def narrow(
    cur: Any,
    mask: Any,
    nb: Any,
    low: Any,
    high: Any,
    work: Any,
    deadline: Any,
    tt_keys: Any,
    tt_vals: Any,
    book: Any,
    possible: Any,
    direction: Any,
) -> Any:
    """Pons' iterative narrowing by null-window searches of the score known to be in [low, high].

    Returns the score if it lies strictly inside, else the bound it reached. S_LOW and S_HIGH
    follow the proven bounds, so an aborted search still tells what it found. ``direction`` 0
    bisects (fastest to the exact score); 1 climbs from ``low`` and -1 descends from ``high`` one
    step at a time, so that a search cut short has proven a move as good as it could (anytime).
    """
    while low < high:
        if direction > 0:
            med = low  # is there better than the move proven so far?
        elif direction < 0:
            med = high - 1
        else:
            med = low + (high - low) // 2
            # probe near zero first: small scores are the common ones and the quickest to prove
            if med <= 0 and -((-low) // 2) < med:
                med = -((-low) // 2)
            elif med >= 0 and high // 2 > med:
                med = high // 2
        r = root_search(
            cur, mask, nb, med, med + 1, work, deadline, tt_keys, tt_vals, book, possible
        )
        if work[S_ABORT]:
            break
        if r <= med:
            high = r
            if high < work[S_HIGH]:
                work[S_HIGH] = high
        else:
            low = r
            if low > work[S_LOW]:
                work[S_LOW] = low
    return low


def solve_root(
    cur: Any,
    mask: Any,
    nb: Any,
    weak_first: Any,
    floor: Any,
    work: Any,
    deadline: Any,
    tt_keys: Any,
    tt_vals: Any,
    book: Any,
) -> Any:
    """Exact score of a position that is not over; S_BEST gets a move that keeps it.

    With ``weak_first`` it first settles win/draw/loss, then moves the bound one step at a time
    away from the draw (game scores are mostly small), so that a search cut short by the
    deadline has proven the best move it could. ``floor`` is a score the caller knows the
    position reaches (-BOOK_MISSING when it knows none): the search starts there. With
    ``weak_first`` it then climbs from just below the floor, so that a move reaching the floor
    is proven first; without, S_BEST keeps the score only when the score is above the floor.
    """
    cells = work[G_CELLS]
    possible = possible_moves(mask, work)
    wins = winning_spots(cur, mask, work) & possible
    if wins:
        work[S_BEST] = wins & -wins
        work[S_PROVEN] = 1
        score = (cells + 1 - nb) // 2
        work[S_LOW] = score
        work[S_HIGH] = score
        return score
    safe = non_losing_moves(cur, mask, work)
    if safe == 0:
        work[S_BEST] = possible & -possible
        work[S_PROVEN] = 1
        score = -((cells - nb) // 2)
        work[S_LOW] = score
        work[S_HIGH] = score
        return score
    # any safe move reaches the lowest score, so the first one tried is a fine default
    count = sort_moves(cur, mask, nb, safe, work)
    work[S_BEST] = work[work[G_MOVES_AT] + nb * work[G_MOVES] + count - 1]
    work[S_PROVEN] = 0
    if nb >= cells - 2:
        work[S_PROVEN] = 1
        work[S_LOW] = 0
        work[S_HIGH] = 0
        return 0
    low = -((cells - 2 - nb) // 2)
    high = (cells - 1 - nb) // 2
    if nb == work[G_BOOK_PLY]:
        h = work[G_HEIGHT]
        known = book_probe(cur, mask, nb, h, cells // (h - 1), book)
        if known != BOOK_MISSING:
            # the score is known: one null-window search proves a move that reaches it
            low = known - 1
            high = known
    direction = 0
    if floor > low:
        low = min(floor, high)
        if weak_first:
            low -= 1
            direction = 1
    work[S_LOW] = low
    work[S_HIGH] = high
    if weak_first and direction == 0 and low < -1 and high > 1:
        # (clipped, though the test above makes it -1..1: compiled calls then share one type)
        r = narrow(
            cur, mask, nb, max(low, -1), min(high, 1), work, deadline, tt_keys, tt_vals, book,
            safe, 0,
        )  # fmt: skip
        if work[S_ABORT]:
            return 0
        if r == 0:
            work[S_PROVEN] = 1
            return 0
        if r > 0:
            low = r
            direction = 1
        else:
            high = r
            direction = -1
    r = narrow(cur, mask, nb, low, high, work, deadline, tt_keys, tt_vals, book, safe, direction)
    if work[S_ABORT]:
        return 0
    # the last fail-high move reached r; without one, r is the lowest score: any safe move
    work[S_PROVEN] = 1
    return r


# the functions the compiled copy compiles, callees first
KERNEL_FUNCTIONS = (
    "shl",
    "shr",
    "popcount",
    "spots4",
    "spots_k",
    "winning_spots",
    "possible_moves",
    "non_losing_moves",
    "position_key",
    "sort_moves",
    "tick",
    "negamax",
    "root_search",
    "narrow",
    "solve_root",
)

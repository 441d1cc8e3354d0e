"""Exact solver and anytime search for k-in-a-row games, Connect Four first.

The algorithm is Pascal Pons' Connect Four solver (bitboards, negamax with alpha-beta and
null-window narrowing of the score, a transposition table of lower and upper bounds, moves
ordered by the winning spots they create and then by centrality, moves that lose at once never
tried), generalised to any board, any ``k``, with or without gravity. It lives once, in
:mod:`core.ai._solver_kernel`; boards that fit 64-bit words run a numba-compiled copy when numba
is installed and ``CHATBOTS_JIT`` is not ``0``, everything else runs the same code as plain
Python. On standard Connect Four the search stops at 12 stones and reads the exact value there
from the opening book (:mod:`core.ai.book`) when it is installed, so that every position with
at most 12 stones is solved exactly, the empty board included.

Importing this module is cheap: numba is imported on :func:`warm_up` or on first use.
The search state (transposition table, buffers) is module-level and reused between calls;
calls are serialised by a lock.
"""

from __future__ import annotations

import math
import threading
import time
from dataclasses import dataclass
from typing import Any

from core.ai import _solver_jit, book, book_move
from core.ai import _solver_kernel as kernel
from core.ai._book_kernel import BOOK_MISSING
from core.ai._heuristic_kernel import WIN_BASE
from core.games.bitboard import geometry
from core.games.position import Position
from core.games.rules import Rules

__all__ = ["SearchResult", "SearchTimeout", "accelerated", "best_move", "solve", "warm_up"]

# Primes, so that key % size spreads the structured bitboard keys. The compiled table takes
# 8 bytes of key and 4 of value per entry (this size: about 100 MB), allocated on first use.
COMPILED_TABLE_SIZE = 8_388_593
PLAIN_TABLE_SIZE = 1_048_573
# Smaller compiled tables for shorter budgets (see size_table): a search visits a few million
# positions a second, so a short budget cannot fill a big table, and every AI worker holds one.
TABLE_SIZES_BY_BUDGET = ((0.25, 1_048_573), (0.5, 2_097_143), (1.0, 4_194_301))
# What the compiled table's 32-bit values hold above the score; clearing the table when the
# generations run out costs milliseconds, so it must stay rare next to microsecond solves.
MAX_GENERATION = (1 << 23) - 1

# best_move: share of the budget for a first exact attempt (most positions of a real game are
# solved within it), then for the heuristic iterative deepening; the rest goes to the exact
# search again (its table entries survive, so the first attempt is not wasted).
FIRST_EXACT_SHARE = 0.1
HEURISTIC_SHARE = 0.15


class SearchTimeout(Exception):
    """The deadline passed before the search finished."""


@dataclass(frozen=True, slots=True)
class SearchResult:
    """What :func:`best_move` found.

    Attributes:
        move: a legal move (column with gravity, cell otherwise).
        score: the exact score of the position (docs/design.md) when proven, else None.
        exact: True when ``move`` is proven optimal.
        nodes: positions searched.
        depth: plies searched ahead (the rest of the game when exact); informational.
    """

    move: int
    score: int | None
    exact: bool
    nodes: int
    depth: int


class _Table:
    """A transposition table with generations: a new search ignores older entries."""

    def __init__(self, keys: Any, values: Any) -> None:
        self.keys = keys
        self.values = values
        self.generation = 0

    def next_generation(self) -> int:
        self.generation += 1
        if self.generation > MAX_GENERATION:
            # every stored generation is about to be reused: forget them all (rare)
            if isinstance(self.values, list):
                self.values[:] = [0] * len(self.values)
            else:
                self.values.fill(0)
            self.generation = 1
        return self.generation


class _Engine:
    """The kernel functions, board parameters and buffers for one :class:`Rules`."""

    def __init__(self, rules: Rules, functions: dict[str, Any], table: _Table) -> None:
        geo = geometry(rules)
        self.rules = rules
        self.height = geo.height
        self.functions = functions
        self.table = table
        self.compiled = functions is not _PLAIN_FUNCTIONS
        self.plain_only = False  # looked up with plain=True (see _engine)
        bits = geo.height * rules.cols
        if rules.gravity:
            order = sorted(range(rules.cols), key=lambda c: (abs(2 * c - (rules.cols - 1)), c))
            order_masks = [geo.column_masks[c] for c in order]
        else:
            centre_row, centre_col = rules.rows - 1, rules.cols - 1
            cells = sorted(
                range(rules.cells),
                key=lambda i: (
                    (2 * (i // rules.cols) - centre_row) ** 2
                    + (2 * (i % rules.cols) - centre_col) ** 2,
                    i,
                ),
            )
            order_masks = [1 << geo.cell_bits[i] for i in cells]
        moves = len(order_masks)
        buffer_size = (rules.cells + 2) * moves
        work = [0] * (kernel.G_ORDER_AT + moves + 2 * buffer_size)
        work[kernel.G_HEIGHT] = geo.height
        work[kernel.G_K] = rules.k
        work[kernel.G_GRAVITY] = int(rules.gravity)
        work[kernel.G_BOARD] = geo.board_mask
        work[kernel.G_BOTTOM] = geo.bottom_mask
        work[kernel.G_CELLS] = rules.cells
        work[kernel.G_MOVES] = moves
        work[kernel.G_KEY_SHIFT] = bits
        work[kernel.G_MOVES_AT] = kernel.G_ORDER_AT + moves
        work[kernel.G_SCORES_AT] = kernel.G_ORDER_AT + moves + buffer_size
        work[kernel.G_ORDER_AT : kernel.G_ORDER_AT + moves] = order_masks
        odd_rows = sum(
            1 << (c * geo.height + r) for c in range(rules.cols) for r in range(0, rules.rows, 2)
        )
        work[kernel.G_ODD_ROWS] = odd_rows if rules.gravity else 0
        opened = book.load() if book.applies(rules) else None
        work[kernel.G_BOOK_PLY] = book.BOOK_PLY if opened else -1
        self.has_book = opened is not None
        if self.compiled:
            import numpy as np

            self.work: Any = np.array(work, dtype=np.int64)
            # an empty book of the same (read-only) type: one compiled version of the search
            self.book: Any = opened.data if opened else np.frombuffer(b"", dtype=np.uint8)
        else:
            self.work = work
            self.book = opened.raw if opened else b""

    def start(self, generation: int) -> None:
        work = self.work
        if self.compiled:
            work[kernel.S_NODES : kernel.G_ORDER_AT] = 0
        else:
            for index in range(kernel.S_NODES, kernel.G_ORDER_AT):
                work[index] = 0
        work[kernel.S_GEN] = generation

    def resume(self) -> None:
        """Clear the abort flag for a further search in the same generation."""
        self.work[kernel.S_ABORT] = 0
        self.work[kernel.S_NEXT_CHECK] = self.work[kernel.S_NODES]

    def prefer(self, move_bit: int) -> None:
        """Try ``move_bit`` first at the root of the next searches of this generation."""
        self.work[kernel.S_FIRST] = move_bit

    def solve_root(
        self, p: Position, weak_first: bool, deadline: float, floor: int = -BOOK_MISSING
    ) -> int:
        """The exact score of ``p`` (see the kernel's ``solve_root``); ``floor``: a score ``p``
        is known to reach."""
        cur, mask, nb = _bitboards(p)
        return int(
            self.functions["solve_root"](
                cur, mask, nb, int(weak_first), floor, self.work, deadline, self.table.keys,
                self.table.values, self.book,
            )
        )  # fmt: skip

    def book_score(self, p: Position) -> int | None:
        """The book's exact score of ``p``, if it has the book's number of stones and is in it."""
        if not self.has_book or len(p.moves) != book.BOOK_PLY:
            return None
        cur, mask, nb = _bitboards(p)
        value = int(
            self.functions["book_probe"](cur, mask, nb, self.height, self.rules.cols, self.book)
        )
        return None if value == BOOK_MISSING else value

    def parent_bound(self, p: Position) -> int:
        """A score ``p`` is known to reach, read in the book when it has one stone more than
        the book's positions (see ``book_parent_bound``); -BOOK_MISSING when none is known."""
        if not self.has_book or len(p.moves) != book.BOOK_PLY + 1:
            return -BOOK_MISSING
        cur, mask, nb = _bitboards(p)
        return int(
            self.functions["book_parent_bound"](
                cur, mask, nb, self.height, self.rules.cols, self.book
            )
        )

    def heuristic(self, p: Position, depth: int, deadline: float) -> int:
        cur, mask, nb = _bitboards(p)
        return int(
            self.functions["heuristic_root"](
                cur, mask, nb, depth, self.work, deadline,
            )
        )  # fmt: skip

    def safe_moves(self, p: Position) -> int:
        cur, mask, _ = _bitboards(p)
        return int(self.functions["non_losing_moves"](cur, mask, self.work))

    def aborted(self) -> bool:
        return bool(self.work[kernel.S_ABORT])

    def stat(self, index: int) -> int:
        return int(self.work[index])

    def move_of_bit(self, move_bit: int) -> int:
        bit = move_bit.bit_length() - 1
        if self.rules.gravity:
            return bit // self.height
        return geometry(self.rules).cell_of_bit(bit)


_PLAIN_FUNCTIONS: dict[str, Any] = _solver_jit.plain_functions()
_lock = threading.Lock()
_engines: dict[tuple[Rules, bool], _Engine] = {}
_last_engine: list[_Engine | None] = [None]
_tables: dict[bool, _Table] = {}
_compiled_size = [COMPILED_TABLE_SIZE]


def size_table(budget: float) -> int:
    """Size the compiled table for searches of ``budget`` seconds; the number of entries.

    Meant for a process's start (the AI workers call it before warming up); a process that
    already searched drops its table and engines and builds new ones on the next search.
    """
    entries = next(
        (size for limit, size in TABLE_SIZES_BY_BUDGET if budget <= limit), COMPILED_TABLE_SIZE
    )
    with _lock:
        if _compiled_size[0] != entries:
            _compiled_size[0] = entries
            _tables.pop(True, None)
            _engines.clear()
            _last_engine[0] = None
    return entries


def _bitboards(p: Position) -> tuple[int, int, int]:
    mask = p.stones[0] | p.stones[1]
    return p.stones[len(p.moves) % 2], mask, len(p.moves)


def _fits_words(rules: Rules) -> bool:
    bits = geometry(rules).height * rules.cols
    # a gravity key stays within the board's bits; a free key needs two boards side by side
    return bits <= 64 if rules.gravity else 2 * bits <= 63


def _table(compiled: bool) -> _Table:
    table = _tables.get(compiled)
    if table is None:
        if compiled:
            import numpy as np

            table = _Table(
                np.empty(_compiled_size[0], dtype=np.int64),
                np.empty(_compiled_size[0], dtype=np.int32),
            )
            # writing every page now keeps page faults out of the first searches' timings
            table.keys.fill(0)
            table.values.fill(0)
        else:
            table = _Table([0] * PLAIN_TABLE_SIZE, [0] * PLAIN_TABLE_SIZE)
        _tables[compiled] = table
    return table


def _engine(rules: Rules, *, plain: bool = False) -> _Engine:
    # the same rules again is the common case: skip hashing them (microseconds count here)
    last = _last_engine[0]
    if last is not None and last.rules is rules and last.plain_only == plain:
        return last
    engine = _find_engine(rules, plain)
    _last_engine[0] = engine
    return engine


def _find_engine(rules: Rules, plain: bool) -> _Engine:
    functions = None
    if not plain and _fits_words(rules):
        functions = _solver_jit.compiled()
    compiled = functions is not None
    engine = _engines.get((rules, compiled))
    if engine is None:
        engine = _Engine(rules, functions or _PLAIN_FUNCTIONS, _table(compiled))
        _engines[(rules, compiled)] = engine
    engine.plain_only = plain
    return engine


def _check_not_over(p: Position) -> None:
    if p.is_over:
        raise ValueError(f"the game is over: {p!r}")


def solve(p: Position, *, deadline: float | None = None, plain: bool = False) -> int:
    """The exact score of ``p`` for the side to move (docs/design.md convention).

    Works for any :class:`Rules`; big boards may take very long without a deadline.

    Args:
        p: a position whose game is not over.
        deadline: a :func:`time.perf_counter` value after which to give up.
        plain: run the plain-Python kernel even where the compiled one would be used (tests
            and benchmarks compare the two).

    Raises:
        ValueError: the game is over.
        SearchTimeout: the deadline passed first.
    """
    _check_not_over(p)
    limit = math.inf if deadline is None else deadline
    with _lock:
        engine = _engine(p.rules, plain=plain)
        known = engine.book_score(p)
        if known is not None:
            return known
        engine.start(engine.table.next_generation())
        score = engine.solve_root(p, False, limit)
        if engine.aborted():
            raise SearchTimeout(f"no exact score before the deadline for {p!r}")
        return score


def best_move(p: Position, deadline: float, *, plain: bool = False) -> SearchResult:
    """The best move found before ``deadline`` (a :func:`time.perf_counter` value).

    Exact when the solver finishes in time (the move keeps the exact score); otherwise the move
    that the exact search proved to reach its best bound so far, or failing that the choice of a
    depth-limited search deepened until time ran out. An immediate win is always taken, and a
    move that lets the opponent win at once is never played when another move does not. Returns
    within a few milliseconds of the deadline, even a past one.

    Raises:
        ValueError: the game is over.
    """
    _check_not_over(p)
    with _lock:
        engine = _engine(p.rules, plain=plain)
        engine.start(engine.table.next_generation())
        remaining_plies = p.rules.cells - len(p.moves)
        safe = engine.safe_moves(p)
        if safe and not safe & (safe - 1):
            # one move does not lose at once: it is optimal, whatever the exact score
            cur, mask, _ = _bitboards(p)
            wins = int(
                engine.functions["winning_spots"](cur, mask, engine.work)
                & engine.functions["possible_moves"](mask, engine.work)
            )
            if not wins:
                return SearchResult(engine.move_of_bit(safe), None, True, 0, 0)
        known = engine.book_score(p) if safe else None
        if known is not None:
            return book_move.book_root(engine, p, known, safe, deadline)
        # one stone beyond the book, the book's parents of the position give a floor
        floor = engine.parent_bound(p)
        started = time.perf_counter()
        budget = max(0.0, deadline - started)
        score = engine.solve_root(p, True, started + FIRST_EXACT_SHARE * budget, floor)
        if not engine.aborted():
            return _exact(engine, score, remaining_plies)
        heuristic_deadline = started + (FIRST_EXACT_SHARE + HEURISTIC_SHARE) * budget
        depth, heuristic_move = _deepen(engine, p, heuristic_deadline)
        engine.resume()
        if heuristic_move is not None:
            # a search cut short has then proven the heuristic's choice when it reaches the
            # bound, rather than whichever move comes first in the static order
            engine.prefer(heuristic_move)
        score = engine.solve_root(p, True, deadline, floor)
        if not engine.aborted():
            return _exact(engine, score, remaining_plies)
        if engine.stat(kernel.S_PROVEN) or heuristic_move is None:
            move = engine.move_of_bit(engine.stat(kernel.S_BEST))
        else:
            move = engine.move_of_bit(heuristic_move)
        return SearchResult(move, None, False, engine.stat(kernel.S_NODES), depth)


def _exact(engine: _Engine, score: int, plies: int) -> SearchResult:
    move = engine.move_of_bit(engine.stat(kernel.S_BEST))
    return SearchResult(move, score, True, engine.stat(kernel.S_NODES), plies)


def _deepen(engine: _Engine, p: Position, deadline: float) -> tuple[int, int | None]:
    """Iterative deepening of the heuristic search; (depth reached, its best move bit)."""
    best: int | None = None
    reached = 0
    for depth in range(1, p.rules.cells - len(p.moves) + 1):
        engine.resume()
        value = engine.heuristic(p, depth, deadline)
        if engine.aborted():
            break
        best = engine.stat(kernel.S_HBEST)
        reached = depth
        if abs(value) > WIN_BASE:
            break  # proven either way: deeper will not change the choice
    return reached, best


def warm_up() -> float:
    """Map the opening book and read its pages, and compile the accelerated paths (if numba is
    available and enabled); seconds taken."""
    started = time.perf_counter()
    opened = book.load()
    if opened is not None:
        opened.touch()
    if _solver_jit.compiled() is not None:
        from core.games.rules import CONNECT_FOUR

        for p in (
            Position.from_moves(CONNECT_FOUR, [3, 3, 3, 3, 2, 4, 2, 4, 4]),
            Position.from_moves(Rules(3, 3, 3), [4]),
        ):
            solve(p)
            best_move(p, time.perf_counter() + 0.01)
            with _lock:
                engine = _engine(p.rules)
                engine.start(engine.table.next_generation())
                engine.heuristic(p, 2, math.inf)
        # the kernel functions called from Python: a forced move, a game's analysis
        best_move(Position.from_moves(CONNECT_FOUR, [0, 6, 1, 6, 2]), math.inf)
        from core.ai import analysis  # (it imports this module)

        analysis.game_scores(Rules(4, 4, 3, gravity=True), [1, 1, 2], needs_best=lambda b, a: True)
    return time.perf_counter() - started


def accelerated() -> bool:
    """Whether boards that fit 64-bit words use the compiled kernel (imports numba if needed)."""
    return _solver_jit.compiled() is not None

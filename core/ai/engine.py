"""The search engine of the exact solver: the compiled (or plain) kernel bound to one board, its
transposition table, and the lock that serialises searches.

:mod:`core.ai.solver` (``solve``, ``best_move``), :mod:`core.ai.book_move` (a root the opening
book covers) and :mod:`core.ai.analysis` (a whole game's review) are strategies over it: each
takes :data:`lock`, gets the :class:`Engine` of its rules from :func:`engine_for`, starts a
search generation and calls the engine's searches. The search state (tables, buffers) is
module-level and reused between calls.

Importing this module is cheap: numba is imported on first use of a compiled engine.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from core.ai import _solver_jit, book
from core.ai import _solver_kernel as kernel
from core.ai._book_kernel import BOOK_MISSING
from core.ai._heuristic_kernel import WIN_BASE
from core.games.bitboard import geometry
from core.games.position import Position
from core.games.rules import Rules

__all__ = [
    "FIRST_EXACT_SHARE",
    "HEURISTIC_SHARE",
    "Bits",
    "Engine",
    "SearchResult",
    "SearchTimeout",
    "Table",
    "bitboards",
    "deepen",
    "engine_for",
    "fits_words",
    "lock",
    "played",
    "release",
    "shared_table",
    "size_table",
]

Bits = tuple[int, int, int]
"""A position as the kernel sees it (:func:`bitboards`)."""

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


class Table:
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


class Engine:
    """The kernel functions, board parameters and buffers for one :class:`Rules`."""

    def __init__(self, rules: Rules, functions: dict[str, Any], table: Table) -> None:
        geo = geometry(rules)
        self.rules = rules
        self.height = geo.height
        self.functions = functions
        self.table = table
        self.compiled = functions is not _PLAIN_FUNCTIONS
        self.plain_only = False  # looked up with plain=True (see engine_for)
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
        cur, mask, nb = bitboards(p)
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
        cur, mask, nb = bitboards(p)
        value = int(
            self.functions["book_probe"](cur, mask, nb, self.height, self.rules.cols, self.book)
        )
        return None if value == BOOK_MISSING else value

    def parent_bound(self, p: Position | Bits) -> int:
        """A score ``p`` is known to reach, read in the book when it has one stone more than
        the book's positions (see ``book_parent_bound``); -BOOK_MISSING when none is known."""
        cur, mask, nb = bitboards(p) if isinstance(p, Position) else p
        if not self.has_book or nb != book.BOOK_PLY + 1:
            return -BOOK_MISSING
        return int(
            self.functions["book_parent_bound"](
                cur, mask, nb, self.height, self.rules.cols, self.book
            )
        )

    def null_window(self, p: Position | Bits, score: int, deadline: float) -> int:
        """A null-window search of ``p`` around ``score``: at most ``score`` when ``p`` scores
        no more, above it when it does; meaningless when :meth:`aborted` afterwards (the
        deadline passed). Clears the abort flag first, within the current generation."""
        cur, mask, nb = bitboards(p) if isinstance(p, Position) else p
        self.resume()
        return int(
            self.functions["negamax"](
                cur, mask, nb, score, score + 1, self.work, deadline, self.table.keys,
                self.table.values, self.book,
            )
        )  # fmt: skip

    def wins_now(self, p: Position) -> int:
        """The move bits with which the side to move in ``p`` wins at once."""
        cur, mask, _ = bitboards(p)
        functions = self.functions
        return int(
            functions["winning_spots"](cur, mask, self.work)
            & functions["possible_moves"](mask, self.work)
        )

    def heuristic(self, p: Position, depth: int, deadline: float) -> int:
        cur, mask, nb = bitboards(p)
        return int(
            self.functions["heuristic_root"](
                cur, mask, nb, depth, self.work, deadline,
            )
        )  # fmt: skip

    def safe_moves(self, p: Position) -> int:
        """The move bits of ``p`` that do not let the opponent win at once."""
        cur, mask, _ = bitboards(p)
        return int(self.functions["non_losing_moves"](cur, mask, self.work))

    def aborted(self) -> bool:
        """Whether the last search stopped at its deadline."""
        return bool(self.work[kernel.S_ABORT])

    @property
    def nodes(self) -> int:
        """Positions searched in this generation."""
        return int(self.work[kernel.S_NODES])

    @property
    def best_bit(self) -> int:
        """The root move bit of the last exact search: optimal when it finished, else the
        move that proved its best bound so far (see :attr:`proven`)."""
        return int(self.work[kernel.S_BEST])

    @property
    def proven(self) -> bool:
        """Whether the last exact search, cut short, proved a bound for :attr:`best_bit`."""
        return bool(self.work[kernel.S_PROVEN])

    def move_of_bit(self, move_bit: int) -> int:
        """The move (column with gravity, cell otherwise) of a move bit."""
        bit = move_bit.bit_length() - 1
        if self.rules.gravity:
            return bit // self.height
        return geometry(self.rules).cell_of_bit(bit)


_PLAIN_FUNCTIONS: dict[str, Any] = _solver_jit.plain_functions()
lock = threading.Lock()
"""Held by every search: one search at a time runs on the module's tables and buffers."""
_engines: dict[tuple[Rules, bool], Engine] = {}
_last_engine: list[Engine | None] = [None]
_tables: dict[bool, Table] = {}
_compiled_size = [COMPILED_TABLE_SIZE]


def size_table(budget: float) -> int:
    """Size the compiled table for searches of ``budget`` seconds; the number of entries.

    Meant for a process's start (the AI workers call it before warming up); a process that
    already searched drops its table and engines and builds new ones on the next search.
    """
    entries = next(
        (size for limit, size in TABLE_SIZES_BY_BUDGET if budget <= limit), COMPILED_TABLE_SIZE
    )
    with lock:
        if _compiled_size[0] != entries:
            _compiled_size[0] = entries
            _forget()
    return entries


def release() -> None:
    """Drop the tables and engines; the next search builds new ones (of the size set last).

    For a process that warms up the compiled kernel only to be forked (the AI workers' fork
    server): each worker then allocates a table of its own instead of holding a copy.
    """
    with lock:
        _forget()
        _tables.pop(False, None)


def _forget() -> None:
    _tables.pop(True, None)
    _engines.clear()
    _last_engine[0] = None


def bitboards(p: Position) -> Bits:
    """The kernel's view of ``p``: (the side to move's stones, every stone, stones played)."""
    mask = p.stones[0] | p.stones[1]
    return p.stones[len(p.moves) % 2], mask, len(p.moves)


def played(bits: Bits, move_bit: int) -> Bits:
    """The kernel's view of the position ``bits`` after the move ``move_bit``."""
    cur, mask, nb = bits
    return cur ^ mask, mask | move_bit, nb + 1


def fits_words(rules: Rules) -> bool:
    """Whether the compiled kernel's 64-bit words hold ``rules``' keys."""
    bits = geometry(rules).height * rules.cols
    # a gravity key stays within the board's bits; a free key needs two boards side by side
    return bits <= 64 if rules.gravity else 2 * bits <= 63


def shared_table(compiled: bool) -> Table:
    """The transposition table of the compiled (or plain) engines, allocated on first use."""
    table = _tables.get(compiled)
    if table is None:
        if compiled:
            import numpy as np

            table = Table(
                np.empty(_compiled_size[0], dtype=np.int64),
                np.empty(_compiled_size[0], dtype=np.int32),
            )
            # writing every page now keeps page faults out of the first searches' timings
            table.keys.fill(0)
            table.values.fill(0)
        else:
            table = Table([0] * PLAIN_TABLE_SIZE, [0] * PLAIN_TABLE_SIZE)
        _tables[compiled] = table
    return table


def engine_for(rules: Rules, *, plain: bool = False) -> Engine:
    """The engine of ``rules`` (compiled where it fits and is enabled; plain with ``plain``),
    built on first use. Call it, and use what it returns, under :data:`lock`."""
    # the same rules again is the common case: skip hashing them (microseconds count here)
    last = _last_engine[0]
    if last is not None and last.rules is rules and last.plain_only == plain:
        return last
    engine = _find_engine(rules, plain)
    _last_engine[0] = engine
    return engine


def _find_engine(rules: Rules, plain: bool) -> Engine:
    functions = None
    if not plain and fits_words(rules):
        functions = _solver_jit.compiled()
    compiled = functions is not None
    engine = _engines.get((rules, compiled))
    if engine is None:
        engine = Engine(rules, functions or _PLAIN_FUNCTIONS, shared_table(compiled))
        _engines[(rules, compiled)] = engine
    engine.plain_only = plain
    return engine


def deepen(engine: Engine, p: Position, deadline: float) -> tuple[int, int | None]:
    """Iterative deepening of the heuristic search; (depth reached, its best move bit)."""
    best: int | None = None
    reached = 0
    for depth in range(1, p.rules.cells - len(p.moves) + 1):
        engine.resume()
        value = engine.heuristic(p, depth, deadline)
        if engine.aborted():
            break
        best = int(engine.work[kernel.S_HBEST])
        reached = depth
        if abs(value) > WIN_BASE:
            break  # proven either way: deeper will not change the choice
    return reached, best

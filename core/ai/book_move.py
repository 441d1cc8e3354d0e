"""``best_move`` where the opening book gives the score: which move reaches it?

A strategy of its own (candidates taking turns, see :func:`book_root`), split from
:mod:`core.ai.solver`, which calls it under the engine's lock.
"""

from __future__ import annotations

import time

from core.ai.engine import (
    FIRST_EXACT_SHARE,
    HEURISTIC_SHARE,
    Engine,
    SearchResult,
    bitboards,
    deepen,
    played,
)
from core.games.position import Position

__all__ = ["TURN_SECONDS", "book_root"]

# the first turn of the null-window searches of the candidates (then doubled)
TURN_SECONDS = 0.002


def book_root(engine: Engine, p: Position, score: int, safe: int, deadline: float) -> SearchResult:
    """``best_move`` where the book gives the score: which move reaches it?

    Each candidate (a move that does not lose at once, and that the book does not refute: see
    :func:`core.ai._book_kernel.book_parent_bound`) gets a null-window search in turns that
    double in length, so that one hard refutation does not hold back the proof of a good move; a
    refuted move is dropped, and the last one left is optimal without a proof. After the first
    share of the budget the heuristic's choice moves to the front; at the deadline it is played.
    """
    started = time.perf_counter()
    bits = [1 << bit for bit in range(safe.bit_length()) if safe >> bit & 1]
    centre = p.rules.cols - 1
    bits.sort(key=lambda b: abs(2 * engine.move_of_bit(b) - centre))
    root = bitboards(p)
    # a child whose other parents in the book show that it scores more than -score is refuted
    # without a search (about half of the moves that do not keep the score)
    unrefuted = [b for b in bits if engine.parent_bound(played(root, b)) <= -score]
    bits = unrefuted or bits  # (never empty: the bound of an optimal move is at most -score)
    turn = TURN_SECONDS
    heuristic_at = started + FIRST_EXACT_SHARE * (deadline - started)
    heuristic_move: int | None = None
    deepened = False
    while len(bits) > 1 and time.perf_counter() < deadline:
        if not deepened and time.perf_counter() > heuristic_at:
            deepened = True
            heuristic_deadline = heuristic_at + HEURISTIC_SHARE * (deadline - started)
            _, heuristic_move = deepen(engine, p, heuristic_deadline)
            if heuristic_move in bits:
                bits.remove(heuristic_move)
                bits.insert(0, heuristic_move)
        for bit in list(bits):
            turn_end = min(deadline, time.perf_counter() + turn)
            value = engine.null_window(played(root, bit), -score, turn_end)
            if engine.aborted():
                continue
            if value <= -score:
                bits = [bit]  # proven: the opponent can hold it to -score, no better
                break
            bits.remove(bit)
        turn *= 2
    nodes, plies = engine.nodes, p.rules.cells - len(p.moves)
    if len(bits) == 1:
        return SearchResult(engine.move_of_bit(bits[0]), score, True, nodes, plies)
    chosen = heuristic_move if heuristic_move is not None and heuristic_move in bits else bits[0]
    return SearchResult(engine.move_of_bit(chosen), None, False, nodes, 0)

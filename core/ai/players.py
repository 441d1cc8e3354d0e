"""``choose_move``: one entry point for every level and every board."""

from __future__ import annotations

import random
import time

from core.ai import exact_free, freeboard, heuristic, pattern_board
from core.ai.levels import Level
from core.games import CONNECT_FOUR, Position, Rules
from core.games.bitboard import iter_bits


def choose_move(
    p: Position, level: Level, *, budget: float = 1.0, rng: random.Random | None = None
) -> int:
    """A legal move for the side to move in ``p``.

    A plain, CPU-bound function: the session service runs it off the event loop.

    Args:
        p: the position; the game must not be over.
        level: EASY (random), MEDIUM (a person's rules) or HARD (the best the budget allows).
        budget: seconds HARD may think; the answer comes within about that time.
        rng: the random source of EASY and MEDIUM (HARD is deterministic given the time it
            gets); a fresh one if None.

    Returns:
        A move of ``p.legal_moves()``: a cell index, or a column under gravity.

    Raises:
        ValueError: the game is over.
    """
    if p.is_over:
        raise ValueError("the game is over: there is no move to choose")
    if level is not Level.HARD:
        # Seeding a fresh generator reads the OS entropy pool: only where randomness is used.
        rng = rng or random.Random()
        if level is Level.EASY:
            return rng.choice(p.legal_moves())
        return heuristic.medium_move(p, rng)
    deadline = time.perf_counter() + budget
    if p.rules.gravity:
        return _gravity_move(p, deadline)
    return freeboard.hard_move(p, deadline)


def warm_up() -> float:
    """Prepare HARD before the first player waits for it: map the Connect Four opening book,
    compile the solver's hot loop (if accelerated), fill the tic-tac-toe table and the
    heuristic's tables of Connect Four. Returns the seconds it took."""
    started = time.perf_counter()
    from core.ai import solver

    solver.warm_up()
    exact_free.warm_up()
    # the pattern tables of five in a row, and the layout of its usual 15x15 board
    pattern_board.warm_up(Rules(15, 15, 5))
    # the first Connect Four move also builds the heuristic's line tables (about 10 ms)
    choose_move(Position.from_moves(CONNECT_FOUR, [3, 3]), Level.HARD, budget=0.05)
    return time.perf_counter() - started


def _gravity_move(p: Position, deadline: float) -> int:
    """HARD under gravity: the solver's anytime search, behind a cheap safety net."""
    table = heuristic.windows(p.rules)
    player = p.to_move - 1
    mine, theirs = p.stones[player], p.stones[1 - player]
    playable = heuristic.playable_bits(p)
    wins = heuristic.winning_bits(mine, theirs, table) & playable
    if wins:
        return heuristic.move_of_bit(p, wins.bit_length() - 1)
    # Imported here so that ``import core.ai`` stays cheap until HARD plays a gravity game.
    from core.ai import solver

    result = solver.best_move(p, deadline)
    if result.exact:
        return result.move
    # A move is safe when it does not hand the opponent a win at once: it blocks every cell
    # where he would win now, and does not fill the cell under one where he would win later.
    threats = heuristic.winning_bits(theirs, mine, table)
    safe = [
        bit
        for bit in iter_bits(playable)
        if not threats & playable & ~(1 << bit) and not threats >> (bit + 1) & 1
    ]
    if safe and p.move_bit(result.move) not in safe:
        best = max(safe, key=lambda bit: sum(heuristic.cell_value(bit, mine, theirs, table)))
        return heuristic.move_of_bit(p, best)
    return result.move

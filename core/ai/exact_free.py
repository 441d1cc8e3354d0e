"""Exact play on small free boards: tic-tac-toe from a complete memoized table, other small
positions by an alpha-beta search on exact scores (docs/design.md, "Scores") while the budget
lasts."""

from __future__ import annotations

import time
from functools import lru_cache

from core.ai.heuristic import windows
from core.ai.threat_search import CLOCK_EVERY, DeadlinePassed
from core.games import TICTACTOE, Position, Rules
from core.games.bitboard import Geometry, geometry, has_line, iter_bits

# --------------------------------------------------------------------------------------------
# Exact play on small boards
# --------------------------------------------------------------------------------------------


def _win_score(rules: Rules, stones_before: int) -> int:
    """Score of winning with the stone played after ``stones_before`` stones (docs/design.md)."""
    return (rules.cells + 1 - stones_before) // 2


@lru_cache(maxsize=1 << 16)
def _table_score(rules: Rules, mine: int, theirs: int) -> int:
    """Exact score for the side to move, without pruning, so every entry is exact and the
    cache is a complete table of the game (meant for tic-tac-toe)."""
    geo = geometry(rules)
    stones = (mine | theirs).bit_count()
    if stones == rules.cells:
        return 0
    empty = geo.board_mask & ~(mine | theirs)
    best = -rules.cells
    for bit in iter_bits(empty):
        after = mine | 1 << bit
        if has_line(after, geo):
            return _win_score(rules, stones)
        best = max(best, -_table_score(rules, theirs, after))
    return best


def table_score(rules: Rules, mine: int, theirs: int) -> int:
    """The exact score (docs/design.md) of a position of a board with at most TABLE_CELLS cells,
    for the side to move, whose stones are ``mine``; from the complete table."""
    return _table_score(rules, mine, theirs)


def table_move(p: Position) -> int:
    """The best move from the complete table: the fastest win, else a draw, else the slowest
    loss; the first such cell on ties, so the choice is reproducible."""
    player = p.to_move - 1
    return _table_best(p.rules, p.stones[player], p.stones[1 - player])


@lru_cache(maxsize=1 << 14)
def _table_best(rules: Rules, mine: int, theirs: int) -> int:
    """:func:`table_move`, cached: a move is then one dictionary look-up."""
    geo = geometry(rules)
    stones = (mine | theirs).bit_count()
    best_move, best_score = -1, -rules.cells - 1
    for move, bit in enumerate(geo.cell_bits):
        if (mine | theirs) >> bit & 1:
            continue
        after = mine | 1 << bit
        if has_line(after, geo):
            score = _win_score(rules, stones)
        elif stones + 1 == rules.cells:
            score = 0
        else:
            score = -_table_score(rules, theirs, after)
        if score > best_score:
            best_move, best_score = move, score
    return best_move


def warm_up() -> None:
    """Fill the tic-tac-toe tables (a few tens of ms) so that no player waits for them."""
    _table_score(TICTACTOE, 0, 0)
    # The best move of every reachable position, following every line of play.
    stack = [(0, 0)]
    seen: set[tuple[int, int]] = set()
    geo = geometry(TICTACTOE)
    while stack:
        mine, theirs = stack.pop()
        if (mine, theirs) in seen or has_line(theirs, geo) or (mine | theirs) == geo.board_mask:
            continue
        seen.add((mine, theirs))
        _table_best(TICTACTOE, mine, theirs)
        for bit in iter_bits(geo.board_mask & ~(mine | theirs)):
            stack.append((theirs, mine | 1 << bit))


class _Exact:
    """Alpha-beta on exact scores with a transposition table of bounds (small free boards)."""

    def __init__(
        self, rules: Rules, deadline: float, table: dict[tuple[int, int], tuple[int, int]]
    ):
        self.rules = rules
        self.geo: Geometry = geometry(rules)
        self.deadline = deadline
        self.nodes = 0
        # (mine, theirs) -> (lower, upper) bound of the score; shared between moves of a game.
        self.table = table

    def score(self, mine: int, theirs: int, alpha: int, beta: int) -> int:
        self.nodes += 1
        if self.nodes % CLOCK_EVERY == 0 and time.perf_counter() > self.deadline:
            raise DeadlinePassed
        geo, rules = self.geo, self.rules
        occupied = mine | theirs
        stones = occupied.bit_count()
        if stones == rules.cells:
            return 0
        empty = geo.board_mask & ~occupied
        bits = iter_bits(empty)
        for bit in bits:
            if has_line(mine | 1 << bit, geo):
                return _win_score(rules, stones)
        # Without a win now, the best left is winning with our next stone.
        ceiling = _win_score(rules, stones + 2)
        floor = -ceiling
        key = (mine, theirs)
        low, high = self.table.get(key, (floor, ceiling))
        alpha, beta = max(alpha, low), min(beta, high, ceiling)
        if alpha >= beta:
            return alpha
        # Forced: if the opponent threatens to win, only blocking can avoid losing at once.
        threats = [bit for bit in bits if has_line(theirs | 1 << bit, geo)]
        if len(threats) > 1:
            return -_win_score(rules, stones + 1)
        if threats:
            bits = threats
        original_alpha = alpha
        best = -rules.cells
        for bit in bits:
            value = -self.score(theirs, mine | 1 << bit, -beta, -alpha)
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        if best <= original_alpha:
            self.table[key] = (low, min(high, best))
        elif best >= beta:
            self.table[key] = (max(low, best), high)
        else:
            self.table[key] = (best, best)
        return best


@lru_cache(maxsize=8)
def _exact_tables(rules: Rules) -> dict[tuple[int, int], tuple[int, int]]:
    """A transposition table per rule set, kept between moves: the next move of the same game
    finds most of its tree already bounded. Cleared when it grows too big (see _exact_move)."""
    return {}


def exact_move(p: Position, deadline: float) -> tuple[int, int] | None:
    """The best move of ``p`` and its exact score, or None if the search ran out of time."""
    table = _exact_tables(p.rules)
    if len(table) > 2_000_000:
        table.clear()
    search = _Exact(p.rules, deadline, table)
    geo = p.geometry
    player = p.to_move - 1
    mine, theirs = p.stones[player], p.stones[1 - player]
    stones = len(p.moves)
    moves = sorted(p.legal_moves(), key=lambda m: -windows(p.rules).centrality[geo.cell_bits[m]])
    best_move, best_score = moves[0], -p.rules.cells - 1
    alpha, beta = -p.rules.cells - 1, p.rules.cells + 1
    try:
        for move in moves:
            after = mine | 1 << geo.cell_bits[move]
            if has_line(after, geo):
                return move, _win_score(p.rules, stones)
            score = (
                0 if stones + 1 == p.rules.cells else -search.score(theirs, after, -beta, -alpha)
            )
            if score > best_score:
                best_move, best_score = move, score
                alpha = max(alpha, score)
    except DeadlinePassed:
        return None
    return best_move, best_score

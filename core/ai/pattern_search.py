"""HARD's main search on free boards of ``k`` 4 and 5: alpha-beta on a :class:`PatternBoard`.

- Moves are ordered by threat: a win, the block of the opponent's five, then cells by the
  strongest threat they make for us (flex four, four-three, double three, four, three) or spoil
  for him, ties broken by the pattern values of both players on the cell. Only the best few are
  searched below the root.
- When the opponent threatens a flex four (an open three, a four-three in the making), only the
  cells that stop it or make a four of ours are searched: any other move loses to it.
- A four is answered without spending depth (its one block is forced), so a chain of fours is
  read out; a flex four of the side to move wins when the opponent has no four to reply with.
- A transposition table (Zobrist hashes) keeps each position's bound and best move across the
  iterations of an iterative deepening that runs until the deadline.
"""

from __future__ import annotations

import time

from core.ai.pattern_board import PatternBoard
from core.ai.patterns import DOUBLE_THREE, FLEX4, FOUR, FOUR_THREE, THREE, WIN
from core.games.bitboard import iter_bits

CLOCK_EVERY = 64
WIN_SCORE = 1 << 40  # above any evaluation
# Candidate moves searched below the root (the root searches every move it is given).
INNER_WIDTH = 10
ROOT_WIDTH = 16
MAX_DEPTH = 64
# Threat ranks for ordering: ours (attack) and the opponent's that a stone there spoils
# (defence); a cell ranks by the higher of the two.
_ATTACK = {WIN: 100, FLEX4: 50, FOUR_THREE: 30, DOUBLE_THREE: 15, FOUR: 10, THREE: 3}
_DEFENCE = {WIN: 90, FLEX4: 40, FOUR_THREE: 20, DOUBLE_THREE: 8, FOUR: 5, THREE: 2}
_RANK_SCALE = 1 << 24
# TT flags: the stored value is exact, a lower bound or an upper bound.
EXACT, LOWER, UPPER = 0, 1, 2


class DeadlinePassed(Exception):
    """The deadline passed inside the search."""


class PatternSearch:
    """Iterative-deepening alpha-beta over one :class:`PatternBoard` (not thread-safe)."""

    def __init__(self, board: PatternBoard, deadline: float) -> None:
        self.board = board
        self.deadline = deadline
        self.nodes = 0
        self.depth = 0  # deepest finished iteration
        self.cells = len(board.grid.cells)
        self.tt: dict[int, tuple[int, int, int, int]] = {}

    def tick(self) -> None:
        self.nodes += 1
        if self.nodes % CLOCK_EVERY == 0 and time.perf_counter() > self.deadline:
            raise DeadlinePassed

    def candidates(self) -> int:
        """Empty cells within two of a stone (a mask of padded indices)."""
        board = self.board
        near = board.grid.near
        mask = 0
        for side in board.stones:
            for here in side:
                mask |= near[here]
        return mask & ~board.occupied

    def ordered(self, cells: int | list[int], width: int) -> list[int]:
        """``cells`` (a mask or a list of padded indices), best first for the side to move,
        at most ``width`` of them."""
        board = self.board
        me = board.to_move
        mine_class, theirs_class = board.classes[me], board.classes[1 - me]
        mine_value, theirs_value = board.values[me], board.values[1 - me]
        pool = iter_bits(cells) if isinstance(cells, int) else cells
        scored = sorted(
            (
                (
                    max(_ATTACK.get(mine_class[c], 0), _DEFENCE.get(theirs_class[c], 0))
                    * _RANK_SCALE
                    + mine_value[c]
                    + theirs_value[c],
                    c,
                )
                for c in pool
            ),
            reverse=True,
        )
        return [c for _, c in scored[:width]]

    def moves_at(self, candidates: int, width: int) -> tuple[list[int], bool]:
        """The moves worth searching for the side to move, and whether they are forced (the
        block of a five, which costs no depth). Empty when the position is lost at once."""
        board = self.board
        me, other = board.to_move, 1 - board.to_move
        blocks = board.fives[other]
        if blocks:
            return list(blocks), True
        if board.flex[other]:
            # Only a stone on his threat's lines or a four of ours can answer a flex four in
            # the making: every other move lets him make it.
            pool = board.fours[other] | board.flex[other] | board.fours[me]
            return self.ordered(list(pool), 2 * width), False
        return self.ordered(candidates, width), False

    def negamax(self, depth: int, alpha: int, beta: int, ply: int, candidates: int) -> int:
        self.tick()
        board = self.board
        me, other = board.to_move, 1 - board.to_move
        if board.fives[me]:
            return WIN_SCORE - ply
        blocks = board.fives[other]
        if len(blocks) >= 2:
            return -(WIN_SCORE - ply - 1)
        if not blocks and board.flex[me] and not board.fours[other]:
            return WIN_SCORE - ply - 2
        if len(board.stones[0]) + len(board.stones[1]) == self.cells:
            return 0
        entry = self.tt.get(board.hash)
        tt_move = -1
        if entry is not None:
            tt_depth, flag, value, tt_move = entry
            if (
                tt_depth >= depth
                and abs(value) < WIN_SCORE // 2
                and (
                    flag == EXACT
                    or (flag == LOWER and value >= beta)
                    or (flag == UPPER and value <= alpha)
                )
            ):
                return value
        if depth <= 0 and not blocks:
            return board.evaluate()
        moves, forced = self.moves_at(candidates, INNER_WIDTH)
        if not moves:
            return board.evaluate()
        if tt_move in moves:
            moves.remove(tt_move)
            moves.insert(0, tt_move)
        next_depth = depth if forced else depth - 1
        original_alpha = alpha
        best, best_move = -WIN_SCORE, moves[0]
        near = board.grid.near
        for here in moves:
            board.play(here)
            try:
                value = -self.negamax(
                    next_depth, -beta, -alpha, ply + 1, (candidates | near[here]) & ~board.occupied
                )
            finally:
                board.undo()
            if value > best:
                best, best_move = value, here
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        flag = UPPER if best <= original_alpha else (LOWER if best >= beta else EXACT)
        self.tt[board.hash] = (depth, flag, best, best_move)
        return best

    def root(self, moves: list[int] | None = None) -> int:
        """The best move (a padded index) of the deepest finished iteration, among ``moves``
        (every candidate when None, the best ``ROOT_WIDTH`` of them)."""
        board = self.board
        candidates = self.candidates()
        if moves is None:
            moves, _ = self.moves_at(candidates, ROOT_WIDTH)
        else:
            moves = self.ordered(moves, len(moves))
        if not moves:
            moves = self.ordered(candidates, 1) or [board.grid.cells[len(board.grid.cells) // 2]]
        best_move = moves[0]
        hopeful = -1
        near = board.grid.near
        empties = self.cells - len(board.stones[0]) - len(board.stones[1])
        try:
            for depth in range(1, min(MAX_DEPTH, empties) + 1):
                alpha, beta = -WIN_SCORE - 1, WIN_SCORE + 1
                current, current_value = -1, -WIN_SCORE - 1
                for here in moves:
                    board.play(here)
                    try:
                        value = -self.negamax(
                            depth - 1,
                            -beta,
                            -alpha,
                            1,
                            (candidates | near[here]) & ~board.occupied,
                        )
                    finally:
                        board.undo()
                    if value > current_value:
                        current, current_value = here, value
                        alpha = max(alpha, value)
                        # A move that holds on beats the previous choice; when every move so
                        # far loses, the previous iteration's choice is kept.
                        if value > -WIN_SCORE // 2 or hopeful < 0:
                            best_move = current
                moves.remove(current)
                moves.insert(0, current)
                self.depth = depth
                if current_value >= WIN_SCORE // 2:
                    break
                if current_value <= -WIN_SCORE // 2:
                    if hopeful >= 0:
                        best_move = hopeful
                    break
                hopeful = current
        except DeadlinePassed:
            pass
        return best_move

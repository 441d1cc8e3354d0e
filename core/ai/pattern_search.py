"""HARD's main search on free boards of ``k`` 4 and 5: alpha-beta on a :class:`PatternBoard`.

The search below the root is :func:`core.ai._gomoku_kernel.gk_negamax` (compiled):

- Moves are ordered by threat: a win, the block of the opponent's five, then cells by the
  strongest threat they make for us (flex four, four-three, double three, four, three) or spoil
  for him, ties broken by the pattern values of both players on the cell. Only the best few are
  searched below the root, unless all of them lose: a node is lost only once every move near
  the stones has been tried (the defence against a win by fours is often a quiet cell that
  ranks low, and a win claimed past a defence the beam left out stopped the root early).
- When the opponent threatens a flex four (an open three, a four-three in the making), only the
  cells that stop it or make a four of ours are searched: any other move loses to it.
- At the horizon a pending four is still blocked, and a win by fours of the side to move is
  read out (``gk_vcf``, ``LEAF_VCF_DEPTH`` fours; kept in the table, as leaves transpose); a
  flex four of the side to move wins when the opponent has no four to reply with. (Blocks
  that cost no depth anywhere made a tree of fours explode: depth 3.)
- Near the horizon (``FUTILITY_DEPTH`` plies or fewer left), a node whose evaluation beats beta
  by ``FUTILITY_MARGIN`` a ply left is cut at once (reverse futility), unless the opponent
  threatens a flex four or a four-three: the evaluation does not see that such a threat must be
  answered first. The plies saved go to reading deeper where the game is close.
- A transposition table (Zobrist hashes), kept from one move to the next, holds each position's
  bound and best move across the iterations of an iterative deepening that runs until the
  deadline.
"""

from __future__ import annotations

import threading
from typing import Any

from core.ai import _gomoku_kernel as kernel
from core.ai.pattern_board import PatternBoard
from core.games import Rules

WIN_SCORE = kernel.WIN_SCORE
INNER_WIDTH = kernel.INNER_WIDTH
ROOT_WIDTH = kernel.ROOT_WIDTH
MAX_DEPTH = 64
NO_LIMIT = 1 << 62  # nodes
# Transposition table entries (a power of two; three words each: 3 MiB).
TT_SLOTS = 1 << 17

# One table per process, for the rules of the last search; the kernel is not reentrant on it.
_lock = threading.Lock()
_table: tuple[Rules, bool, Any] | None = None


def _transpositions(board: PatternBoard, fast: bool) -> Any:
    global _table
    rules = board.grid.rules
    if _table is None or _table[:2] != (rules, fast):
        if fast:
            import numpy as np

            tt: Any = np.zeros(kernel.TT_WORDS * TT_SLOTS, dtype=np.int64)
        else:
            tt = [0] * (kernel.TT_WORDS * TT_SLOTS)
        _table = (rules, fast, tt)
    return _table[2]


class PatternSearch:
    """Iterative-deepening alpha-beta over one :class:`PatternBoard` (one at a time per process:
    they share the transposition table)."""

    def __init__(self, board: PatternBoard, deadline: float) -> None:
        self.board = board
        self.deadline = deadline
        self.fn = board.fn
        self.tt = _transpositions(board, not isinstance(board.w, list))
        self.depth = 0  # deepest finished iteration of the last root()

    def forget(self) -> None:
        """Empties the transposition table (kept from one search to the next otherwise)."""
        self.tt[:] = [0] * len(self.tt)

    @property
    def aborted(self) -> bool:
        """Whether the last search ran out of time."""
        return bool(self.board.w[kernel.W_ABORT] == 1)

    @property
    def nodes(self) -> int:
        return int(self.board.w[kernel.W_NODES])

    def moves_at(self, width: int) -> tuple[list[int], bool]:
        """The moves worth searching for the side to move, best first, and whether they are
        forced (the block of a five, which costs no depth). Empty when the position is lost at
        once."""
        w = self.board.w
        at = int(w[kernel.W_MOVES])
        n = int(self.fn["gk_moves"](self.board.tab, w, at, width))
        return [int(here) for here in w[at : at + abs(n)]], n < 0

    def ordered(self, moves: list[int]) -> list[int]:
        """``moves`` (padded indices), best first for the side to move."""
        rank = self.fn["gk_rank"]
        tab, w = self.board.tab, self.board.w
        return sorted(moves, key=lambda here: -int(rank(tab, w, here)))

    def _start(self, nodes: int = NO_LIMIT) -> None:
        w = self.board.w
        w[kernel.W_ABORT] = 0
        w[kernel.W_NODES] = 0
        w[kernel.W_NODE_LIMIT] = nodes
        w[kernel.W_VCF] = -1

    def vcf(self, depth: int) -> int:
        """The first four of the shortest win by continuous fours of the side to move (at most
        ``depth`` of them, counting the last one), or -1 (none, or out of time)."""
        self._start()
        w = self.board.w
        with _lock:
            # deepened: the shortest win is the surest to convert, against any defence
            for limit in range(1, depth + 1):
                if self.fn["gk_vcf"](self.board.tab, w, limit, 0, self.deadline):
                    return int(w[kernel.W_VCF])
                if w[kernel.W_ABORT]:
                    break
        return -1

    def vct(self, depth: int, nodes: int) -> int:
        """The first move of the shortest win by fours and threes of the side to move (at most
        ``depth`` of its moves), or -1 (none found within ``nodes`` nodes, or out of time)."""
        self._start(nodes)
        board = self.board
        attacker = board.to_move
        with _lock:
            for limit in range(1, depth + 1):
                won = self.fn["gk_vct"](
                    board.tab, board.w, self.tt, attacker, limit, 0, self.deadline
                )
                if won:
                    return int(board.w[kernel.W_VCF])
                if board.w[kernel.W_ABORT]:
                    break
        return -1

    def negamax(self, depth: int, alpha: int, beta: int, ply: int) -> int:
        """The kernel's value of the position to ``depth`` (no deadline)."""
        with _lock:
            self._start()
            return int(
                self.fn["gk_negamax"](
                    self.board.tab, self.board.w, self.tt, depth, alpha, beta, ply, float("inf")
                )
            )

    def root(self, moves: list[int] | None = None) -> int:
        """The best move (a padded index) of the deepest finished iteration, among ``moves``
        (the best ``ROOT_WIDTH`` candidates when None)."""
        board = self.board
        tab, w, tt = board.tab, board.w, self.tt
        if moves is None:
            moves, _ = self.moves_at(ROOT_WIDTH)
        else:
            moves = self.ordered(moves)
        if not moves:
            moves = [self._central_empty()]
        best_move = moves[0]
        hopeful = -1
        empties = len(board.grid.cells) - board.stone_count
        negamax, play, undo = self.fn["gk_negamax"], self.fn["gk_play"], self.fn["gk_undo"]
        self._start()
        self.depth = 0
        with _lock:
            for depth in range(1, min(MAX_DEPTH, empties) + 1):
                alpha, beta = -WIN_SCORE - 1, WIN_SCORE + 1
                current, current_value = -1, -WIN_SCORE - 1
                for here in moves:
                    play(tab, w, here)
                    value = -int(negamax(tab, w, tt, depth - 1, -beta, -alpha, 1, self.deadline))
                    undo(tab, w)
                    if w[kernel.W_ABORT]:
                        return best_move
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
        return best_move

    def _central_empty(self) -> int:
        """The empty cell nearest the centre (for a board without candidates: no stone yet)."""
        cells = self.board.grid.cells
        stone = self.board._part(kernel.W_STONE, self.board.count)
        centre = cells[len(cells) // 2]
        return min((c for c in cells if not stone[c]), key=lambda c: abs(c - centre))

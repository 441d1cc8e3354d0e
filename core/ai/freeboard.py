"""HARD on free-placement boards.

Three tools, tried in order until one answers:

1. Small boards are solved exactly: tic-tac-toe from a complete memoized table, other small
   positions with an alpha-beta search on exact scores (docs/design.md, "Scores") while the
   budget lasts.
2. Big boards first look for forced wins in *threat space*: a sequence of fours (the opponent has
   one reply) or threes (the opponent has a few replies, all of which are tried), for us and, to
   find what must be defended, for the opponent.
3. Otherwise an iterative-deepening alpha-beta with a transposition table, a pattern evaluation
   (live k-windows, counted incrementally) and candidate moves near the stones.

Every search checks the clock every few hundred nodes and gives back the best move found so far.
Tool 1 lives in :mod:`core.ai.exact_free`, tools 2 and 3 in :mod:`core.ai.threat_search` (wins
by fours and threes proven by :mod:`core.ai.proof_search`); for five in a row, tool 3 is the
alpha-beta of :mod:`core.ai.pattern_search` on line patterns (open fours, fours, open threes...)
instead of k-windows. This module chooses among them, opens the game and defends lost positions.
"""

from __future__ import annotations

import time

from core.ai.exact_free import exact_move, table_move
from core.ai.heuristic import windows
from core.ai.pattern_board import PatternBoard
from core.ai.pattern_search import PatternSearch
from core.ai.proof_search import ProofSearch, shortest_win
from core.ai.threat_search import ROOT_WIDTH, Board, DeadlinePassed, Search
from core.games import Position
from core.games.bitboard import iter_bits

# Boards up to this many cells get the complete memoized table (tic-tac-toe: 5,478 positions).
TABLE_CELLS = 9
# Free positions with at most this many empty cells are worth an exact alpha-beta attempt.
EXACT_EMPTIES = 16
# The share of the budget the exact attempt and the threat searches may use before alpha-beta.
EXACT_SHARE = 0.5
THREAT_SHARE = 0.4
# Fours (attacker moves) read by the searches by fours, ours and the opponent's: a search by
# fours is narrow (one reply each), so deep is cheap, and a defence that reads fewer than the
# opponent's win lets it through (Rapfi's wins by fours ran to 9 fours; refuting a 9-four
# attack by a move that allows an 11-four one is no refutation).
VCF_DEPTH = 16
# Our moves the opponent's forced wins by fours and threes are read to, as if we passed and
# after each candidate reply; and the proof-number search's expansions for one such question
# (a hopeless one otherwise takes the whole budget from the other candidates).
VCT_DEPTH = 6
NODES_PER_PROOF = 400
# The same for the compiled search of k 5 (some hundred times faster a node).
KERNEL_NODES_PER_PROOF = 40_000
# The ks whose main search is the pattern search (:mod:`core.ai.pattern_search`); the others
# keep the window search of :mod:`core.ai.threat_search`.
PATTERN_KS = (5, 5)
# From this k on, the reply to the first stone is the rule of _opening_move, not a search.
OPENING_K = 5
# How deep a lost position's defence reads the opponent's forced wins (see _swindle).
SWINDLE_DEPTH = 6


def hard_move(p: Position, deadline: float) -> int:
    """HARD's move on a free board, found before ``deadline`` (a ``time.perf_counter()`` value)
    whenever the position allows (the move is always legal; the last step may overrun by the
    time of one clock interval)."""
    rules = p.rules
    geo = p.geometry
    if rules.cells <= TABLE_CELLS:
        return table_move(p)
    table = windows(rules)
    player = p.to_move - 1
    other = 1 - player
    board = Board(table, p.stones)
    # An immediate win, then the only block: never left to a search that might run out of time.
    wins = board.wins(player)
    if wins:
        return geo.cell_of_bit(wins.bit_length() - 1)
    blocks = board.wins(other)
    if blocks:
        return geo.cell_of_bit(blocks.bit_length() - 1)
    started = time.perf_counter()
    budget = max(deadline - started, 0.0)
    empties = rules.cells - len(p.moves)
    if empties <= EXACT_EMPTIES:
        solved = exact_move(p, started + EXACT_SHARE * budget)
        if solved is not None:
            return solved[0]
    if not p.moves or (len(p.moves) == 1 and rules.k >= OPENING_K):
        return _opening_move(p, table.centrality)
    search = Search(table, board, started + THREAT_SHARE * budget)
    patterned = None
    if PATTERN_KS[0] <= rules.k <= PATTERN_KS[1]:
        patterned = PatternSearch(
            PatternBoard(rules, p.stones, player), started + THREAT_SHARE * budget
        )
    threats = _Threats(search, ProofSearch(search), patterned)
    candidates = 0
    for bit in iter_bits(board.occupied):
        candidates |= table.near[bit]
    candidates &= ~board.occupied
    # Our forced wins: by fours, then by fours and threes, unless he wins by fours if we pass:
    # threes do not stop his fours, and the defence against them needs the time.
    try:
        found = threats.win(player, VCF_DEPTH, False)
        if found >= 0:
            return geo.cell_of_bit(found)
        if threats.win(other, VCF_DEPTH, False) < 0:
            if patterned is None:
                found = shortest_win(threats.proof, player)
            else:
                found = threats.win(player, VCT_DEPTH, True)
            if found >= 0:
                return geo.cell_of_bit(found)
    except DeadlinePassed:
        pass
    moves = everything = search.ordered(player, candidates, ROOT_WIDTH)
    # The opponent's forced wins, as if we passed: keep only the moves that refute them.
    threats.set_deadline(started + (THREAT_SHARE + 0.15) * budget)
    try:
        for threes, depth in ((False, VCF_DEPTH), (True, VCT_DEPTH)):
            search.threat_memo.clear()
            if threats.win(other, depth, threes) < 0:
                continue
            refuting = _refutations(threats, player, moves, candidates, depth, threes)
            if not refuting:
                # Lost against best play; most opponents are not that good.
                return geo.cell_of_bit(_swindle(search, player, candidates, deadline))
            moves = refuting
            break
    except DeadlinePassed:
        pass
    if patterned is not None:
        pattern_board = patterned.board
        allowed = None if moves is everything else [pattern_board.index_of(bit) for bit in moves]
        patterned.deadline = deadline
        best = patterned.root(allowed)
        return geo.cell_of_bit(pattern_board.bit_of(best))
    search.set_deadline(deadline)
    search.threat_memo.clear()
    best = search.root(player, list(moves), candidates)
    return geo.cell_of_bit(best)


class _Threats:
    """The forced wins of either side: by fours on the compiled pattern board where there is
    one (k 5: deeper by far in the same time), otherwise, and by fours and threes, by the
    threat search (proven by the proof-number search). Moves are played on both boards."""

    def __init__(self, search: Search, proof: ProofSearch, patterned: PatternSearch | None):
        self.search = search
        self.proof = proof
        self.patterned = patterned

    def set_deadline(self, deadline: float) -> None:
        self.search.set_deadline(deadline)
        if self.patterned is not None:
            self.patterned.deadline = deadline

    def play(self, bit: int, player: int) -> None:
        self.search.board.play(bit, player)
        if self.patterned is not None:
            board = self.patterned.board
            board.to_move = player
            board.play(board.index_of(bit))

    def undo(self, bit: int, player: int) -> None:
        self.search.board.undo(bit, player)
        if self.patterned is not None:
            self.patterned.board.undo()

    def win(self, attacker: int, depth: int, threes: bool) -> int:
        """A first move (a bit) of a forced win of ``attacker``, as if he were to move, or -1:
        by fours within ``depth`` of them, or (``threes``) by fours and threes.

        Raises:
            DeadlinePassed: out of time before an answer.
        """
        if self.patterned is None:
            if threes:
                return self.proof.prove(attacker, NODES_PER_PROOF, depth)
            return self.search.threat_search(attacker, depth, False)
        board = self.patterned.board
        to_move = board.to_move
        board.to_move = attacker
        try:
            if threes:
                found = self.patterned.vct(depth, KERNEL_NODES_PER_PROOF)
            else:
                found = self.patterned.vcf(depth)
        finally:
            board.to_move = to_move
        if self.patterned.aborted:
            raise DeadlinePassed
        return -1 if found < 0 else board.bit_of(found)


def _opening_move(p: Position, centrality: tuple[int, ...]) -> int:
    """The first stone on the centre; the reply touches the first stone, diagonally, on the side
    of the centre: a stone further away gives the first player a free tempo, and the diagonal
    (an "indirect" opening) leaves him the fewest strong continuations."""
    geo = p.geometry
    rules = p.rules
    if not p.moves:
        return max(range(rules.cells), key=lambda c: centrality[geo.cell_bits[c]])
    row, col = divmod(p.moves[0], rules.cols)
    touching = [
        (row + d_row) * rules.cols + col + d_col
        for d_row in (-1, 0, 1)
        for d_col in (-1, 0, 1)
        if (d_row or d_col) and 0 <= row + d_row < rules.rows and 0 <= col + d_col < rules.cols
    ]
    # Diagonal neighbours first, then the most central: ties go to the lowest cell.
    return max(
        touching,
        key=lambda c: (
            c // rules.cols != row and c % rules.cols != col,
            centrality[geo.cell_bits[c]],
            -c,
        ),
    )


def _refutations(
    threats: _Threats, player: int, moves: list[int], candidates: int, depth: int, threes: bool
) -> list[int]:
    """The moves (among ``moves``, our fours and the cells near the threat) after which the
    opponent no longer has a forced win of this kind. Out of time, those found so far, else
    those not yet shown to leave him the win."""
    board = threats.search.board
    other = 1 - player
    # The cells of the threats first: a refutation is most often one of them, and out of time
    # the ones read are what is kept.
    extra = board.four_makers(player) | board.four_makers(other) | board.double_points(other)
    pool = iter_bits(extra & candidates)
    pool += [bit for bit in moves if bit not in pool]
    refuting: list[int] = []
    for index, bit in enumerate(pool):
        threats.play(bit, player)
        try:
            # After a four of ours he must answer it first; both searches handle that reply.
            if threats.win(other, depth, threes) < 0:
                refuting.append(bit)
        except DeadlinePassed:
            # Keeping every move then would throw away what was proven: a move shown to let
            # his win through is worse than any move not read yet.
            return refuting or pool[index:]
        finally:
            threats.undo(bit, player)
    return refuting


def _swindle(search: Search, player: int, candidates: int, deadline: float) -> int:
    """A move for a lost position. Most opponents do not read threats ahead, so: the move after
    which the opponent's shortest forced win is longest, then that leaves him the fewest double
    points (cells from which he wins at once) and fours, then the best evaluation."""
    board = search.board
    other = 1 - player
    sign = 1 if player == 0 else -1
    search.set_deadline(deadline)
    scored: list[tuple[tuple[int, int, int, int], int]] = []
    pool = search.ordered(player, candidates | board.four_makers(player), 4 * ROOT_WIDTH)
    for bit in pool:
        board.play(bit, player)
        try:
            shortest = SWINDLE_DEPTH + 1
            try:
                for depth in range(1, SWINDLE_DEPTH + 1):
                    if search.threat_win(other, depth, True) >= 0:
                        shortest = depth
                        break
            except DeadlinePassed:
                shortest = 0  # unknown: ranked below every measured move
            key = (
                -shortest,
                board.double_points(other).bit_count(),
                board.four_makers(other).bit_count(),
                -sign * board.score,
            )
        finally:
            board.undo(bit, player)
        scored.append((key, bit))
    return min(scored)[1]

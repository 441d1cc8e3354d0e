"""HARD on free-placement boards.

Three tools, tried in order until one answers:

1. Small boards are solved exactly: tic-tac-toe from a complete memoized table, other small
   positions with an alpha-beta search on exact scores (DESIGN.md "Scores") while the budget lasts.
2. Big boards first look for forced wins in *threat space*: a sequence of fours (the opponent has
   one reply) or threes (the opponent has a few replies, all of which are tried), for us and, to
   find what must be defended, for the opponent.
3. Otherwise an iterative-deepening alpha-beta with a transposition table, a pattern evaluation
   (live k-windows, counted incrementally) and candidate moves near the stones.

Every search checks the clock every few hundred nodes and gives back the best move found so far.
"""

from __future__ import annotations

import time
from functools import lru_cache

from core.ai.heuristic import Windows, windows
from core.games import TICTACTOE, Position, Rules
from core.games.bitboard import Geometry, geometry, has_line, iter_bits

# Boards up to this many cells get the complete memoized table (tic-tac-toe: 5,478 positions).
TABLE_CELLS = 9
# Free positions with at most this many empty cells are worth an exact alpha-beta attempt.
EXACT_EMPTIES = 16
# The share of the budget the exact attempt and the threat searches may use before alpha-beta.
EXACT_SHARE = 0.5
THREAT_SHARE = 0.4
# How often (in nodes) the searches look at the clock: a threat-search node can cost a few ms
# on a big board, so often (a clock read is ~0.1 µs, negligible next to a node).
CLOCK_EVERY = 16
# Width of the alpha-beta tree: candidate moves kept at the root and below it.
ROOT_WIDTH = 14
INNER_WIDTH = 8
VCT_WIDTH = 8
# How deep a lost position's defence reads the opponent's forced wins (see _swindle).
SWINDLE_DEPTH = 6

WIN = 1 << 90  # above any evaluation (window weights are capped at 2**60 each)


class _Timeout(Exception):
    """The deadline passed inside a search."""


# --------------------------------------------------------------------------------------------
# Exact play on small boards
# --------------------------------------------------------------------------------------------


def _win_score(rules: Rules, stones_before: int) -> int:
    """Score of winning with the stone played after ``stones_before`` stones (DESIGN.md)."""
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
    """The exact score (DESIGN.md) of a position of a board with at most TABLE_CELLS cells,
    for the side to move, whose stones are ``mine``; from the complete table."""
    return _table_score(rules, mine, theirs)


def _table_move(p: Position) -> int:
    """The best move from the complete table: the fastest win, else a draw, else the slowest
    loss; the first such cell on ties, so the choice is reproducible."""
    player = p.to_move - 1
    return _table_best(p.rules, p.stones[player], p.stones[1 - player])


@lru_cache(maxsize=1 << 14)
def _table_best(rules: Rules, mine: int, theirs: int) -> int:
    """:func:`_table_move`, cached: a move is then one dictionary look-up."""
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
            raise _Timeout
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
    except _Timeout:
        return None
    return best_move, best_score


# --------------------------------------------------------------------------------------------
# Big boards: an incrementally evaluated board, threat-space search, alpha-beta
# --------------------------------------------------------------------------------------------


class _Board:
    """A mutable board for the search: stones, and per window the stones of each player.

    ``fours[p]`` are the windows where ``p`` has k-1 stones and the other none (one cell left
    to win); ``threes[p]`` those with k-2. ``score`` is the pattern evaluation for player 0:
    the weights of player 0's live windows minus those of player 1's.
    """

    __slots__ = ("counts", "fours", "k", "masks", "score", "stones", "threes", "through", "weights")

    def __init__(self, table: Windows, stones: tuple[int, int]) -> None:
        self.k = table.rules.k
        self.masks = table.masks
        self.through = table.through
        self.weights = table.weights
        self.stones = [0, 0]
        self.counts = [[0] * len(table.masks), [0] * len(table.masks)]
        self.fours: list[set[int]] = [set(), set()]
        self.threes: list[set[int]] = [set(), set()]
        self.score = 0
        for player in (0, 1):
            for bit in iter_bits(stones[player]):
                self.play(bit, player)

    @property
    def occupied(self) -> int:
        return self.stones[0] | self.stones[1]

    def play(self, bit: int, player: int) -> None:
        k, weights = self.k, self.weights
        other = 1 - player
        mine, theirs = self.counts[player], self.counts[other]
        fours, threes = self.fours[player], self.threes[player]
        delta = 0
        for window in self.through[bit]:
            n = mine[window] + 1
            mine[window] = n
            o = theirs[window]
            if o == 0:
                delta += weights[n] - weights[n - 1]
                if n == k - 1:
                    fours.add(window)
                    threes.discard(window)
                elif n == k - 2:
                    threes.add(window)
                elif n == k:
                    fours.discard(window)
            elif n == 1:
                # The window was live for the other player; this stone kills it.
                delta += weights[o]
                if o == k - 1:
                    self.fours[other].discard(window)
                elif o == k - 2:
                    self.threes[other].discard(window)
        self.stones[player] |= 1 << bit
        self.score += delta if player == 0 else -delta

    def undo(self, bit: int, player: int) -> None:
        k, weights = self.k, self.weights
        other = 1 - player
        mine, theirs = self.counts[player], self.counts[other]
        fours, threes = self.fours[player], self.threes[player]
        delta = 0
        for window in self.through[bit]:
            n = mine[window]
            mine[window] = n - 1
            o = theirs[window]
            if o == 0:
                delta += weights[n] - weights[n - 1]
                if n == k - 1:
                    fours.discard(window)
                    threes.add(window)
                elif n == k - 2:
                    threes.discard(window)
                elif n == k:
                    fours.add(window)
            elif n == 1:
                delta += weights[o]
                if o == k - 1:
                    self.fours[other].add(window)
                elif o == k - 2:
                    self.threes[other].add(window)
        self.stones[player] &= ~(1 << bit)
        self.score -= delta if player == 0 else -delta

    def wins(self, player: int) -> int:
        """Empty cells where ``player`` completes a line."""
        masks = self.masks
        found = 0
        for window in self.fours[player]:
            found |= masks[window]
        return found & ~self.occupied

    def four_makers(self, player: int) -> int:
        """Empty cells where a stone of ``player`` makes a four (a threat to win next move)."""
        masks = self.masks
        found = 0
        for window in self.threes[player]:
            found |= masks[window]
        return found & ~self.occupied

    def double_points(self, player: int) -> int:
        """Empty cells where a stone of ``player`` makes two different winning cells at once."""
        occupied, masks = self.occupied, self.masks
        completion: dict[int, int] = {}
        double = 0
        for window in self.threes[player]:
            empty = masks[window] & ~occupied
            low = empty & -empty
            high = empty ^ low
            # Playing one empty cell of the window leaves the other as the winning cell.
            for here, there in ((low, high), (high, low)):
                seen = completion.setdefault(here, there)
                if seen != there:
                    double |= here
        return double

    def value(self, bit: int, player: int) -> int:
        """How good a stone of ``player`` on ``bit`` looks: what it builds plus what it spoils."""
        weights = self.weights
        mine, theirs = self.counts[player], self.counts[1 - player]
        total = 0
        for window in self.through[bit]:
            n, o = mine[window], theirs[window]
            if o == 0:
                total += weights[n + 1]
            if n == 0:
                total += weights[o]
        return total


class _Search:
    """Threat-space search and alpha-beta over one :class:`_Board`."""

    def __init__(self, table: Windows, board: _Board, deadline: float) -> None:
        self.table = table
        self.board = board
        self.deadline = deadline
        self.expired = False
        self.nodes = 0
        self.depth = 0  # deepest finished alpha-beta iteration
        self.cells = table.rules.cells
        self.tt: dict[tuple[int, int], tuple[int, int, int, int]] = {}
        self.threat_memo: dict[tuple[int, int, int, int, bool], int] = {}

    def set_deadline(self, deadline: float) -> None:
        self.deadline = deadline
        self.expired = False

    def tick(self) -> None:
        self.nodes += 1
        # Once expired, every further node stops at once: callers that catch the timeout and
        # go on (the lost-position defence) must not get another clock interval each.
        if self.expired or (self.nodes % CLOCK_EVERY == 0 and time.perf_counter() > self.deadline):
            self.expired = True
            raise _Timeout

    # -- threat space -------------------------------------------------------------------------

    def threat_win(self, attacker: int, depth: int, threes: bool) -> int:
        """A first move that wins for ``attacker`` (to move) by continuous threats, or -1.

        Every attacker move makes a four (``threes`` False: VCF) or a four or a three (``threes``
        True: VCT). A four leaves the defender one reply; a three leaves the replies that touch
        a window of the threat, or that make a four of his own, and each is tried. Sound: a
        sequence found here wins against any defence.
        """
        self.tick()
        board = self.board
        defender = 1 - attacker
        wins = board.wins(attacker)
        if wins:
            return (wins & -wins).bit_length() - 1
        if depth <= 0:
            return -1
        key = (board.stones[0], board.stones[1], attacker, depth, threes)
        known = self.threat_memo.get(key)
        if known is not None:
            return known
        found = -1
        blocks = board.wins(defender)
        if blocks & (blocks - 1):
            candidates: list[int] = []
        elif blocks:
            candidates = [blocks.bit_length() - 1]
        else:
            fours = board.four_makers(attacker)
            candidates = iter_bits(fours)
            if threes:
                candidates += self._three_makers(attacker, fours)
        for bit in candidates:
            board.play(bit, attacker)
            try:
                if self._defends_in_vain(attacker, depth - 1, threes):
                    found = bit
            finally:
                board.undo(bit, attacker)
            if found >= 0:
                break
        self.threat_memo[key] = found
        return found

    def _three_makers(self, attacker: int, exclude: int) -> list[int]:
        """Cells (not in ``exclude``) where a stone of ``attacker`` creates a double point: the
        best few, by pattern value."""
        board = self.board
        near = 0
        for window in board.threes[attacker]:
            near |= self.table.masks[window]
        # A new three needs a window with k-3 stones; cells next to the attacker's stones hold them.
        stones = board.stones[attacker]
        for bit in iter_bits(stones):
            near |= self.table.near[bit]
        near &= ~board.occupied & ~exclude
        found: list[tuple[int, int]] = []
        for bit in iter_bits(near):
            self.tick()  # each trial costs about as much as a node
            board.play(bit, attacker)
            if board.double_points(attacker):
                found.append((board.value(bit, attacker), bit))
            board.undo(bit, attacker)
        found.sort(reverse=True)
        return [bit for _, bit in found[:VCT_WIDTH]]

    def _defends_in_vain(self, attacker: int, depth: int, threes: bool) -> bool:
        """Whether every reply of the defender (to move) still loses to the attacker's threats."""
        board = self.board
        defender = 1 - attacker
        if board.wins(defender):
            return False
        wins = board.wins(attacker)
        if wins & (wins - 1):
            return True
        if wins:
            replies = [wins.bit_length() - 1]
        else:
            if not threes:
                return False
            doubles = board.double_points(attacker)
            if not doubles:
                return False
            occupied, masks = board.occupied, self.table.masks
            spoil = 0
            for window in board.threes[attacker]:
                if masks[window] & doubles:
                    spoil |= masks[window]
            # Any other reply leaves every such window, hence the double point, intact; a four
            # of his own is the only other way to gain the tempo back.
            replies = iter_bits((spoil | board.four_makers(defender)) & ~occupied)
        for bit in replies:
            board.play(bit, defender)
            try:
                if self.threat_win(attacker, depth, threes) < 0:
                    return False
            finally:
                board.undo(bit, defender)
        return True

    def threat_search(self, attacker: int, max_depth: int, threes: bool) -> int:
        """Iteratively deepened :meth:`threat_win`: the shortest forced win first."""
        for depth in range(1, max_depth + 1):
            found = self.threat_win(attacker, depth, threes)
            if found >= 0:
                return found
        return -1

    # -- alpha-beta ---------------------------------------------------------------------------

    def ordered(self, player: int, candidates: int, width: int) -> list[int]:
        board = self.board
        scored = sorted(
            ((board.value(bit, player), bit) for bit in iter_bits(candidates)), reverse=True
        )
        return [bit for _, bit in scored[:width]]

    def evaluate(self, player: int) -> int:
        score = self.board.score
        return score if player == 0 else -score

    def negamax(
        self, player: int, depth: int, alpha: int, beta: int, ply: int, candidates: int
    ) -> int:
        self.tick()
        board = self.board
        other = 1 - player
        if board.wins(player):
            return WIN - ply
        occupied = board.occupied
        if occupied.bit_count() == self.cells:
            return 0
        blocks = board.wins(other)
        if blocks & (blocks - 1):
            return -(WIN - ply - 1)
        key = (board.stones[0], board.stones[1])
        entry = self.tt.get(key)
        tt_move = -1
        if entry is not None:
            tt_depth, flag, value, tt_move = entry
            usable = tt_depth >= depth and abs(value) < WIN // 2
            if usable and (
                flag == 0 or (flag > 0 and value >= beta) or (flag < 0 and value <= alpha)
            ):
                return value
        if blocks:
            # Forced reply: searched without spending depth, so a chain of fours is read out.
            moves = [blocks.bit_length() - 1]
        elif depth <= 0:
            return self.evaluate(player)
        else:
            moves = self.ordered(player, candidates & ~occupied, INNER_WIDTH)
            if tt_move >= 0 and tt_move in moves:
                moves.remove(tt_move)
                moves.insert(0, tt_move)
        original_alpha = alpha
        best, best_move = -WIN, moves[0]
        next_depth = depth if blocks else depth - 1
        for bit in moves:
            board.play(bit, player)
            try:
                value = -self.negamax(
                    other, next_depth, -beta, -alpha, ply + 1, candidates | self.table.near[bit]
                )
            finally:
                board.undo(bit, player)
            if value > best:
                best, best_move = value, bit
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        flag = -1 if best <= original_alpha else (1 if best >= beta else 0)
        self.tt[key] = (depth, flag, best, best_move)
        return best

    def root(self, player: int, moves: list[int], candidates: int) -> int:
        """Iterative deepening over ``moves``; the best move of the deepest finished iteration
        (or of the unfinished one once its first move was searched)."""
        board = self.board
        best_move = moves[0]
        # The choice of the deepest iteration that still saw a way not to lose: when a deeper
        # one proves every move lost, that choice asks the most of the opponent in practice.
        hopeful = -1
        depth = 1
        try:
            while depth <= self.cells:
                alpha, beta = -WIN - 1, WIN + 1
                current, current_value = -1, -WIN - 1
                for bit in moves:
                    board.play(bit, player)
                    try:
                        value = -self.negamax(
                            1 - player,
                            depth - 1,
                            -beta,
                            -alpha,
                            1,
                            candidates | self.table.near[bit],
                        )
                    finally:
                        board.undo(bit, player)
                    if value > current_value:
                        current, current_value = bit, value
                        alpha = max(alpha, value)
                        if value > -WIN // 2 or hopeful < 0:
                            best_move = current
                moves.remove(current)
                moves.insert(0, current)
                self.depth = depth
                if current_value >= WIN // 2 or depth >= self.cells - board.occupied.bit_count():
                    break
                if current_value <= -WIN // 2:
                    if hopeful >= 0:
                        best_move = hopeful
                    break
                hopeful = current
                depth += 1
        except _Timeout:
            pass
        return best_move


def hard_move(p: Position, deadline: float) -> int:
    """HARD's move on a free board, found before ``deadline`` (a ``time.perf_counter()`` value)
    whenever the position allows (the move is always legal; the last step may overrun by the
    time of one clock interval)."""
    rules = p.rules
    geo = p.geometry
    if rules.cells <= TABLE_CELLS:
        return _table_move(p)
    table = windows(rules)
    player = p.to_move - 1
    other = 1 - player
    board = _Board(table, p.stones)
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
    if not p.moves:
        centre = max(range(rules.cells), key=lambda c: table.centrality[geo.cell_bits[c]])
        return centre
    search = _Search(table, board, started + THREAT_SHARE * budget)
    candidates = 0
    for bit in iter_bits(board.occupied):
        candidates |= table.near[bit]
    candidates &= ~board.occupied
    # Our forced wins: by fours, then by fours and threes.
    try:
        for threes, depth in ((False, 12), (True, 5)):
            found = search.threat_search(player, depth, threes)
            if found >= 0:
                return geo.cell_of_bit(found)
    except _Timeout:
        pass
    moves = search.ordered(player, candidates, ROOT_WIDTH)
    # The opponent's forced wins, as if we passed: keep only the moves that refute them.
    search.set_deadline(started + (THREAT_SHARE + 0.15) * budget)
    try:
        for threes, depth in ((False, 10), (True, 4)):
            search.threat_memo.clear()
            if search.threat_search(other, depth, threes) < 0:
                continue
            refuting = _refutations(search, player, moves, candidates, depth, threes)
            if not refuting:
                # Lost against best play; most opponents are not that good.
                return geo.cell_of_bit(_swindle(search, player, candidates, deadline))
            moves = refuting
            break
    except _Timeout:
        pass
    search.set_deadline(deadline)
    search.threat_memo.clear()
    best = search.root(player, list(moves), candidates)
    return geo.cell_of_bit(best)


def _refutations(
    search: _Search, player: int, moves: list[int], candidates: int, depth: int, threes: bool
) -> list[int]:
    """The moves (among ``moves``, our fours and the cells near the threat) after which the
    opponent no longer has a forced win of this kind."""
    board = search.board
    other = 1 - player
    pool = list(moves)
    extra = board.four_makers(player) | board.four_makers(other) | board.double_points(other)
    for bit in iter_bits(extra & candidates):
        if bit not in pool:
            pool.append(bit)
    refuting = []
    for bit in pool:
        board.play(bit, player)
        try:
            # After a four of ours he must answer it first; threat_win handles that forced reply.
            if search.threat_search(other, depth, threes) < 0:
                refuting.append(bit)
        finally:
            board.undo(bit, player)
    return refuting


def _swindle(search: _Search, player: int, candidates: int, deadline: float) -> int:
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
            except _Timeout:
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

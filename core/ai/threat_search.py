"""The search for big free boards: an incrementally evaluated board, threat-space search (forced
wins by fours and threes), and an iterative-deepening alpha-beta with a pattern evaluation."""

from __future__ import annotations

import time

from core.ai.heuristic import Windows
from core.games.bitboard import iter_bits

# How often (in nodes) the searches look at the clock: a threat-search node can cost a few ms
# on a big board, so often (a clock read is ~0.1 µs, negligible next to a node).
CLOCK_EVERY = 16
# Width of the alpha-beta tree: candidate moves kept at the root and below it.
ROOT_WIDTH = 14
INNER_WIDTH = 8
VCT_WIDTH = 8
WIN = 1 << 90  # above any evaluation (window weights are capped at 2**60 each)


class DeadlinePassed(Exception):
    """The deadline passed inside a search."""


# --------------------------------------------------------------------------------------------
# Big boards: an incrementally evaluated board, threat-space search, alpha-beta
# --------------------------------------------------------------------------------------------


class Board:
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


class Search:
    """Threat-space search and alpha-beta over one :class:`Board`."""

    def __init__(self, table: Windows, board: Board, deadline: float) -> None:
        self.table = table
        self.board = board
        self.deadline = deadline
        self.expired = False
        self.nodes = 0
        self.depth = 0  # deepest finished alpha-beta iteration
        self.cells = table.rules.cells
        self.tt: dict[tuple[int, int], tuple[int, int, int, int]] = {}
        # (stones, attacker, threes) -> (winning move, depth it wins within) or (-1, depth it
        # does not win within)
        self.threat_memo: dict[tuple[int, int, int, bool], tuple[int, int]] = {}

    def set_deadline(self, deadline: float) -> None:
        self.deadline = deadline
        self.expired = False

    def tick(self) -> None:
        self.nodes += 1
        # Once expired, every further node stops at once: callers that catch the timeout and
        # go on (the lost-position defence) must not get another clock interval each.
        if self.expired or (self.nodes % CLOCK_EVERY == 0 and time.perf_counter() > self.deadline):
            self.expired = True
            raise DeadlinePassed

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
        key = (board.stones[0], board.stones[1], attacker, threes)
        known = self.threat_memo.get(key)
        if known is not None:
            # A win within some depth is one within any more; no win within some depth, none
            # within less: the iterations of threat_search reuse each other's proofs.
            move, proven = known
            if (move >= 0 and proven <= depth) or (move < 0 and proven >= depth):
                return move
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
                candidates += self.three_makers(attacker, fours)
        for bit in candidates:
            board.play(bit, attacker)
            try:
                if self._defends_in_vain(attacker, depth - 1, threes):
                    found = bit
            finally:
                board.undo(bit, attacker)
            if found >= 0:
                break
        if found >= 0 or known is None or known[0] < 0:
            self.threat_memo[key] = (found, depth)
        return found

    def three_makers(self, attacker: int, exclude: int) -> list[int]:
        """Cells (not in ``exclude``, the attacker's four makers) where a stone of ``attacker``
        creates a double point: the best few, by pattern value."""
        board = self.board
        masks = self.table.masks
        near = 0
        for window in board.threes[attacker]:
            near |= masks[window]
        # A new three needs a window with k-3 stones; cells next to the attacker's stones hold them.
        stones = board.stones[attacker]
        for bit in iter_bits(stones):
            near |= self.table.near[bit]
        occupied = board.occupied
        near &= ~occupied & ~exclude
        # Where each three of his now would leave its last cell: a double point is a cell that
        # two threes would complete differently.
        completes: dict[int, int] = {}
        for window in board.threes[attacker]:
            empty = masks[window] & ~occupied
            low = empty & -empty
            for here, there in ((low, empty ^ low), (empty ^ low, low)):
                if completes.setdefault(here, there) != there:
                    return self._three_makers_by_trial(attacker, near)
        mine, theirs = board.counts[attacker], board.counts[1 - attacker]
        through = self.table.through
        target = board.k - 3
        k1 = board.k - 1
        weights = board.weights
        found: list[tuple[int, int]] = []
        for bit in iter_bits(near):
            self.tick()  # a few dozen cells a call: the clock is read among them too
            # A cell outside every three (it is no four maker) leaves them as they are: only the
            # windows through it that it turns into threes can make a new double point.
            free = ~occupied & ~(1 << bit)
            made: dict[int, int] = {}
            for window in through[bit]:
                if mine[window] != target or theirs[window]:
                    continue
                empty = masks[window] & free
                low = empty & -empty
                if self._doubles(completes, made, low, empty ^ low):
                    # Ranked as the trial ranks them: valued with the stone on the board.
                    value = sum(
                        weights[mine[w] + 2] for w in through[bit] if not theirs[w] and mine[w] < k1
                    )
                    found.append((value, bit))
                    break
        found.sort(reverse=True)
        return [bit for _, bit in found[:VCT_WIDTH]]

    @staticmethod
    def _doubles(completes: dict[int, int], made: dict[int, int], low: int, high: int) -> bool:
        """Records a new three whose empty cells are ``low`` and ``high``; whether one of them is
        now completed differently by two threes (old ones in ``completes``, new in ``made``)."""
        for here, there in ((low, high), (high, low)):
            if completes.get(here, there) != there or made.setdefault(here, there) != there:
                return True
        return False

    def _three_makers_by_trial(self, attacker: int, near: int) -> list[int]:
        """:meth:`three_makers` when he already has a double point: each cell tried on the
        board (any cell then keeps one; the fours are tried first anyway)."""
        board = self.board
        found: list[tuple[int, int]] = []
        for bit in iter_bits(near):
            self.tick()
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
        except DeadlinePassed:
            pass
        return best_move

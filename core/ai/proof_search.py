"""Forced wins by fours and threes (VCT), proven by proof-number search.

The tree is that of :meth:`core.ai.threat_search.Search.threat_win` with threes: the attacker
plays fours and moves that make a double point (an open three or a four-three in the making),
the defender answers a four by its one block, and a three by a stone in one of the windows of
the threat or a four of his own. A fixed-depth search reads every branch to the same depth; a
proof-number search (Allis, the search that solved gomoku) grows the tree where a proof, or a
refutation, looks cheapest: the branch with the fewest defender replies left to answer. It so
reads wins twice as deep as the fixed-depth search in the same time, and any win it returns is
proven against every defence.

Each node holds its *proof number* (how many leaves at least must still be proven to prove it)
and its *disproof number*. Solved positions are remembered across searches in the search's
memo, with the depth they were solved within, like the fixed-depth search's memo.
"""

from __future__ import annotations

from core.ai.threat_search import Search
from core.games.bitboard import iter_bits

INFINITE = 1 << 30
# The attacker's moves a proof may hold at most (fours and threes; a win within is usually
# found long before, the bound keeps a hopeless search from running down one long line).
MAX_DEPTH = 14


class _Node:
    """A position in the tree. At attacker nodes (to move: the attacker) ``depth`` is the number
    of attacker moves left; a defender node keeps that of its parent minus the move made."""

    __slots__ = ("children", "depth", "dn", "move", "pn")

    def __init__(self, move: int, depth: int, pn: int = 1, dn: int = 1) -> None:
        self.move = move
        self.depth = depth
        self.pn = pn
        self.dn = dn
        self.children: list[_Node] | None = None


class ProofSearch:
    """Proof-number search for wins by threats, on the board of a :class:`Search` (its clock
    and its move generators). Not thread-safe, like the search it reads."""

    def __init__(self, search: Search) -> None:
        self.search = search
        self.board = search.board
        # (stones of player 0, of player 1, attacker, whether the attacker is to move) ->
        # (proven, depth solved within)
        self.memo: dict[tuple[int, int, int, bool], tuple[bool, int]] = {}
        self.expanded = 0  # expansions of the last prove()
        self.complete = False  # whether the last prove() answered (proof or disproof)

    def prove(self, attacker: int, max_nodes: int, depth: int = MAX_DEPTH) -> int:
        """A first move that wins for ``attacker`` (to move) by fours and threes, or -1 when
        none was proven (none exists within ``depth`` attacker moves if :attr:`complete`, else
        the node budget ran out). Raises DeadlinePassed when the search's deadline passes."""
        board = self.board
        defender = 1 - attacker
        self.expanded = 0
        self.complete = False
        root = _Node(-1, depth)
        self._expand(root, attacker, True)
        # The path from the root to the node being grown. After an expansion the search goes
        # back up only as far as numbers change: above, the same path is still the one to grow
        # (Allis's "current node" improvement; replaying from the root doubled the cost).
        path = [root]
        try:
            while root.pn and root.dn and self.expanded < max_nodes:
                node = path[-1]
                while (children := node.children) is not None:
                    attacking = len(path) % 2 == 1
                    node = min(children, key=_by_proof if attacking else _by_disproof)
                    board.play(node.move, attacker if attacking else defender)
                    path.append(node)
                self._expand(node, attacker, len(path) % 2 == 1)
                self.expanded += 1
                if node.pn == 0 or node.dn == 0:
                    self._remember(node, attacker, len(path) % 2 == 1)
                # Up while the numbers change (a solved node is remembered as it is left).
                while len(path) > 1:
                    parent = path[-2]
                    before = (parent.pn, parent.dn)
                    _update(parent, len(path) % 2 == 0)
                    if (parent.pn, parent.dn) == before and node.pn and node.dn:
                        break
                    board.undo(node.move, attacker if len(path) % 2 == 0 else defender)
                    path.pop()
                    node = parent
                    if len(path) > 1 and (node.pn == 0 or node.dn == 0):
                        self._remember(node, attacker, len(path) % 2 == 1)
        finally:
            for index in range(len(path) - 1, 0, -1):
                board.undo(path[index].move, attacker if index % 2 else defender)
        if root.pn == 0:
            self.complete = True
            assert root.children is not None
            return next(child.move for child in root.children if child.pn == 0)
        self.complete = root.dn == 0
        return -1

    def _remember(self, node: _Node, attacker: int, at_attacker: bool) -> None:
        stones = self.board.stones
        key = (stones[0], stones[1], attacker, at_attacker)
        known = self.memo.get(key)
        proven = node.pn == 0
        # A proof within some depth holds within more; a disproof within less: keep the
        # most useful of each.
        if known is None or (
            known[0] == proven and (node.depth < known[1] if proven else node.depth > known[1])
        ):
            self.memo[key] = (proven, node.depth)

    def _known(self, attacker: int, at_attacker: bool, depth: int) -> bool | None:
        stones = self.board.stones
        known = self.memo.get((stones[0], stones[1], attacker, at_attacker))
        if known is None:
            return None
        proven, solved_within = known
        if proven and solved_within <= depth:
            return True
        if not proven and solved_within >= depth:
            return False
        return None

    def _expand(self, node: _Node, attacker: int, attacking: bool) -> None:
        """Creates the children of a leaf (each valued by a look at its position), or solves
        the leaf when it has none."""
        self.search.tick()
        board = self.board
        defender = 1 - attacker
        if attacking and board.wins(attacker):
            # Only a root gets here (other nodes are solved when created): the win is its move.
            wins = board.wins(attacker)
            node.children = [_Node(wins.bit_length() - 1, node.depth - 1, 0, INFINITE)]
            node.pn, node.dn = 0, INFINITE
            return
        moves = self._attacks(node, attacker) if attacking else self._replies(attacker)
        if not moves:
            node.pn, node.dn = (INFINITE, 0) if attacking else (0, INFINITE)
            return
        children: list[_Node] = []
        mover = attacker if attacking else defender
        child_depth = node.depth - 1 if attacking else node.depth
        for bit in moves:
            board.play(bit, mover)
            try:
                child = _Node(bit, child_depth)
                known = self._known(attacker, not attacking, child_depth)
                if known is not None:
                    child.pn, child.dn = (0, INFINITE) if known else (INFINITE, 0)
                elif attacking:
                    self._value_reply_node(child, attacker)
                else:
                    self._value_attack_node(child, attacker)
            finally:
                board.undo(bit, mover)
            children.append(child)
            # One proven attack proves the node, one refuting reply disproves it.
            if (attacking and child.pn == 0) or (not attacking and child.dn == 0):
                break
        node.children = children
        _update(node, attacking)

    def _attacks(self, node: _Node, attacker: int) -> list[int]:
        """The attacker's moves at an attacker node: none when he has no move left."""
        board = self.board
        if node.depth <= 0:
            return []
        blocks = board.wins(1 - attacker)
        if blocks & (blocks - 1):
            return []
        if blocks:
            return [blocks.bit_length() - 1]
        doubles = board.double_points(attacker)
        if doubles:
            return [doubles.bit_length() - 1]  # two fives at once next: the child is proven
        fours = board.four_makers(attacker)
        return iter_bits(fours) + self.search.three_makers(attacker, fours)

    def _replies(self, attacker: int) -> list[int]:
        """The defender's replies that are not lost at once (the caller has ruled out a win
        of his at once and a double win of the attacker's)."""
        board = self.board
        wins = board.wins(attacker)
        if wins:
            return [wins.bit_length() - 1]
        doubles = board.double_points(attacker)
        masks = self.search.table.masks
        spoil = 0
        for window in board.threes[attacker]:
            if masks[window] & doubles:
                spoil |= masks[window]
        # Any other reply leaves the double point, and a four of his own is the only other
        # way to gain the tempo back.
        return iter_bits((spoil | board.four_makers(1 - attacker)) & ~board.occupied)

    def _value_reply_node(self, child: _Node, attacker: int) -> None:
        """The defender to move after an attack: solved when he wins at once, or the attacker
        has two wins, or the attack was no threat; else more replies, more to prove."""
        board = self.board
        if board.wins(1 - attacker):
            child.pn, child.dn = INFINITE, 0
            return
        wins = board.wins(attacker)
        if wins & (wins - 1):
            child.pn, child.dn = 0, INFINITE
        elif wins:
            child.pn, child.dn = (1, 1) if child.depth > 0 else (INFINITE, 0)
        elif child.depth <= 0 or not board.double_points(attacker):
            # No threat (a forced block that made none), or no move left to use one.
            child.pn, child.dn = INFINITE, 0
        else:
            child.pn, child.dn = 3, 1

    def _value_attack_node(self, child: _Node, attacker: int) -> None:
        """The attacker to move after a reply: solved when he wins at once or has a double
        point (and the defender no four), or the defender has two wins."""
        board = self.board
        if board.wins(attacker):
            child.pn, child.dn = 0, INFINITE
            return
        blocks = board.wins(1 - attacker)
        if blocks & (blocks - 1) or child.depth <= 0:
            child.pn, child.dn = INFINITE, 0
        elif not blocks and board.double_points(attacker):
            # Played, it makes two fives at once, and he has no four to gain the tempo.
            child.pn, child.dn = 0, INFINITE


def _by_proof(node: _Node) -> int:
    return node.pn


def _by_disproof(node: _Node) -> int:
    return node.dn


def _update(node: _Node, attacking: bool) -> None:
    """A node's numbers from its children's: at an attacker node one child's proof suffices and
    every child must be disproven, at a defender node the other way round."""
    children = node.children
    assert children is not None
    if attacking:
        node.pn = min(child.pn for child in children)
        node.dn = min(INFINITE, sum(child.dn for child in children))
    else:
        node.pn = min(INFINITE, sum(child.pn for child in children))
        node.dn = min(child.dn for child in children)


def shortest_win(proof: ProofSearch, attacker: int, max_depth: int = MAX_DEPTH) -> int:
    """:meth:`ProofSearch.prove` at growing depths: the first move of a shortest win by fours
    and threes within ``max_depth`` attacker moves, or -1. The depths share the memo, so each
    reuses the earlier ones' disproofs; raises DeadlinePassed like ``prove``."""
    for depth in range(1, max_depth + 1):
        found = proof.prove(attacker, INFINITE, depth)
        if found >= 0:
            return found
    return -1

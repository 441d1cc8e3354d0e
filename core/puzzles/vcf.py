"""Wins by continuous fours (VCF) on free boards, proven by a search of their own.

The generator finds candidates with the engine's threat search
(:meth:`core.ai.threat_search.Search.threat_search`); every puzzle is then proven here, by a
search that shares none of its code: the attacker plays only fours (or, when the defender has a
four, its one block, which must itself be a four), the defender only the forced block, and a
block that makes the defender's five ends the line. Complete for that class of moves, so it
also proves that no other first move wins by fours within N.
"""

from __future__ import annotations

from core.ai.heuristic import windows
from core.games.bitboard import iter_bits
from core.games.position import Position
from core.games.rules import Rules

FREE_15 = Rules(15, 15, 5, gravity=False)
MAX_FOURS = 8  # the attacker's moves, the five included


def win_bits(p: Position, player: int) -> int:
    """Empty cells where ``player`` (1 or 2) would complete a line now."""
    table = windows(p.rules)
    mine, theirs = p.stones[player - 1], p.stones[2 - player]
    k = p.rules.k
    found = 0
    for mask in table.masks:
        if not mask & theirs and (mask & mine).bit_count() == k - 1:
            found |= mask & ~mine
    return found


def four_makers(p: Position, player: int) -> int:
    """Empty cells where ``player`` would make a four (a window one stone short of a five)."""
    table = windows(p.rules)
    mine, theirs = p.stones[player - 1], p.stones[2 - player]
    k = p.rules.k
    found = 0
    for mask in table.masks:
        if not mask & theirs and (mask & mine).bit_count() == k - 2:
            found |= mask & ~mine
    return found & ~p.occupied


def cell_of(p: Position, bit: int) -> int:
    """The move (cell number) of bit index ``bit``."""
    return p.geometry.cell_bits.index(bit)


def first_fours(p: Position) -> list[int]:
    """The cells (moves) the side to move may start a VCF with: a win, else the one block of
    the defender's four, else every cell that makes a four."""
    me, them = p.to_move, 3 - p.to_move
    wins = win_bits(p, me)
    if wins:
        return [cell_of(p, bit) for bit in iter_bits(wins)]
    blocks = win_bits(p, them)
    if blocks & (blocks - 1):
        return []
    candidates = blocks or four_makers(p, me)
    return [cell_of(p, bit) for bit in iter_bits(candidates)]


def wins_within(p: Position, fours: int, memo: dict[tuple[tuple[int, int], int], bool]) -> bool:
    """Whether the side to move of ``p`` wins by continuous fours in at most ``fours`` moves."""
    if fours <= 0 or p.is_over:
        return False
    key = (p.stones, fours)
    known = memo.get(key)
    if known is None:
        known = any(_move_wins(p, move, fours, memo) for move in first_fours(p))
        memo[key] = known
    return known


def _move_wins(
    p: Position, move: int, fours: int, memo: dict[tuple[tuple[int, int], int], bool]
) -> bool:
    """Whether ``move`` (by the side to move) starts a win by fours within ``fours`` moves."""
    child = p.play(move)
    if child.winner is not None:
        return True
    me = p.to_move
    threats = win_bits(child, me)
    if not threats or win_bits(child, 3 - me) or fours < 2:
        return False  # not a four, or the defender wins first
    if threats & (threats - 1):
        return True  # two winning cells: the defender blocks one, the other wins
    reply = child.play(cell_of(child, threats.bit_length() - 1))
    return reply.winner is None and wins_within(reply, fours - 1, memo)


def shortest(p: Position, most: int = MAX_FOURS) -> int | None:
    """The fewest moves the side to move needs to win by fours, or None within ``most``."""
    memo: dict[tuple[tuple[int, int], int], bool] = {}
    for fours in range(1, most + 1):
        if wins_within(p, fours, memo):
            return fours
    return None


def winning_firsts(p: Position, fours: int) -> list[int]:
    """Every first move that wins by fours within ``fours`` moves."""
    memo: dict[tuple[tuple[int, int], int], bool] = {}
    return [move for move in first_fours(p) if _move_wins(p, move, fours, memo)]


def still_wins(p: Position, move: int, fours: int) -> bool:
    """Whether ``move`` keeps a win by fours within ``fours`` moves (an answer's check)."""
    return _move_wins(p, move, fours, {})


def forced_reply(child: Position, attacker: int, key: int) -> int:
    """The defender's answer after the attacker's move: win now, else block a four, else take
    ``key`` (the puzzle's first cell, where the attacker's line starts) when it is still free,
    else the lowest free cell."""
    defender = 3 - attacker
    for player in (defender, attacker):
        cells = win_bits(child, player)
        if cells:
            return cell_of(child, (cells & -cells).bit_length() - 1)
    legal = child.legal_moves()
    return key if key in legal else legal[0]

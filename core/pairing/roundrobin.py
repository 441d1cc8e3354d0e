"""A round robin's schedule by Berger tables, pure (no I/O).

The tables are FIDE's (Handbook C.05, General Regulations for Competitions, Annex 1, "Berger
Tables for Round-Robin Tournaments"); tests/core/pairing/test_roundrobin.py checks ours against
its tables for 4, 6 and 8 players, board by board with colours. With an odd number of players,
the last number is a bye: whoever it meets sits the round out.

How they are built (our reading of the tables): the players are numbered 1..n by their draw,
n even. In round r, the player p with 2p = r + 1 (mod n - 1, residues 1..n-1) meets n on the first
board (n has white in even rounds); board k meets p + k - 1 and p - k + 1 (same residues), the
lower number with white when the two numbers differ by an odd amount.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def berger_numbers(n: int) -> list[list[tuple[int, int]]]:
    """The rounds for players numbered 1..``n`` (even), each a list of (white, black) boards."""
    if n < 2 or n % 2:
        raise ValueError(f"a Berger table needs an even number of players, not {n}")
    m = n - 1

    def residue(x: int) -> int:
        return (x - 1) % m + 1

    rounds = []
    for r in range(1, n):
        p = next(i for i in range(1, n) if (2 * i - (r + 1)) % m == 0)
        boards = [(n, p) if r % 2 == 0 else (p, n)]
        for k in range(2, n // 2 + 1):
            a, b = residue(p + k - 1), residue(p - k + 1)
            low, high = min(a, b), max(a, b)
            boards.append((low, high) if (high - low) % 2 else (high, low))
        rounds.append(boards)
    return rounds


def round_robin(players: Sequence[T]) -> list[list[tuple[T, T]]]:
    """Each round's games, (first player, second player), for ``players`` in their drawn order;
    with an odd count, the player paired with the bye is left out of that round."""
    count = len(players) + len(players) % 2
    return [
        [
            (players[white - 1], players[black - 1])
            for white, black in boards
            if white <= len(players) and black <= len(players)
        ]
        for boards in berger_numbers(count)
    ]

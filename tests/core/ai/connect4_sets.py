"""Pascal Pons' six Connect Four test sets (tests/data/connect4), for the tests and benchmarks.

A missing file raises: the sets belong to the repository, so their absence is a failure.
"""

from __future__ import annotations

from pathlib import Path

from core.games import CONNECT_FOUR, Position

DATA = Path(__file__).resolve().parents[2] / "data" / "connect4"
SETS = ("L3_R1", "L2_R1", "L2_R2", "L1_R1", "L1_R2", "L1_R3")


def load_set(name: str, count: int | None = None, skip: int = 0) -> list[tuple[Position, int]]:
    """The positions of set ``name`` with their exact scores: ``count`` of them (all by
    default) after the first ``skip``.

    Raises:
        FileNotFoundError: the set is not in tests/data/connect4.
    """
    path = DATA / f"Test_{name}"
    positions = []
    with path.open() as lines:
        for index, line in enumerate(lines):
            if index < skip:
                continue
            moves, score = line.split()
            positions.append(
                (Position.from_moves(CONNECT_FOUR, [int(c) - 1 for c in moves]), int(score))
            )
            if count is not None and len(positions) == count:
                break
    return positions

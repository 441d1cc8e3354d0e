"""The puzzle set shipped in the package (``data/``, see its README), and the daily choice."""

from __future__ import annotations

import datetime
import functools
import hashlib
from importlib import resources

from core.puzzles.puzzle import Puzzle, from_line

CONNECT_FOUR_SET = "connect4.csv"
VCF_SET = "vcf.csv"


def connect_four() -> tuple[Puzzle, ...]:
    """The shipped Connect Four puzzles, in the file's order (by id).

    Raises:
        FileNotFoundError: the package was installed without its data.
    """
    return _load(CONNECT_FOUR_SET)


def vcf() -> tuple[Puzzle, ...]:
    """The shipped VCF puzzles (15x15, five in a row), in the file's order (by id)."""
    return _load(VCF_SET)


@functools.cache
def _load(name: str) -> tuple[Puzzle, ...]:
    text = resources.files(__package__).joinpath("data", name).read_text("utf-8")
    return tuple(from_line(line) for line in text.splitlines() if line.strip())


def daily(day: datetime.date, puzzles: tuple[Puzzle, ...]) -> Puzzle:
    """The puzzle of ``day`` (a UTC date): the same everywhere for the same set.

    A digest of the date picks it, so consecutive days do not walk the set in order.

    Raises:
        ValueError: the set is empty.
    """
    if not puzzles:
        raise ValueError("no puzzles to choose from")
    digest = hashlib.sha256(f"daily:{day.isoformat()}".encode()).digest()
    return puzzles[int.from_bytes(digest[:8], "big") % len(puzzles)]


@functools.cache
def _index() -> dict[str, Puzzle]:
    return {puzzle.id: puzzle for puzzle in (*connect_four(), *vcf())}


def by_id(puzzle_id: str) -> Puzzle | None:
    """The shipped puzzle of ``puzzle_id`` (either set), or None."""
    return _index().get(puzzle_id)


def every() -> tuple[Puzzle, ...]:
    """Both shipped sets: the puzzles ``/puzzle next`` chooses from."""
    return (*connect_four(), *vcf())

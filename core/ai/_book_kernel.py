"""The opening book's part of the search kernel: keys, binary search, score conversion.

Written, like :mod:`core.ai._solver_kernel`, in the subset of Python that numba compiles, and
compiled with it in one namespace (:mod:`core.ai._solver_jit`).

The book is ``book_12ply_distances.dat`` of the MIT-licensed ``bitbully-databases`` package,
read in place as bytes (see :mod:`core.ai.book`). Each record is 5 bytes: a big-endian signed
32-bit key, then a signed byte. Records are sorted by key (signed order).

The key of a position (the package's ``_to_huffman``): columns from left to right, each from
the bottom up, ``10`` for a stone of the first player, ``11`` for one of the second, ``0`` at the
end of every column (full ones included), and one more ``0`` at the end: 12 stones make 32 bits.
A position and its mirror image share one record, stored under either key, so a look-up tries
both. Positions where the side to move can win at once are absent (the search never looks those
up: it wins first); every other position with 12 stones is present.

The value is signed from the side to move's point of view (always the first player after 12
stones): 0 a draw, ``100 - d`` a win and ``-(100 - d)`` a loss where ``d`` is the number of plies
still to be played, the winning stone included, under best play by both sides.
"""

from __future__ import annotations

from typing import Any

BOOK_RECORD = 5  # bytes per record
BOOK_DISTANCE_BASE = 100  # a value is +-(BOOK_DISTANCE_BASE - plies to the end)
BOOK_MISSING = 1 << 20  # returned for a position the book does not hold (beyond any score)


def book_score(value: Any, nb: Any, cells: Any) -> Any:
    """A book value converted to docs/design.md's score for the side to move after ``nb`` stones.

    The winning stone is stone number ``nb + d``, so ``nb + d - 1`` stones lie on the board
    before it: the winner's score is ``(cells + 1 - (nb + d - 1)) // 2``.
    """
    if value == 0:
        return 0
    distance = BOOK_DISTANCE_BASE - abs(value)
    score = (cells + 2 - nb - distance) // 2
    return score if value > 0 else -score


def book_key(first: Any, mask: Any, height: Any, cols: Any, mirror: Any) -> Any:
    """The book's key of a position (as an unsigned 32-bit number), or of its mirror image.

    ``first`` holds the first player's stones, ``mask`` every stone, in the bitboard layout of
    :mod:`core.games.bitboard` (``height`` bits per column, the bottom cell first).
    """
    key = 0
    for i in range(cols):
        col = cols - 1 - i if mirror else i
        for row in range(height - 1):
            bit = 1 << (col * height + row)
            if not mask & bit:
                break
            key = (key << 2) | (2 if first & bit else 3)
        key <<= 1
    return key << 1


def book_find(book: Any, key: Any) -> Any:
    """The value stored under ``key`` (unsigned 32-bit), or BOOK_MISSING."""
    # the records are sorted as signed numbers
    target = key - (1 << 32) if key >= 1 << 31 else key
    low = 0
    high = len(book) // BOOK_RECORD - 1
    while low <= high:
        mid = (low + high) // 2
        at = mid * BOOK_RECORD
        found = (
            (int(book[at]) << 24)
            | (int(book[at + 1]) << 16)
            | (int(book[at + 2]) << 8)
            | int(book[at + 3])
        )
        if found >= 1 << 31:
            found -= 1 << 32
        if found == target:
            value = int(book[at + 4])
            return value - 256 if value >= 128 else value
        if found < target:
            low = mid + 1
        else:
            high = mid - 1
    return BOOK_MISSING


def book_probe(cur: Any, mask: Any, nb: Any, height: Any, cols: Any, book: Any) -> Any:
    """The exact score of a position with the book's number of stones, or BOOK_MISSING."""
    first = cur if nb % 2 == 0 else cur ^ mask
    value = book_find(book, book_key(first, mask, height, cols, False))
    if value == BOOK_MISSING:
        value = book_find(book, book_key(first, mask, height, cols, True))
        if value == BOOK_MISSING:
            return BOOK_MISSING
    return book_score(value, nb, cols * (height - 1))


def book_parent_bound(cur: Any, mask: Any, nb: Any, height: Any, cols: Any, book: Any) -> Any:
    """A lower bound of the score of a position with one stone more than the book's positions.

    Taking back a top stone of the side that played last gives a position of the book (a
    parent) where that side could have played there: the parent's score is at least minus this
    position's, so this position's is at least minus the parent's. Returns the best bound over
    the parents, or -BOOK_MISSING when none is in the book.
    """
    mover = cur ^ mask
    bound = -BOOK_MISSING
    for col in range(cols):
        top = 0
        for row in range(height - 1):
            bit = 1 << (col * height + row)
            if not mask & bit:
                break
            top = bit
        if top and mover & top:
            value = book_probe(mover ^ top, mask ^ top, nb - 1, height, cols, book)
            if value != BOOK_MISSING and -value > bound:
                bound = -value
    return bound


# the functions the compiled copy compiles, callees first
BOOK_FUNCTIONS = ("book_score", "book_key", "book_find", "book_probe", "book_parent_bound")

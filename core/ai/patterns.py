"""Line patterns of k-in-a-row: the vocabulary of the pattern evaluation.

What a stone on an empty cell would make in one direction depends only on the ``k-1`` cells on
each side of it, each empty, the player's own, or blocked (the opponent's stone or the edge).
Each such line is classified once per ``k``, by the classic gomoku terms, derived rather than
listed: a *five* is a run of at least ``k`` through the cell; a *four* leaves one cell that
completes a five (a *flex four*, open, leaves two: it cannot be stopped); a *three* is a line
where one more stone makes a four (a *flex three* where it makes a flex four), and so on down to
ones. The four directions of a cell then give its class for a player (a win, a double threat
that cannot be stopped, a four-three...) and its value, which :mod:`core.ai.pattern_board`
keeps up to date.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache, lru_cache

# Line patterns, weakest first (the codes are their order).
DEAD, B1, F1, B2, F2, B3, F3, B4, F4, F5 = range(10)
CODES = 10
# Cell classes for one player, weakest first: what a stone there makes over its four lines.
(NONE, THREE, DOUBLE_THREE, FOUR, FOUR_THREE, FLEX4, WIN) = range(7)
# Ks the tables are built for (the line tables grow as 3 ** (2k-2): 6,561 lines for k 5; k 6
# would take a second to build, for a search that only five in a row uses so far).
MIN_K, MAX_K = 4, 5

EMPTY, OWN, BLOCKED = 0, 1, 2
# One level down: the pattern a line has when one more stone gives it ``code``.
_DEMOTE = {F4: F3, B4: B3, F3: F2, B3: B2, F2: F1, B2: B1, F1: B1, B1: B1, DEAD: DEAD}
# What a line pattern is worth to its player (by code), per k: a cell's value sums its four
# lines, plus a bonus for its two best lines together (PAIR_BONUS, by their codes, best first).
# k 5: fitted to the results of quiet positions of HARD's self-play on 15x15 (``python -m
# benchmarks gomoku_tune``: 18,839 positions of 2,061 games). k 4 keeps the values set by hand,
# which the fit did not see. Flex fours and fives are never quiet: their values stay set by hand,
# above any shape.
VALUES = {
    4: (0, 2, 6, 10, 40, 60, 300, 400, 2000, 10000),
    5: (0, 5, 5, 8, 9, 99, 252, 337, 2000, 10000),
}
PAIR_BONUS: dict[int, dict[tuple[int, int], int]] = {
    4: {},
    5: {
        (B2, B2): -14,
        (F2, B2): 53,
        (B3, B2): -48,
        (F3, B2): -15,
        (B4, B2): 30,
        (F2, F2): 105,
        (B3, F2): 139,
        (F3, F2): 275,
        (B4, F2): 581,
        (B3, B3): 130,
        (F3, B3): 29,
        (B4, B3): 503,
        (F3, F3): -208,
        (B4, F3): 926,
    },
}
# The threats of a position, as the evaluation sees them: per player, whether some empty cell
# of each of these classes is his (bit ``b`` for the side to move, ``b + len`` for the other).
THREAT_CLASSES = (FLEX4, FOUR_THREE, FOUR, DOUBLE_THREE, THREE)
THREAT_MASKS = 1 << (2 * len(THREAT_CLASSES))
# What a position's threat mask adds to its evaluation, per k: the tempo the line values cannot
# see (an open three of the opponent when we are to move is a block to play, not his flex four).
# k 5: fitted to the results of HARD's self-play on 15x15 (``python -m benchmarks gomoku_tune``:
# 50,618 positions of 3,268 games where the search evaluates at a leaf; on 12,727 positions
# of 817 other games the log loss falls from 0.4243 to 0.3884). Masks it never saw, and other
# ks, add nothing.
# fmt: off
THREAT_VALUES: dict[int, dict[int, int]] = {
    5: {
        0: -94, 4: 213, 16: 275, 20: 322, 24: 304, 28: 272, 128: -529, 132: -512, 144: -256,
        148: -910, 152: 125, 156: 1055, 160: 1299, 164: 1935, 176: 2312, 180: 1181, 182: 1,
        184: 602, 188: 1345, 212: 9, 240: -33, 244: 875, 248: -289, 512: -580, 516: -562, 528: 176,
        532: 888, 536: 3532, 540: 3829, 596: -237, 640: -747, 644: -425, 656: 157, 660: 123,
        662: -74, 664: 1611, 668: 1956, 670: 20, 672: 544, 676: 1366, 688: -369, 692: -413,
        694: -1257, 696: -1399, 700: -1584, 702: 1034, 704: -667, 708: 276, 720: 51, 724: -58,
        728: -1519, 732: -307, 736: 15, 740: 143, 752: -2616, 756: -2125, 758: -1677, 760: -3790,
        764: -3417, 768: -1480, 772: -1155, 784: 273, 788: 909, 792: 3091, 796: 3519, 896: -1611,
        900: -1073, 912: -189, 916: 374, 920: 384, 924: 1628, 926: 576, 928: -626, 932: -922,
        944: -4737, 948: -1649, 950: -724, 952: -3696, 956: -2447, 960: 535, 964: -660, 976: -2466,
        980: -1381, 984: -1692, 988: -1393, 992: -106, 996: -672, 1008: -2828, 1012: -1565,
        1016: -2787, 1020: -3344,
    },
}
# fmt: on


def threat_table(k: int) -> list[int]:
    """The value of every threat mask for ``k`` (the kernel's ``T_THREAT``)."""
    values = THREAT_VALUES.get(k, {})
    return [values.get(mask, 0) for mask in range(THREAT_MASKS)]


@dataclass(frozen=True, slots=True)
class Patterns:
    """The tables of one ``k``: a line's key (base-3 digits of its ``2k-2`` neighbours, nearest
    on the negative side first) to its pattern, and four packed patterns to class and value."""

    k: int
    line: tuple[int, ...] = field(repr=False)  # key -> pattern code
    cell_class: tuple[int, ...] = field(repr=False)  # packed codes (4 bits each) -> class
    cell_value: tuple[int, ...] = field(repr=False)  # packed codes -> value


def _run_through(line: list[int], centre: int) -> int:
    """The length of the run of own stones through ``centre`` (which is own)."""
    left = centre
    while left > 0 and line[left - 1] == OWN:
        left -= 1
    right = centre
    while right < len(line) - 1 and line[right + 1] == OWN:
        right += 1
    return right - left + 1


def classify(line: tuple[int, ...], k: int) -> int:
    """The pattern of ``line`` (``2k-1`` cells, the middle one own) for its own player."""
    return _classify(line, k)


@cache
def _classify(line: tuple[int, ...], k: int) -> int:
    centre = k - 1
    cells = list(line)
    if _run_through(cells, centre) >= k:
        return F5
    empties = [i for i, state in enumerate(cells) if state == EMPTY]
    completions = 0
    best = DEAD
    children: list[tuple[int, ...]] = []
    for i in empties:
        cells[i] = OWN
        if _run_through(cells, centre) >= k:
            completions += 1
        else:
            children.append(tuple(cells))
        cells[i] = EMPTY
    if completions >= 2:
        return F4
    if completions == 1:
        return B4
    # Only a line that some window of k unblocked cells through the centre could fill lives.
    if not any(
        all(cells[j] != BLOCKED for j in range(start, start + k))
        for start in range(max(0, centre - k + 1), centre + 1)
        if start + k <= len(cells)
    ):
        return DEAD
    for child in children:
        best = max(best, _DEMOTE[_classify(child, k)])
    return best


def _combine(codes: tuple[int, int, int, int], k: int) -> tuple[int, int]:
    """A cell's class and value from the patterns of its four lines."""
    best, second = sorted(codes, reverse=True)[:2]
    value = sum(VALUES[k][code] for code in codes) + PAIR_BONUS[k].get((best, second), 0)
    fours = sum(code in (B4, F4) for code in codes)
    threes = sum(code == F3 for code in codes)
    if F5 in codes:
        return WIN, value
    if F4 in codes or fours >= 2:
        return FLEX4, value
    if fours and threes:
        return FOUR_THREE, value
    if fours:
        return FOUR, value
    if threes >= 2:
        return DOUBLE_THREE, value
    if threes:
        return THREE, value
    return NONE, value


@lru_cache(maxsize=MAX_K - MIN_K + 1)
def patterns(k: int) -> Patterns:
    """The (cached) tables of ``k`` (``MIN_K`` to ``MAX_K``)."""
    if not MIN_K <= k <= MAX_K:
        raise ValueError(f"pattern tables exist for k from {MIN_K} to {MAX_K}, not {k}")
    side = 2 * k - 2
    line = []
    for key in range(3**side):
        digits = []
        rest = key
        for _ in range(side):
            rest, digit = divmod(rest, 3)
            digits.append(digit)
        # Digit i: the neighbour at offset -(i+1) for i < k-1, else at offset i-k+2.
        negative = digits[: k - 1][::-1]
        positive = digits[k - 1 :]
        line.append(_classify((*negative, OWN, *positive), k))
    _classify.cache_clear()
    classes = []
    values = []
    for packed in range(1 << 16):
        codes = tuple(min((packed >> (4 * d)) & 15, CODES - 1) for d in range(4))
        cls, value = _combine(codes, k)  # type: ignore[arg-type]
        classes.append(cls)
        values.append(value)
    return Patterns(k=k, line=tuple(line), cell_class=tuple(classes), cell_value=tuple(values))


def digit_weight(k: int, offset: int) -> int:
    """The weight (a power of 3) of the neighbour at ``offset`` (non-zero, within k-1) in a
    line key."""
    index = -offset - 1 if offset < 0 else offset + k - 2
    return int(3**index)

"""Make the shipped puzzle set: ``python -m benchmarks._puzzle_set [--vcf [--long]] SEED COUNT
OUT``;
``python -m benchmarks._puzzle_set lines OUT`` makes the shipped puzzles' answer trees
(:mod:`core.puzzles.lines`, ``data/lines.csv``); ``python -m benchmarks._puzzle_set refutations
OUT`` the refutations of the wrong moves at the stored trees' positions
(``data/refutations.csv``).

Runs :func:`core.puzzles.generate.generate` with ``SEED`` until ``COUNT`` Connect Four puzzles
are kept, each (theme, N) up to its quota so that the set spreads over N and holds rather than
filling with wins in one, and writes them sorted by id to ``OUT``, one line each
(:func:`core.puzzles.puzzle.to_line`). With ``--vcf``, VCF puzzles on 15x15 instead
(:func:`core.puzzles.generate.generate_vcf`), N = 2 up to 200 of them; with ``--long`` as well,
only N >= 3 (the generator finds about ten N = 2 for one longer). Not a benchmark (the
leading underscore): the set's maker, named in core/puzzles/data/README.txt.
"""

from __future__ import annotations

import collections
import sys
import time

from core.ai import solver
from core.puzzles import lines, shipped
from core.puzzles.generate import generate, generate_vcf
from core.puzzles.puzzle import Puzzle, Theme, to_line

QUOTA = {(Theme.HOLD, 1): 250, (Theme.WIN, 1): 120, (Theme.VCF, 2): 200}
DEFAULT_QUOTA = 150


def make_set(seed: int, count: int, *, free: bool = False, long: bool = False) -> list[Puzzle]:
    kept: list[Puzzle] = []
    per_kind: collections.Counter[tuple[Theme, int]] = collections.Counter()
    quota = {**QUOTA, (Theme.VCF, 2): 0} if long else QUOTA
    for puzzle in generate_vcf(seed) if free else generate(seed):
        kind = (puzzle.theme, puzzle.depth)
        if per_kind[kind] >= quota.get(kind, DEFAULT_QUOTA):
            continue
        per_kind[kind] += 1
        kept.append(puzzle)
        print(len(kept), to_line(puzzle), flush=True)
        if len(kept) >= count:
            break
    return sorted(kept, key=lambda p: p.id)


def make_lines(out: str) -> None:
    made = []
    started = time.perf_counter()
    for n, puzzle in enumerate(shipped.every(), start=1):
        paths = lines.tree_of(puzzle)
        if paths is not None:
            made.append(lines.to_lines(puzzle, paths))
        print(n, len(made), f"{time.perf_counter() - started:.0f} s", flush=True)
    made.sort(key=lambda rows: rows[0])  # by id, each tree's proven line first
    with open(out, "w", encoding="utf-8") as handle:
        handle.write("".join(row + "\n" for rows in made for row in rows))


def make_refutations(out: str) -> None:
    made = []
    started = time.perf_counter()
    for n, puzzle in enumerate(shipped.every(), start=1):
        paths = lines.stored(puzzle)
        if paths is not None:
            made.append(lines.to_refutations(puzzle, lines.refutations_of(puzzle, paths)))
        print(n, len(made), f"{time.perf_counter() - started:.0f} s", flush=True)
    made.sort()
    with open(out, "w", encoding="utf-8") as handle:
        handle.write("".join(row + "\n" for row in made))


def main(argv: list[str]) -> None:
    if argv[0] in ("lines", "refutations"):
        solver.warm_up()
        (make_lines if argv[0] == "lines" else make_refutations)(argv[1])
        return
    free = argv[0] == "--vcf"
    long = free and argv[1] == "--long"
    at = free + long
    seed, count, out = int(argv[at]), int(argv[at + 1]), argv[at + 2]
    solver.warm_up()
    lines = [to_line(puzzle) for puzzle in make_set(seed, count, free=free, long=long)]
    with open(out, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])

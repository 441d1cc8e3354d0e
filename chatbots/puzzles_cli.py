"""``chatbots puzzles generate COUNT OUT [--add]``: more puzzles, made on the AI workers (the
bot's own process pool: forked from the fork server, niced), written to ``OUT`` in the shipped
sets' form (``core/puzzles/data/README.txt``), sorted by id; puzzles already shipped are left
out.

From seeded random play (``--seed``; ``--vcf`` for five-in-a-row VCF puzzles on 15x15; each
worker plays its own seed), or from the archive (``--archive``): the finished 6x7 Connect Four
games of :mod:`core.store.archive`, the positions just after a player's mistake. Every puzzle
written is a fact the solver proved (:mod:`core.puzzles.facts`). With ``--add`` they also go to
the database (:func:`core.store.puzzles.add_puzzles`), each proven again by the solver first
and given its answer tree and refutations (:func:`core.puzzles.lines.answers_of`: its answers
are lookups, as the shipped sets' are), and ``/puzzle next`` and the pages offer them beside the
shipped sets. Exit 0 when any puzzle
was made, 1 when none was (or the database failed), 2 on bad arguments.
"""

from __future__ import annotations

import asyncio
import collections
import math
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from chatbots.app import EXIT_FAILED, service_settings, with_store
from core.puzzles import lines, shipped
from core.puzzles.facts import NotAFact, verify
from core.puzzles.puzzle import Puzzle, from_line, to_line
from core.store import StoreError, puzzles
from core.workers.runner import PoolRunner
from core.workers.tasks import generate_puzzles, puzzles_from_games

if TYPE_CHECKING:
    from chatbots.settings import Settings

ARCHIVE_GAMES = 10_000
"""The latest finished games ``--archive`` reads."""


async def generate_command(
    settings: Settings,
    count: int,
    out: str,
    *,
    vcf: bool = False,
    seed: int = 1,
    archive: bool = False,
    minutes: float = 10.0,
    add: bool = False,
    stdout: TextIO = sys.stdout,
) -> int:
    """Make up to ``count`` puzzles within ``minutes`` and write them to ``out`` (and, with
    ``add``, to the database); the exit code."""
    games: list[tuple[int, ...]] = []
    if archive:
        try:
            games = await with_store(
                settings, lambda store: store.run(puzzles.finished_connect_four(ARCHIVE_GAMES))
            )
        except StoreError as error:
            print(f"chatbots: {error}", file=sys.stderr)
            return EXIT_FAILED
    workers = service_settings(settings).workers
    runner = PoolRunner(workers=workers, budget=settings.ai_budget)
    started = time.perf_counter()
    seconds = minutes * 60
    await runner.start()
    try:
        shares = max(1, workers)
        if archive:
            chunks = [tuple(games[n::shares]) for n in range(shares)]
            asked = [runner.batch(puzzles_from_games, chunk, seconds=seconds) for chunk in chunks]
        else:
            each = math.ceil(count / shares)
            asked = [
                runner.batch(generate_puzzles, seed * 1000 + n, each, vcf, seconds, seconds=seconds)
                for n in range(shares)
            ]
        results = await asyncio.gather(*asked)
    finally:
        await runner.close()
    elapsed = time.perf_counter() - started
    made = {}
    for written in results:
        for line in written or ():
            puzzle = from_line(line)
            if shipped.by_id(puzzle.id) is None:
                made[puzzle.id] = (puzzle, line)
    kept = sorted(made.values(), key=lambda found: found[0].id)[:count]
    await asyncio.to_thread(Path(out).write_text, "".join(f"{line}\n" for _, line in kept))
    kinds = collections.Counter(
        "hold" if p.theme.value == "hold" else f"{p.theme.value} in {p.depth}" for p, _ in kept
    )
    source = f"{len(games)} archived games" if archive else f"seed {seed}"
    print(
        f"{len(kept)} puzzles from {source} on {max(1, workers)} workers in {elapsed:.0f} s"
        f" ({len(kept) * 60 / max(elapsed, 1e-9):.0f} per minute), written to {out}",
        file=stdout,
    )
    if kinds:
        print("  " + ", ".join(f"{kind} {n}" for kind, n in sorted(kinds.items())), file=stdout)
    if add and kept and not await _added(settings, [puzzle for puzzle, _ in kept], stdout):
        return EXIT_FAILED
    return 0 if kept else 1


async def _added(settings: Settings, made: list[Puzzle], stdout: TextIO) -> bool:
    """``made`` proven again by the solver here (whatever made them), each with its answer tree
    and refutations, then added to the database; False when the database failed."""
    started = time.perf_counter()
    proven = await asyncio.to_thread(_proven, made)
    elapsed = time.perf_counter() - started
    rows = [(puzzle.id, to_line(puzzle)) for puzzle, _ in proven]
    kept = {puzzle.id: answers for puzzle, answers in proven if answers is not None}
    try:
        added = await with_store(
            settings, lambda store: store.run(puzzles.add_puzzles(rows, time.time(), kept))
        )
    except StoreError as error:
        print(f"chatbots: {error}", file=sys.stderr)
        return False
    print(
        f"{added} added to the database ({len(proven) - added} were there already,"
        f" {len(made) - len(proven)} not proven); {len(kept)} answer trees made in {elapsed:.0f} s",
        file=stdout,
    )
    return True


def _proven(made: list[Puzzle]) -> list[tuple[Puzzle, str | None]]:
    """The puzzles of ``made`` the solver proves, each with its answers (its answer tree and
    refutations: :func:`core.puzzles.lines.answers_of`, None for a hold the solver could not
    settle), so that answering it is a lookup as for the shipped sets."""
    kept = []
    for puzzle in made:
        try:
            verify(puzzle)
        except NotAFact:
            continue
        kept.append((puzzle, lines.answers_of(puzzle)))
    return kept

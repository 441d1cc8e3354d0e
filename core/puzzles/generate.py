"""The puzzle generator: seeded games between imperfect players, and the positions they reach.

Each game is played by a mix of random and MEDIUM (a person's rules) moves. Two kinds of
positions are tried: every position of the game from :data:`MIN_STONES` on (random play), and
above all the position just after a mistake, a move that drops its player's exact verdict (a win
thrown away or a draw lost), which is where a real game offers a puzzle. A position becomes a
puzzle when :func:`core.puzzles.facts.classify` proves its best move unique. The same seed gives
the same puzzles.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator

from core.ai.engine import SearchTimeout
from core.ai.heuristic import medium_move, windows
from core.ai.threat_search import Board, DeadlinePassed, Search
from core.games.position import Position
from core.games.rules import CONNECT_FOUR, Rules
from core.puzzles import vcf
from core.puzzles.facts import (
    classify,
    classify_vcf,
    difficulty,
    move_values,
    score,
    tempting,
)
from core.puzzles.puzzle import Puzzle, Theme, make

MIN_STONES = 8
# A position the solver cannot settle quickly is skipped: drawn middlegames can take seconds.
POSITION_BUDGET = 0.5
MEDIUM_SAMPLES = 5  # MEDIUM is noisy: the moves it plays in this many seeded tries tempt


def games(rules: Rules, rng: random.Random) -> Iterator[tuple[Position, Position]]:
    """Endless seeded games: each (position, the position after the next move)."""
    while True:
        p = Position.start(rules)
        randomness = rng.choice((0.2, 0.5, 0.8))
        while not p.is_over:
            random_move = rng.random() < randomness
            move = rng.choice(p.legal_moves()) if random_move else medium_move(p, rng)
            child = p.play(move)
            yield p, child
            p = child


def _mistake(before: Position, after: Position, deadline: float) -> bool:
    """True when the move from ``before`` to ``after`` dropped its player's verdict."""
    if after.is_over:
        return False
    was = score(before, deadline)
    now = -score(after, deadline)
    return (was > 0) > (now > 0) or (was >= 0) > (now >= 0)


def puzzle_of(p: Position, deadline: float) -> Puzzle | None:
    """The puzzle at ``p``, if its best move is unique (within the deadline), or None."""
    try:
        found = classify(p, deadline)
        if found is None:
            return None
        theme, depth, solution = found
        values = move_values(p, deadline)
    except SearchTimeout:
        return None
    rng = random.Random(hash(p.stones))
    medium = [medium_move(p, rng) for _ in range(MEDIUM_SAMPLES)]
    rating = difficulty(theme, depth, tempting(values, solution, medium))
    return make(theme, p.rules, p.moves, depth, solution, rating)


def generate(
    seed: int, *, rules: Rules = CONNECT_FOUR, after_mistakes_only: bool = False
) -> Iterator[Puzzle]:
    """Endless new puzzles (each position once) from seeded games."""
    rng = random.Random(seed)
    seen: set[Position] = set()
    for before, after in games(rules, rng):
        if len(after.moves) < MIN_STONES or after.is_over or after in seen:
            continue
        seen.add(after)
        deadline = time.perf_counter() + POSITION_BUDGET
        if after_mistakes_only:
            try:
                if not _mistake(before, after, deadline):
                    continue
            except SearchTimeout:
                continue
        puzzle = puzzle_of(after, time.perf_counter() + POSITION_BUDGET)
        if puzzle is not None:
            yield puzzle


def from_games(games: Iterator[tuple[int, ...]] | list[tuple[int, ...]]) -> Iterator[Puzzle]:
    """The puzzles in played Connect Four games (the archive): each position just after a
    mistake (a move that threw its player's verdict away) whose best move is unique."""
    seen: set[Position] = set()
    for moves in games:
        try:
            game = Position.from_moves(CONNECT_FOUR, moves)
        except ValueError:
            continue  # not a 6x7 Connect Four game after all
        before = Position.start(CONNECT_FOUR)
        for move in game.moves:
            after = before.play(move)
            if len(after.moves) >= MIN_STONES and not after.is_over and after not in seen:
                seen.add(after)
                try:
                    mistake = _mistake(before, after, time.perf_counter() + POSITION_BUDGET)
                except SearchTimeout:
                    mistake = False
                if mistake:
                    puzzle = puzzle_of(after, time.perf_counter() + POSITION_BUDGET)
                    if puzzle is not None:
                        yield puzzle
            before = after


VCF_MIN_STONES = 10
VCF_BUDGET = 0.2  # the threat search's time per position


def _threat_search_finds(p: Position, deadline: float) -> bool:
    """Whether the engine's threat search finds a VCF for the side to move (a fast filter)."""
    table = windows(p.rules)
    search = Search(table, Board(table, p.stones), deadline)
    try:
        return search.threat_search(p.to_move - 1, vcf.MAX_FOURS, False) >= 0
    except DeadlinePassed:
        return False


def generate_vcf(seed: int, *, rules: Rules = vcf.FREE_15) -> Iterator[Puzzle]:
    """Endless VCF puzzles from seeded games on a free board: a position becomes one when the
    threat search finds a win by fours there and :func:`core.puzzles.facts.classify_vcf` proves
    it, with a unique first move."""
    rng = random.Random(seed)
    seen: set[Position] = set()
    taken = False  # one puzzle per game: the win by fours stays on the board for moves after
    for before, after in games(rules, rng):
        taken = taken and bool(before.moves)
        if taken or len(after.moves) < VCF_MIN_STONES or after.is_over or after in seen:
            continue
        seen.add(after)
        if not _threat_search_finds(after, time.perf_counter() + VCF_BUDGET):
            continue
        found = classify_vcf(after)
        if found is None:
            continue
        theme, depth, solution = found
        wrong_fours = len(vcf.first_fours(after)) - 1
        rating = difficulty(theme, depth, wrong_fours)
        taken = True
        yield make(theme, rules, after.moves, depth, solution, rating)


__all__ = ["Theme", "from_games", "games", "generate", "generate_vcf", "puzzle_of"]

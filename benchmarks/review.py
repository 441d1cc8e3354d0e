"""``/review`` of whole Connect Four games: how long ``review_game`` takes, and how long a player
waits for the answer, p50/p99.

``python -m benchmarks review [--quick]``. Three kinds of long games: HARD against HARD with a
tenth of the moves random (few mistakes, the first game perfect play), random games where a
player takes a win it has and avoids handing one over (many mistakes, each of which costs a
search of the optimal moves), both of 30 to 42 moves, and such random games that fill the board
(42 moves). Each game is then played through ``GameService`` on a SQLite file, the AI runner
with one worker process, as two people would: the service keeps the review while the game goes
on (:class:`core.sessions.reviews.review.KeptReviews`), and ``/review`` is timed asked the
instant the last move is stored (what is kept from the middle game then, the rest searched for
the asker) and once the end is kept. Every answer is checked against ``review_game``. The same
games are also analysed under the former contract, the optimal moves of every position, for
comparison.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from benchmarks.book import fmt, percentile
from core.ai import Level, analysis, choose_move, warm_up
from core.ai.review import GameReview, review_game
from core.games import CONNECT_FOUR, Position
from core.replies import Actor
from core.sessions import GameService, ServiceSettings
from core.sessions.reviews.review import KEEP_PLIES, review_text
from core.store import SqliteStore, sessions
from core.workers.runner import PoolRunner

MIN_MOVES = 30  # shorter games are left out: the figure is about whole games
GAMES = 60  # of each kind (quick: 8)

Game = tuple[int, ...]


def hard_games(count: int, rng: random.Random) -> list[Game]:
    """HARD against HARD, a tenth of the moves random (none in the first game)."""
    games: list[Game] = []
    while len(games) < count:
        noise = 0.0 if not games else 0.1
        p = Position.start(CONNECT_FOUR)
        while not p.is_over:
            if rng.random() < noise:
                p = p.play(rng.choice(p.legal_moves()))
            else:
                p = p.play(choose_move(p, Level.HARD, budget=0.05))
        if len(p.moves) >= MIN_MOVES:
            games.append(p.moves)
    return games


def careful_random_games(count: int, rng: random.Random, length: int = MIN_MOVES) -> list[Game]:
    """Random moves, except that a win at hand is taken and a win is not handed over when
    another move avoids it: long games full of mistakes (at least ``length`` moves)."""
    games: list[Game] = []
    while len(games) < count:
        p = Position.start(CONNECT_FOUR)
        while not p.is_over:
            children = {m: p.play(m) for m in p.legal_moves()}
            wins = [m for m, c in children.items() if c.winner is not None]
            safe = [
                m
                for m, c in children.items()
                if not any(c.play(r).winner is not None for r in c.legal_moves())
            ]
            p = children[rng.choice(wins or safe or list(children))]
        if len(p.moves) >= length:
            games.append(p.moves)
    return games


def figures(seconds: list[float]) -> str:
    return (
        f"p50 {fmt(statistics.median(seconds)):>8}  p99 {fmt(percentile(seconds, 0.99)):>8}  "
        f"max {fmt(max(seconds)):>8}"
    )


def timed(games: list[Game], review: Callable[[Game], object]) -> tuple[str, list[object]]:
    wall: list[float] = []
    cpu: list[float] = []  # the machine may be shared: CPU time is the review's own cost
    found = []
    for moves in games:
        started, started_cpu = time.perf_counter(), time.process_time()
        result = review(moves)
        wall.append(time.perf_counter() - started)
        cpu.append(time.process_time() - started_cpu)
        assert result is not None
        found.append(result)
    line = (
        f"{figures(wall)} | CPU p50 {fmt(statistics.median(cpu)):>8}  "
        f"p99 {fmt(percentile(cpu, 0.99)):>8}"
    )
    return line, found


def every_position(moves: Game) -> object:
    return analysis.game_scores(CONNECT_FOUR, moves, needs_best=lambda before, after: True)


def review(moves: Game) -> object:
    return review_game(CONNECT_FOUR, moves)


Waits = tuple[list[float], list[float], list[float]]


async def waits(
    kinds: dict[str, list[Game]], fresh: dict[str, list[GameReview]], folder: Path
) -> dict[str, Waits]:
    """Per kind, the seconds ``/review`` took asked as the last move is stored, and once the
    end of the game is kept; and the seconds each step of the keeping took during the game."""
    runner = PoolRunner(workers=1, warm_up=True, rng=random.Random(1))
    await runner.start()
    found: dict[str, Waits] = {}
    async with SqliteStore.open(folder / "review.sqlite3") as store:
        service = GameService(
            store, settings=ServiceSettings(ai_workers=0, limits=False), runner=runner
        )
        try:
            for name, games in kinds.items():
                at_end: list[float] = []
                later: list[float] = []
                steps: list[float] = []
                for index, moves in enumerate(games):
                    chat = f"{name}-{index}"
                    alice = Actor("bench", chat, "alice", "Alice")
                    bob = Actor("bench", chat, "bob", "Bob")
                    await service.handle_text(alice, "/quatre @bob")
                    await service.handle_text(bob, "/accept")
                    live = await store.run(sessions.live_game("bench", chat, "alice"))
                    assert live is not None
                    players = (alice, bob) if live.seats[0].user_id == "alice" else (bob, alice)
                    for ply, move in enumerate(moves):
                        await service.handle_text(players[ply % 2], str(move + 1))
                        if ply + 1 < len(moves):
                            # people take longer between moves than what is kept takes
                            started = time.perf_counter()
                            await service.kept_reviews_idle()
                            if ply + 1 in KEEP_PLIES:
                                steps.append(time.perf_counter() - started)
                    session = await store.run(sessions.get(live.id))
                    assert session is not None and session.moves == moves
                    expected = review_text(session, fresh[name][index])
                    for seconds in (at_end, later):
                        started = time.perf_counter()
                        replies = await service.handle_text(bob, "/review")
                        seconds.append(time.perf_counter() - started)
                        assert replies[0].text == expected, f"{name} game {index}: {moves}"
                        await service.kept_reviews_idle()
                found[name] = (at_end, later, steps)
        finally:
            await service.close()
    return found


def main(quick: bool) -> None:
    warm_up()
    count = 8 if quick else GAMES
    rng = random.Random(7)
    kinds = {
        "HARD+noise": hard_games(count, rng),
        "careful random": careful_random_games(count, rng),
        "42 moves": careful_random_games(count, rng, CONNECT_FOUR.cells),
    }
    # a process's first review also solves the first plies once for all (tens of ms)
    review(kinds["HARD+noise"][0])
    print(f"Whole Connect Four games ({count} of each kind, {MIN_MOVES}+ moves)")
    lines: dict[str, list[str]] = {}
    fresh: dict[str, list[GameReview]] = {}
    for name, games in kinds.items():
        reviewed, found = timed(games, review)
        fresh[name] = [r for r in found if isinstance(r, GameReview)]
        lines[name] = [
            f"  review_game, computed afresh        {reviewed}",
            f"  optimal moves of every position     {timed(games, every_position)[0]}",
        ]
    with tempfile.TemporaryDirectory() as folder:
        answered = asyncio.run(waits(kinds, fresh, Path(folder)))
    for name, games in kinds.items():
        lengths = [len(m) for m in games]
        print(
            f"{name:<15} moves {min(lengths)}..{max(lengths)} "
            f"(median {statistics.median(lengths):.0f})"
        )
        at_end, later, steps = answered[name]
        print("\n".join(lines[name]))
        print(f"  /review asked as the game ends      {figures(at_end)}")
        print(f"  /review asked once the end is kept  {figures(later)}")
        print(f"  a step kept during the game         {figures(steps)}")
    print(
        "review_game: in this process, one call per game, nothing kept.\n"
        "/review: what the player waits for, from the request to the reply, through GameService"
        " (SQLite file,\n  1 AI worker process): the store reads and the search, in the worker,"
        " of the moves not kept yet.\n  The review was kept during the game, the players"
        " waiting between moves until what is kept is\n  stored. Every reply equals"
        " review_game's.\n"
        "A step kept during the game: from a move at plies 13 to 20 until its review is kept"
        " (in the worker,\n  at the lowest priority: nobody waits for it, but it holds the"
        " worker that long)."
    )

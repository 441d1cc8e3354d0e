"""The AI under load: a burst of HARD moves on this machine's cores (issue 15).

1. 200 HARD moves asked at once through the real runner (its process pool of 2 workers, the
   default budget of 1 s), half Connect Four positions, half 9x9 k=5 positions, each from a
   random opening: every one must be answered; p50, p99 and the slowest, next to the same
   number of moves asked one at a time (the baseline: no queue).
2. Meanwhile a person plays MEDIUM in another chat through the same ``GameService`` and event
   loop, and another asks HARD moves of the same runner: each move's latency, p50 and p99. The
   burst runs twice: as people's moves, and as watched bots' games (which a person's move
   passes in the queue).
3. What the shrunken budget costs: HARD at ``MIN_BUDGET`` against MEDIUM on 9x9 k=5, as first and
   as second player, next to HARD at the full budget (the tournament's game loop).
"""

from __future__ import annotations

import asyncio
import random
import statistics
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from benchmarks.tournament import Game, Played, play
from core.ai import Level, choose_move, warm_up
from core.games import CONNECT_FOUR, Position, Rules
from core.replies import Actor
from core.sessions import GameService, ServiceSettings
from core.store import SqliteStore
from core.workers.runner import MIN_BUDGET, PoolRunner

BUDGET = 1.0
WORKERS = 2
FREE = Rules(9, 9, 5, gravity=False)


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def _positions(count: int, seed: int) -> list[Position]:
    """Half Connect Four, half 9x9 k=5, each a few random (EASY) moves in and still open."""
    rng = random.Random(seed)
    found: list[Position] = []
    while len(found) < count:
        rules = CONNECT_FOUR if len(found) % 2 == 0 else FREE
        p = Position.start(rules)
        for _ in range(rng.randrange(2, 14)):
            if p.is_over:
                break
            p = p.play(choose_move(p, Level.EASY, rng=rng))
        if not p.is_over:
            found.append(p)
    return found


async def _burst(
    runner: PoolRunner, positions: list[Position], *, interactive: bool = True
) -> list[float]:
    async def ask(p: Position) -> float:
        started = time.perf_counter()
        move = await runner.choose(p, Level.HARD, budget=BUDGET, interactive=interactive)
        assert move in p.legal_moves()
        return time.perf_counter() - started

    return list(await asyncio.gather(*(ask(p) for p in positions)))


async def _person(service: GameService, stop: asyncio.Event) -> list[float]:
    """A person playing MEDIUM Connect Four in another chat, move after move."""
    actor = Actor("bench", "other chat", "person", "Person")
    rng = random.Random(5)
    times: list[float] = []
    await service.handle_text(actor, "/quatre medium")
    while not stop.is_set():
        started = time.perf_counter()
        replies = await service.handle_text(actor, str(rng.randrange(1, 8)))
        times.append(time.perf_counter() - started)
        board = next((r.board for r in replies if r.board is not None), None)
        if board is None or board.finished:
            await service.handle_text(actor, "/final")
            await service.handle_text(actor, "/quatre medium")
        await asyncio.sleep(0.05)  # a person does not type faster than this
    return times


async def _person_hard(runner: PoolRunner, stop: asyncio.Event) -> list[float]:
    """A person in yet another chat asking HARD Connect Four moves, one after another."""
    openings = _positions(40, seed=23)[::2]  # the Connect Four ones
    times: list[float] = []
    while not stop.is_set():
        started = time.perf_counter()
        await runner.choose(openings[len(times) % len(openings)], Level.HARD, budget=BUDGET)
        times.append(time.perf_counter() - started)
        await asyncio.sleep(0.05)
    return times


def _latency(label: str, times: list[float]) -> str:
    return (
        f"  {label} ({len(times)} moves): p50 {statistics.median(times):.3f} s,"
        f" p99 {_percentile(times, 0.99):.3f} s, max {max(times):.3f} s"
    )


async def _load(count: int, folder: Path) -> None:
    positions = _positions(count, seed=11)
    runner = PoolRunner(workers=WORKERS, warm_up=True, rng=random.Random(1))
    await runner.start()
    try:
        alone = [(await _burst(runner, [p]))[0] for p in positions[: min(20, count)]]
        print(f"{count} HARD moves at once ({WORKERS} workers, budget {BUDGET} s), all answered:")
        print(f"  {'':24} {'p50':>8} {'p99':>8} {'max':>8}")
        print(
            f"  {'one at a time':24} {statistics.median(alone):7.2f}s"
            f" {_percentile(alone, 0.99):7.2f}s {max(alone):7.2f}s"
        )
        async with SqliteStore.open(folder / "load.sqlite3") as store:
            service = GameService(store, settings=ServiceSettings(ai_workers=0), runner=runner)
            for interactive in (True, False):
                stop = asyncio.Event()
                person = asyncio.create_task(_person(service, stop))
                hard = asyncio.create_task(_person_hard(runner, stop))
                started = time.perf_counter()
                times = await _burst(runner, positions, interactive=interactive)
                wall = time.perf_counter() - started
                stop.set()
                person_times, hard_times = await person, await hard
                kind = "people's moves" if interactive else "watched bots' games"
                print(
                    f"  {'burst: ' + kind:24} {statistics.median(times):7.2f}s"
                    f" {_percentile(times, 0.99):7.2f}s {max(times):7.2f}s"
                    f"  (took {wall:.2f} s in all)"
                )
                print(_latency("meanwhile a person's MEDIUM move", person_times))
                print(_latency("meanwhile a person's HARD move", hard_times))
    finally:
        await runner.close()


def _strength(games: int) -> None:
    print(f"HARD against MEDIUM on 9x9 k=5, {games} games per row (wins/draws/losses for HARD):")
    rows = [
        (budget, first)
        for budget in (BUDGET / 5, MIN_BUDGET)  # the tournament's budget, and the floor
        for first in (True, False)
    ]
    schedule = [
        Game(FREE, Level.MEDIUM, first, seed=1000 * n + (0 if first else 1), budget=budget)
        for budget, first in rows
        for n in range(games)
    ]
    with ProcessPoolExecutor(WORKERS, initializer=_init) as pool:
        played = list(pool.map(play, schedule))
    for budget, first in rows:
        mine: list[Played] = [
            g for g in played if g.game.budget == budget and g.game.hard_first == first
        ]
        wins = sum(g.result == 1 for g in mine)
        draws = sum(g.result == 0 for g in mine)
        side = "first " if first else "second"
        print(
            f"  budget {budget:5.2f} s, HARD {side}: {wins}/{draws}/{len(mine) - wins - draws}"
            f" ({100 * wins / len(mine):.0f}% won)"
        )


def _init() -> None:
    warm_up()


def main(quick: bool) -> None:
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(_load(40 if quick else 200, Path(folder)))
    _strength(10 if quick else 50)

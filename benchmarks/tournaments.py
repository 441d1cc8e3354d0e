"""The cost of tournaments' pure rules, against the bars of issue #34.

``python -m benchmarks tournaments [--quick]``:

- a Swiss round of 1,000 players (bar: under 1 s): round 1 (the Dutch split), then each later
  round of a simulated 9-round event with random results, which this size sends to our casual
  engine (core.pairing.swiss). And the Dutch engine's (py4swiss') round by field size, rounds
  2-9, which sets ``DUTCH_MAX``;
- an arena pairing wave with 500 free players out of 2,000 (bar: under 100 ms), with last
  opponents and blocks;
- the standings of 1,000 players after 9 Swiss rounds, and of a 1,000-player arena (bar: under
  20 ms): the pure rules' tables, and the tables ``/tournament`` draws from the store's rows
  (core.sessions.events.table).

Medians and p99 of the samples (with few samples, p99 is about the slowest), in wall time and
in the process's CPU time: on a machine shared with other work, the wall time waits for the CPU
too, and the CPU time is what the code itself costs.
"""

from __future__ import annotations

import gc
import random
import statistics
import time
from collections.abc import Callable

from core.games import TICTACTOE
from core.pairing.arena import FreePlayer, pair_wave
from core.pairing.swiss import Bye, Engine, SwissGame, SwissPlayer, pair_round
from core.sessions.events.table import table
from core.store.models.events import Event, EventGame, EventPlayer, Format
from core.tournaments.standings import ArenaRecord, Played, arena_standings, standings

Sample = tuple[float, float]
"""Wall and CPU seconds of one run."""


def _p99(values: list[float]) -> float:
    return statistics.quantiles(values, n=100)[98] if len(values) > 1 else values[0]


def _line(label: str, samples: list[Sample], bar: float) -> None:
    wall, cpu = [w for w, _ in samples], [c for _, c in samples]
    verdict = "ok" if _p99(cpu) < bar else "OVER"
    print(
        f"{label}: wall median {statistics.median(wall) * 1000:.1f} ms,"
        f" p99 {_p99(wall) * 1000:.1f};"
        f" CPU median {statistics.median(cpu) * 1000:.1f} ms, p99 {_p99(cpu) * 1000:.1f}"
        f" (n={len(samples)}; bar {bar * 1000:.0f} ms on CPU p99: {verdict})",
        flush=True,
    )


def _clock() -> Sample:
    return time.perf_counter(), time.process_time()


def _since(start: Sample) -> Sample:
    return time.perf_counter() - start[0], time.process_time() - start[1]


def _swiss_event(
    count: int, rounds: int, engine: Engine | None, rng: random.Random
) -> tuple[list[Sample], list[SwissGame]]:
    """Seconds to pair each round after the first of a simulated event, and its games."""
    players = [SwissPlayer(f"p{i}", rng.gauss(1500, 300)) for i in range(count)]
    games: list[SwissGame] = []
    byes: list[Bye] = []
    times = []
    for number in range(1, rounds + 1):
        started = _clock()
        paired = pair_round(players, games, byes, number, rounds, engine=engine)
        if number > 1:  # round 1 is a split of the ranking, not a pairing
            times.append(_since(started))
        for board in paired.boards:
            if board.black is None:
                byes.append(Bye(number, board.white, 1.0, allocated=True))
            else:
                score = rng.choice([0.0, 0.5, 1.0])
                games.append(SwissGame(number, board.white, board.black, score))
    return times, games


def _timed(run: Callable[[], object], samples: int) -> list[Sample]:
    # The garbage of the phases before (the Swiss event's games, networkx's graphs) is
    # collected first, so that the full pass it is due is not charged to this one; the
    # collections that this phase's own allocations set off are still counted.
    gc.collect()
    run()  # warm
    times = []
    for _ in range(samples):
        started = _clock()
        run()
        times.append(_since(started))
    return times


def _stored(
    format: Format, games: list[SwissGame], rng: random.Random
) -> tuple[Event, list[EventPlayer], list[EventGame]]:
    """An event of ``format`` as the store keeps it, with ``games`` played."""
    event = Event("e", format, TICTACTOE, 9, 60, True, False, 0.0, "console", "c", None, "a", "")
    ids = sorted({g.white for g in games} | {g.black for g in games})
    players = [
        EventPlayer("e", i, "console", i, "c", None, i, rng.gauss(1500, 300), rng.randrange(80))
        for i in ids
    ]
    rows = [
        EventGame("e", g.round, f"s{n}", g.white, g.black, n, True, g.score, 1 - g.score, 9)
        for n, g in enumerate(games)
    ]
    return event, players, rows


def main(quick: bool) -> None:
    rng = random.Random(34)
    pair_round([SwissPlayer("a", 1), SwissPlayer("b", 2)], [], [], 2, 2)  # imports py4swiss

    for size in (10, 20, 40) if quick else (10, 20, 40, 60, 100):
        rounds = min(9, size // 2)  # late rounds of a small field may have no Dutch pairing
        times, _ = _swiss_event(size, rounds, "dutch", rng)
        _line(f"Swiss round, Dutch engine, {size} players (rounds 2-{rounds})", times, 1.0)

    field = [SwissPlayer(f"p{i}", rng.gauss(1500, 300)) for i in range(1000)]
    first = _timed(lambda: pair_round(field, [], [], 1, 9), 3 if quick else 10)
    _line("Swiss round 1, 1,000 players (Dutch: a split, no matching)", first, 1.0)
    times, games = _swiss_event(1000, 5 if quick else 9, None, rng)
    _line("Swiss round, 1,000 players (casual engine)", times, 1.0)

    everyone = [FreePlayer(f"a{i}", i + 1, rng.gauss(1500, 300)) for i in range(2000)]
    free = rng.sample(everyone, 500)
    ids = [p.id for p in free]
    last = {(a, b) for a, b in zip(ids[::2], ids[1::2], strict=False)}
    blocks = {(rng.choice(ids), rng.choice(ids)) for _ in range(200)}
    waves = _timed(lambda: pair_wave(free, just_played=last, blocked=blocks), 5 if quick else 30)
    _line("arena wave, 500 free of 2,000", waves, 0.1)

    swiss_ids = sorted({g.white for g in games} | {g.black for g in games})
    played = [Played(g.white, g.black, g.score) for g in games]
    swiss_table = _timed(lambda: standings(swiss_ids, played), 20 if quick else 100)
    _line(f"standings, 1,000 Swiss players, {len(played)} games", swiss_table, 0.02)

    records = [
        ArenaRecord.of_games(
            f"a{i}",
            rng.randrange(80),
            [(rng.gauss(1500, 300), rng.choice([0, 0.5, 1])) for _ in range(rng.randrange(40))],
        )
        for i in range(1000)
    ]
    arena_table = _timed(lambda: arena_standings(records), 20 if quick else 100)
    _line("standings, 1,000 arena players", arena_table, 0.02)

    stored = _stored(Format.SWISS, games, rng)
    shown = _timed(lambda: table(*stored, []), 20 if quick else 100)
    _line(f"/tournament's table, 1,000 Swiss players, {len(games)} games", shown, 0.02)
    ids = [f"a{i}" for i in range(1000)]
    pairs = [rng.sample(ids, 2) for _ in range(10_000)]  # 20 games each: an arena's hour
    arena_games = [SwissGame(1, x, o, rng.choice([0.0, 0.5, 1.0])) for x, o in pairs]
    stored = _stored(Format.ARENA, arena_games, rng)
    shown = _timed(lambda: table(*stored, []), 20 if quick else 100)
    _line(f"/tournament's table, 1,000 arena players, {len(arena_games)} games", shown, 0.02)

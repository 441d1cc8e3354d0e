"""Every rating recomputed from the stored results equals the ratings kept game by game."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from core.games import Termination
from core.ratings import (
    NEW,
    RatedResult,
    Rating,
    apply,
    is_rated,
    pool_of,
    rate,
    rebuild,
    record,
    replay,
)
from core.ratings.rebuild import Key

POOLS = ["tictactoe", "connect4", pool_of(15, 15, 5, False)]


def _random_games(seed: int, count: int) -> list[tuple[RatedResult, bool]]:
    """``count`` finished games among 30 players, each with whether it was rated."""
    rng = random.Random(seed)
    players = [f"p{n}" for n in range(30)]
    games = []
    for _ in range(count):
        first, second = rng.sample(players, 2)
        verdict = is_rated(
            ending=rng.choice(list(Termination)),
            people=(True, rng.random() > 0.1),
            players=(first, second),
            casual=rng.random() < 0.1,
            chat_allows_rated=True,
            moves=rng.randrange(0, 20),
            pair_games_24h=rng.randrange(0, 4),
        )
        winner = rng.choice([1, 2, None])
        games.append((RatedResult(rng.choice(POOLS), first, second, winner), verdict.rated))
    return games


def test_rebuild_equals_the_live_ratings_after_1000_random_games() -> None:
    games = _random_games(seed=23, count=1000)
    live: dict[Key, Rating] = {}
    stored: list[RatedResult] = []
    changes = []
    for result, rated in games:
        if not rated:  # unrated games leave ratings alone and are not replayed
            continue
        # As the service will: read both ratings, rate, write both (one transaction).
        change = rate(
            live.get((result.pool, result.first), NEW),
            live.get((result.pool, result.second), NEW),
            result.winner,
        )
        live[(result.pool, result.first)] = change.after[0]
        live[(result.pool, result.second)] = change.after[1]
        stored.append(result)
        changes.append(change)
    assert 200 < len(stored) < 1000
    assert rebuild(stored) == live
    assert [change for _, change in replay(stored)] == changes
    assert sum(r.games for r in live.values()) == 2 * len(stored)
    assert {pool for pool, _ in live} == set(POOLS)


def test_pools_are_rated_apart() -> None:
    results = [RatedResult("tictactoe", "alice", "bob", 1)] * 5
    ratings = rebuild([*results, RatedResult("connect4", "bob", "alice", None)])
    assert ratings[("tictactoe", "alice")].games == 5
    assert ratings[("connect4", "alice")] == ratings[("connect4", "bob")]
    assert ratings[("connect4", "alice")].games == 1
    assert ratings[("connect4", "alice")].rating == NEW.rating


def test_order_matters_so_the_replay_keeps_it() -> None:
    one = RatedResult("connect4", "alice", "bob", 1)
    two = RatedResult("connect4", "bob", "carol", 1)
    assert rebuild([one, two]) != rebuild([two, one])


@given(
    st.lists(
        st.tuples(st.sampled_from("abcd"), st.sampled_from("abcd"), st.sampled_from([1, 2, None]))
    )
)
def test_apply_and_record_are_the_fold(games: list[tuple[str, str, int | None]]) -> None:
    results = [RatedResult("gravity", a, b, w) for a, b, w in games if a != b]
    ratings: dict[Key, Rating] = {}
    for result in results:
        record(ratings, result, apply(ratings, result))
    assert ratings == rebuild(results)


def test_nothing_to_replay() -> None:
    assert rebuild([]) == {}
    assert list(replay([])) == []

"""A player's record (won, lost, drawn per pool) is kept with their rating, counted by the write
that rates a game, and equals what the rating log says, on both stores: after games, after a
link merged two players, and for games stored before the step that added it."""

from __future__ import annotations

import random

from core.ports import PlatformStyle
from core.replies import Actor
from core.sessions import GameService, ServiceSettings
from core.store.migrations import PAGE_RECORDS, STEPS
from core.store.schema import schema_version
from tests.backends import AnyStore, Backend
from tests.core.pages.games import DAY, Result, rated_game
from tests.core.store.helpers import before_step
from tests.core.test_sessions import Clock, store
from tests.core.test_sessions_identity import link

__all__ = ["store"]  # the fixture, on both stores

ALICE = Actor("disc", "c1", "alice", "Alice")
BOB = Actor("disc", "c1", "bob", "Bob")
ALICE_DM = Actor("disc", "dm-alice", "alice", "Alice", direct=True)
CAROL = Actor("mx", "!r:hs", "@carol:hs", "Carol")
DAN = Actor("mx", "!r:hs", "@dan:hs", "Dan")

LOG_RECORD = (
    "SELECT r.identity, r.pool, r.won, r.lost, r.drawn,"
    " (SELECT count(*) FROM rating_changes c WHERE c.kind = 'game' AND c.pool = r.pool AND"
    " ((c.first_identity = r.identity AND c.winner = 1)"
    " OR (c.second_identity = r.identity AND c.winner = 2))),"
    " (SELECT count(*) FROM rating_changes c WHERE c.kind = 'game' AND c.pool = r.pool AND"
    " ((c.first_identity = r.identity AND c.winner = 2)"
    " OR (c.second_identity = r.identity AND c.winner = 1))),"
    " (SELECT count(*) FROM rating_changes c WHERE c.kind = 'game' AND c.pool = r.pool AND"
    " c.winner IS NULL AND (c.first_identity = r.identity OR c.second_identity = r.identity))"
    " FROM ratings r ORDER BY r.identity, r.pool"
)
"""Each rating row's kept record, then the record its rating log counts."""


async def kept_and_counted(backend: Backend) -> list[tuple[str, str, int, int, int, int, int, int]]:
    """Each rating row: identity, pool, its kept record, the record its log counts."""
    return [
        (str(r[0]), str(r[1]), *(int(v) for v in r[2:8]))  # type: ignore[misc]
        for r in await backend.sql(LOG_RECORD)
    ]


async def test_the_kept_record_is_the_logs_after_games_and_a_link(
    backend: Backend, store: AnyStore
) -> None:
    clock = Clock()
    svc = GameService(
        store,
        settings=ServiceSettings(ai_workers=0, ai_budget=0.05),
        clock=clock,
        rng=random.Random(2),
    )
    svc.register_platform(PlatformStyle("disc", private_replies=True))
    svc.register_platform(PlatformStyle("mx", prefix="!"))
    results: tuple[Result, ...] = ("x", "o", "draw", "x", "x")
    for result in results:
        await rated_game(svc, ALICE, BOB, result)
        await rated_game(svc, DAN, CAROL, result)
        clock.advance(DAY)
    await link(svc, ALICE_DM, CAROL)  # Carol's account joins Alice's identity
    for result in results[:3]:
        await rated_game(svc, CAROL, DAN, result)
        clock.advance(DAY)
    rows = await kept_and_counted(backend)
    assert len(rows) >= 3 and sum(r[2] + r[3] + r[4] for r in rows) > 10
    for row in rows:
        assert row[2:5] == row[5:8], row
    alice = next(r for r in rows if r[0] == "disc:alice")
    assert alice[2:5] == (3 + 1, 1 + 1, 1 + 1)  # her five games and Carol's three since


async def test_the_step_counts_the_records_of_games_stored_before_it(backend: Backend) -> None:
    await before_step(backend, PAGE_RECORDS)
    for who, pool in (("a", "tictactoe"), ("b", "tictactoe"), ("a", "connect4"), ("c", "x")):
        await backend.sql(
            "INSERT INTO ratings (identity, pool, rating, deviation, games, last_rated_at,"
            " platform, name) VALUES ($1, $2, 1500, 200, 1, 0, 'disc', $1)",
            who,
            pool,
        )
    games = [("tictactoe", "a", "b", 1), ("tictactoe", "b", "a", 1), ("tictactoe", "a", "b", None)]
    games += [("connect4", "a", "z", 2), ("tictactoe", "a", "b", 2)]
    for n, (pool, first, second, winner) in enumerate(games):
        await backend.sql(
            "INSERT INTO rating_changes (kind, session_id, pool, at, first_identity,"
            " second_identity, winner, termination, first_rating, first_deviation, first_games,"
            " second_rating, second_deviation, second_games, first_rating_after,"
            " first_deviation_after, second_rating_after, second_deviation_after)"
            " VALUES ('game', $1, $2, $3, $4, $5, $6, 'win', 1500, 200, 0, 1500, 200, 0, 1500,"
            " 200, 1500, 200)",
            f"s{n}",
            pool,
            float(n),
            first,
            second,
            winner,
        )
    async with backend.open() as opened:
        assert await opened.run(schema_version()) == len(STEPS)
    rows = await kept_and_counted(backend)
    kept = {(r[0], r[1]): r[2:5] for r in rows}
    assert kept == {
        ("a", "connect4"): (0, 1, 0),
        ("a", "tictactoe"): (1, 2, 1),
        ("b", "tictactoe"): (2, 1, 1),
        ("c", "x"): (0, 0, 0),
    }
    assert all(r[2:5] == r[5:8] for r in rows)

"""Processes finishing rated games of the same player at the same moment lose no rating
update, on both stores (the rating rows are locked before they are read; SQLite has one
writer at a time)."""

from __future__ import annotations

import asyncio
import multiprocessing
import multiprocessing.synchronize

from core.ratings import rebuild
from core.store import SqliteStore, ratings
from core.store.postgres import PostgresStore
from tests.backends import Backend
from tests.core.store.helpers import NOW
from tests.core.store.ratings_helpers import play

RACERS = 3
GAMES = 8


def _racer(kind: str, where: str, racer: int, start: multiprocessing.synchronize.Barrier) -> None:
    """One process: alice's games against opponents of its own, finished one after another."""

    async def run() -> None:
        opening = (
            SqliteStore.open(where, busy_timeout_ms=30_000)
            if kind == "sqlite"
            else PostgresStore.open(where)
        )
        async with opening as store:
            start.wait(60)  # every racer has its store open: they start together
            for n in range(GAMES):
                # Each game in a chat of its own: alice may have one live game per chat.
                chat = f"r{racer}-{n}"
                await play(store, "alice", f"o{racer}-{n}", 1 + n % 2, at=NOW + n, chat=chat)

    asyncio.run(run())


async def test_simultaneous_finishes_of_one_player_lose_no_update(backend: Backend) -> None:
    async with backend.open():
        pass  # the schema exists before the racers open the database
    context = multiprocessing.get_context("spawn")  # no thread or loop copied by fork
    start = context.Barrier(RACERS)
    racers = [
        context.Process(target=_racer, args=(backend.kind, backend.where, n, start))
        for n in range(RACERS)
    ]
    for racer in racers:
        racer.start()
    for racer in racers:
        racer.join(180)
        assert racer.exitcode == 0
    async with backend.open() as store:
        alice = await store.run(ratings.rating_of("test", "alice", "tictactoe"))
        assert alice.games == RACERS * GAMES
        # Each change started from the rating the one before left: the log replays to it.
        assert await store.run(ratings.stored_ratings()) == rebuild(
            await store.run(ratings.rating_log())
        )
        befores = await backend.sql(
            "SELECT first_games FROM rating_changes WHERE first_identity = 'test:alice' ORDER BY id"
        )
        assert [games for (games,) in befores] == list(range(RACERS * GAMES))

"""The web pages' cost on SQLite and on PostgreSQL: the home page, a ladder page, player pages
and game pages, served by the real aiohttp application over 127.0.0.1 (each request timed from
the client: the store's reads, the templates and HTTP), beside the pages' store reads alone;
and a game's ``og:image`` drawn cold (a game whose picture nobody asked for yet).

``python -m benchmarks web_pages [--quick]``: 10,000 rated players in tic-tac-toe and Connect
Four, all listed, and 100,000 rated games in the rating log and the archive of finished games
(each with its review kept, as after its first visit) (1,000 and 10,000 with ``--quick``),
written straight into the tables; one player of them has 5,000 of those games, the heaviest
player page. The home page and the ladders are read once a second per process
(``LISTINGS_KEPT_FOR``): each is served both as visitors meet it (mostly the kept values) and
read afresh for every request. Prints p50 and p99 in milliseconds, for each store in turn (the
environment's ``WEB_PAGES_STORES=sqlite`` or ``=postgres`` runs one; PostgreSQL is the tests'
embedded server, on a Unix socket of this machine).
"""

from __future__ import annotations

import asyncio
import os
import random
import sqlite3
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web

from adapters.web import AddressLimiter, WebPages
from adapters.web.server import LISTINGS_KEPT_FOR
from benchmarks.ratings_store import _timed  # p50 and p99 of an awaitable, after a warm-up
from core.ai import Level, choose_move
from core.ai.review import review_game
from core.games import CONNECT_FOUR, TICTACTOE, Position, Rules
from core.pages import Pages
from core.pages.game import encode_review
from core.pages.game_picture import game_png
from core.pages.games import GamePages
from core.store import SqliteStore
from core.store.models.archive import ArchivedGame
from core.store.rows import encode_moves
from core.store.runner import SqlStore
from core.store.sql import for_sqlite

PLAYERS = 10_000
GAMES = 100_000
HEAVY_GAMES = 5_000
SAMPLES = 1000
NOW = 1_800_000_000.0
POOLS = ("tictactoe", "connect4")

_RATING = (
    "INSERT INTO ratings (identity, pool, rating, deviation, games, last_rated_at, platform,"
    " name, won, lost, drawn) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)"
)
_CHANGE = (
    "INSERT INTO rating_changes (kind, session_id, pool, at, first_identity, second_identity,"
    " winner, termination, first_rating, first_deviation, first_games, second_rating,"
    " second_deviation, second_games, first_rating_after, first_deviation_after,"
    " second_rating_after, second_deviation_after)"
    " VALUES ('game', $1, $2, $3, $4, $5, $6, 'win', $7, 80, 20, $8, 80, 20, $9, 80, $10, 80)"
)


_ARCHIVED = (
    "INSERT INTO archive (public_id, session_id, rows, cols, k, gravity, x_name, x_identity,"
    " x_level, o_name, o_identity, o_level, moves, termination, winner, rated, clock,"
    " started_at, finished_at, listed, analysis) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, NULL,"
    " $9, $10, NULL, $11, $12, $13, 1, 120, $14, $15, 1, $16)"
)
KINDS = 8
"""Distinct games of each kind the archive repeats (each reviewed once, here)."""


def _games(rules: Rules, rng: random.Random) -> list[tuple[tuple[int, ...], str, int | None, str]]:
    """Games of ``rules`` between MEDIUM players, each with its moves, how it ended, its winner
    and its review as the archive keeps it."""
    found = []
    for _ in range(KINDS):
        p = Position.start(rules)
        while not p.is_over:
            p = p.play(choose_move(p, Level.MEDIUM, rng=rng))
        review = review_game(rules, p.moves, every_best=True)
        assert review is not None and p.outcome is not None
        found.append(
            (p.moves, p.outcome.termination.value, p.outcome.winner, encode_review(review.moves))
        )
    return found


def public_id(game: int) -> str:
    return f"{game:032x}"


Row = tuple[Any, ...]


def _data(players: int, games: int, rng: random.Random) -> tuple[list[Row], list[Row], list[Row]]:
    """The ratings' rows (each with its record as the rating write keeps it), the rating
    log's, and the archive's."""
    who = [f"discord:u{n}" for n in range(players)]
    records = {(p, pool): [0, 0, 0] for p in who for pool in POOLS}  # won, lost, drawn
    rows = []
    for g in range(games):
        # The first player takes part in HEAVY_GAMES of them: the heaviest page.
        first = who[0] if g < HEAVY_GAMES else rng.choice(who)
        second = rng.choice(who[1:])
        pool = rng.choice(POOLS)
        before = (rng.gauss(1500, 300), rng.gauss(1500, 300))
        winner = rng.choice((1, 2, None))
        for seat, player in ((1, first), (2, second)):
            records[player, pool][2 if winner is None else 0 if winner == seat else 1] += 1
        rows.append(
            (
                f"s{g}",
                pool,
                NOW - (games - g) * 60,
                first,
                second,
                winner,
                before[0],
                before[1],
                before[0] + 10,
                before[1] - 10,
            )
        )
    ratings = [
        (
            p,
            pool,
            rng.gauss(1500, 300),
            rng.uniform(40, 200),
            20,
            NOW - 3600,
            "discord",
            f"Player {n}",
            *records[p, pool],
        )
        for n, p in enumerate(who)
        for pool in POOLS
    ]
    played = {
        "tictactoe": (TICTACTOE, _games(TICTACTOE, rng)),
        "connect4": (CONNECT_FOUR, _games(CONNECT_FOUR, rng)),
    }
    archived: list[Row] = []
    for g, (session, pool, at, first, second, *_) in enumerate(rows):
        rules, kinds = played[pool]
        moves, ending, winner, review = kinds[g % KINDS]
        archived.append(
            (
                public_id(g),
                session,
                rules.rows,
                rules.cols,
                rules.k,
                int(rules.gravity),
                f"Player {first}",
                first,
                f"Player {second}",
                second,
                encode_moves(moves),
                ending,
                winner,
                at - 600,
                at,
                review,
            )
        )
    return ratings, rows, archived


def _fill_sqlite(path: Path, players: int, games: int, rng: random.Random) -> None:
    ratings, changes, archived = _data(players, games, rng)
    db = sqlite3.connect(path)
    with db:
        db.executemany(for_sqlite(_RATING), ratings)
        db.executemany(for_sqlite(_CHANGE), changes)
        db.executemany(for_sqlite(_ARCHIVED), archived)
    db.execute("ANALYZE")
    db.close()


async def _fill_postgres(url: str, players: int, games: int, rng: random.Random) -> None:
    import asyncpg

    ratings, changes, archived = _data(players, games, rng)
    conn = await asyncpg.connect(url)
    try:
        async with conn.transaction():
            await conn.executemany(_RATING, ratings)
            await conn.executemany(_CHANGE, changes)
            await conn.executemany(_ARCHIVED, archived)
        # As autovacuum would soon: the statistics, and the visibility map index-only scans read.
        await conn.execute("VACUUM ANALYZE")
    finally:
        await conn.close()


def _sizes(quick: bool) -> tuple[int, int, int]:
    """Players, games and samples."""
    if quick:
        return PLAYERS // 10, GAMES // 10, SAMPLES // 10
    return PLAYERS, GAMES, SAMPLES


async def _sqlite(folder: Path, quick: bool) -> list[str]:
    players, games, samples = _sizes(quick)
    path = folder / "pages.sqlite3"
    async with await SqliteStore.open(path):
        pass
    _fill_sqlite(path, players, games, random.Random(33))
    lines = [f"  {players:,} rated players in 2 games, {games:,} rated games (SQLite)"]
    async with await SqliteStore.open(path) as store:
        return lines + await _measure(store, players, games, samples)


async def _postgres(url: str, quick: bool) -> list[str]:
    from core.store.postgres import PostgresStore

    players, games, samples = _sizes(quick)
    async with PostgresStore.open(url):
        pass
    await _fill_postgres(url, players, games, random.Random(33))
    lines = [f"  {players:,} rated players in 2 games, {games:,} rated games (PostgreSQL)"]
    async with PostgresStore.open(url) as store:
        return lines + await _measure(store, players, games, samples)


async def _measure(store: SqlStore, players: int, games: int, samples: int) -> list[str]:
    rng = random.Random(34)
    lines: list[str] = []
    pages = Pages(store, lambda: NOW)
    games_read = GamePages(store)
    ticks = [0.0]  # the listings' clock: moved on by the cases that read afresh
    app = WebPages(
        pages, AddressLimiter(10**9, 10**9), games=games_read, clock=lambda: ticks[0]
    ).app()
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    base = f"http://127.0.0.1:{runner.addresses[0][1]}"
    try:
        async with aiohttp.ClientSession() as client:

            async def get(path: str) -> None:
                async with client.get(base + path) as response:
                    assert response.status == 200, (path, response.status)
                    await response.read()

            async def afresh(path: str) -> None:
                ticks[0] += LISTINGS_KEPT_FOR
                await get(path)

            def player() -> str:
                return f"/player/discord%3Au{rng.randrange(1, players)}"

            def a_game() -> str:
                return public_id(rng.randrange(games))

            async def game_read() -> None:
                found = await games_read.archived(a_game())
                assert isinstance(found, ArchivedGame)
                await games_read.page(found, None)

            # Each picture asked for once: never drawn before (its caption holds its names).
            cold = iter(range(games))
            alone = iter(reversed(range(games)))

            async def picture_alone() -> None:
                found = await games_read.archived(public_id(next(alone)))
                assert isinstance(found, ArchivedGame)
                game_png(found, await games_read.page(found, None, reviewed=False))

            cases: list[tuple[str, Callable[[], Awaitable[Any]], Callable[[], Awaitable[Any]]]]
            cases = [
                ("home page (kept 1 s)", lambda: get("/"), pages.home),
                ("home page, read afresh", lambda: afresh("/"), pages.home),
                (
                    "ladder page (50 players, kept 1 s)",
                    lambda: get("/ladder/quatre"),
                    lambda: pages.ladder("quatre"),
                ),
                (
                    "ladder page (50 players), read afresh",
                    lambda: afresh("/ladder/quatre"),
                    lambda: pages.ladder("quatre"),
                ),
                (
                    "a player page (random)",
                    lambda: get(player()),
                    lambda: pages.player(f"discord:u{rng.randrange(1, players)}"),
                ),
                (
                    f"the heaviest player page ({HEAVY_GAMES:,} games)",
                    lambda: get("/player/discord%3Au0"),
                    lambda: pages.player("discord:u0"),
                ),
                (
                    "a game page (random, its review kept)",
                    lambda: get(f"/game/{a_game()}"),
                    game_read,
                ),
                (
                    "a game page at a move (?ply=5)",
                    lambda: get(f"/game/{a_game()}?ply=5"),
                    game_read,
                ),
                ("a game's text export", lambda: get(f"/game/{a_game()}.txt"), game_read),
                (
                    "a game's og:image, cold (drawn for the first time)",
                    lambda: get(f"/game/{public_id(next(cold))}.png"),
                    picture_alone,
                ),
            ]
            for label, served, read in cases:
                page = await _timed(samples, served)
                reads = await _timed(samples, read)
                lines.append(
                    f"  {label}: served p50 {page[0]:.2f} ms, p99 {page[1]:.2f} ms;"
                    f" its reads alone p50 {reads[0]:.2f} ms, p99 {reads[1]:.2f} ms"
                )
    finally:
        await runner.cleanup()
    return lines


def main(quick: bool) -> None:
    stores = os.environ.get("WEB_PAGES_STORES", "sqlite,postgres").split(",")
    if "sqlite" in stores:
        with tempfile.TemporaryDirectory() as folder:
            for line in asyncio.run(_sqlite(Path(folder), quick)):
                print(line, flush=True)
    if "postgres" in stores:
        from tests.pg import PostgresServer

        server = PostgresServer.start()
        try:
            for line in asyncio.run(_postgres(server.url(), quick)):
                print(line, flush=True)
        finally:
            server.stop()

"""``chatbots ratings rebuild`` on both stores, ``chatbots stats``' ratings line, and a backup
that holds the ratings (issue 23)."""

from __future__ import annotations

import asyncio
import io
import random
from pathlib import Path

import pytest

from chatbots.operator import backup_command, stats_command
from chatbots.ratings_cli import rebuild_command
from chatbots.settings import load_settings
from core.store import SqliteStore, links, ratings
from tests.backends import Backend
from tests.chatbots.test_app import chatbots
from tests.chatbots.test_operator import assert_one_line_naming, unusable_databases
from tests.core.store.helpers import NOW
from tests.core.store.ratings_helpers import play


def settings_of(backend: Backend) -> object:
    key = "DATABASE_PATH" if backend.kind == "sqlite" else "DATABASE_URL"
    return load_settings({key: backend.where}, None)


async def games(store: object, n: int, seed: int = 5) -> None:
    rng = random.Random(seed)
    players = [f"p{i}" for i in range(6)]
    for i in range(n):
        first, second = rng.sample(players, 2)
        await play(
            store, first, second, rng.choice((1, 2, None)), at=NOW + i * 9 * 3600
        )  # below the pair limit


async def test_rebuild_agrees_then_finds_a_damaged_rating(backend: Backend) -> None:
    async with backend.open() as store:
        await games(store, 40)
    out = io.StringIO()
    assert await rebuild_command(settings_of(backend), out) == 0  # type: ignore[arg-type]
    assert "every rating equals its rebuild" in out.getvalue()
    assert "from 40 rated games and 0 merges" in out.getvalue()
    await backend.sql("UPDATE ratings SET rating = rating + 1 WHERE identity = 'test:p0'")
    out = io.StringIO()
    assert await rebuild_command(settings_of(backend), out) == 1  # type: ignore[arg-type]
    assert "differs: tictactoe test:p0" in out.getvalue()
    assert "1 ratings differ" in out.getvalue()


async def test_stats_counts_ratings_and_a_backup_keeps_them(
    backend: Backend, tmp_path: Path
) -> None:
    async with backend.open() as store:
        await games(store, 3)
        await store.run(links.link_code("ABCDEFGH", "test", "p0", NOW + 600))
        assert (await store.run(links.link("ABCDEFGH", "other", "q", NOW))).value == "linked"
    out = io.StringIO()
    assert await stats_command(settings_of(backend), out) == 0  # type: ignore[arg-type]
    assert "3 rated games, 2 linked accounts" in out.getvalue()
    if backend.kind == "sqlite":  # PostgreSQL is backed up with pg_dump
        copy = tmp_path / "copy.sqlite3"
        assert await asyncio.to_thread(backup_command, settings_of(backend), str(copy)) == 0  # type: ignore[arg-type]
        async with SqliteStore.open(copy) as kept, backend.open() as store:
            assert await kept.run(ratings.stored_ratings()) == await store.run(
                ratings.stored_ratings()
            )
            assert await kept.run(ratings.rating_log()) == await store.run(ratings.rating_log())
            assert await kept.run(ratings.rating_totals()) == await store.run(
                ratings.rating_totals()
            )


def test_the_command_line_runs_it(tmp_path: Path) -> None:
    async def make() -> None:
        (tmp_path / "db").mkdir()
        async with SqliteStore.open(tmp_path / "db" / "games.sqlite3") as store:
            await games(store, 5)

    asyncio.run(make())
    done = chatbots(tmp_path, "ratings", "rebuild")
    assert done.returncode == 0, done.stderr
    assert done.stdout.endswith("every rating equals its rebuild\n")
    assert chatbots(tmp_path, "ratings", "nonsense").returncode == 2


def test_a_database_that_cannot_be_opened_is_one_line_and_exit_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for broken, cause in unusable_databases(tmp_path):
        out = io.StringIO()
        assert asyncio.run(rebuild_command(broken, out)) == 1
        assert_one_line_naming(capsys, cause)
        assert out.getvalue() == ""

"""DATABASE_URL: validated (scheme, a host or a socket folder, the password never shown),
winning over DATABASE_PATH with a notice, masked by ``chatbots check``, and a whole console game
played by ``python -m chatbots run`` on a real PostgreSQL server."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from chatbots.settings import SettingsError, load_settings
from core.store import Status, sessions
from tests.backends import Backends
from tests.chatbots.test_app import chatbots

GOOD = [
    "postgresql://bot:pw@db.example.org:5432/chatbots",
    "postgres://bot@localhost/chatbots",
    "postgresql://bot@[::1]:5433/chatbots?sslmode=disable",
    "postgresql:///chatbots?host=/run/postgresql",
    "postgresql://bot:pw@/chatbots?host=/var/run/postgresql&application_name=x",
]
BAD = {
    "mysql://bot:s3cret@db/chatbots": "is not a PostgreSQL URL",
    "postgresql://bot:s3cret@/chatbots": "names no server",
    "postgresql:///chatbots?host=relative/dir": "names no server",
    "postgresql://bot:s3cret@db:99999/chatbots": "is not a PostgreSQL URL",
    "postgresql://bot:s3 cret@db/chatbots": "no spaces",
    "db.example.org/chatbots": "is not a PostgreSQL URL",
}


@pytest.mark.parametrize("url", GOOD)
def test_good_urls_are_taken(url: str) -> None:
    settings = load_settings({"DATABASE_URL": url}, None)
    assert settings.database_url is not None and settings.database_url.value == url
    assert settings.database.startswith("PostgreSQL at ") and ":pw@" not in settings.database
    assert not settings.warnings


@pytest.mark.parametrize("url", BAD)
def test_bad_urls_are_named_without_the_password(url: str) -> None:
    with pytest.raises(SettingsError) as caught:
        load_settings({"DATABASE_URL": url}, None)
    [problem] = caught.value.problems
    assert problem.startswith("DATABASE_URL: ") and BAD[url] in problem, problem
    assert "s3cret" not in problem and "s3 cret" not in problem


def test_database_url_wins_over_database_path_with_one_notice() -> None:
    url = "postgresql://bot:hunter2-db@db/chatbots"
    settings = load_settings({"DATABASE_URL": url, "DATABASE_PATH": "/srv/x.sqlite3"}, None)
    assert settings.database == "PostgreSQL at postgresql://bot:***@db/chatbots"
    [notice] = settings.warnings
    assert "DATABASE_PATH is ignored" in notice and "DATABASE_URL" in notice
    assert "hunter2-db" in settings.secrets()  # the log filter masks the password
    # The default DATABASE_PATH (a copy of .env.example) is no reason for a notice.
    assert not load_settings({"DATABASE_URL": url}, None).warnings
    assert load_settings({}, None).database == "SQLite at data/chatbots.sqlite3"


def test_check_says_which_store_and_masks_the_password(tmp_path: Path) -> None:
    url = "postgresql://bot:hunter2-db@db.example.org/chatbots"
    result = chatbots(tmp_path, "check", DATABASE_URL=url)
    assert result.returncode == 0, result.stderr
    assert "store: PostgreSQL at postgresql://bot:***@db.example.org/chatbots" in result.stdout
    assert "DATABASE_URL = postgresql://bot:***@db.example.org/chatbots" in result.stdout
    assert "DATABASE_PATH is ignored" in result.stderr  # DATABASE_PATH is set by the helper
    assert "hunter2-db" not in result.stdout + result.stderr
    result = chatbots(tmp_path, "check")
    assert re.search(r"^store: SQLite at .*games\.sqlite3$", result.stdout, re.MULTILINE)


async def test_a_console_game_on_postgresql(backends: Backends, tmp_path: Path) -> None:
    async with backends.fresh("postgres", tmp_path) as backend:
        result = chatbots(
            tmp_path, "run", stdin="/tres easy\n5\n", DATABASE_URL=backend.where, CONSOLE_NAME="you"
        )
        assert result.returncode == 0, result.stderr
        assert not (tmp_path / "db").exists()  # no SQLite file was made
        async with backend.open() as store:
            game = await store.run(sessions.live_game("console", "console", "you"))
        assert game is not None and game.status is Status.ACTIVE and game.moves[0] == 4


def test_an_unreachable_server_stops_the_bot_with_one_line(tmp_path: Path) -> None:
    url = f"postgresql://bot:hunter2-db@/chatbots?host={tmp_path}"
    result = chatbots(tmp_path, "run", stdin="/tres easy\n", DATABASE_URL=url)
    assert result.returncode == 1
    [line] = [line for line in result.stderr.splitlines() if "cannot open the database" in line]
    assert "cannot be reached" in line and "bot:***@" in line
    assert "hunter2-db" not in result.stdout + result.stderr

"""The operator's commands: ``chatbots settings``, ``chatbots backup`` and ``chatbots stats``,
through ``python -m chatbots`` in a subprocess on a real SQLite file; the backup also while
games are being played in another task."""

from __future__ import annotations

import asyncio
import io
import random
import sqlite3
from pathlib import Path

import pytest

from chatbots.operator import backup_command, settings_command, stats_command
from chatbots.settings import Settings, load_settings
from core.admin.keys import SETTING_NAMES
from core.replies import Actor
from core.sessions import GameService, ServiceSettings
from core.store import SqliteStore, sessions
from tests.backends import Backend
from tests.chatbots.test_app import chatbots


def db(tmp_path: Path) -> Path:
    return tmp_path / "db" / "games.sqlite3"


async def make_db(tmp_path: Path) -> None:
    db(tmp_path).parent.mkdir(exist_ok=True)
    async with SqliteStore.open(db(tmp_path)):
        pass


def test_settings_read_write_and_reset_a_scope(tmp_path: Path) -> None:
    asyncio.run(make_db(tmp_path))
    done = chatbots(tmp_path, "settings", "discord:server:42", "level", "hard")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "level = hard (set for this server)\n"
    shown = chatbots(tmp_path, "settings", "discord:server:42")
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    assert len(lines) == len(SETTING_NAMES)
    assert "level = hard (set for this server)" in lines
    assert "game_ttl = 86400 (default)" in lines
    custom = chatbots(tmp_path, "settings", "discord:server:42", GAME_TTL_SECONDS="3600")
    assert "game_ttl = 3600 (default)" in custom.stdout  # the .env is the default
    room = chatbots(
        tmp_path, "settings", "matrix:!abc:example.org", "allowed_chats", "!a:x", "!b:x"
    )
    assert room.stdout == "allowed_chats = !a:x !b:x (set for this chat)\n"
    rows = sqlite3.connect(db(tmp_path)).execute(
        "SELECT platform, scope, key, value, updated_by FROM settings ORDER BY key"
    )
    assert [r[:4] for r in rows] == [
        ("matrix", "chat:!abc:example.org", "allowed_chats", "!a:x !b:x"),
        ("discord", "server:42", "level", "hard"),
    ]
    reset = chatbots(tmp_path, "settings", "discord:server:42", "level", "reset")
    assert reset.stdout == "level = medium (default)\n"
    # A server's daily puzzle with the channel it goes to (an hour alone is refused below).
    daily = chatbots(tmp_path, "settings", "discord:server:42", "daily_puzzle", "9", "7")
    assert daily.stdout == "daily_puzzle = 9 7 (set for this server)\n", daily.stderr


def test_settings_refuse_bad_input_clearly_and_change_nothing(tmp_path: Path) -> None:
    asyncio.run(make_db(tmp_path))
    cases = [
        (("discord",), "is not a scope: write PLATFORM:server:ID"),
        (("discord:server:1", "colour", "red"), "'colour' is not a setting; settings: games,"),
        (("discord:server:1", "game_ttl", "-5"), "game_ttl: '-5' is not a number of seconds"),
        (("discord:server:1", "level", "expert"), "level: 'expert' is not one of easy"),
        (("matrix:!r:x", "allowed_chats", "here"), "'here' means the chat of whoever types it"),
        (("discord:server:1", "daily_puzzle", "9"), "a server's daily_puzzle names the channel"),
    ]
    for args, message in cases:
        done = chatbots(tmp_path, "settings", *args)
        assert done.returncode == 2, (args, done.stdout)
        assert message in done.stderr, done.stderr
    rows = sqlite3.connect(db(tmp_path)).execute("SELECT count(*) FROM settings").fetchone()
    assert rows == (0,)


def test_stats_counts_games_per_platform(tmp_path: Path) -> None:
    async def play() -> None:
        db(tmp_path).parent.mkdir(exist_ok=True)
        async with SqliteStore.open(db(tmp_path)) as store:
            svc = GameService(store, settings=ServiceSettings(ai_workers=0))
            for platform, user in (("discord", "a"), ("discord", "b"), ("matrix", "c")):
                actor = Actor(platform, "room", user, user)
                await svc.handle_text(actor, "/tres easy first")
                game = await store.run(sessions.live_game(platform, "room", user))
                assert game is not None
                await svc.handle_move(actor, game.id, 4)

    asyncio.run(play())
    done = chatbots(tmp_path, "stats")
    assert done.returncode == 0, done.stderr
    lines = [line.split() for line in done.stdout.splitlines()]
    assert lines[0][0] == "platform"
    # Each game: the player's move and the bot's answer.
    assert lines[1] == ["discord", "2", "0", "0", "4"]
    assert lines[2] == ["matrix", "1", "0", "0", "2"]
    assert lines[3] == ["all", "3", "0", "0", "6"]


def test_backup_of_postgresql_points_to_pg_dump(tmp_path: Path) -> None:
    done = chatbots(
        tmp_path, "backup", "copy.sqlite3", DATABASE_URL="postgresql://bot@127.0.0.1:1/games"
    )
    assert done.returncode == 2
    assert "back it up with pg_dump" in done.stderr


def test_backup_refuses_to_overwrite(tmp_path: Path) -> None:
    asyncio.run(make_db(tmp_path))
    (tmp_path / "there.sqlite3").write_text("keep me")
    done = chatbots(tmp_path, "backup", "there.sqlite3")
    assert done.returncode == 2
    assert "exists already" in done.stderr
    assert (tmp_path / "there.sqlite3").read_text() == "keep me"


async def test_backup_while_games_are_played_holds_every_committed_move(tmp_path: Path) -> None:
    path = db(tmp_path)
    path.parent.mkdir()
    settings = load_settings({"DATABASE_PATH": str(path)}, None)
    stop = asyncio.Event()
    committed: dict[str, tuple[int, ...]] = {}
    async with SqliteStore.open(path) as store:
        svc = GameService(
            store, settings=ServiceSettings(ai_workers=0, limits=False), rng=random.Random(1)
        )

        async def players() -> None:
            rng = random.Random(2)
            games = 0
            while not stop.is_set():
                actor = Actor("test", f"room{games % 7}", f"p{games}", "P")
                games += 1
                board = (await svc.handle_text(actor, "/quatre easy first"))[0].board
                while board is not None and board.playable and not stop.is_set():
                    replies = await svc.handle_move(
                        actor, board.session_id, rng.choice(board.playable)
                    )
                    board = replies[0].board
                    session = await store.run(sessions.get(board.session_id)) if board else None
                    if session is not None:
                        committed[session.id] = session.moves
                    await asyncio.sleep(0)

        task = asyncio.create_task(players())
        copies = []
        try:
            for i in range(3):
                await asyncio.sleep(0.3)
                before = dict(committed)  # every move stored before the backup starts
                target = tmp_path / f"copy{i}.sqlite3"
                assert await asyncio.to_thread(backup_command, settings, str(target)) == 0
                copies.append((target, before))
        finally:
            stop.set()
            await task
    assert sum(len(moves) for _, before in copies for moves in before.values()) > 50
    for target, before in copies:
        async with SqliteStore.open(target) as copy:
            for session_id, moves in before.items():
                kept = await copy.run(sessions.get(session_id))
                assert kept is not None, session_id
                assert kept.moves[: len(moves)] == moves


def test_settings_from_argv_that_is_not_utf8_are_stored_cleaned(tmp_path: Path) -> None:
    # A byte that is not UTF-8 reaches Python's argv as a lone surrogate, which no store can
    # encode: it was a traceback; it is U+FFFD, as in chat.
    asyncio.run(make_db(tmp_path))
    done = chatbots(tmp_path, "settings", "console:console", "allowed_chats", "a\udcffb")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "allowed_chats = a\ufffdb (set for this chat)\n"
    scope = chatbots(tmp_path, "settings", "console:cons\udcffole", "level", "hard")
    assert scope.returncode == 0, scope.stderr
    rows = sqlite3.connect(db(tmp_path)).execute("SELECT scope, value FROM settings ORDER BY key")
    assert list(rows) == [("chat:console", "a\ufffdb"), ("chat:cons\ufffdole", "hard")]


async def test_settings_say_in_one_line_what_failed_on_either_store(
    backend: Backend, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    key = "DATABASE_PATH" if backend.kind == "sqlite" else "DATABASE_URL"
    async with backend.open():
        pass
    settings = load_settings({key: backend.where}, None)
    out = io.StringIO()
    # A value the setting refuses: the player's kind of error, exit 2, nothing written.
    assert await settings_command(settings, "discord:server:1", ["level", "expert"], out) == 2
    [line] = capsys.readouterr().err.splitlines()
    assert line.startswith("chatbots: level: 'expert' is not one of easy"), line
    assert await backend.sql("SELECT count(*) FROM settings") == [(0,)]
    # The store was closed after the refusal: the next command uses it at once.
    assert await settings_command(settings, "discord:server:1", ["level", "hard"], out) == 0
    assert out.getvalue() == "level = hard (set for this server)\n"
    for broken, cause in unusable_databases(tmp_path):
        assert await settings_command(broken, "discord:server:1", ["level", "hard"], out) == 1
        assert_one_line_naming(capsys, cause)


def unusable_databases(tmp_path: Path) -> list[tuple[Settings, str]]:
    """Settings that name a database which cannot be opened, each with the cause it is refused
    for: a file that is not a database, a PostgreSQL server that cannot be reached."""
    garbage = tmp_path / "garbage.sqlite3"
    garbage.write_bytes(b"not a database " * 300)
    unreachable = f"postgresql://bot:hunter2-db@/chatbots?host={tmp_path}"
    return [
        (load_settings({"DATABASE_PATH": str(garbage)}, None), "not a database"),
        (load_settings({"DATABASE_URL": unreachable}, None), "cannot be reached"),
    ]


def assert_one_line_naming(capsys: pytest.CaptureFixture[str], cause: str) -> None:
    """The command said on stderr, in one line without the password, why it could not start."""
    [line] = capsys.readouterr().err.splitlines()
    assert line.startswith("chatbots: cannot use the database") and cause in line, line
    assert "hunter2-db" not in line


async def test_a_table_gone_mid_command_fails_in_one_line_on_either_store(
    backend: Backend, capsys: pytest.CaptureFixture[str]
) -> None:
    """A database changed by hand (its tables dropped): the command opens it, then fails at
    the statement; one line naming the database and the table, exit 1, no traceback."""
    key = "DATABASE_PATH" if backend.kind == "sqlite" else "DATABASE_URL"
    async with backend.open() as store:
        where = store.path if backend.kind == "sqlite" else store.url
    await backend.sql("DROP TABLE settings")
    await backend.sql("DROP TABLE links")
    settings = load_settings({key: backend.where}, None)
    out = io.StringIO()
    assert await settings_command(settings, "discord:server:1", [], out) == 1
    assert await stats_command(settings, out) == 1
    assert out.getvalue() == ""
    for line, table in zip(
        capsys.readouterr().err.splitlines(), ("settings", "links"), strict=True
    ):
        assert line.startswith(f"chatbots: the database {str(where)!r} failed: "), line
        assert table in line, line

"""Upgrades keep the data: a database written by the oldest schema opens in the current code.

The old database is made the way the first release made it: its migration (``MIGRATIONS[:1]``)
on a fresh file, then rows written with the SQL that release's store used (sessions active,
finished and challenged, their players rows, stats, key-value entries such as a Discord
board message). The current store then opens it, running every later migration, and the games
go on: a move through the service, and a click on a Discord button posted before the upgrade.
The test walks every version a database can be found at (1 .. the latest), so each migration
added later is exercised, and it holds with version 1 alone.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from adapters.discord.boards import BoardMessages
from adapters.discord.ids import ActionId, MoveId, parse_custom_id
from core.replies import ActionKind, Actor
from core.sessions import GameService, ServiceSettings
from core.store import SqliteStore, kv, schema, sessions, stats
from core.store.errors import SchemaTooNew
from core.store.migrations import MIGRATIONS
from core.store.models import Status

LATEST = len(MIGRATIONS)
NOW = time.time()  # the service's clock is the real one: the old games must not be expired

C4 = "c4Old_01"  # Connect Four against the bot, Ana to move, its board posted on Discord
TTT_DONE = "tttDone2"  # finished tic-tac-toe, Ana beat Bo
TTT_CHALLENGE = "tttChal3"  # Bo challenged Cy, not answered yet
CHANNEL, OTHER_CHANNEL = "901", "902"
ANA, BO, CY = "1001", "1002", "1003"
BOARD_MESSAGE = f"{CHANNEL}:555000111"  # what the Discord adapter keeps: channel:message


@dataclass(frozen=True)
class OldSession:
    id: str
    platform: str
    chat_id: str
    rules: tuple[int, int, int, int]  # rows, cols, k, gravity
    x: tuple[str | None, str, str | None]  # user, name, level
    o: tuple[str | None, str, str | None]
    moves: str
    status: str
    version: int
    challenger: str | None = None
    challenged: str | None = None
    winner: int | None = None


OLD_SESSIONS = (
    OldSession(C4, "discord", CHANNEL, (6, 7, 4, 1), (ANA, "Ana", None), (None, "Bot (medium)",
               "medium"), "3,3,2,4", "active", 5),
    OldSession(TTT_DONE, "discord", CHANNEL, (3, 3, 3, 0), (ANA, "Ana", None), (BO, "Bo", None),
               "0,3,1,4,2", "finished", 6, winner=1),
    OldSession(TTT_CHALLENGE, "discord", OTHER_CHANNEL, (3, 3, 3, 0), (BO, "Bo", None),
               (CY, "Cy", None), "", "challenge", 0, challenger=BO, challenged=CY),
)  # fmt: skip


def write_version_1_database(path: Path) -> None:
    """The first release's schema, and rows as the first release's store wrote them."""
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("BEGIN")
        MIGRATIONS[0](db)
        db.execute("PRAGMA user_version = 1")
        times = (NOW - 600, NOW - 60, NOW + 86400)  # created, updated, expires
        for s in OLD_SESSIONS:
            db.execute(
                "INSERT INTO sessions (id, platform, chat_id, rows, cols, k, gravity, x_user,"
                " x_name, x_level, o_user, o_name, o_level, moves, status, version, created_at,"
                " updated_at, expires_at, challenger, challenged, winner)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    s.id,
                    s.platform,
                    s.chat_id,
                    *s.rules,
                    *s.x,
                    *s.o,
                    s.moves,
                    s.status,
                    s.version,
                    *times,
                    s.challenger,
                    s.challenged,
                    s.winner,
                ),
            )
        # Who lives in which game: both people of an active game, the challenger of a challenge.
        db.executemany(
            "INSERT INTO players (platform, chat_id, user_id, session_id) VALUES (?, ?, ?, ?)",
            [("discord", CHANNEL, ANA, C4), ("discord", OTHER_CHANNEL, BO, TTT_CHALLENGE)],
        )
        # The finished game's result, plus older results of the same players.
        db.executemany(
            "INSERT INTO stats (platform, chat_id, user_id, name, wins, losses, draws,"
            " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [
                ("discord", CHANNEL, ANA, "Ana", 3, 1, 2, NOW - 60),
                ("discord", CHANNEL, BO, "Bo", 1, 3, 2, NOW - 60),
                ("discord", OTHER_CHANNEL, BO, "Bo", 2, 0, 0, NOW - 6000),
            ],
        )
        db.executemany(
            "INSERT INTO kv (namespace, key, value) VALUES (?, ?, ?)",
            [
                ("discord", f"board:{C4}", BOARD_MESSAGE),
                ("matrix", "next_batch", "s72594_4483_1934"),
            ],
        )
        db.execute("COMMIT")
    finally:
        db.close()


def bring_to_version(path: Path, version: int) -> None:
    """A database as a release with schema ``version`` left it (its migrations, run as the
    store runs them: one transaction per step with the version bump)."""
    db = sqlite3.connect(path, isolation_level=None)
    try:
        for step in range(1, version):
            db.execute("BEGIN")
            MIGRATIONS[step](db)
            db.execute(f"PRAGMA user_version = {step + 1}")
            db.execute("COMMIT")
    finally:
        db.close()


def user_version(path: Path) -> int:
    with sqlite3.connect(path) as db:
        return int(db.execute("PRAGMA user_version").fetchone()[0])


@pytest.fixture(params=range(1, LATEST + 1), ids=lambda v: f"from-v{v}")
async def upgraded(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[SqliteStore]:
    """The old database, found at schema version ``param``, opened by the current store."""
    path = tmp_path / "chatbots.sqlite3"
    write_version_1_database(path)
    bring_to_version(path, request.param)
    assert user_version(path) == request.param
    async with SqliteStore.open(path) as store:
        yield store
    assert user_version(path) == LATEST


def actor(user_id: str, name: str, chat_id: str = CHANNEL) -> Actor:
    return Actor(platform="discord", chat_id=chat_id, user_id=user_id, display_name=name)


async def test_every_game_stat_and_entry_survives(upgraded: SqliteStore) -> None:
    assert await upgraded.run(schema.schema_version()) == LATEST

    for old in OLD_SESSIONS:
        session = await upgraded.run(sessions.get(old.id))
        assert session is not None, old.id
        rules = session.rules
        assert (rules.rows, rules.cols, rules.k, int(rules.gravity)) == old.rules
        assert session.moves == tuple(int(m) for m in old.moves.split(",") if m)
        assert session.status is Status(old.status)
        assert session.version == old.version
        assert (session.challenger, session.challenged, session.winner) == (
            old.challenger,
            old.challenged,
            old.winner,
        )
        for seat, (user, name, level) in zip(session.seats, (old.x, old.o), strict=True):
            assert (seat.user_id, seat.name) == (user, name)
            assert (seat.level.value if seat.level else None) == level

    live = await upgraded.run(sessions.live_game("discord", CHANNEL, ANA))
    assert live is not None and live.id == C4
    challenge = await upgraded.run(sessions.challenge_for("discord", OTHER_CHANNEL, CY))
    assert challenge is not None and challenge.id == TTT_CHALLENGE
    done = await upgraded.run(sessions.last_finished("discord", CHANNEL, BO))
    assert done is not None and done.id == TTT_DONE

    ana = await upgraded.run(stats.player_stats("discord", ANA, CHANNEL))
    assert ana is not None and (ana.wins, ana.losses, ana.draws) == (3, 1, 2)
    bo_everywhere = await upgraded.run(stats.player_stats("discord", BO))
    assert bo_everywhere is not None
    assert (bo_everywhere.wins, bo_everywhere.losses, bo_everywhere.draws) == (3, 3, 2)
    top = await upgraded.run(stats.top("discord", CHANNEL))
    assert [(row.user_id, row.wins) for row in top] == [(ANA, 3), (BO, 1)]

    assert await upgraded.run(kv.kv_get("discord", f"board:{C4}")) == BOARD_MESSAGE
    # The adapter still finds that board, with or without naming its channel.

    async def never_edited(channel_id: int, message_id: int, spec: object) -> bool:
        raise AssertionError("only looked up")

    boards = BoardMessages(upgraded, never_edited)
    where = (int(CHANNEL), int(BOARD_MESSAGE.partition(":")[2]))
    assert await boards.where(C4) == where
    assert await boards.where(C4, channel_id=int(CHANNEL)) == where
    assert await upgraded.run(kv.kv_get("matrix", "next_batch")) == "s72594_4483_1934"


async def test_games_from_before_the_upgrade_go_on(upgraded: SqliteStore) -> None:
    service = GameService(upgraded, settings=ServiceSettings(ai_workers=0, ai_warm_up=False))
    await service.start()
    try:
        # A Discord button drawn before the upgrade: column 5 (0-based 4) at version 5.
        button = parse_custom_id(f"c4:move:{C4}:5:4")
        assert button == MoveId(C4, 5, 4)
        replies = await service.handle_move(
            actor(ANA, "Ana"), button.session_id, button.move, button.version
        )
        assert not any(reply.error for reply in replies), replies
        after = await upgraded.run(sessions.get(C4))
        assert after is not None
        assert after.moves[:5] == (3, 3, 2, 4, 4)
        assert len(after.moves) == 6  # the bot answered
        assert after.version > 5

        # The same button again is stale now: refused, nothing changes.
        replies = await service.handle_move(
            actor(ANA, "Ana"), button.session_id, button.move, button.version
        )
        assert any(reply.error for reply in replies)
        assert await upgraded.run(sessions.get(C4)) == after

        # The old challenge is answered with its Accept button.
        accept = parse_custom_id(f"c4:act:{TTT_CHALLENGE}:0:accept")
        assert accept == ActionId(TTT_CHALLENGE, 0, ActionKind.ACCEPT)
        replies = await service.handle_action(
            actor(CY, "Cy", OTHER_CHANNEL), accept.session_id, accept.action, accept.version
        )
        assert not any(reply.error for reply in replies), replies
        accepted = await upgraded.run(sessions.get(TTT_CHALLENGE))
        assert accepted is not None and accepted.status is Status.ACTIVE
    finally:
        await service.close()


async def test_a_database_newer_than_the_code_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "chatbots.sqlite3"
    write_version_1_database(path)
    bring_to_version(path, LATEST)
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {LATEST + 1}")
    with pytest.raises(SchemaTooNew, match=f"schema version {LATEST + 1}"):
        await SqliteStore.open(path)
    assert user_version(path) == LATEST + 1  # left as it was

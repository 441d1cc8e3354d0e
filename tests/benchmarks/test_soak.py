"""The soak's own parts that can be wrong quietly: reading boards, and the checks against the
store (a check that cannot fail would pass every soak)."""

from __future__ import annotations

from pathlib import Path

from benchmarks.soak.boards import Grid, discord_grid, grid_of_moves, matrix_grid, shows_move
from benchmarks.soak.ledger import Ack, Game, Ledger, Verdict, check
from core.games import CONNECT_FOUR, TICTACTOE
from core.store import Session, SqliteStore, sessions
from tests.core.store.helpers import make_session, played

ALICE_WINS = (0, 3, 1, 4, 2)  # alice (X) takes the top row; the bot (O) plays 3 and 4


def test_boards_are_read_as_players_see_them() -> None:
    cells = ["❌", "", "", "", "⭕", "", "", "", "❌"]
    message = {
        "components": [
            {
                "type": 1,
                "components": [
                    {"type": 2, "custom_id": f"c4:move:abc:3:{i}", "emoji": {"name": mark}}
                    if mark
                    else {"type": 2, "custom_id": f"c4:move:abc:3:{i}", "label": "\u200b"}
                    for i, mark in enumerate(cells[row * 3 : row * 3 + 3], start=row * 3)
                ],
            }
            for row in range(3)
        ]
    }
    assert discord_grid(message, TICTACTOE) == grid_of_moves(TICTACTOE, [0, 4, 8])

    drawn = ["1️⃣2️⃣3️⃣4️⃣5️⃣6️⃣7️⃣", *["⚫" * 7] * 5, "⚫⚫⚫❌🅾️⚫⚫"]
    columns = {"content": "\n".join(["X Alice vs O Bot", *drawn, "Alice to move"])}
    assert discord_grid(columns, CONNECT_FOUR) == grid_of_moves(CONNECT_FOUR, [3, 4])

    body = "  a b c\n1 X · ·\n2 · O ·\n3 · · X\nalice (X) to move"
    before = grid_of_moves(TICTACTOE, [0, 4])
    after = matrix_grid(body, TICTACTOE)
    assert after == grid_of_moves(TICTACTOE, [0, 4, 8])
    assert after is not None and shows_move(before, after, TICTACTOE, 8, 1)
    assert not shows_move(before, after, TICTACTOE, 7, 1)


async def _stored(path: Path, moves: tuple[int, ...]) -> Session:
    session = make_session(bob=None)
    async with SqliteStore.open(path) as store:
        await store.run(sessions.create(session))
        for n in range(len(moves)):
            done = played(session, moves[n])
            assert await store.run(sessions.update(done, expected_version=session.version))
            session = done
    return session


def _game(session: Session) -> Game:
    return Game("test", session.chat_id, TICTACTOE, "/tres", "1", session_id=session.id)


async def _verdict(path: Path, game: Game) -> Verdict:
    ledger = Ledger(users={"test": {"alice"}})
    ledger.start(game)
    return await check(ledger, path)


async def test_a_clean_game_passes(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    session = await _stored(path, ALICE_WINS)
    game = _game(session)
    for ply in (0, 2, 4):
        game.send("alice", ALICE_WINS[ply])
        shown = grid_of_moves(TICTACTOE, ALICE_WINS[: ply + 2])
        game.acked.append(_ack(ply, shown))
    game.see_end(grid_of_moves(TICTACTOE, ALICE_WINS), {"alice": 1})
    verdict = await _verdict(path, game)
    assert (verdict.lost, verdict.doubled, verdict.stats_mismatches) == (0, 0, 0), verdict


def _ack(ply: int, grid: Grid) -> Ack:
    return Ack("alice", ply, ALICE_WINS[ply], grid)


async def test_lost_doubled_and_wrong_stats_are_caught(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    session = await _stored(path, ALICE_WINS[:2])  # stored: alice 0, bot 3
    game = _game(session)
    game.send("alice", 7)  # the stored 0 was never sent: doubled
    game.send("alice", 1)  # acknowledged but not stored: lost
    game.acked.append(_ack(2, grid_of_moves(TICTACTOE, ALICE_WINS[:3])))
    game.see_end(grid_of_moves(TICTACTOE, ALICE_WINS), {"alice": 1})  # a win the store lacks
    verdict = await _verdict(path, game)
    assert verdict.lost == 1 and verdict.doubled == 1
    assert verdict.stats_mismatches == 2  # the seen result, and alice's stats row

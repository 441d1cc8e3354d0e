"""End to end, through the Discord double and ``python -m chatbots run``: a rated arena with
berserk allowed, made by a server's admin with the slash command's ``mode`` choice, joined by
two players of the server. The first player to move goes berserk with ``/tournament berserk``
before his first move: his clock in that game is halved (the stored game's clock for his seat,
and the words on the board). His opponent asking after his own first move is refused, in words
only he sees. The berserk player wins, and ``/tournament ID`` shows him on 3 points (a win 2,
berserk 1) with the ⚡ mark; his opponent on 0, unmarked."""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest

from core.store.models.session import Session
from core.store.rows import SELECT_SESSION, decode_moves, decode_session
from tests.e2e.discord_double import DiscordDouble
from tests.e2e.test_health import health_becomes, running_app
from tests.e2e.test_open_play import discord_settings
from tests.e2e.test_tournament import X_WINS, board_of, cell, query, until

CLOCK = 60.0
"""Seconds a move: half of it is still ample for a click through the double on a slow machine."""


def stored(database: Path, session_id: str) -> Session:
    """The game as the bot stored it, read back as the store does."""
    [row] = query(database, f"{SELECT_SESSION} WHERE id = ?", session_id)
    return decode_session(row)


def moves_made(database: Path, session_id: str, count: int) -> bool:
    found = query(database, "SELECT moves FROM sessions WHERE id = ?", session_id)
    return bool(found) and len(decode_moves(found[0][0])) == count


async def test_a_berserk_win_in_a_discord_arena(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite3"
    async with DiscordDouble() as double, running_app(tmp_path, **discord_settings(double)) as port:
        await double.wait_ready(within=60)
        await health_becomes(port, 200, within=60)
        double.grant("ann")  # Manage Server: an admin of the server
        made = await double.slash(
            "tournament",
            {
                "action": "arena",
                "game": "tres",
                "length": "10m",
                "clock": f"{CLOCK:.0f}s",
                "start": "+15s",
                "mode": "berserk",
            },
            user="ann",
            granted=True,
        )
        [created] = [t for t in made.public() if "tournament join" in t]
        assert "berserk allowed" in created, created
        found = re.search(r"tournament join (\S+)", created)
        assert found is not None, created
        ident = found[1]
        for name in ("ann", "ben"):
            joined = await double.slash("tournament", {"action": "join", "event": ident}, user=name)
            assert any("joined tournament" in t for t in joined.public()), joined.requests
        names = {str(double.user(n)["id"]): n for n in ("ann", "ben")}

        games = functools.partial(
            query,
            database,
            "SELECT g.session_id, s.x_user, s.o_user FROM event_games AS g"
            " JOIN sessions AS s ON s.id = g.session_id WHERE g.event_id = ?",
            ident,
        )
        await until(lambda: len(games()) == 1, "the arena's first game")
        [(session_id, x_user, o_user)] = games()
        x, o = names[x_user], names[o_user]

        async def play(who: str, count: int) -> None:
            """``who`` clicks the ``count``-th move of :data:`X_WINS` on the board as it stands."""
            version = stored(database, session_id).version
            shows = functools.partial(board_of, double, session_id, version)
            await double.wait_for(lambda: shows() is not None, 20)
            board = shows()
            assert board is not None
            clicked = await double.click(
                board, cell(double.messages[board], X_WINS[count]), user=who
            )
            assert not clicked.ephemeral(), clicked.ephemeral()
            await until(
                functools.partial(moves_made, database, session_id, count + 1),
                f"move {count + 1}",
            )

        # Before his first move, X goes berserk: half the clock for his moves in this game.
        assert stored(database, session_id).clock_of(1) == CLOCK
        berserk = await double.slash("tournament", {"action": "berserk"}, user=x)
        assert not berserk.ephemeral(), berserk.ephemeral()
        assert any("goes berserk: 30 seconds a move" in t for t in berserk.public()), (
            berserk.public()
        )
        game = stored(database, session_id)
        assert (game.clock_of(1), game.clock_of(2)) == (CLOCK / 2, CLOCK)

        await play(x, 0)
        await play(o, 1)
        # O has moved: too late for him, and only he is told.
        late = await double.slash("tournament", {"action": "berserk"}, user=o)
        assert late.public() == [], late.public()
        assert any("Too late to go berserk" in t for t in late.ephemeral()), late.requests
        game = stored(database, session_id)
        assert (game.clock_of(1), game.clock_of(2)) == (CLOCK / 2, CLOCK)
        # The clock that runs: O's move gave X, berserk, half the clock from that move.
        assert game.deadline is not None and game.deadline - game.updated_at == pytest.approx(
            CLOCK / 2
        )

        for count in range(2, len(X_WINS)):
            await play(x if count % 2 == 0 else o, count)
        scored = functools.partial(
            query,
            database,
            "SELECT user_id, score FROM event_players WHERE event_id = ?",
            ident,
        )
        await until(lambda: any(s for _, s in scored()), "the game scored")
        assert dict(scored()) == {x_user: 3.0, o_user: 0.0}  # a win 2, berserk 1

        table = await double.slash("tournament", {"event": ident}, user="ben")
        [standings] = [t for t in table.public() if "1. " in t]
        lines = {line.split(":")[0]: line for line in standings.splitlines()}
        assert lines["1. " + x.capitalize()].startswith(f"1. {x.capitalize()}: 3 "), standings
        assert lines["1. " + x.capitalize()].endswith(" ⚡1"), standings
        assert "⚡" not in lines["2. " + o.capitalize()], standings

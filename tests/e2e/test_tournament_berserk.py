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
from tests.e2e.discord_double import DiscordDouble, text_of
from tests.e2e.synapse import Player, SynapseServer, synapse_server
from tests.e2e.test_health import health_becomes, running_app
from tests.e2e.test_matrix import open_room, shown
from tests.e2e.test_open_play import discord_settings, matrix_settings
from tests.e2e.test_tournament import X_WINS, board_of, cell, query, said_in, until

__all__ = ["synapse_server"]  # a fixture

CLOCK = 60.0
"""Seconds a move: half of it is still ample for a click through the double on a slow machine."""


def stored(database: Path, session_id: str) -> Session:
    """The game as the bot stored it, read back as the store does."""
    [row] = query(database, f"{SELECT_SESSION} WHERE id = ?", session_id)
    return decode_session(row)


def moves_made(database: Path, session_id: str, count: int) -> bool:
    found = query(database, "SELECT moves FROM sessions WHERE id = ?", session_id)
    return bool(found) and len(decode_moves(found[0][0])) == count


GAMES = (
    "SELECT g.session_id, s.x_user, s.o_user FROM event_games AS g"
    " JOIN sessions AS s ON s.id = g.session_id WHERE g.event_id = ?"
)
SCORES = "SELECT user_id, score FROM event_players WHERE event_id = ?"


async def berserk_arena(double: DiscordDouble, port: int, *, open_play: bool = False) -> str:
    """A rated tic-tac-toe arena with berserk allowed, made by Ann, an admin of the server
    (``mode`` is where Discord offers berserk), open to other chats if ``open_play``; its id."""
    await double.wait_ready(within=60)
    await health_becomes(port, 200, within=60)
    double.grant("ann")  # Manage Server: an admin of the server
    if open_play:
        on = {"key": "open_play", "value": "on"}
        await double.slash("settings", on, user="ann", granted=True)
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
    return found[1]


async def click(
    double: DiscordDouble, database: Path, session_id: str, who: str, move: int
) -> None:
    """``who`` plays ``move`` (0-based) on the game's Discord board as it stands."""
    version = stored(database, session_id).version
    shows = functools.partial(board_of, double, session_id, version)
    await double.wait_for(lambda: shows() is not None, 20)
    board = shows()
    assert board is not None
    clicked = await double.click(board, cell(double.messages[board], move), user=who)
    assert not clicked.ephemeral(), clicked.ephemeral()


async def test_a_berserk_win_in_a_discord_arena(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite3"
    async with DiscordDouble() as double, running_app(tmp_path, **discord_settings(double)) as port:
        ident = await berserk_arena(double, port)
        for name in ("ann", "ben"):
            joined = await double.slash("tournament", {"action": "join", "event": ident}, user=name)
            assert any("joined tournament" in t for t in joined.public()), joined.requests
        names = {str(double.user(n)["id"]): n for n in ("ann", "ben")}

        games = functools.partial(query, database, GAMES, ident)
        await until(lambda: len(games()) == 1, "the arena's first game")
        [(session_id, x_user, o_user)] = games()
        x, o = names[x_user], names[o_user]

        async def play(who: str, count: int) -> None:
            """``who`` clicks the ``count``-th move of :data:`X_WINS` on the board as it stands."""
            await click(double, database, session_id, who, X_WINS[count])
            await until(
                functools.partial(moves_made, database, session_id, count + 1),
                f"move {count + 1}",
            )

        # Before his first move, X goes berserk: half the clock for his moves in this game.
        # He has seen the board first, as a player does: then it is edited, and the words said.
        start = stored(database, session_id)
        assert start.clock_of(1) == CLOCK
        await double.wait_for(lambda: board_of(double, session_id, start.version) is not None, 20)
        berserk = await double.slash("tournament", {"action": "berserk"}, user=x)
        assert not berserk.ephemeral(), berserk.ephemeral()
        # The words, wherever the reply puts them: a text display (Components V2) or content.
        said = [text_of(data) for _, data in berserk.bodies()]
        assert any("goes berserk: 30 seconds a move" in t for t in said), said
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
        scored = functools.partial(query, database, SCORES, ident)
        await until(lambda: any(s for _, s in scored()), "the game scored")
        assert dict(scored()) == {x_user: 3.0, o_user: 0.0}  # a win 2, berserk 1

        table = await double.slash("tournament", {"event": ident}, user="ben")
        [standings] = [t for t in table.public() if "1. " in t]
        lines = {line.split(":")[0]: line for line in standings.splitlines()}
        assert lines["1. " + x.capitalize()].startswith(f"1. {x.capitalize()}: 3 "), standings
        assert lines["1. " + x.capitalize()].endswith(" ⚡1"), standings
        assert "⚡" not in lines["2. " + o.capitalize()], standings


O_WINS = (0, 3, 1, 4, 8, 5)  # 0-based cells: the second player takes the middle row


async def test_a_matrix_player_goes_berserk_against_a_discord_player(
    synapse_server: SynapseServer, tmp_path: Path
) -> None:
    """The same arena, open, joined by Ann on Discord and Mia from her Matrix room: Mia goes
    berserk with ``!tournament berserk`` (whichever seat she has) and wins; Ann, asking after
    her first move, is refused; Mia's ``!tournament ID`` shows her 3 points and the ⚡."""
    server = synapse_server
    database = tmp_path / "games.sqlite3"
    async with DiscordDouble() as double:
        settings = {**discord_settings(double), **matrix_settings(server, tmp_path)}
        async with running_app(tmp_path, **settings) as port, Player(server, "carol") as mia:
            ident = await berserk_arena(double, port, open_play=True)
            joined = await double.slash(
                "tournament", {"action": "join", "event": ident}, user="ann"
            )
            assert any("joined tournament" in t for t in joined.public()), joined.requests
            room = await open_room(server, mia)
            for typed, answer in (
                ("!settings open_play on", "open_play"),
                (f"!tournament join {ident}", "joined tournament"),
            ):
                mark = mia.mark()
                await mia.say(room, typed)
                await mia.wait_for(said_in(room, answer), after=mark, what=answer)

            games = functools.partial(query, database, GAMES, ident)
            await until(lambda: len(games()) == 1, "the arena's first game")
            [(session_id, x_user, o_user)] = games()
            ann = str(double.user("ann")["id"])
            mine = 1 if x_user == mia.user_id else 2  # Mia's seat
            assert {x_user, o_user} == {mia.user_id, ann}
            sequence = X_WINS if mine == 1 else O_WINS

            await mia.wait_for(said_in(room, " to move."), after=0, what="the board")  # seen
            mark = mia.mark()
            await mia.say(room, "!tournament berserk")
            await mia.wait_for(
                said_in(room, "goes berserk: 30 seconds a move"), after=mark, what="berserk"
            )
            game = stored(database, session_id)
            assert (game.clock_of(mine), game.clock_of(3 - mine)) == (CLOCK / 2, CLOCK)

            for count, move in enumerate(sequence):
                if count % 2 + 1 == mine:
                    await mia.say(room, str(move + 1))
                else:
                    await click(double, database, session_id, "ann", move)
                await until(
                    functools.partial(moves_made, database, session_id, count + 1),
                    f"move {count + 1}",
                )
                if count % 2 + 1 != mine and count < 2:
                    # Ann's first move: too late for her, told only to her; Mia, berserk, to
                    # move on half the clock.
                    late = await double.slash("tournament", {"action": "berserk"}, user="ann")
                    assert late.public() == [], late.public()
                    assert any("Too late to go berserk" in t for t in late.ephemeral())
                    game = stored(database, session_id)
                    assert game.deadline is not None
                    assert game.deadline - game.updated_at == pytest.approx(CLOCK / 2)

            scored = functools.partial(query, database, SCORES, ident)
            await until(lambda: any(s for _, s in scored()), "the game scored")
            assert dict(scored()) == {mia.user_id: 3.0, ann: 0.0}  # a win 2, berserk 1

            mark = mia.mark()
            await mia.say(room, f"!tournament {ident}")
            seen = await mia.wait_for(said_in(room, "1. "), after=mark, what="the standings")
            [first, second] = [
                line for line in shown(seen).splitlines() if line[:3] in ("1. ", "2. ")
            ]
            assert ": 3 (" in first and first.endswith(" ⚡1"), shown(seen)
            assert ": 0 (" in second and "⚡" not in second, shown(seen)

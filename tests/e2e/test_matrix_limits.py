"""End to end on a Synapse as people run it: its default rate limits, and tokens that expire.

The bot is not exempt from ``rc_message`` here (0.2 events a second after a burst of 10), and on
the expiring server every login lasts :data:`~tests.e2e.synapse.SESSION_LIFETIME_S` seconds,
the players' included (their clients log in again, as Element does).
"""

from __future__ import annotations

import asyncio
import logging
import time
from pathlib import Path

import nio
import pytest

from adapters.matrix.render import KEYCAPS
from adapters.matrix.state import MatrixState
from core.sessions import GameService
from tests.e2e.synapse import (
    BOT,
    PASSWORD,
    SESSION_LIFETIME_S,
    Player,
    Seen,
    SynapseServer,
    is_edit_of,
    running_bot,
    synapse_default_limits,
    synapse_expiring,
)
from tests.e2e.test_health import _no_stray_settings, health_becomes, running_app
from tests.e2e.test_matrix import (
    edit_after,
    grid,
    move_by_reaction,
    move_by_text,
    open_room,
    shown,
    start_game,
)

__all__ = ["_no_stray_settings", "synapse_default_limits", "synapse_expiring"]  # fixtures


def over(body: str) -> bool:
    return "!rematch" in body


def free_column(body: str, turn: int = 0) -> int:
    """A column with room, a different one each turn (a game that lasts a while)."""
    top = grid(body)[0]
    order = [(3 * turn + c) % len(top) for c in range(len(top))]
    return next(c for c in order if top[c] == "·")


async def test_a_game_at_human_pace_on_default_limits_answers_every_move(
    synapse_default_limits: SynapseServer, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    server = synapse_default_limits
    bot = server.user_id(BOT)
    with caplog.at_level(logging.INFO):
        async with running_bot(server, tmp_path / "bot"), Player(server, "alice") as alice:
            room = await open_room(server, alice)
            board = await start_game(server, alice, room, "!quatre easy")
            first = alice.events.index(board)
            body, moves = shown(board), 0
            pressed: dict[str, str] = {}  # key -> alice's latest reaction with it
            # A person waits for the answer before moving again; half of the moves are keys.
            while not over(body) and moves < 12:
                column = free_column(body, moves)
                if moves % 2:
                    _, edit = await move_by_text(server, alice, room, board, str(column + 1))
                else:
                    key = KEYCAPS[column]
                    if key in pressed and not redacted(alice, pressed[key]):
                        # Limited, the bot left the reaction: as in Element, a click takes it
                        # away and the next adds it again, a new press.
                        gone = await alice.client.room_redact(room, pressed[key])
                        assert isinstance(gone, nio.RoomRedactResponse), gone
                    pressed[key], edit = await move_by_reaction(alice, room, board, key)
                assert sum(row.count("X") for row in grid(shown(edit))) == moves + 1
                body, moves = shown(edit), moves + 1
            sent = [
                seen
                for seen in alice.events[first:]
                if seen.room_id == room and seen.source.get("sender") == bot
            ]
    edits = [seen for seen in sent if is_edit_of(seen.source, board.source["event_id"])]
    assert len(edits) >= moves  # every move answered
    refused = [r for r in caplog.records if "M_LIMIT_EXCEEDED" in r.getMessage()]
    assert not [r for r in refused if r.levelno >= logging.ERROR]
    kinds = [seen.source.get("type") for seen in sent]
    # Not known to be exempt, the bot spent no event on keycaps or clean-up: each one would
    # have come out of the burst that answers the moves.
    assert kinds.count("m.reaction") == 0 and kinds.count("m.room.redaction") == 0
    print(
        f"{moves} moves, {len(sent)} bot events ({kinds.count('m.reaction')} keycaps, "
        f"{kinds.count('m.room.redaction')} redactions), {len(refused)} 429s logged"
    )


def redacted(player: Player, event_id: str) -> bool:
    return any(
        seen.source.get("type") == "m.room.redaction"
        and (seen.source.get("redacts") or _redacts(seen)) == event_id
        for seen in player.events
    )


def _redacts(seen: Seen) -> object:
    content = seen.source.get("content")
    return content.get("redacts") if isinstance(content, dict) else None


async def bot_token_expired(server: SynapseServer, service: GameService) -> None:
    """Until the homeserver refuses the bot's current token as expired: the server is asked
    (``whoami`` with the token the bot stored at its last login), not a clock. A token the bot
    renewed meanwhile is waited out in turn, so whenever this returns, the next answer the bot
    sends meets an expired token, or one it has just renewed."""
    bot = server.user_id(BOT)
    deadline = time.monotonic() + SESSION_LIFETIME_S + 60
    client = nio.AsyncClient(server.url, bot)
    try:
        while True:
            saved = await MatrixState(service.store, bot).credentials()
            assert saved is not None, "the bot logged in with its password and kept the token"
            client.access_token = saved.access_token
            answer = await client.whoami()
            if isinstance(answer, nio.WhoamiError) and answer.status_code == "M_UNKNOWN_TOKEN":
                return
            assert isinstance(answer, nio.WhoamiResponse), answer
            assert time.monotonic() < deadline, "the bot's token did not expire in time"
            await asyncio.sleep(0.5)  # the next look at the server's answer
    finally:
        await client.close()


async def test_a_game_spans_two_expiries_with_a_password_and_loses_no_answer(
    synapse_expiring: SynapseServer, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    server = synapse_expiring
    with caplog.at_level(logging.INFO):
        async with (
            running_bot(server, tmp_path / "bot") as running,
            Player(server, "alice") as alice,
        ):
            room = await open_room(server, alice)
            board = await start_game(server, alice, room, "!quatre easy")
            body = shown(board)
            for expiry in range(2):
                await bot_token_expired(server, running.service)
                move = await alice.say(room, str(free_column(body) + 1))
                edit = await edit_after(
                    alice, room, board, move, what=f"the answer after expiry {expiry + 1}"
                )
                assert sum(row.count("X") for row in grid(shown(edit))) == expiry + 1
                body = shown(edit)
    again = [r.getMessage() for r in caplog.records if "logging in again" in r.getMessage()]
    assert len(again) >= 2 and all("expired" in line for line in again)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_a_token_alone_stops_matrix_only_and_names_the_fix(
    synapse_expiring: SynapseServer, tmp_path: Path
) -> None:
    server = synapse_expiring
    client = nio.AsyncClient(server.url, server.user_id(BOT))
    try:
        login = await client.login(PASSWORD, device_name="token only")
        assert isinstance(login, nio.LoginResponse), login
        issued = time.monotonic()
    finally:
        await client.close()
    settings = {
        "MATRIX_HOMESERVER": server.url,
        "MATRIX_USER_ID": server.user_id(BOT),
        "MATRIX_ACCESS_TOKEN": login.access_token,
        "MATRIX_STORE_PATH": str(tmp_path / "matrix"),
    }
    async with running_app(tmp_path, **settings) as port:
        body = await health_becomes(port, 200, within=60)
        assert body["checks"]["matrix"] == "ok"
        # Expired, then noticed at the next request (a long poll lasts up to 30 s).
        body = await health_becomes(
            port, 503, within=issued + SESSION_LIFETIME_S + 60 - time.monotonic()
        )
        assert body["checks"] == {"store": "ok", "matrix": "down"}
        log = (tmp_path / "app.log").read_text()
        [line] = [line for line in log.splitlines() if "ERROR" in line]
        assert "expired" in line and "MATRIX_PASSWORD" in line
        assert "mas-cli manage issue-compatibility-token" in line
        # Still up: health answers (and the process exits cleanly when told to).
        assert (await health_becomes(port, 503, within=5))["checks"]["store"] == "ok"

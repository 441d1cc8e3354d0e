"""Message-to-reply latency of the Matrix bot through a real Synapse on 127.0.0.1.

A player (a plain matrix-nio client) types a move; the figure is the time from sending it until
the bot's edit of the board arrives at the player by sync. The bot plays HARD tic-tac-toe (its
AI process pool included), so every edit carries the player's move and the bot's answer. Beside
it, Synapse's own round trip, measured in the same run with two plain clients (one sends, the
other receives by sync): a move costs two such trips (player -> bot, bot -> player), and what is
left is the bot's own share.

Two runs of moves: one game at a time, then several rooms at once (one move in flight in each),
which the adapter serves with one worker per room.
"""

from __future__ import annotations

import asyncio
import random
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from tests.e2e.synapse import (
    BOT,
    PLAYERS,
    Player,
    Seen,
    SynapseServer,
    is_edit_of,
    is_notice_from,
    running_bot,
    synapse_missing,
)


def main(quick: bool) -> None:
    """Print the latency figures (``quick``: fewer samples, for a smoke run)."""
    reason = synapse_missing()
    if reason is not None:
        print(f"skipped: {reason}")
        return
    trips = 30 if quick else 200
    moves = 30 if quick else 200
    rooms = 4 if quick else 8
    with tempfile.TemporaryDirectory(prefix="matrix-bench-") as folder:
        server = SynapseServer.start(Path(folder) / "synapse")
        try:
            server.register([BOT, *PLAYERS])
            asyncio.run(_run(server, Path(folder), trips, moves, rooms))
        finally:
            server.stop()


async def _run(server: SynapseServer, folder: Path, trips: int, moves: int, rooms: int) -> None:
    alice_name, bob_name = PLAYERS[0], PLAYERS[1]
    async with (
        running_bot(server, folder / "bot", ai_workers=1),
        Player(server, alice_name) as alice,
        Player(server, bob_name) as bob,
    ):
        round_trip = await _synapse_round_trips(alice, bob, trips)
        one, one_gaps = await _room_moves(server, alice, moves, rng=random.Random(1))
        per_room = max(3, moves // rooms)
        results = await asyncio.gather(
            *(_room_moves(server, alice, per_room, rng=random.Random(n)) for n in range(rooms))
        )
        many = [sample for result in results for sample in result[0]]
        many_gaps = [gap for result in results for gap in result[1]]

    print(f"Synapse {_version(server)} on 127.0.0.1, SQLite; bot plays HARD 3x3")
    print(f"{'':40}{'n':>5}{'median':>10}{'p99':>10}")
    _row("Synapse round trip (client A -> B)", round_trip)
    _row("move -> board edit, 1 room", one)
    _row("  of which move ts -> edit ts (server)", one_gaps)
    _row(f"move -> board edit, {rooms} rooms at once", many)
    _row("  of which move ts -> edit ts (server)", many_gaps)
    print(
        f"A move costs two Synapse trips (player -> bot -> player: ~{2 * _median(round_trip):.0f}"
        f" ms at the median); the server-clock gap is Synapse handing the move to the bot plus"
        f" the bot's own work (sync dispatch, service, AI, store, send)."
    )


async def _synapse_round_trips(alice: Player, bob: Player, count: int) -> list[float]:
    room = await alice.create_room([bob.user_id])
    await bob.join(room)
    samples = []
    for n in range(count):
        body = f"ping {n}"
        mark = bob.mark()
        started = time.perf_counter()
        await alice.say(room, body)
        seen = await bob.wait_for(_message(room, body), after=mark, what="the ping")
        samples.append((seen.at - started) * 1000)
    return samples


def _message(room: str, body: str) -> Callable[[Seen], bool]:
    return lambda s: s.room_id == room and s.source.get("content", {}).get("body") == body


async def _room_moves(
    server: SynapseServer, player: Player, count: int, *, rng: random.Random
) -> tuple[list[float], list[float]]:
    """``count`` timed moves in a room of its own, starting new games as they end.

    Returns:
        The end-to-end latencies, and the gaps between the move and the edit by the server's
        clock (``origin_server_ts``: Synapse handing the move to the bot, plus the bot's work).
    """
    bot = server.user_id(BOT)
    mark = player.mark()
    room = await player.create_room([bot], moderators=[bot])
    await player.wait_for(
        lambda s: (
            s.room_id == room
            and s.source.get("type") == "m.room.member"
            and s.source.get("state_key") == bot
            and s.source.get("content", {}).get("membership") == "join"
        ),
        after=mark,
        what="the bot joining",
        within=30,
    )
    samples: list[float] = []
    gaps: list[float] = []
    while len(samples) < count:
        board = await _new_board(player, room, bot)
        body = str(board.source["content"]["body"])
        while "to move" in body and len(samples) < count:
            empty = [i for i, mark in enumerate(_cells(body)) if mark in ("·", "⬜")]
            started = time.perf_counter()
            move_id = await player.say(room, str(rng.choice(empty) + 1))
            own, edit = await _edit_after(player, room, board, move_id)
            samples.append((edit.at - started) * 1000)
            gaps.append(float(edit.source["origin_server_ts"] - own.source["origin_server_ts"]))
            body = str(edit.source["content"]["m.new_content"]["body"])
        if "to move" in body:
            await player.say(room, "!final")
    return samples, gaps


async def _new_board(player: Player, room: str, bot: str) -> Seen:
    mark = player.mark()
    await player.say(room, "!tres hard")
    return await player.wait_for(
        lambda s: (
            s.room_id == room
            and is_notice_from(s.source, bot)
            and "<pre>" in str(s.source.get("content", {}).get("formatted_body", ""))
            and "m.relates_to" not in s.source.get("content", {})
        ),
        after=mark,
        what="a board",
    )


async def _edit_after(player: Player, room: str, board: Seen, event_id: str) -> tuple[Seen, Seen]:
    own = await player.wait_for(lambda s: s.source.get("event_id") == event_id, what="the move")
    return own, await player.wait_for(
        lambda s: s.room_id == room and is_edit_of(s.source, board.source["event_id"]),
        after=player.events.index(own) + 1,
        what="the edit",
    )


def _cells(body: str) -> list[str]:
    return [mark for line in body.split("\n")[1:4] for mark in line.split(" ")[1:]]


def _median(samples: Sequence[float]) -> float:
    ordered = sorted(samples)
    middle = len(ordered) // 2
    if len(ordered) % 2:
        return ordered[middle]
    return (ordered[middle - 1] + ordered[middle]) / 2


def _p99(samples: Sequence[float]) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]


def _row(label: str, samples: Sequence[float]) -> None:
    print(f"{label:40}{len(samples):>5}{_median(samples):>8.1f}ms{_p99(samples):>8.1f}ms")


def _version(server: SynapseServer) -> str:
    from importlib.metadata import version

    return version("matrix-synapse")

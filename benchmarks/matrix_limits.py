"""The Matrix bot on a Synapse with its default rate limits, at human pace.

Synapse lets a user that is not exempt send 0.2 events a second after a burst of 10
(``rc_message``), across all its rooms. First one player alone, then four players in three
rooms, play Connect Four against the bot: a player waits for the answer to a move, thinks 1 to
3 s (then, on a fresh bot, 3 to 8 s: :data:`PACES`), and moves again, half of the moves by a
keycap reaction and half typed. A player whose reaction the bot did not remove takes it away and
adds it again, as Element does on two clicks.

Printed: moves sent, answered and lost (no answer within :data:`ANSWER_WITHIN_S`), the time from
a move to its answer (p50, p99), the bot's events per move (boards, edits, notices, keycaps,
redactions, all counted), and the 429s the bot met. The physical bound: with N players waiting
at once, once the burst is spent a move cannot be answered faster than about N x 5 s.

Events per move are 1 (the edit that answers it) plus each game's new board (the answer to the
start command, not to a move) plus the overhead (keycaps, redactions, notices); so the figures
are also given per answer (moves and game starts together) and as the overhead alone.
"""

from __future__ import annotations

import asyncio
import html
import logging
import random
import re
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import nio

from tests.e2e.synapse import (
    BOT,
    DEFAULT_LIMITS,
    Player,
    Seen,
    SynapseServer,
    is_edit_of,
    running_bot,
    synapse_missing,
)

KEYCAPS = tuple(f"{digit}\ufe0f\u20e3" for digit in "1234567")
PLAYER_NAMES = ("alice", "bob", "carol", "dave")
SOLO = ("erin",)
ROOMS = 3
ANSWER_WITHIN_S = 60.0
PACES = ((1.0, 3.0), (3.0, 8.0))
"""Seconds a player thinks before a move, per run: brisk, and leisurely."""
_PRE = re.compile(r"<pre>(.*?)</pre>", re.DOTALL)


def main(quick: bool) -> None:
    """Play for 6 minutes a pace (``quick``: 2 minutes 15) and print the figures."""
    reason = synapse_missing()
    if reason is not None:
        print(f"skipped: {reason}")
        return
    seconds = 90.0 if quick else 240.0
    with tempfile.TemporaryDirectory(prefix="matrix-limits-") as folder:
        server = SynapseServer.start(Path(folder) / "synapse", limits=DEFAULT_LIMITS)
        try:
            server.register([BOT, *PLAYER_NAMES, *SOLO])
            for pace in PACES:  # each on a fresh bot: a new database, nothing known of limits
                asyncio.run(_run(server, Path(folder) / f"bot-{pace[0]:.0f}", seconds, pace))
        finally:
            server.stop()


@dataclass
class Tally:
    sent: int = 0
    games: int = 0  # boards posted for the player's start commands
    latencies: list[float] = field(default_factory=list)
    lost: int = 0
    lost_what: list[str] = field(default_factory=list)  # what the bot said instead


class _Errors(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1


async def _run(
    server: SynapseServer, folder: Path, seconds: float, think: tuple[float, float]
) -> None:
    errors = _Errors()
    logging.getLogger().addHandler(errors)
    try:
        async with running_bot(server, folder) as running:
            # One person alone first, while the bucket is full; then four at once.
            for names, rooms, length in ((SOLO, 1, seconds / 2), (PLAYER_NAMES, ROOMS, seconds)):
                limited = getattr(running.adapter, "rate_limited_total", None)
                failed = errors.count
                tally, events, elapsed = await _scenario(server, names, rooms, length, think)
                after = getattr(running.adapter, "rate_limited_total", None)
                refused = None if limited is None or after is None else after - limited
                _report(
                    tally, events, refused, errors.count - failed, elapsed, len(names), rooms, think
                )
    finally:
        logging.getLogger().removeHandler(errors)


async def _scenario(
    server: SynapseServer,
    names: Sequence[str],
    room_count: int,
    seconds: float,
    think: tuple[float, float],
) -> tuple[Tally, dict[str, int], float]:
    bot = server.user_id(BOT)
    tally = Tally()
    players = [await Player(server, name).__aenter__() for name in names]
    try:
        rooms = [await players[i].create_room([bot], moderators=[bot]) for i in range(room_count)]
        for index, player in enumerate(players):
            if index >= room_count:
                await _invite_and_join(
                    players[index % room_count], player, rooms[index % room_count]
                )
        await asyncio.gather(*(_bot_joined(players[i], rooms[i], bot) for i in range(room_count)))
        started = time.monotonic()
        deadline = started + seconds
        await asyncio.gather(
            *(
                _play(player, rooms[i % room_count], bot, deadline, tally, random.Random(i), think)
                for i, player in enumerate(players)
            )
        )
        elapsed = time.monotonic() - started
        events = _bot_events(players, set(rooms), bot)
    finally:
        for player in players:
            await player.__aexit__(None, None, None)
    return tally, events, elapsed


async def _invite_and_join(owner: Player, player: Player, room: str) -> None:
    response = await owner.client.room_invite(room, player.user_id)
    assert isinstance(response, nio.RoomInviteResponse), response
    await player.join(room)


async def _bot_joined(owner: Player, room: str, bot: str) -> None:
    await owner.wait_for(
        lambda s: (
            s.room_id == room
            and s.source.get("type") == "m.room.member"
            and s.source.get("state_key") == bot
            and s.source.get("content", {}).get("membership") == "join"
        ),
        what="the bot joining",
        within=120,
    )


async def _play(
    player: Player,
    room: str,
    bot: str,
    deadline: float,
    tally: Tally,
    rng: random.Random,
    think: tuple[float, float],
) -> None:
    """Games against the bot until ``deadline``, one move in flight at a time."""
    board: Seen | None = None
    moves = 0
    pressed: dict[tuple[str, str], str] = {}  # (board, key) -> the player's reaction
    while time.monotonic() < deadline:
        if board is None or _over(board_html(board)):
            board = await _new_board(player, room, bot)
            stones = 0
            if board is None:
                continue
            tally.games += 1
        top = _grid(board_html(board))[0]
        column = rng.choice([c for c, mark in enumerate(top) if mark == "·"])
        await asyncio.sleep(rng.uniform(*think))
        mark = player.mark()
        sent_at = time.monotonic()
        tally.sent += 1
        original = str(board.source["event_id"])
        if moves % 2:
            key = KEYCAPS[column]
            previous = pressed.get((original, key))
            if previous is not None and not _redacted(player, previous):
                await player.client.room_redact(room, previous)
            pressed[original, key] = await player.react(room, original, key)
        else:
            await player.say(room, str(column + 1))
        moves += 1
        stones += 1
        edit = await _answer(player, room, original, stones, mark)
        if edit is None:
            tally.lost += 1
            tally.lost_what.append(_what_came(player, room, bot, mark))
            continue
        tally.latencies.append(edit.at - sent_at)
        board = _as_board(board, edit)


async def _new_board(player: Player, room: str, bot: str) -> Seen | None:
    mark = player.mark()
    await player.say(room, "!quatre easy")
    try:
        return await player.wait_for(
            lambda s: (
                s.room_id == room
                and s.source.get("sender") == bot
                and "<pre>" in str(s.source.get("content", {}).get("formatted_body", ""))
                and "m.relates_to" not in s.source.get("content", {})
                and player.user_id.split(":")[0][1:] in str(s.source["content"].get("body"))
            ),
            after=mark,
            what="a board",
            within=ANSWER_WITHIN_S,
        )
    except AssertionError:
        return None


async def _answer(player: Player, room: str, original: str, stones: int, mark: int) -> Seen | None:
    """The first edit of ``original`` that shows the player's ``stones`` stones, or None."""
    try:
        return await player.wait_for(
            lambda s: (
                s.room_id == room
                and is_edit_of(s.source, original)
                and _stones(s.source["content"]["m.new_content"]["formatted_body"]) >= stones
            ),
            after=mark,
            what="the answer",
            within=ANSWER_WITHIN_S,
        )
    except AssertionError:
        return None


def _what_came(player: Player, room: str, bot: str, mark: int) -> str:
    said = [
        str(s.source.get("content", {}).get("body", s.source.get("type")))[-80:]
        for s in player.events[mark:]
        if s.room_id == room and s.source.get("sender") == bot
    ]
    return " | ".join(said) or "nothing"


def _as_board(board: Seen, edit: Seen) -> Seen:
    """The original board event showing the edit's state (so the next move reads it)."""
    source = dict(board.source)
    source["content"] = edit.source["content"]["m.new_content"]
    return Seen(board.room_id, source, edit.at)


def board_html(board: Seen) -> str:
    return str(board.source.get("content", {}).get("formatted_body", ""))


def _grid(formatted: str) -> list[list[str]]:
    match = _PRE.search(formatted)
    text = html.unescape(re.sub(r"<[^>]+>", "", match.group(1) if match else ""))
    return [line.split()[1:] for line in text.split("\n")[1:]]


def _stones(formatted: str) -> int:
    return sum(row.count("X") for row in _grid(formatted))


def _over(formatted: str) -> bool:
    return "wins" in formatted or "draw" in formatted


def _redacted(player: Player, event_id: str) -> bool:
    return any(
        s.source.get("type") == "m.room.redaction"
        and (s.source.get("redacts") or s.source.get("content", {}).get("redacts")) == event_id
        for s in player.events
    )


def _bot_events(players: Sequence[Player], rooms: set[str], bot: str) -> dict[str, int]:
    seen: dict[str, str] = {}
    for player in players:
        for s in player.events:
            # Joins count against another limit (rc_joins), not rc_message.
            if s.room_id in rooms and s.source.get("sender") == bot and "state_key" not in s.source:
                kind = str(s.source.get("type"))
                if kind == "m.room.message":
                    kind = (
                        "edit" if _is_edit(s) else "board" if "<pre>" in board_html(s) else "notice"
                    )
                seen[str(s.source.get("event_id"))] = kind
    counts: dict[str, int] = {}
    for kind in seen.values():
        counts[kind] = counts.get(kind, 0) + 1
    return counts


def _is_edit(s: Seen) -> bool:
    relates = s.source.get("content", {}).get("m.relates_to", {})
    return isinstance(relates, dict) and relates.get("rel_type") == "m.replace"


def _quantile(samples: Sequence[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] if ordered else 0.0


def _report(
    tally: Tally,
    events: dict[str, int],
    limited: int | None,
    errors: int,
    elapsed: float,
    players: int,
    rooms: int,
    think: tuple[float, float],
) -> None:
    total = sum(events.values())
    answered = len(tally.latencies)
    goal = "under 1 s" if players == 1 else f"within 1.2 x {players} x 5 s = {6 * players} s"
    print(
        f"{players} player(s) in {rooms} room(s), {elapsed:.0f} s at human pace "
        f"(think {think[0]:.0f}-{think[1]:.0f} s), Synapse default rc_message (0.2/s, burst 10)"
    )
    print(f"moves sent {tally.sent}, answered {answered}, lost {tally.lost}")
    for what in tally.lost_what[:3]:
        print(f"  lost: the bot said {what!r}")
    print(
        f"move -> answer: p50 {_quantile(tally.latencies, 0.5):.2f} s, "
        f"p99 {_quantile(tally.latencies, 0.99):.2f} s "
        f"(goal: p99 {goal})"
    )
    per_move = total / tally.sent if tally.sent else 0.0
    kinds = ", ".join(f"{kind} {count}" for kind, count in sorted(events.items()))
    print(f"bot events {total} ({kinds}): {per_move:.2f} per move")
    requests = tally.sent + tally.games
    overhead = total - events.get("edit", 0) - events.get("board", 0)
    print(
        f"  per answer (moves and {tally.games} game starts): "
        f"{total / requests if requests else 0.0:.2f}; overhead (keycaps, redactions, "
        f"notices) per move: {overhead / tally.sent if tally.sent else 0.0:.2f}"
    )
    shown = "n/a" if limited is None else str(limited)
    print(f"429s met by the bot: {shown}; ERROR log lines: {errors}\n")

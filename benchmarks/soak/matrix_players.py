"""Matrix players: registered Synapse users who type commands and moves in a room with the bot.

Each player has a room of its own with the bot and plays one game after another against it
(``!tres`` and ``!quatre`` at each level), typing a random free cell or column. A message sent
while the bot is down is answered after its restart (docs/design.md: missed messages are handled
once), so a player never sends a move twice: it waits, and only once the bot has been up for
``ANSWER_GRACE`` seconds without answering does it give the game up with ``!final``.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import sqlite3
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.soak.boards import (
    Grid,
    is_over,
    legal_moves,
    matrix_grid,
    shows_move,
    side_to_move,
    stones,
)
from benchmarks.soak.bot import Uptime
from benchmarks.soak.ledger import Game, Ledger
from core.games import CONNECT_FOUR, TICTACTOE, Rules
from tests.e2e.synapse import Player, Seen, is_edit_of, is_notice_from, reply_target

PLATFORM = "matrix"
ANSWER_GRACE = 30.0  # seconds the bot may be up without answering (it catches up after a start)
ANSWER_CAP = 240.0  # whatever happens, a wait ends
REFUSAL_WAIT = 3.0  # after an error notice, how long the board may still take (it never does)
STALE_LIMIT = 3


@dataclass(frozen=True, slots=True)
class Plan:
    """A command that starts a game against the bot."""

    text: str  # such as "!tres hard second"
    bot_first: bool

    @property
    def rules(self) -> Rules:
        return TICTACTOE if self.text.startswith("!tres") else CONNECT_FOUR


SOLO_PLANS = (
    Plan("!tres easy", False),
    Plan("!quatre medium", False),
    Plan("!tres hard second", True),
    Plan("!quatre easy second", True),
    Plan("!tres medium", False),
    Plan("!quatre hard", False),
)


def _content(seen: Seen) -> dict[str, Any]:
    content = seen.source.get("content", {})
    return content if isinstance(content, dict) else {}


def _shown_body(seen: Seen) -> str:
    content = _content(seen)
    new = content.get("m.new_content")
    body = new.get("body") if isinstance(new, dict) else content.get("body")
    return body if isinstance(body, str) else ""


class MatrixPlayers:
    """Everything the Matrix players share."""

    def __init__(
        self,
        bot_user: str,
        database: Path,
        ledger: Ledger,
        uptime: Uptime,
        stop_at: float,
    ) -> None:
        self.bot_user = bot_user
        self.database = database
        self.ledger = ledger
        self.uptime = uptime
        self.stop_at = stop_at

    @property
    def over(self) -> bool:
        return time.monotonic() >= self.stop_at

    async def open_room(self, player: Player) -> str:
        """A room of the player's with the bot (a moderator, as the README asks), once joined."""
        mark = player.mark()
        room = await player.create_room([self.bot_user], moderators=[self.bot_user])

        def joined(seen: Seen) -> bool:
            return (
                seen.room_id == room
                and seen.source.get("type") == "m.room.member"
                and seen.source.get("state_key") == self.bot_user
                and _content(seen).get("membership") == "join"
            )

        if await self._await(player, mark, joined, time.monotonic()) is None:
            raise RuntimeError(f"the bot did not join {player.user_id}'s room")
        return room

    async def _await(
        self,
        player: Player,
        after: int,
        predicate: Callable[[Seen], bool],
        sent_at: float,
        refused: Callable[[Seen], bool] | None = None,
    ) -> Seen | None:
        """The first event after ``after`` that matches ``predicate``; None when the bot was up
        ``ANSWER_GRACE`` s without sending it, or it answered with ``refused`` instead."""
        cursor = after
        refused_at: float | None = None
        while True:
            events = player.events
            for seen in events[cursor:]:
                if predicate(seen):
                    return seen
                if refused is not None and refused_at is None and refused(seen):
                    refused_at = time.monotonic()
            cursor = len(events)
            now = time.monotonic()
            if refused_at is not None and now - refused_at > REFUSAL_WAIT:
                return None
            if self.uptime.quiet_for(sent_at) > ANSWER_GRACE or now - sent_at > ANSWER_CAP:
                return None
            await asyncio.sleep(0.05)

    def _reply_to(self, room: str, event_id: str) -> Callable[[Seen], bool]:
        return lambda seen: (
            seen.room_id == room
            and is_notice_from(seen.source, self.bot_user)
            and reply_target(seen.source) == event_id
        )

    async def _final(self, player: Player, room: str) -> None:
        """``!final``, and wait for its answer (so a late answer cannot be taken for the next
        game's)."""
        mark = player.mark()
        event_id = await player.say(room, "!final")
        await self._await(player, mark, self._reply_to(room, event_id), time.monotonic())

    async def solo(
        self, player: Player, room: str, rng: random.Random, plans: Sequence[Plan]
    ) -> None:
        """Play games against the bot until the soak is over."""
        self.ledger.users.setdefault(PLATFORM, set()).add(player.user_id)
        turn = 0
        while not self.over:
            plan = plans[turn % len(plans)]
            turn += 1
            started = await self._start(player, room, plan)
            if started is None:
                await self._final(player, room)
                continue
            await self._play(player, room, plan, *started, rng)

    async def _start(self, player: Player, room: str, plan: Plan) -> tuple[Game, Grid] | None:
        rules = plan.rules
        mark = player.mark()
        sent_at = time.monotonic()
        event_id = await player.say(room, plan.text)

        def board(seen: Seen) -> bool:
            content = _content(seen)
            return (
                seen.room_id == room
                and is_notice_from(seen.source, self.bot_user)
                and "m.relates_to" not in content
                and matrix_grid(str(content.get("body", "")), rules) is not None
            )

        shown = await self._await(player, mark, board, sent_at, self._reply_to(room, event_id))
        if shown is None:
            return None
        grid = matrix_grid(_shown_body(shown), rules)
        assert grid is not None
        board_id = str(shown.source["event_id"])
        game = Game(PLATFORM, room, rules, plan.text, board_id)
        game.session_id = await self._session_of(board_id)
        return self.ledger.start(game), grid

    async def _session_of(self, board_id: str) -> str | None:
        """The session of a board, from the adapter's own map in the store (written right after
        the board is sent, so it may take a moment). None if it never shows."""
        namespace = f"matrix:{self.bot_user}"
        for _ in range(20):
            found = await asyncio.to_thread(_kv, self.database, namespace, f"event:{board_id}")
            if found is not None:
                return found
            await asyncio.sleep(0.1)
        return None

    async def _play(
        self, player: Player, room: str, plan: Plan, game: Game, grid: Grid, rng: random.Random
    ) -> None:
        rules = game.rules
        mine = 2 if plan.bot_first else 1
        refusals = 0
        last = player.mark()  # board states arrive as edits after this
        while not self.over:
            if is_over(grid, rules):
                game.see_end(grid, {player.user_id: mine})
                return
            if side_to_move(grid) != mine:
                edit = await self._await(
                    player, last, self._edit_past(game, rules, stones(grid)), time.monotonic()
                )
                if edit is None:
                    break
                last = player.events.index(edit) + 1
                grid = self._grid(edit, rules)
                continue
            move = rng.choice(legal_moves(grid, rules))
            mark = player.mark()
            sent_at = time.monotonic()
            event_id = await player.say(room, str(move + 1))
            self.ledger.sent(game, player.user_id, move)
            before = grid

            def answered(seen: Seen, before: Grid = before, move: int = move) -> bool:
                if not (seen.room_id == room and is_edit_of(seen.source, game.board)):
                    return False
                shown = matrix_grid(_shown_body(seen), rules)
                return shown is not None and shows_move(before, shown, rules, move, mine)

            edit = await self._await(
                player, mark, answered, sent_at, self._reply_to(room, event_id)
            )
            if edit is None:
                refusals += 1
                if refusals >= STALE_LIMIT or self.uptime.quiet_for(sent_at) > ANSWER_GRACE:
                    break  # unanswered (the bot died with it) or refused again and again
                continue
            refusals = 0
            last = player.events.index(edit) + 1
            grid = self._grid(edit, rules)
            self.ledger.ack(game, player.user_id, stones(before), move, grid)
        else:
            return  # the soak ended mid-game
        self.ledger.give_up(game)
        await self._final(player, room)

    def _edit_past(self, game: Game, rules: Rules, count: int) -> Callable[[Seen], bool]:
        def later(seen: Seen) -> bool:
            if not is_edit_of(seen.source, game.board):
                return False
            shown = matrix_grid(_shown_body(seen), rules)
            return shown is not None and stones(shown) > count

        return later

    @staticmethod
    def _grid(seen: Seen, rules: Rules) -> Grid:
        grid = matrix_grid(_shown_body(seen), rules)
        assert grid is not None
        return grid


def _kv(database: Path, namespace: str, key: str) -> str | None:
    try:
        # closing(): a connection's own context manager ends the transaction, not the connection.
        with contextlib.closing(
            sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=5)
        ) as db:
            row = db.execute(
                "SELECT value FROM kv WHERE namespace = ? AND key = ?", (namespace, key)
            ).fetchone()
    except sqlite3.Error:
        return None
    return None if row is None else str(row[0])

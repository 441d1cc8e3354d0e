"""Discord players: slash commands and button clicks through the loopback Discord double.

A solo player starts games against the bot (``/tres`` or ``/quatre`` at a level) and clicks
random free cells or columns; a pair plays each other (a challenge, Accept, then clicks). A
click is sent only while the bot is connected (the double cannot deliver it otherwise); a click
that gets no answer (the bot died with it) is retried once from the same board, and when that
is refused as stale or unanswered too, the player gives the game up with ``/final``.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from benchmarks.soak.boards import (
    Grid,
    discord_grid,
    is_over,
    legal_moves,
    move_buttons,
    session_of,
    shows_move,
    side_to_move,
    stones,
)
from benchmarks.soak.bot import Uptime
from benchmarks.soak.ledger import Game, Ledger
from core.games import CONNECT_FOUR, TICTACTOE, Rules
from tests.e2e.discord_double import EPHEMERAL, DiscordDouble, Sent, button_ids

Json = dict[str, Any]
PLATFORM = "discord"
CALLBACK_WAIT = 5.0  # Discord wants the callback within 3 s
EDIT_WAIT = 20.0  # a deferred answer's edit (a hard search under load)
TURN_WAIT = 20.0  # for the bot's reply to show after the player's move
STALE_LIMIT = 3  # refusals in a row before the player gives the game up


@dataclass(frozen=True, slots=True)
class Plan:
    """One kind of game a player starts: a command and its options."""

    command: str  # tres or quatre
    options: dict[str, str]

    @property
    def rules(self) -> Rules:
        return TICTACTOE if self.command == "tres" else CONNECT_FOUR

    @property
    def label(self) -> str:
        return " ".join([f"/{self.command}", *self.options.values()])


SOLO_PLANS = (
    Plan("tres", {"level": "easy"}),
    Plan("quatre", {"level": "medium", "first": "opponent"}),
    Plan("tres", {"level": "hard", "first": "opponent"}),
    Plan("quatre", {"level": "easy"}),
    Plan("tres", {"level": "medium"}),
    Plan("quatre", {"level": "hard"}),
)


class DiscordPlayers:
    """Everything the Discord players share: the double, the ledger, the clock and the bot."""

    def __init__(
        self, double: DiscordDouble, ledger: Ledger, uptime: Uptime, stop_at: float
    ) -> None:
        self.double = double
        self.ledger = ledger
        self.uptime = uptime
        self.stop_at = stop_at  # time.monotonic(): no new move or game after it
        self.boards: set[int] = set()  # message ids of the boards being played now

    def user_id(self, name: str) -> str:
        user_id = str(self.double.user(name)["id"])
        self.ledger.users.setdefault(PLATFORM, set()).add(user_id)
        return user_id

    @property
    def over(self) -> bool:
        return time.monotonic() >= self.stop_at

    # --- sending and waiting ----------------------------------------------------------------

    async def _send(self, send: Callable[[], Awaitable[Sent]]) -> Sent | None:
        """Send an interaction as soon as the bot is connected; None once the soak is over."""
        while not self.over:
            if self.uptime.up:
                try:
                    return await send()
                except (AssertionError, ConnectionError, RuntimeError):
                    pass  # the gateway closed under us: the bot is on its way down
            await asyncio.sleep(0.2)
        return None

    async def _wait(self, predicate: Callable[[], bool], within: float) -> bool:
        try:
            await self.double.wait_for(predicate, within)
        except TimeoutError:
            return predicate()
        return True

    async def _answer(self, sent: Sent, rules: Rules) -> tuple[str, Json | None]:
        """What the bot did with an interaction: ("board", the board it showed), ("refused",
        None) for an ephemeral error, ("none", None) when it never answered."""

        def board() -> Json | None:
            for _, data in sent.bodies():
                public = not int(data.get("flags") or 0) & EPHEMERAL
                if public and discord_grid(data, rules) is not None:
                    return data
            return None

        def settled() -> bool:
            return board() is not None or bool(sent.ephemeral())

        if not await self._wait(sent.answered.is_set, CALLBACK_WAIT):
            return "none", None
        if not await self._wait(settled, EDIT_WAIT):
            return "none", None
        shown = board()
        return ("board", shown) if shown is not None else ("refused", None)

    async def _final(self, name: str) -> None:
        """``/final``: give the player's game here up (answered, or the soak is over)."""
        for _ in range(5):
            sent = await self._send(lambda: self.double.slash("final", user=name, wait=False))
            if sent is None:
                return
            if await self._wait(sent.answered.is_set, CALLBACK_WAIT):
                return

    # --- solo -------------------------------------------------------------------------------

    async def solo(self, name: str, rng: random.Random, plans: Sequence[Plan]) -> None:
        """Play games against the bot until the soak is over."""
        user = self.user_id(name)
        turn = 0
        while not self.over:
            plan = plans[turn % len(plans)]
            turn += 1
            started = await self._start(name, plan)
            if started is None:
                await self._final(name)
                continue
            game, grid = started
            await self._play(game, grid, {user: name}, rng)

    async def _start(self, name: str, plan: Plan) -> tuple[Game, Grid] | None:
        sent = await self._send(
            lambda: self.double.slash(plan.command, plan.options, user=name, wait=False)
        )
        if sent is None:
            return None
        what, board = await self._answer(sent, plan.rules)
        if what != "board" or board is None or sent.original_id is None:
            return None  # refused (a game left over from before a restart) or unanswered
        return self._new_game(plan, board, sent.original_id)

    def _new_game(self, plan: Plan, board: Json, message_id: int) -> tuple[Game, Grid]:
        grid = discord_grid(board, plan.rules)
        assert grid is not None
        game = Game(
            PLATFORM,
            str(self.double.channel_id),
            plan.rules,
            plan.label,
            str(message_id),
            session_id=session_of(board),
        )
        return self.ledger.start(game), grid

    # --- playing ----------------------------------------------------------------------------

    async def _play(
        self, game: Game, grid: Grid, players: dict[str, str], rng: random.Random
    ) -> None:
        """Click until the game ends, the soak ends, or the board cannot be trusted any more.

        ``players`` maps user id -> name: one entry against the bot, two for a pair (who
        plays is whoever's turn it is; the challenger is X).
        """
        message_id = int(game.board)
        self.boards.add(message_id)
        try:
            await self._play_on(game, message_id, grid, players, rng)
        finally:
            self.boards.discard(message_id)

    async def _play_on(
        self, game: Game, message_id: int, grid: Grid, players: dict[str, str], rng: random.Random
    ) -> None:
        rules = game.rules
        marks = self._marks(game, players)
        refusals = 0
        while not self.over:
            if is_over(grid, rules):
                game.see_end(grid, marks)
                return
            mover = next((u for u, m in marks.items() if m == side_to_move(grid)), None)
            if mover is None:  # the bot's turn: its move comes in an edit of the board
                later = await self._next_turn(message_id, rules, grid, marks)
                if later is None:
                    break
                grid = later
                continue
            move = rng.choice(legal_moves(grid, rules))
            outcome, shown = await self._click(game, message_id, grid, mover, players, move)
            if outcome == "acked" and shown is not None:
                grid, refusals = shown, 0
                continue
            if outcome == "none":
                # Died with the click: ask again from the same board. Either it was not applied
                # (it is now), or it was and the board is stale (refused): give up then.
                outcome, shown = await self._click(game, message_id, grid, mover, players, move)
                if outcome == "acked" and shown is not None:
                    grid, refusals = shown, 0
                    continue
                if outcome == "stop":
                    return
                break
            if outcome == "stop":
                return
            refusals += 1
            if refusals >= STALE_LIMIT:
                break
            current = discord_grid(self.double.messages[message_id], rules)
            grid = current if current is not None else grid
        else:
            return  # the soak ended mid-game: neither finished nor given up
        self.ledger.give_up(game)
        for name in players.values():
            await self._final(name)

    def _marks(self, game: Game, players: dict[str, str]) -> dict[str, int]:
        """Which mark each player has: X for the challenger of a pair; against the bot, X
        unless the plan made the bot start."""
        users = list(players)
        if len(users) == 2:
            return {users[0]: 1, users[1]: 2}
        bot_first = "opponent" in game.label.split()
        return {users[0]: 2 if bot_first else 1}

    async def _next_turn(
        self, message_id: int, rules: Rules, grid: Grid, marks: dict[str, int]
    ) -> Grid | None:
        """Wait for the board to show a person's turn or the end; None if it does not."""

        def current() -> Grid | None:
            return discord_grid(self.double.messages[message_id], rules)

        def moved() -> bool:
            now = current()
            return (
                now is not None
                and stones(now) > stones(grid)
                and (is_over(now, rules) or side_to_move(now) in marks.values())
            )

        if await self._wait(moved, TURN_WAIT):
            return current()
        return None

    async def _click(
        self,
        game: Game,
        message_id: int,
        grid: Grid,
        user: str,
        players: dict[str, str],
        move: int,
    ) -> tuple[str, Grid | None]:
        """Click ``move`` on the board as it is now: ("acked", the board shown), ("refused",
        None), ("none", None) when unanswered, ("stop", None) once the soak is over."""
        rules = game.rules
        message = self.double.messages[message_id]
        custom_id = next((b["custom_id"] for m, b in move_buttons(message) if m.move == move), None)
        if custom_id is None or custom_id not in button_ids(message):
            return "refused", None
        snapshot = self.double.snapshot(message_id)
        sent = await self._send(
            lambda: self.double.click(snapshot, custom_id, user=players[user], wait=False)
        )
        if sent is None:
            return "stop", None
        self.ledger.sent(game, user, move)
        what, board = await self._answer(sent, rules)
        if what != "board" or board is None:
            return what, None
        shown = discord_grid(board, rules)
        mark = side_to_move(grid)
        if shown is None or session_of(board) != game.session_id:
            return "refused", None
        if not shows_move(grid, shown, rules, move, mark):
            return "refused", None
        self.ledger.ack(game, user, stones(grid), move, shown)
        return "acked", shown

    # --- a pair -----------------------------------------------------------------------------

    async def pair(self, challenger: str, opponent: str, rng: random.Random) -> None:
        """Two players challenge each other in turn (tic-tac-toe, then Connect Four)."""
        users = {self.user_id(challenger): challenger, self.user_id(opponent): opponent}
        turn = 0
        while not self.over:
            plan = Plan("tres" if turn % 2 == 0 else "quatre", {"opponent": opponent})
            turn += 1
            game = await self._challenge(challenger, opponent, plan)
            if game is None:
                await self._final(challenger)
                await self._final(opponent)
                continue
            new_game, grid = game
            await self._play(new_game, grid, users, rng)

    async def _challenge(
        self, challenger: str, opponent: str, plan: Plan
    ) -> tuple[Game, Grid] | None:
        options = {**plan.options, "first": "me"}
        sent = await self._send(
            lambda: self.double.slash(plan.command, options, user=challenger, wait=False)
        )
        if sent is None or not await self._wait(sent.answered.is_set, CALLBACK_WAIT):
            return None
        if not await self._wait(lambda: sent.original_id is not None, EDIT_WAIT):
            return None
        message_id = sent.original_id
        assert message_id is not None

        def accept_id() -> str | None:
            message = self.double.messages.get(message_id)
            ids = button_ids(message) if message else []
            return next((c for c in ids if c.endswith(":accept")), None)

        if not await self._wait(lambda: accept_id() is not None, EDIT_WAIT):
            return None
        accept = accept_id()
        assert accept is not None
        clicked = await self._send(
            lambda: self.double.click(message_id, accept, user=opponent, wait=False)
        )
        if clicked is None:
            return None
        what, board = await self._answer(clicked, plan.rules)
        if what != "board" or board is None:
            return None
        return self._new_game(Plan(plan.command, {"vs": "person"}), board, message_id)

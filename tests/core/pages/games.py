"""Rated games played through the GameService, for the pages' tests, the browser tests and the
benchmark: real challenges, accepts and typed moves, so the ratings, their log and the names
are the ones the bot stores."""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from core.replies import Actor
from core.sessions import GameService

Result = Literal["x", "o", "draw"]
_MOVES: dict[Result, tuple[str, ...]] = {
    "x": ("1", "4", "2", "5", "3"),
    "o": ("1", "4", "2", "5", "9", "6"),
    "draw": ("1", "2", "3", "5", "4", "6", "8", "7", "9"),
}
DAY = 24 * 3600.0
"""Between two rated games of one pair: the pair limit (three a day) never makes one casual."""


async def rated_game(svc: GameService, x: Actor, o: Actor, result: Result) -> None:
    """``x`` challenges ``o`` to tic-tac-toe and plays first; the game ends with ``result``."""
    challenge = await svc.handle_text(x, f"/tres @{o.user_id} first")
    assert [r.text.key for r in challenge if r.text] == ["game.challenge"], challenge
    await svc.handle_text(o, "/accept")
    for n, cell in enumerate(_MOVES[result]):
        await svc.handle_text(x if n % 2 == 0 else o, cell)


HOSTILE = (
    Actor("discord", "c1", "eve", "<script>alert('x')</script>\"quoted\""),
    Actor("discord", "c1", "rtl", "\u202egnp.exe"),
    Actor("discord", "c1", "zw", "ze\u200bro\u200dwidth"),
    Actor("discord", "c1", "long", "L" * 10_000),
)
"""Players whose names a page must escape or clean: a script tag with quotes, a right-to-left
override, zero-width characters, and ten thousand characters."""
PLAYERS = (
    Actor("discord", "c1", "alice", "Alice", server_id="g1"),
    Actor("discord", "c1", "bob", "Bob"),
    *HOSTILE,
)


async def season(svc: GameService, advance: Callable[[float], None], rounds: int = 10) -> None:
    """Every player of :data:`PLAYERS` plays ``rounds`` rated games, a round a day: enough
    for each to be settled and listed on the ladder."""
    players = list(PLAYERS)
    for r in range(rounds):
        turn = players[r % len(players) :] + players[: r % len(players)]
        for i in range(0, len(turn) - 1, 2):
            results: tuple[Result, ...] = ("x", "o", "draw", "x")
            await rated_game(svc, turn[i], turn[i + 1], results[(r + i) % len(results)])
        advance(DAY)

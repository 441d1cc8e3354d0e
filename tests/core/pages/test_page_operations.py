"""Each page's reads are one operation of the store (one connection of PostgreSQL's pool, one
hop of SQLite's thread), on both stores: a ladder with who of it hid themselves, a player with
their games and their newest games' public ids, a hidden player's 404 too."""

from __future__ import annotations

from dataclasses import replace

from core.pages import Pages
from core.pages.names import ANONYMOUS
from tests.backends import Backend
from tests.core.pages.games import DAY, PLAYERS, rated_game
from tests.core.test_sessions import Clock, service

ALICE, BOB = PLAYERS[0], replace(PLAYERS[1], server_id="g1")


async def test_a_ladder_and_a_player_page_are_each_one_operation(backend: Backend) -> None:
    clock = Clock()
    async with backend.open() as store:
        svc = service(store, clock)
        for n in range(10):
            await rated_game(svc, ALICE, BOB, "x" if n % 3 else "o")
            clock.advance(DAY)
        await svc.handle_text(BOB, "/hide")
        pages = Pages(store, clock)
        ran: list[str] = []
        store.time_operations(lambda name, _: ran.append(name))

        ladder = await pages.ladder("tres")
        assert ladder is not None and [e.name for e in ladder.entries].count(ANONYMOUS) == 1
        assert len(ran) == 1, ran
        ran.clear()

        alice = await pages.player("discord:alice")
        assert alice is not None and alice.name == "Alice" and len(alice.recent) == 10
        assert len(ran) == 1, ran
        ran.clear()

        assert await pages.player("discord:bob") is None  # hidden: the pages' 404
        assert len(ran) == 1, ran

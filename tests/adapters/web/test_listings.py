"""The home page and the global ladders are read once a second per process, on both stores:
a ``/hide`` (or a new rating) shows on them within :data:`LISTINGS_KEPT_FOR`, never later, and
a player page is never kept."""

from __future__ import annotations

import asyncio
from dataclasses import replace

from aiohttp.test_utils import TestClient, TestServer

from adapters.web import AddressLimiter, WebPages
from adapters.web.server import LISTINGS_KEPT_FOR
from core.pages import Pages
from core.pages.views import HomePage
from tests.backends import Backend
from tests.core.pages.games import DAY, PLAYERS, rated_game
from tests.core.test_sessions import Clock, service

ALICE, BOB = PLAYERS[0], replace(PLAYERS[1], server_id="g1")


class Ticks:
    """The pages' monotonic clock, moved only when told."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


async def test_a_hidden_player_leaves_the_ladder_and_home_within_the_time_they_are_kept(
    backend: Backend,
) -> None:
    clock, ticks = Clock(), Ticks()
    async with backend.open() as store:
        svc = service(store, clock)
        for n in range(10):  # enough rated games for both to be listed
            await rated_game(svc, ALICE, BOB, "x" if n % 3 else "o")
            clock.advance(DAY)
        pages = WebPages(Pages(store, clock), AddressLimiter(10_000, 10_000), clock=ticks)
        async with TestClient(TestServer(pages.app())) as client:

            async def shown(path: str) -> str:
                response = await client.get(path)
                assert response.status == 200
                return await response.text()

            assert "Bob" in await shown("/ladder/tres") and "Bob" in await shown("/")
            await svc.handle_text(BOB, "/hide")
            # Within the second: the listing read before the /hide, shared by every visitor.
            ticks.now += LISTINGS_KEPT_FOR / 2
            assert "Bob" in await shown("/ladder/tres") and "Bob" in await shown("/")
            assert (await client.get("/player/discord%3Abob")).status == 404  # never kept
            # Past it, read again: anonymous on both.
            ticks.now += LISTINGS_KEPT_FOR / 2
            for path in ("/ladder/tres", "/ladder/TRES", "/"):
                body = await shown(path)
                assert "Bob" not in body and "<i>anonymous</i>" in body, path


async def test_visitors_of_one_moment_share_one_read_and_a_failed_read_is_not_kept(
    backend: Backend,
) -> None:
    async with backend.open() as store:
        pages = Pages(store, Clock())
        reads = 0
        failing = True
        home = pages.home

        async def counted() -> HomePage:
            nonlocal reads
            reads += 1
            if failing:
                raise RuntimeError("the store failed once")
            return await home()

        pages.home = counted  # type: ignore[method-assign]
        web = WebPages(pages, AddressLimiter(10_000, 10_000), clock=Ticks())
        async with TestClient(TestServer(web.app())) as client:
            assert (await client.get("/")).status == 500
            failing = False
            answers = await asyncio.gather(*(client.get("/") for _ in range(5)))
            assert [a.status for a in answers] == [200] * 5
            assert reads == 2  # the failure, then one read for the five visitors

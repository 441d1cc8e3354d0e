"""The pages' handlers through aiohttp's test client on a real SQLite store filled by rated
games through the service: headers on every answer, only GET and HEAD, 404s that say nothing,
names escaped and cleaned, the rate limit per client address, and each page's weight."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path
from typing import TypeAlias

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from adapters.web import HEADERS, AddressLimiter, WebPages
from core.pages import Pages
from core.store import SettingRow, SqliteStore, settings
from tests.core.pages.games import DAY, PLAYERS, rated_game, season
from tests.core.test_sessions import Clock, service

Client: TypeAlias = TestClient[web.Request, web.Application]

PAGES = ("/", "/ladder/tres", "/ladder/connect4", "/player/discord%3Aalice")
NOT_FOUND = (
    "/nothing",
    "/ladder/all",
    "/ladder/ratlla",
    "/ladder/",
    "/player/discord%3Anobody",
    "/player/discord%3Aalic",
    "/player/",
    "/static/other.css",
    "/static/../server.py",
)


class Ticks:
    """A monotonic clock for the limiter that moves only when told."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(scope="module")
def filled(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, float]:
    """A SQLite file after a season of rated games, and the time it ended."""
    import asyncio

    path = tmp_path_factory.mktemp("web") / "games.sqlite3"
    clock = Clock()

    async def fill() -> None:
        async with await SqliteStore.open(path) as store:
            # Alice's server made its play public: her games there are listed.
            public = SettingRow("discord", "server:g1", "public_ladder", "on", clock.now, "alice")
            await store.run(settings.setting_put(public))
            await season(service(store, clock), clock.advance)

    asyncio.run(fill())
    return path, clock.now


@asynccontextmanager
async def served(
    store: SqliteStore, clock: Clock, limiter: AddressLimiter | None = None
) -> AsyncIterator[Client]:
    """The pages of ``store`` at the time ``clock`` says, through aiohttp's test client."""
    pages = WebPages(Pages(store, clock), limiter or AddressLimiter(10_000, 10_000))
    async with TestClient(TestServer(pages.app())) as client:
        yield client


async def client_for(
    filled: tuple[Path, float], limiter: AddressLimiter | None = None
) -> AsyncIterator[Client]:
    path, now = filled
    async with await SqliteStore.open(path) as store, served(store, Clock(now), limiter) as client:
        yield client


@pytest.fixture
async def client(filled: tuple[Path, float]) -> AsyncIterator[Client]:
    async for made in client_for(filled):
        yield made


def assert_headers(headers: object) -> None:
    for name, value in HEADERS.items():
        assert headers[name] == value  # type: ignore[index]
    assert "'unsafe-inline'" not in HEADERS["Content-Security-Policy"]
    assert HEADERS["Content-Security-Policy"].startswith("default-src 'self'")


@pytest.mark.parametrize("path", PAGES)
async def test_each_page_is_whole_light_and_carries_the_headers(client: Client, path: str) -> None:
    response = await client.get(path)
    body = await response.text()
    assert response.status == 200, body
    assert response.headers["Content-Type"] == "text/html; charset=utf-8"
    assert_headers(response.headers)
    assert '<html lang="en">' in body and "<h1>" in body
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in body
    assert len(body.encode()) < 100_000
    # Nothing from another host, and no script at all.
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", body)
    assert "<script" not in body.replace("&lt;script", "")


async def test_the_stylesheet_comes_from_the_package(client: Client) -> None:
    response = await client.get("/static/style.css")
    assert response.status == 200 and response.headers["Content-Type"].startswith("text/css")
    assert_headers(response.headers)
    text = await response.text()
    assert "@import" not in text and "url(" not in text  # no font, nothing fetched


@pytest.mark.parametrize("path", NOT_FOUND)
async def test_what_does_not_exist_is_one_plain_404(client: Client, path: str) -> None:
    response = await client.get(path)
    assert response.status == 404
    assert_headers(response.headers)
    body = await response.text()
    reference = await (await client.get("/nothing")).text()
    assert body == reference  # the same page whatever was asked: nothing similar is revealed


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH", "OPTIONS"])
async def test_only_get_and_head_are_served(client: Client, method: str) -> None:
    for path in ("/", "/ladder/tres", "/nothing"):
        response = await client.request(method, path)
        assert response.status == 405 and response.headers["Allow"] == "GET, HEAD"
        assert_headers(response.headers)


async def test_head_answers_the_headers_without_a_body(client: Client) -> None:
    response = await client.head("/ladder/tres")
    assert response.status == 200 and await response.read() == b""
    assert_headers(response.headers)


async def test_names_are_escaped_cleaned_and_cut(client: Client) -> None:
    body = await (await client.get("/ladder/tres")).text()
    assert "<script>alert" not in body
    assert "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&#34;quo…" in body
    assert "\u202e" not in body and "\u200b" not in body and "\u200d" not in body
    assert "gnp.exe" in body and "zerowidth" in body
    assert "L" * 31 + "…" in body and "L" * 33 not in body
    for path in ("/player/discord%3Aeve", "/player/discord%3Along", "/player/discord%3Artl"):
        page = await (await client.get(path)).text()
        assert "<script>alert" not in page and "\u202e" not in page and "L" * 33 not in page


async def test_a_player_page_shows_the_chart_and_no_chat(client: Client) -> None:
    body = await (await client.get("/player/discord%3Aalice")).text()
    assert "<svg" in body and "<polyline points=" in body and "<title id=" in body
    assert "Tic-tac-toe" in body and "won" in body
    for secret in ("c1", "g1"):  # the chat's and the server's ids
        assert f">{secret}<" not in body and f'"{secret}"' not in body
    # Her games in a server that made its play public link their pages; each page is there.
    linked = re.findall(r'<a href="(/game/[0-9a-f]{32})">', body)
    assert linked
    for path in linked:
        game = await client.get(path)
        assert game.status == 200 and "Alice" in await game.text()


async def test_the_rate_limit_answers_429_with_retry_after_per_address(
    filled: tuple[Path, float],
) -> None:
    ticks = Ticks()
    async for client in client_for(filled, AddressLimiter(3, 60, ticks)):
        for _ in range(3):
            assert (await client.get("/ladder/tres")).status == 200
        limited = await client.get("/ladder/tres")
        assert limited.status == 429 and limited.headers["Retry-After"] == "1"
        assert_headers(limited.headers)
        # Another client behind the proxy on this machine has its own bucket.
        other = await client.get("/", headers={"X-Forwarded-For": "203.0.113.9"})
        assert other.status == 200
        ticks.now += 1.0
        assert (await client.get("/ladder/tres")).status == 200


async def test_a_hidden_player_is_anonymous_unlinked_and_their_page_is_a_404(
    tmp_path: Path,
) -> None:
    clock = Clock()
    async with await SqliteStore.open(tmp_path / "games.sqlite3") as store:
        svc = service(store, clock)
        await season(svc, clock.advance)
        bob = next(p for p in PLAYERS if p.user_id == "bob")
        await svc.handle_text(bob, "/hide")
        async with served(store, clock) as client:
            body = await (await client.get("/ladder/tres")).text()
            assert "<i>anonymous</i>" in body and "Bob" not in body
            assert "discord%3Abob" not in body
            gone = await client.get("/player/discord%3Abob")
            nothing = await client.get("/nothing")
            assert gone.status == 404 and await gone.text() == await nothing.text()


async def test_a_servers_ladder_page_is_served_only_while_public_ladder_is_on(
    tmp_path: Path,
) -> None:
    clock = Clock()
    async with await SqliteStore.open(tmp_path / "games.sqlite3") as store:
        svc = service(store, clock)
        alice = next(p for p in PLAYERS if p.user_id == "alice")
        bob = replace(next(p for p in PLAYERS if p.user_id == "bob"), server_id="g1")
        for n in range(10):
            await rated_game(svc, alice, bob, "x" if n % 3 else "o")
            clock.advance(DAY)
        async with served(store, clock) as client:
            nothing = await (await client.get("/nothing")).text()
            off = await client.get("/ladder/tres/discord/g1")
            assert off.status == 404 and await off.text() == nothing
            await svc.handle_text(replace(alice, is_admin=True), "/settings public_ladder on")
            on = await client.get("/ladder/tres/discord/g1")
            body = await on.text()
            assert on.status == 200 and "<h1>Tic-tac-toe ladder of a server</h1>" in body
            assert "/top server tres" in body and "Alice" in body and "Bob" in body
            assert ">g1<" not in body  # never named, and its id is only the address
            assert_headers(on.headers)
            for other in ("/ladder/tres/discord/g2", "/ladder/all/discord/g1", "/ladder/tres/x/g1"):
                assert (await client.get(other)).status == 404, other

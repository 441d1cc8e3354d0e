"""The live page of a game through aiohttp's test client on a real SQLite store, the game played
through the service: the page without JavaScript, its Open Graph tags and picture, its event
stream to the game's end, hidden players, the one 404, the streams an address may hold, and
the streams ended when the pages shut down."""

from __future__ import annotations

import io
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from aiohttp import ClientResponse
from aiohttp.test_utils import TestClient, TestServer
from PIL import Image

from adapters.web import HEADERS, AddressLimiter, WebPages
from core.pages import Pages
from core.pages.feed import LiveFeed
from core.replies import Actor
from core.sessions import GameService
from core.store import SqliteStore, sessions
from tests.adapters.web.test_server import Client, assert_headers
from tests.core.pages.test_live import ALICE, BOB, challenge
from tests.core.test_sessions import Clock, service, session_of


@dataclass
class Site:
    client: Client
    svc: GameService
    store: SqliteStore
    pages: WebPages


async def open_site(path: Path, **options: object) -> AsyncIterator[Site]:
    async with await SqliteStore.open(path) as store:
        pages = Pages(store, Clock())
        web = WebPages(
            pages,
            AddressLimiter(10_000, 10_000),
            feed=LiveFeed(pages.live, poll=0.01),
            **options,  # type: ignore[arg-type]
        )
        async with TestClient(TestServer(web.app())) as client:
            yield Site(client, service(store), store, web)


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[Site]:
    async for made in open_site(tmp_path / "games.sqlite3"):
        yield made


@dataclass(frozen=True)
class Event:
    name: str
    data: str
    id: str | None


async def next_event(response: ClientResponse) -> Event | None:
    """The stream's next event (comments and the retry field skipped); None at its end."""
    while True:
        block = b""
        while not block.endswith(b"\n\n"):
            line = await response.content.readline()
            if not line:
                return None
            block += line
        fields: dict[str, list[str]] = {}
        for text in block.decode().splitlines():
            if text and not text.startswith(":"):
                name, _, value = text.partition(": ")
                fields.setdefault(name, []).append(value)
        if "event" in fields:
            data = "\n".join(fields.get("data", []))
            return Event(fields["event"][0], data, fields.get("id", [None])[0])


async def test_the_page_works_without_javascript_and_says_what_the_board_holds(
    site: Site,
) -> None:
    game = await challenge(site.svc, ALICE, BOB)
    await site.svc.handle_text(ALICE, "4")
    response = await site.client.get(f"/live/{game.public_id}")
    body = await response.text()
    assert response.status == 200, body
    assert_headers(response.headers)
    assert response.headers["X-Robots-Tag"] == "noindex, nofollow"
    assert '<meta name="robots" content="noindex, nofollow">' in body
    assert "<h1><bdi>Alice</bdi> (X) vs <bdi>Bobevil</bdi> (O)</h1>" in body
    assert "<strong>Bobevil (O) to move.</strong>" in body
    assert 'aria-labelledby="board-text"' in body and "From the bottom up, column 4: X." in body
    assert '<ol class="live-moves"><li>1. X 4</li></ol>' in body
    assert body.count('<td class="x last">X</td>') == 1
    assert f'<a href="/live/{game.public_id}">Reload to see the latest move</a>' in body
    assert f'data-events="/live/{game.public_id}/events"' in body
    # The one script is the package's file; nothing inline, nothing from another host.
    assert re.findall(r"<script[^>]*>", body) == ['<script src="/static/live.js" defer>']
    assert "</script>" in body and not re.search(r"<script[^>]*>[^<]", body)
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", body)
    assert len(body.encode()) < 100_000
    for secret in ("c1", "g1", game.id, "alice", "bob"):
        assert f">{secret}<" not in body and f'"{secret}"' not in body
    script = await site.client.get("/static/live.js")
    assert script.status == 200 and script.headers["Content-Type"].startswith("text/javascript")
    assert "EventSource" in await script.text()


async def test_the_open_graph_tags_and_the_picture_of_the_board(tmp_path: Path) -> None:
    async for site in open_site(tmp_path / "g.sqlite3", public_url="https://games.example.org"):
        game = await challenge(site.svc, ALICE, BOB)
        await site.svc.handle_text(ALICE, "4")
        body = await (await site.client.get(f"/live/{game.public_id}")).text()
        tags = dict(re.findall(r'<meta (?:property|name)="([^"]+)" content="([^"]*)">', body))
        url = f"https://games.example.org/live/{game.public_id}"
        assert tags["og:title"] == "Alice vs Bobevil · Connect Four 6x7, live"
        assert tags["og:description"] == "Bobevil (O) to move. Moves played: 1."
        assert tags["og:url"] == url and tags["og:image"] == f"{url}.png?v={game.version + 1}"
        assert tags["twitter:card"] == "summary_large_image"
        assert re.fullmatch(r"#[0-9a-f]{6}", tags["theme-color"])
        # Discord's crawler reads the tags and fetches the picture.
        crawler = {
            "User-Agent": "Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)"
        }
        picture = await site.client.get(f"/live/{game.public_id}.png?v=3", headers=crawler)
        png = await picture.read()
        assert picture.status == 200 and picture.headers["Content-Type"] == "image/png"
        assert_headers(picture.headers)
        assert picture.headers["Cache-Control"] == "public, max-age=5"
        assert picture.headers["X-Robots-Tag"] == "noindex, nofollow"
        with Image.open(io.BytesIO(png)) as image:
            assert image.format == "PNG" and image.width >= 200
            assert len(image.convert("RGB").getcolors(1 << 16) or range(99)) > 2
        again = await (await site.client.get(f"/live/{game.public_id}.png")).read()
        assert again == png  # kept: the same version is drawn once
        await site.svc.handle_text(BOB, "4")
        moved = await (await site.client.get(f"/live/{game.public_id}.png")).read()
        assert moved != png


async def test_the_stream_follows_the_game_to_its_end(site: Site) -> None:
    game = await challenge(site.svc, ALICE, BOB, "/tres")
    async with site.client.get(f"/live/{game.public_id}/events") as stream:
        assert stream.status == 200
        assert stream.headers["Content-Type"] == "text/event-stream"
        assert stream.headers["Cache-Control"] == "no-cache"
        assert_headers(stream.headers)
        first = await next_event(stream)
        assert first is not None and first.name == "game" and first.id == str(game.version)
        assert "Alice (X) to move." in first.data and "No move yet." in first.data
        moves = ((ALICE, "1"), (BOB, "4"), (ALICE, "2"), (BOB, "5"), (ALICE, "3"))
        shown = first
        for n, (who, cell) in enumerate(moves, start=1):
            await site.svc.handle_text(who, cell)
            event = await next_event(stream)
            assert event is not None and event.name == "game"
            assert event.id == str(game.version + n)
            assert event.data.count("<li>") == n
            shown = event
        assert shown.data.count('class="x win') == 3 and "Alice (X) wins!" in shown.data
        assert f'<a href="/game/{game.public_id}">' in shown.data
        # The link the end shows leads to the game's page, and that page no longer sends here.
        archived = await site.client.get(f"/game/{game.public_id}", allow_redirects=False)
        assert archived.status == 200
        end = await next_event(stream)
        assert end is not None and end.name == "end"
        assert await next_event(stream) is None  # the stream is closed
    # A finished game's stream gives the end at once.
    async with site.client.get(f"/live/{game.public_id}/events") as late:
        assert [(await next_event(late) or Event("", "", None)).name for _ in range(3)] == [
            "game",
            "end",
            "",
        ]


async def test_the_game_page_of_a_game_being_played_sends_here(site: Site) -> None:
    game = await challenge(site.svc, ALICE, BOB)
    sent = await site.client.get(f"/game/{game.public_id}", allow_redirects=False)
    assert sent.status == 303 and sent.headers["Location"] == f"/live/{game.public_id}"


async def test_a_browser_that_comes_back_is_not_sent_what_it_has(site: Site) -> None:
    game = await challenge(site.svc, ALICE, BOB)
    path = f"/live/{game.public_id}/events"
    async with site.client.get(path, headers={"Last-Event-ID": str(game.version)}) as stream:
        await site.svc.handle_text(ALICE, "3")
        shown = await next_event(stream)
        assert shown is not None and shown.id == str(game.version + 1)


async def test_a_hidden_player_stays_anonymous_on_the_page_and_the_stream(site: Site) -> None:
    game = await challenge(site.svc, ALICE, BOB)
    await site.svc.handle_text(BOB, "/hide")
    body = await (await site.client.get(f"/live/{game.public_id}")).text()
    assert "Bob" not in body and "<bdi>anonymous</bdi> (O)" in body
    async with site.client.get(f"/live/{game.public_id}/events") as stream:
        await next_event(stream)
        await site.svc.handle_text(ALICE, "3")
        shown = await next_event(stream)
        assert shown is not None and "anonymous (O) to move." in shown.data
        assert "Bob" not in shown.data and "O is anonymous" in shown.data


async def test_a_declined_challenge_says_it_is_gone(site: Site) -> None:
    challenged = await site.svc.handle_text(ALICE, "/quatre @bob")
    session = await site.store.run(sessions.get(session_of(challenged)))
    assert session is not None
    async with site.client.get(f"/live/{session.public_id}/events") as stream:
        first = await next_event(stream)
        assert first is not None and "Waiting for an answer" in first.data
        await site.svc.handle_text(BOB, "/decline")
        gone = await next_event(stream)
        assert gone is not None and gone.name == "gone" and "no longer here" in gone.data
        assert await next_event(stream) is None
    assert (await site.client.get(f"/live/{session.public_id}")).status == 404


@pytest.mark.parametrize(
    "path",
    [
        "/live/" + "0" * 32,
        "/live/" + "0" * 32 + "/events",
        "/live/" + "0" * 32 + ".png",
        "/live/" + "0" * 31,
        "/live/" + "A" * 32,
        "/live/",
        "/live/x/events",
    ],
)
async def test_an_unknown_game_is_the_sites_one_404(site: Site, path: str) -> None:
    await challenge(site.svc, ALICE, BOB)
    response = await site.client.get(path)
    assert response.status == 404
    assert_headers(response.headers)
    assert await response.text() == await (await site.client.get("/nothing")).text()


async def test_an_address_holds_a_bounded_number_of_streams(tmp_path: Path) -> None:
    async for site in open_site(tmp_path / "g.sqlite3", streams_per_address=2):
        game = await challenge(site.svc, ALICE, BOB)
        path = f"/live/{game.public_id}/events"
        async with site.client.get(path) as one, site.client.get(path) as two:
            assert one.status == two.status == 200
            refused = await site.client.get(path)
            assert refused.status == 429
            assert_headers(refused.headers)
            other = await site.client.get(path, headers={"X-Forwarded-For": "203.0.113.9"})
            assert other.status == 200
            other.close()
        async with site.client.get(path) as again:  # the streams closed gave their places back
            assert again.status == 200


async def test_the_pages_shutdown_ends_every_open_stream(tmp_path: Path) -> None:
    async with await SqliteStore.open(tmp_path / "g.sqlite3") as store:
        svc = service(store)
        game = await challenge(svc, ALICE, BOB)
        pages = Pages(store, Clock())
        web = WebPages(pages, AddressLimiter(10_000, 10_000))
        client = TestClient(TestServer(web.app()))
        await client.start_server()
        streams = [await client.get(f"/live/{game.public_id}/events") for _ in range(3)]
        for stream in streams:
            assert (await next_event(stream)) is not None
        assert web.live.feed.watched == 1
        # The application's shutdown, as the bot's stop runs it; the browsers stay.
        await client.server.close()
        for stream in streams:
            assert await next_event(stream) is None
        assert web.live.feed.watched == 0
        await client.close()


def test_the_stream_is_marked_like_every_page() -> None:
    assert "'unsafe-inline'" not in HEADERS["Content-Security-Policy"]


async def test_the_home_page_links_the_games_it_lists(site: Site) -> None:
    admin = Actor("discord", "c1", "alice", "Alice", server_id="g1", is_admin=True)
    await site.svc.handle_text(admin, "/settings public_ladder on")
    game = await challenge(site.svc, ALICE, BOB)
    body = await (await site.client.get("/")).text()
    assert "<h2>Live games</h2>" in body
    assert f'<a href="/live/{game.public_id}"><bdi>Alice</bdi> vs <bdi>Bobevil</bdi></a>' in body


async def test_an_open_stream_is_one_request_for_the_rate_limit(tmp_path: Path) -> None:
    async for site in open_site(tmp_path / "g.sqlite3"):
        game = await challenge(site.svc, ALICE, BOB)
    async with await SqliteStore.open(tmp_path / "g.sqlite3") as store:
        pages = Pages(store, Clock())
        web = WebPages(pages, AddressLimiter(2, 1), feed=LiveFeed(pages.live, poll=0.01))
        async with (
            TestClient(TestServer(web.app())) as client,
            client.get(f"/live/{game.public_id}/events") as stream,
        ):
            assert await next_event(stream) is not None
            # The stream stays open and costs nothing more: one request is left.
            assert (await client.get(f"/live/{game.public_id}")).status == 200
            assert (await client.get(f"/live/{game.public_id}")).status == 429

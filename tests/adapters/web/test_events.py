"""An event's page through aiohttp's test client on a real SQLite store: the headers, the
standings and rounds with their links, a hostile name escaped, a hidden player anonymous, the
link preview's tags as Discord's crawler reads them and its picture drawn once, noindex unless
listed, no chat or server shown, and the one 404 for anything else; the home page's list."""

from __future__ import annotations

import io
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import TypeAlias

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer
from PIL import Image

from adapters.web import HEADERS, AddressLimiter, WebPages
from adapters.web.server import LISTINGS_KEPT_FOR
from core.pages import HIDDEN, Pages, event_picture
from core.store import SettingRow, SqliteStore, kv, settings
from core.store.sql import Op, count
from tests.adapters.web.test_game import DISCORD, tags
from tests.adapters.web.test_listings import Ticks
from tests.core.pages.events import swiss_event

Client: TypeAlias = TestClient[web.Request, web.Application]


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteStore]:
    async with await SqliteStore.open(tmp_path / "games.sqlite3") as opened:
        yield opened


@pytest.fixture
def ticks() -> Ticks:
    """The pages' monotonic clock: the home page's listing is read again once it moves past
    :data:`LISTINGS_KEPT_FOR`."""
    return Ticks()


@pytest.fixture
async def client(store: SqliteStore, ticks: Ticks) -> AsyncIterator[Client]:
    pages = WebPages(Pages(store), AddressLimiter(10_000, 10_000), clock=ticks)
    async with TestClient(TestServer(pages.app())) as opened:
        yield opened


async def test_the_event_page_shows_standings_and_rounds(
    store: SqliteStore, client: Client
) -> None:
    stored = await swiss_event(store)
    response = await client.get(f"/event/{stored.event.public_id}")
    body = await response.text()
    assert response.status == 200 and response.content_type == "text/html"
    for name, value in HEADERS.items():
        assert response.headers[name] == value
    assert "<h1>Tic-tac-toe: swiss tournament</h1>" in body
    assert "Running: round 2 of 3" in body and "1 min per move" in body
    assert '<abbr title="Buchholz">BH</abbr>' in body
    assert '<abbr title="Sonneborn-Berger">SB</abbr>' in body
    assert '<td>1</td><td><a href="/player/test%3Aann"><bdi>Ann</bdi></a></td><td>1</td>' in body
    assert f'<a href="/game/{stored.finished}">1-0</a>' in body
    assert f'<a href="/live/{stored.live}">playing</a>' in body
    assert "<bdi>Cat</bdi>: bye" in body
    # The hostile name is text: escaped, its override taken out; no script on the page.
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;Eve" in body
    assert "<script" not in body and "\u202e" not in body
    # Neither the chat, the server nor the short id the chats type.
    # (The pages' public ids taken out first: 32 random hex digits may hold "c1".)
    shown = re.sub("[0-9a-f]{32}", "", body)
    for private in ("c1", "s1", "ev1", "admin"):
        assert private not in shown
    assert '<meta name="robots" content="noindex, nofollow">' in body


async def test_a_hidden_player_is_anonymous(store: SqliteStore, client: Client) -> None:
    stored = await swiss_event(store)
    await store.run(kv.kv_set(HIDDEN, "test:ann", "1"))
    body = await (await client.get(f"/event/{stored.event.public_id}")).text()
    assert "Ann" not in body and "test%3Aann" not in body
    assert "<i><bdi>anonymous</bdi></i>" in body


async def test_a_listed_event_may_be_indexed(store: SqliteStore, client: Client) -> None:
    stored = await swiss_event(store, server_id="s1")
    assert "noindex" in await (await client.get(f"/event/{stored.event.public_id}")).text()
    public = SettingRow("test", "chat:c1", "public_ladder", "on", 0.0, "admin")
    await store.run(settings.setting_put(public))
    body = await (await client.get(f"/event/{stored.event.public_id}")).text()
    assert "robots" not in body


async def test_the_home_page_lists_a_public_event(
    store: SqliteStore, client: Client, ticks: Ticks
) -> None:
    stored = await swiss_event(store)
    path = f"/event/{stored.event.public_id}"
    assert path not in await (await client.get("/")).text()
    public = SettingRow("test", "chat:c1", "public_ladder", "on", 0.0, "admin")
    await store.run(settings.setting_put(public))
    ticks.now += LISTINGS_KEPT_FOR  # past the listing read before the setting
    body = await (await client.get("/")).text()
    assert f'<a href="{path}">Tic-tac-toe: swiss tournament</a>, Running: round 2 of 3' in body


async def test_discords_crawler_reads_the_preview_and_fetches_its_picture(
    store: SqliteStore, client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn: list[str] = []
    draw = event_picture.event_png

    def counted(*args: object) -> bytes:
        drawn.append("x")
        return draw(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(event_picture, "event_png", counted)
    stored = await swiss_event(store)
    public_id = stored.event.public_id
    response = await client.get(f"/event/{public_id}", headers={"User-Agent": DISCORD})
    meta = tags(await response.text())
    origin = str(client.make_url("/")).rstrip("/")
    assert meta["og:title"] == "Tic-tac-toe: swiss tournament"
    assert meta["og:description"] == "Running: round 2 of 3. 3 players; first: Ann (1)."
    assert meta["og:url"] == f"{origin}/event/{public_id}"
    assert meta["og:image"] == f"{origin}/event/{public_id}.png"
    assert meta["twitter:card"] == "summary_large_image"
    image = await client.get(meta["og:image"].removeprefix(origin), headers={"User-Agent": DISCORD})
    assert image.status == 200 and image.content_type == "image/png"
    body = await image.read()
    with Image.open(io.BytesIO(body)) as picture:
        assert picture.format == "PNG" and picture.size == (600, 315)
        assert len(picture.convert("RGB").getcolors(1 << 16) or ()) > 2
    again = await client.get(f"/event/{public_id}.png")
    assert await again.read() == body and drawn == ["x"]  # drawn once, then kept
    # A hidden player changes the table: drawn again, without the name.
    await store.run(kv.kv_set(HIDDEN, "test:ann", "1"))
    assert await (await client.get(f"/event/{public_id}.png")).read() != body
    assert drawn == ["x", "x"]


async def test_unknown_events_are_one_404(store: SqliteStore, client: Client) -> None:
    stored = await swiss_event(store)
    for path in (
        "/event/" + "0" * 32,
        "/event/" + "0" * 32 + ".png",
        "/event/ev1",
        "/event/" + stored.event.public_id.upper(),
        "/event/" + stored.event.public_id + "x",
    ):
        response = await client.get(path)
        assert response.status == 404, path
        for name, value in HEADERS.items():
            assert response.headers[name] == value


async def test_a_berserk_player_is_marked_in_the_rounds(store: SqliteStore, client: Client) -> None:
    stored = await swiss_event(store)

    def ann_berserk() -> Op[None]:  # round 1's X, as the game's end writes it
        yield count("UPDATE event_games SET berserk = 1 WHERE session_id = 'r1'")

    await store.run(ann_berserk())
    body = await (await client.get(f"/event/{stored.event.public_id}")).text()
    assert '<bdi>Ann</bdi> <abbr title="Berserk">⚡</abbr> \u2013 <bdi>' in body
    assert body.count('<abbr title="Berserk">⚡</abbr>') == 1

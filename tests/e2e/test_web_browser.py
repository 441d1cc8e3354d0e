"""The web pages in a real browser: Debian's Chromium, headless, driven by Playwright, against
the real application (``python -m chatbots run`` with ``WEB_PORT``) on a SQLite file filled by
rated games played through the GameService.

Each page is opened at a desktop's and at a phone's width: its content is checked, no request
leaves 127.0.0.1, the browser logs no console error (a Content-Security-Policy refusal is one),
nothing overflows 360 px, and a screenshot is kept (``tests/e2e/artifacts/web/``, git-ignored,
kept by CI) and checked not blank. Playwright's own browser download is never used."""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from PIL import Image
from playwright.async_api import Browser, ConsoleMessage, Page, Request, async_playwright

from core.store import SqliteStore
from tests.chatbots.test_app import environment
from tests.core.pages.games import DAY, season
from tests.core.test_sessions import Clock, service

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = Path(__file__).parent / "artifacts" / "web"
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 900}


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[str]:
    """The real application serving the pages of a season of rated games; yields their
    address (``http://127.0.0.1:PORT/``). The games end a day ago, so the ladders list them."""

    async def fill(store: SqliteStore, clock: Clock) -> None:
        await season(service(store, clock), clock.advance)

    async with serving_app(tmp_path, fill) as url:
        yield url


@asynccontextmanager
async def serving_app(
    tmp_path: Path, fill: Callable[[SqliteStore, Clock], Awaitable[None]]
) -> AsyncIterator[str]:
    """The real application (``python -m chatbots run``, one AI worker) serving the pages of
    the bot's database once ``fill`` played its games (twelve days ago by ``clock``); yields
    their address."""
    clock = Clock(time.time() - 12 * DAY)
    (tmp_path / "db").mkdir()
    async with await SqliteStore.open(tmp_path / "db" / "games.sqlite3") as store:  # the bot's
        await fill(store, clock)
    async with pages_process(tmp_path, environment(tmp_path, WEB_PORT=str(_free_port()))) as url:
        yield url


@asynccontextmanager
async def pages_process(folder: Path, env: dict[str, str]) -> AsyncIterator[str]:
    """``python -m chatbots run`` in ``folder`` with ``env`` (``WEB_PORT`` set, no platform:
    its console waits on a pipe) until the block ends, when its input ends and it must stop
    cleanly; yields the pages' address (``http://127.0.0.1:PORT/``)."""
    bot = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "chatbots",
        "run",
        cwd=folder,
        env=env,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
    )
    assert bot.stdin is not None and bot.stdout is not None
    try:
        url = ""
        while not url:
            line = (await asyncio.wait_for(bot.stdout.readline(), 60)).decode()
            assert line, "the bot ended before serving its pages"
            url = line.removeprefix("pages at ").strip() if line.startswith("pages at") else ""
        yield url
        bot.stdin.close()  # the console's input ends: the bot stops
        assert await asyncio.wait_for(bot.wait(), 30) == 0
    finally:
        if bot.returncode is None:
            bot.kill()
            await bot.wait()


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def chromium() -> str:
    """Debian's Chromium (``.ci/run`` installs it when missing); a test without it fails."""
    assert Path(CHROMIUM).exists(), f"{CHROMIUM} is missing: apt-get install chromium"
    return CHROMIUM


@pytest.fixture
async def browser(chromium: str) -> AsyncIterator[Browser]:
    async with async_playwright() as playwright:
        # launch() gives the browser a new empty profile (a temporary user data dir) each
        # time and removes it at close: nothing carries over from one test to the next.
        launched = await playwright.chromium.launch(
            executable_path=chromium, args=ARGS, headless=True
        )
        try:
            yield launched
        finally:
            await launched.close()


class Watched:
    """A page whose requests and console errors are written down."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.requests: list[str] = []
        self.errors: list[str] = []
        page.on("request", self._request)
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.errors.append(f"page error: {error}"))

    def _request(self, request: Request) -> None:
        self.requests.append(request.url)

    def _console(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            self.errors.append(message.text)


async def _screenshot(page: Page, name: str) -> Path:
    """A full-page screenshot kept as an artefact; fails when it is blank (one colour)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    await page.screenshot(path=str(path), full_page=True)
    with Image.open(path) as picture:
        colours = picture.convert("RGB").getcolors(maxcolors=1 << 16)
    assert colours is None or len(colours) > 2, f"{path} is blank"
    return path


PAGES = {
    # path: (its h1, a text the page shows)
    "": ("Ladders", "Connect Four"),
    "ladder/tres": ("Tic-tac-toe ladder", "/top all tres"),
    "ladder/quatre": ("Connect Four ladder", "Nobody is on this ladder yet"),
    "player/discord%3Aalice": ("Alice discord", "Recent rated games"),
    "player/discord%3Aeve": ("<script>alert('x')</script>\"quo… discord", "Tic-tac-toe"),
    "nothing/here": ("Not found", "There is no page at this address."),
}


@pytest.mark.parametrize(("viewport", "width"), [(DESKTOP, "desktop"), (PHONE, "phone")])
async def test_every_page_in_chromium(
    site: str, browser: Browser, viewport: dict[str, int], width: str
) -> None:
    context = await browser.new_context(viewport=viewport)  # type: ignore[arg-type]
    try:
        for path, (heading, text) in PAGES.items():
            watched = Watched(await context.new_page())
            page = watched.page
            response = await page.goto(site + path)
            assert response is not None
            assert response.status == (404 if path.startswith("nothing") else 200)
            assert await page.locator("h1").inner_text() == heading
            assert text in await page.locator("main").inner_text()
            assert await page.evaluate("document.documentElement.lang") == "en"
            # The stylesheet applied (CSP let it in): the nav is a flex row.
            assert (
                await page.locator("header nav").evaluate("n => getComputedStyle(n).display")
                == "flex"
            )
            overflow = await page.evaluate(
                "document.documentElement.scrollWidth - document.documentElement.clientWidth"
            )
            assert overflow <= 0, f"{path} overflows the {width}'s width by {overflow} px"
            assert watched.requests and all(u.startswith(site) for u in watched.requests), (
                watched.requests
            )
            # The one error a page may log: its own 404, on the page for a wrong address.
            expected = ["the server responded with a status of 404"] if "nothing" in path else []
            assert [e for e in watched.errors if not any(x in e for x in expected)] == []
            assert len(watched.errors) == len(expected), (path, watched.errors)
            name = path.replace("/", "_").replace("%3A", "-") or "home"
            await _screenshot(page, f"{width}-{name}")
            await page.close()
    finally:
        await context.close()


async def test_from_the_home_page_to_a_ladder_and_a_players_chart(
    site: str, browser: Browser
) -> None:
    context = await browser.new_context(viewport=DESKTOP)  # type: ignore[arg-type]
    try:
        watched = Watched(await context.new_page())
        page = watched.page
        await page.goto(site)
        await page.get_by_role("link", name="Tic-tac-toe").first.click()
        await page.wait_for_url(site + "ladder/tres")
        rows = page.locator("table.ladder tbody tr")
        assert await rows.count() == 6  # every player of the season, all settled
        await page.get_by_role("link", name="Alice").click()
        await page.wait_for_url(site + "player/discord%3Aalice")
        chart = page.get_by_role("img")
        assert "Tic-tac-toe: the rating over the latest rated games, from" in (
            await chart.locator("title").text_content() or ""
        )
        box = await chart.bounding_box()
        assert box is not None and box["width"] > 300 and box["height"] > 50
        assert await page.locator("table.recent tbody tr").count() == 10
        assert not watched.errors and all(u.startswith(site) for u in watched.requests)
        await _screenshot(page, "desktop-navigated-player")
    finally:
        await context.close()


def test_the_artefacts_folder_is_ignored_by_git() -> None:
    ignored = (Path(__file__).parents[2] / ".gitignore").read_text().splitlines()
    assert "/tests/e2e/artifacts/" in ignored

"""An event's page and a puzzle's page in Debian's Chromium against the real application: a
finished Swiss event (its standings, its rounds and their links), today's puzzle and its
solution by its link, at a desktop's and a phone's width; no request leaves 127.0.0.1, the
browser logs no console error, nothing overflows, the preview's picture loads, and screenshots
are kept and checked not blank."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from playwright.async_api import Browser

from core.store import SqliteStore, events
from core.store.events import Advance
from core.store.models.events import EventStatus
from tests.core.pages.events import swiss_event
from tests.core.store.helpers import NOW
from tests.core.test_sessions import Clock
from tests.e2e.test_web_browser import (
    DESKTOP,
    PHONE,
    Watched,
    _screenshot,
    browser,
    chromium,
    serving_app,
)

__all__ = ["browser", "chromium"]  # the fixtures


@pytest.fixture
async def event(tmp_path: Path) -> AsyncIterator[str]:
    """The address of the event's page, served by the real application."""
    found: list[str] = []

    async def fill(store: SqliteStore, clock: Clock) -> None:
        stored = await swiss_event(store)
        # Finished, so that the application's director leaves it as it is.
        done = Advance(EventStatus.FINISHED, 2, True)
        assert await store.run(events.advance("ev1", stored.event.version, done, NOW)) == ()
        found.append(stored.event.public_id)

    async with serving_app(tmp_path, fill) as url:
        yield f"{url}event/{found[0]}"


@pytest.mark.parametrize(("viewport", "width"), [(DESKTOP, "desktop"), (PHONE, "phone")])
async def test_the_event_page_in_chromium(
    event: str, browser: Browser, viewport: dict[str, int], width: str
) -> None:
    context = await browser.new_context(viewport=viewport)  # type: ignore[arg-type]
    try:
        watched = Watched(await context.new_page())
        page = watched.page
        response = await page.goto(event)
        assert response is not None and response.status == 200
        assert await page.locator("h1").inner_text() == "Tic-tac-toe: swiss tournament"
        main = await page.locator("main").inner_text()
        assert "Finished" in main and "Round 1" in main and "Cat: bye" in main
        names = await page.locator("table.ladder tbody td:nth-child(2)").all_inner_texts()
        assert names == ["Ann", "Cat", '<script>alert("x")</script>Eve']
        assert (
            await page.locator("header nav").evaluate("n => getComputedStyle(n).display") == "flex"
        )
        overflow = await page.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 0, f"the event page overflows the {width}'s width by {overflow} px"
        await _screenshot(page, f"{width}-event")
        # The round's game links to its game page, which opens.
        await page.get_by_role("link", name="1-0").click()
        assert "/game/" in page.url
        assert "Ann" in await page.locator("h1").inner_text()
        assert not watched.errors, watched.errors
        assert all(url.startswith("http://127.0.0.1:") for url in watched.requests)
        # Fetched, not opened: Chromium's own viewer of a lone image styles it inline, which
        # the pages' Content-Security-Policy refuses (an error of the viewer, not of a page).
        picture = await page.request.get(event + ".png")
        assert picture.status == 200 and picture.headers["content-type"] == "image/png"
        assert len(await picture.body()) > 1000
    finally:
        await context.close()


@pytest.mark.parametrize(("viewport", "width"), [(DESKTOP, "desktop"), (PHONE, "phone")])
async def test_todays_puzzle_in_chromium(
    event: str, browser: Browser, viewport: dict[str, int], width: str
) -> None:
    site = event.split("event/")[0]
    context = await browser.new_context(viewport=viewport)  # type: ignore[arg-type]
    try:
        watched = Watched(await context.new_page())
        page = watched.page
        response = await page.goto(site + "puzzle/today")
        assert response is not None and response.status == 200
        assert (await page.locator("h1").inner_text()).endswith("puzzle of the day")
        assert await page.locator("#solution").count() == 0
        assert "From the bottom up" in await page.locator("#board-text").inner_text()
        overflow = await page.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 0, f"the puzzle page overflows the {width}'s width by {overflow} px"
        await _screenshot(page, f"{width}-puzzle")
        await page.get_by_role("link", name="Show the solution").click()
        assert page.url.endswith("?solution=1")
        assert " plays column " in await page.locator("#solution").inner_text()
        await _screenshot(page, f"{width}-puzzle-solution")
        assert not watched.errors, watched.errors
        assert all(url.startswith("http://127.0.0.1:") for url in watched.requests)
    finally:
        await context.close()

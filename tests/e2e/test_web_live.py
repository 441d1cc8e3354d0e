"""A live page in a real browser (Debian's Chromium through Playwright, as
``test_web_browser.py``) while a game is played through the Discord double and through the
real Synapse: the bot runs in the test's process, the pages in another (``python -m chatbots
run`` with ``WEB_PORT`` on the same SQLite file), so each move reaches the page from another
process, through the store.

The page is loaded once: each move must appear on it without a reload (a mark set on the
window at load is still there at the end), and the end shows the result. No request leaves
127.0.0.1, the browser logs no console error, and a screenshot is kept and checked not blank."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path

from playwright.async_api import Browser

from core.store import SqliteStore
from core.store.rows import decode_moves
from tests.chatbots.test_app import environment
from tests.core.pages.test_live import ALICE, BOB, challenge
from tests.core.test_sessions import Clock, service
from tests.e2e.discord_double import DiscordDouble
from tests.e2e.discord_harness import Harness, clock, double, harness
from tests.e2e.synapse import Player, SynapseServer, running_bot, synapse_server
from tests.e2e.test_discord import board_of, enabled
from tests.e2e.test_matrix import first_empty, move_by_text, open_room, shown, start_game
from tests.e2e.test_web_browser import (
    DESKTOP,
    PHONE,
    Watched,
    _free_port,
    _screenshot,
    browser,
    pages_process,
)
from tests.e2e.test_web_browser import chromium as chromium

__all__ = ["browser", "chromium", "clock", "double", "harness", "synapse_server"]  # fixtures

WAIT_MS = 10_000
"""How long the page may take to show a move before the test fails (the benchmark measures
how long it does take)."""


@asynccontextmanager
async def pages_of(folder: Path, database: Path) -> AsyncIterator[str]:
    """Another process serving the pages of ``database``; yields their address."""
    await asyncio.to_thread(folder.mkdir, parents=True, exist_ok=True)
    env = environment(folder, WEB_PORT=str(_free_port())) | {"DATABASE_PATH": str(database)}
    async with pages_process(folder, env) as url:
        yield url


def live_game(database: Path, platform: str) -> tuple[str, int]:
    """The public id and the number of moves of the one game being played on ``platform``."""
    db = sqlite3.connect(database)
    try:
        rows = db.execute(
            "SELECT public_id, moves, status FROM sessions WHERE platform = ?", (platform,)
        ).fetchall()
    finally:
        db.close()
    assert len(rows) == 1, rows
    return str(rows[0][0]), len(decode_moves(rows[0][1]))


async def watch_the_game(
    browser: Browser,
    site: str,
    database: Path,
    platform: str,
    play: Callable[[], Awaitable[bool]],
    name: str,
    viewport: dict[str, int],
) -> None:
    """Open the game's live page, then ``play`` a move at a time (False once the game is
    over), each shown by the page without a reload; the end shows the result."""
    public_id, _ = live_game(database, platform)
    context = await browser.new_context(viewport=viewport)  # type: ignore[arg-type]
    try:
        watched = Watched(await context.new_page())
        page = watched.page
        response = await page.goto(f"{site}live/{public_id}")
        assert response is not None and response.status == 200
        await page.evaluate("window.loadedOnce = true")
        # The script took over: the reload link is hidden, the stream is open.
        await page.locator("#reload").wait_for(state="hidden", timeout=WAIT_MS)
        playing = True
        while playing:
            playing = await play()
            _, moves = live_game(database, platform)
            await page.wait_for_function(
                "n => document.querySelectorAll('#live .live-moves li').length >= n",
                arg=moves,
                timeout=WAIT_MS,
            )
            text = await page.locator("#board-text").inner_text()
            assert text.startswith("Tic-tac-toe: X is "), text
        await page.locator("#live .over").wait_for(timeout=WAIT_MS)
        status = await page.locator("#live .status strong").inner_text()
        assert "wins" in status or "draw" in status, status
        assert await page.evaluate("window.loadedOnce === true")  # never reloaded
        assert await page.locator("h1").inner_text() != ""
        assert watched.requests and all(u.startswith(site) for u in watched.requests), (
            watched.requests
        )
        assert watched.errors == []
        await _screenshot(page, f"live-{name}")
        await page.close()
    finally:
        await context.close()


async def test_a_live_page_follows_a_game_played_on_discord(
    harness: Harness, double: DiscordDouble, browser: Browser, tmp_path: Path
) -> None:
    start = await double.slash("tres", {"level": "easy"}, user="alice")
    board_id = int(board_of(double, start)["id"])

    async def play() -> bool:
        free = enabled(double.messages[board_id])
        sent = await double.click(board_id, free[0], user="alice")
        assert sent.callback["type"] == 7, sent.requests
        return bool(enabled(double.messages[board_id]))

    async with pages_of(tmp_path / "pages", harness.db_path) as site:
        await watch_the_game(browser, site, harness.db_path, "discord", play, "discord", DESKTOP)


async def test_a_live_page_follows_a_game_played_on_matrix(
    synapse_server: SynapseServer, browser: Browser, tmp_path: Path
) -> None:
    server = synapse_server
    database = tmp_path / "bot" / "chatbots.sqlite3"
    async with running_bot(server, tmp_path / "bot"), Player(server, "alice") as alice:
        room = await open_room(server, alice)
        board = await start_game(server, alice, room, "!tres easy")
        body = shown(board)

        async def play() -> bool:
            nonlocal body
            _, edit = await move_by_text(server, alice, room, board, first_empty(body))
            body = shown(edit)
            return not ("wins!" in body or "draw." in body)  # the board's status line

        async with pages_of(tmp_path / "pages", database) as site:
            await watch_the_game(browser, site, database, "matrix", play, "matrix", PHONE)


async def test_the_biggest_board_fits_a_phone_and_the_page_works_without_javascript(
    browser: Browser, tmp_path: Path
) -> None:
    database = tmp_path / "db" / "games.sqlite3"
    await asyncio.to_thread(database.parent.mkdir)
    async with await SqliteStore.open(database) as store:
        svc = service(store, Clock(time.time()))  # the pages' process sweeps clocks by now
        await challenge(svc, ALICE, BOB, "/ratlla 25x25 5")
        for who, cell in ((ALICE, "m13"), (BOB, "y25"), (ALICE, "a1")):
            await svc.handle_text(who, cell)
    public_id, _ = live_game(database, "discord")
    async with pages_of(tmp_path / "pages", database) as site:
        for javascript in (True, False):
            context = await browser.new_context(
                viewport=PHONE,  # type: ignore[arg-type]
                java_script_enabled=javascript,
            )
            try:
                watched = Watched(await context.new_page())
                page = watched.page
                await page.goto(f"{site}live/{public_id}")
                overflow = await page.evaluate(
                    "document.documentElement.scrollWidth - document.documentElement.clientWidth"
                )
                assert overflow <= 0, f"the 25x25 board overflows a phone by {overflow} px"
                assert await page.locator("table.board td").count() == 625
                status = await page.locator("#live .status strong").inner_text()
                assert status == "Bobevil (O) to move.", status
                clock = await page.locator("#live .status time").inner_text()
                assert clock.startswith("in " if javascript else "at "), clock
                assert await page.locator("#reload").is_visible() is not javascript
                assert "X is Alice, O is Bobevil. X on a1, m13; O on y25." in (
                    await page.locator("#board-text").inner_text()
                )
                assert watched.errors == []
                assert all(u.startswith(site) for u in watched.requests), watched.requests
                await _screenshot(page, f"live-phone-25x25-{'js' if javascript else 'plain'}")
            finally:
                await context.close()

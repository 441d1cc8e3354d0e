"""A Connect Four game's page in Debian's Chromium against the real application: the whole game
replayed by the keyboard, by the
buttons and by the move list, the board and the verdict checked at every step against the
solver; no request leaves 127.0.0.1, the browser logs no console error, nothing overflows a
phone's width, and screenshots are kept and checked not blank.

The game's review is kept with it before the application starts, as a first visit keeps it
(tests/core/pages/test_game.py shows that visit): the application's AI workers review within a
deadline of wall-clock seconds, which a loaded machine can spend before the review is done, and
then a page shows the verdicts without "only move" until a later visit."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from playwright.async_api import Browser, Page

from core.ai import solve
from core.ai.review import Result, describe, review_game
from core.games import CONNECT_FOUR, Position
from core.i18n import render
from core.pages.game import board_text, encode_review
from core.replies import Actor
from core.store import SqliteStore, archive, sessions
from tests.core.test_sessions import Clock, service
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

MOVES = tuple(int(c) - 1 for c in "3444334336666755")
"""A Connect Four game of 16 moves that O wins, with mistakes, only moves and slower wins."""
ALICE = Actor("discord", "c1", "alice", "Alice", server_id="g1")
BOB = Actor("discord", "c1", "bob", "Bob", server_id="g1")


@pytest.fixture
async def game(tmp_path: Path) -> AsyncIterator[str]:
    """The address of the game's page, served by the real application."""
    found: list[str] = []

    async def fill(store: SqliteStore, clock: Clock) -> None:
        svc = service(store, clock)
        await svc.handle_text(ALICE, "/quatre @bob first")
        await svc.handle_text(BOB, "/accept")
        for n, move in enumerate(MOVES):
            await svc.handle_text(ALICE if n % 2 == 0 else BOB, str(move + 1))
        last = await store.run(sessions.last_finished("discord", "c1", "alice"))
        assert last is not None and last.moves == MOVES
        kept = await store.run(archive.archived(last.public_id))
        review = review_game(CONNECT_FOUR, MOVES, every_best=True)  # no deadline
        assert kept is not None and review is not None
        assert await store.run(archive.keep_analysis(last.public_id, encode_review(review.moves)))
        found.append(last.public_id)

    async with serving_app(tmp_path, fill) as url:
        yield f"{url}game/{found[0]}"


def expected_words(ply: int) -> str:
    """The status line at ``ply`` as the solver says it, found here independently."""
    if ply == 0:
        return "The start: no move yet."
    p = Position.from_moves(CONNECT_FOUR, MOVES[: ply - 1])
    move = MOVES[ply - 1]
    values = {}
    for m in p.legal_moves():
        child = p.play(m)
        if child.winner is not None:
            values[m] = (CONNECT_FOUR.cells + 1 - len(p.moves)) // 2
        else:
            values[m] = 0 if child.is_draw else -solve(child)
    after, best = values[move], max(values.values())
    result, plies = describe(after, CONNECT_FOUR, ply - 1)
    words = [
        "draw"
        if result is Result.DRAW
        else f"{result.value} in {plies} move{'' if plies == 1 else 's'}"
    ]
    dropped = (best > 0 and after <= 0) or (best == 0 and after < 0)
    optimal = [m for m, v in values.items() if v == best]
    if not dropped and optimal == [move] and len(values) > 1:
        words.append("only move")
    if dropped:
        thrown = "a win thrown to a " if best > 0 else "a draw thrown to a "
        thrown += "draw" if after == 0 else "loss"
        shown = ", ".join(str(m + 1) for m in sorted(optimal))
        words.append(f"mistake: {thrown} (best: {shown})")
    mark = "XO"[(ply - 1) % 2]
    return f"Move {ply}: {mark} {move + 1}: " + ", ".join(words)


async def check(page: Page, ply: int) -> None:
    """The board and the status line show the game after ``ply`` moves, and so does the
    address (the script keeps it, so a reload shows the same)."""
    position = Position.from_moves(CONNECT_FOUR, MOVES[:ply])
    shown = await page.locator("#board td").all_inner_texts()
    expected = [
        " XO"[position.cell(r, c)].strip()
        for r in range(CONNECT_FOUR.rows)
        for c in range(CONNECT_FOUR.cols)
    ]
    assert shown == expected, ply
    assert await page.locator("#status").inner_text() == expected_words(ply)
    assert page.url.endswith(f"?ply={ply}")
    text = await page.locator("#board-text").inner_text()
    for c in range(CONNECT_FOUR.cols):
        stack = [
            "XO"[position.cell(r, c) - 1]
            for r in reversed(range(CONNECT_FOUR.rows))
            if position.cell(r, c)
        ]
        assert (f"column {c + 1}: {', '.join(stack)}" in text) == bool(stack), (ply, text)


async def test_the_game_replayed_by_keys_buttons_and_the_move_list(
    game: str, browser: Browser
) -> None:
    context = await browser.new_context(viewport=DESKTOP)  # type: ignore[arg-type]
    try:
        watched = Watched(await context.new_page())
        page = watched.page
        response = await page.goto(game)
        assert response is not None and response.status == 200
        assert await page.locator("h1").inner_text() == ("Connect Four 6x7: Alice (X) vs Bob (O)")
        # The end, as the server drew it: the winning line marked.
        assert await page.locator("#board td.win").count() == 4
        # The keyboard: Home, then every move forward, End, and back.
        await page.keyboard.press("Home")
        await check(page, 0)
        for ply in range(1, len(MOVES) + 1):
            await page.keyboard.press("ArrowRight")
            await check(page, ply)
        await page.keyboard.press("ArrowRight")  # past the end: stays
        await check(page, len(MOVES))
        assert await page.locator("#board td.win").count() == 4
        for ply in reversed(range(len(MOVES) - 3, len(MOVES))):
            await page.keyboard.press("ArrowLeft")
            await check(page, ply)
        await page.keyboard.press("End")
        await check(page, len(MOVES))
        await _screenshot(page, "desktop-game-end")
        # The buttons: Start, then Forward through the whole game, and Back.
        await page.get_by_role("link", name="Start").click()
        await check(page, 0)
        for ply in range(1, len(MOVES) + 1):
            await page.get_by_role("link", name="Forward").click()
            await check(page, ply)
        await page.get_by_role("link", name="Back").click()
        await check(page, len(MOVES) - 1)
        # The move list.
        await page.locator('#moves a[href="?ply=5"]').click()
        await check(page, 5)
        assert await page.locator("#moves li.current a").get_attribute("href") == "?ply=5"
        await _screenshot(page, "desktop-game-move-5")
        # A reload keeps the move shown (the server draws ?ply=5).
        await page.reload()
        await check(page, 5)
        assert not watched.errors, watched.errors
        assert all(url.startswith("http://127.0.0.1:") for url in watched.requests)
        assert any(url.endswith("/static/game.js") for url in watched.requests)
    finally:
        await context.close()


async def test_the_game_page_at_a_phones_width_and_its_preview(game: str, browser: Browser) -> None:
    context = await browser.new_context(viewport=PHONE)  # type: ignore[arg-type]
    try:
        watched = Watched(await context.new_page())
        page = watched.page
        await page.goto(game + "?ply=8")
        await check(page, 8)
        overflow = await page.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 0, overflow
        await _screenshot(page, "phone-game-move-8")
        image = await page.locator('meta[property="og:image"]').get_attribute("content")
        assert image == game + ".png"
        picture = await context.request.get(image)
        assert picture.status == 200 and picture.headers["content-type"] == "image/png"
        assert not watched.errors, watched.errors
        assert all(url.startswith("http://127.0.0.1:") for url in watched.requests)
    finally:
        await context.close()


async def test_the_replay_speaks_the_pages_language(game: str, browser: Browser) -> None:
    """In Russian, chosen by the footer's link: the script writes the board in words and the
    status line in the page's language, the same words as the server's, and keeps the
    language in the address."""
    context = await browser.new_context(viewport=DESKTOP)  # type: ignore[arg-type]
    try:
        watched = Watched(await context.new_page())
        page = watched.page
        await page.goto(game)
        await page.get_by_role("link", name=render("page.language", "ru")).click()
        await page.wait_for_url("**?lang=ru")
        assert await page.locator("html").get_attribute("lang") == "ru"
        await page.keyboard.press("Home")
        assert await page.locator("#status").inner_text() == render("page.game.start", "ru")
        assert await page.locator("#board-text").inner_text() == render("page.board.empty", "ru")
        for ply in range(1, len(MOVES) + 1):
            await page.keyboard.press("ArrowRight")
            position = Position.from_moves(CONNECT_FOUR, MOVES[:ply])
            text = await page.locator("#board-text").inner_text()
            assert text == board_text(CONNECT_FOUR, position).render("ru"), ply
            move = f"{'XO'[(ply - 1) % 2]} {MOVES[ply - 1] + 1}"
            said = render("page.game.move", "ru", number=ply, move=move)
            # The verdict as the server wrote it in the move list (none while pending).
            verdicts = page.locator("#moves li").nth(ply).locator(".verdict")
            if await verdicts.count():
                said += ": " + await verdicts.inner_text()
            assert await page.locator("#status").inner_text() == said, ply
            assert "lang=ru" in page.url and f"ply={ply}" in page.url
        # The server draws the same at that address.
        await page.reload()
        assert await page.locator("#board-text").inner_text() == text
        assert not watched.errors, watched.errors
    finally:
        await context.close()

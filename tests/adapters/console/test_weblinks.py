"""Links to the web pages in the console: the address under the board and under ``/review``'s
text, where ``PUBLIC_URL`` is set and the chat's ``web_links`` is on."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from core.i18n import render
from core.sessions import GameService, ServiceSettings
from core.store import SqliteStore, sessions
from tests.adapters.console.test_adapter import play

URL = "http://127.0.0.1:8765"
GAME = "/tres @bob\nbob: /accept\n1\nbob: 4\n2\nbob: 5\n3\n/review\n"


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[GameService]:
    store = await SqliteStore.open(tmp_path / "games.sqlite3")
    settings = ServiceSettings(ai_workers=0, ai_warm_up=False, public_url=URL)
    service = GameService(store, settings=settings)
    await service.start()
    yield service
    await service.close()
    await store.close()


async def test_boards_and_review_print_the_pages_addresses(service: GameService) -> None:
    output = await play(service, GAME)
    game = await service.store.run(sessions.last_finished("console", "console", None))
    assert game is not None
    live = f"{render('links.live', 'en')}: {URL}/live/{game.public_id}"
    page = f"{render('links.game', 'en')}: {URL}/game/{game.public_id}"
    assert output.count(live) == 4  # under each board of the running game
    # Under the last board, and under the review.
    assert output.count(page) == 2 and output.index(page) > output.rindex(live)


async def test_web_links_off_prints_no_address(service: GameService) -> None:
    output = await play(service, "/settings web_links off\n" + GAME)
    assert render("game.won", "en", player="ann", mark="X") in output
    assert URL not in output

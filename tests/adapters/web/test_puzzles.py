"""A puzzle's pages through aiohttp's test client on a real SQLite store: the headers, the
board with its text alternative, the solution only behind its link (no script), today's
puzzle, the link preview's tags as Discord's crawler reads them and its picture drawn once,
and the one 404 for anything else."""

from __future__ import annotations

import datetime
import io
from collections.abc import AsyncIterator
from pathlib import Path
from typing import TypeAlias

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer
from PIL import Image

from adapters.web import HEADERS, AddressLimiter, WebPages
from core.pages import Pages
from core.pages import puzzle as puzzle_values
from core.puzzles import lines, shipped
from core.sessions.puzzles.solving import daily
from core.store import SqliteStore, puzzles
from tests.adapters.web.test_game import DISCORD, tags

Client: TypeAlias = TestClient[web.Request, web.Application]
PUZZLE = shipped.connect_four()[0]


@pytest.fixture
async def client(tmp_path: Path) -> AsyncIterator[Client]:
    async with await SqliteStore.open(tmp_path / "games.sqlite3") as store:
        pages = WebPages(Pages(store), AddressLimiter(10_000, 10_000))
        async with TestClient(TestServer(pages.app())) as opened:
            yield opened


async def test_the_puzzle_page_hides_its_solution_until_asked(client: Client) -> None:
    response = await client.get(f"/puzzle/{PUZZLE.id}")
    body = await response.text()
    assert response.status == 200 and response.content_type == "text/html"
    for name, value in HEADERS.items():
        assert response.headers[name] == value
    assert "<script" not in body
    assert body.count('class="mX') + body.count('class="mO') == len(PUZZLE.moves)
    assert 'id="board-text" class="board-text">From the bottom up, column' in body
    assert f'<a href="/puzzle/{PUZZLE.id}?solution=1" rel="nofollow">Show the solution</a>' in body
    solution = f"plays column {PUZZLE.solution + 1}"
    assert solution not in body
    shown = await (await client.get(f"/puzzle/{PUZZLE.id}?solution=1")).text()
    assert f'<p id="solution">{"XO"[PUZZLE.side_to_move - 1]} {solution}' in shown


async def test_the_solution_shows_the_whole_proven_line_with_the_replies(client: Client) -> None:
    line = lines.known(PUZZLE)
    assert line is not None and len(line) == 2 * PUZZLE.depth - 1
    mover, other = "XO"[PUZZLE.side_to_move - 1], "XO"[2 - PUZZLE.side_to_move]
    hidden = await (await client.get(f"/puzzle/{PUZZLE.id}")).text()
    assert 'id="solution-line"' not in hidden
    shown = await (await client.get(f"/puzzle/{PUZZLE.id}?solution=1")).text()
    steps = shown.split('<ol id="solution-line">')[1].split("</ol>")[0]
    expected = [
        f"<li>{mover} plays column {line[0] + 1}, {other} answers column {line[1] + 1}"
        " (the longest defence)</li>",
        f"<li>{mover} plays column {line[2] + 1}, {other} answers column {line[3] + 1}"
        " (the longest defence)</li>",
        f"<li>{mover} plays column {line[4] + 1}: 4 in a row, {mover} wins</li>",
    ]
    assert steps.split() == " ".join(expected).split() and "<script" not in shown


async def test_today_is_the_puzzle_the_chats_give(client: Client) -> None:
    body = await (await client.get("/puzzle/today")).text()
    today = daily(datetime.datetime.now(datetime.UTC).date())
    assert "puzzle of the day</h1>" in body and f"/puzzle/{today.id}?solution=1" in body


async def test_discords_crawler_reads_the_preview_and_fetches_its_picture(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn: list[str] = []
    draw = puzzle_values.puzzle_png

    def counted(*args: object) -> bytes:
        drawn.append("x")
        return draw(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(puzzle_values, "puzzle_png", counted)
    response = await client.get(f"/puzzle/{PUZZLE.id}", headers={"User-Agent": DISCORD})
    meta = tags(await response.text())
    origin = str(client.make_url("/")).rstrip("/")
    assert meta["og:title"].startswith("Connect Four 6x7 puzzle: ")
    assert meta["og:url"] == f"{origin}/puzzle/{PUZZLE.id}"
    assert meta["og:image"] == f"{origin}/puzzle/{PUZZLE.id}.png"
    assert meta["og:image:alt"].startswith("The puzzle's position. From the bottom up")
    image = await client.get(meta["og:image"].removeprefix(origin), headers={"User-Agent": DISCORD})
    assert image.status == 200 and image.content_type == "image/png"
    body = await image.read()
    with Image.open(io.BytesIO(body)) as picture:
        assert picture.format == "PNG" and picture.width >= 200 and picture.height >= 200
        assert len(picture.convert("RGB").getcolors(1 << 16) or ()) > 2
    again = await client.get(f"/puzzle/{PUZZLE.id}.png")
    assert await again.read() == body and drawn == ["x"]  # drawn once, then kept


async def test_unknown_puzzles_are_one_404(client: Client) -> None:
    for path in ("/puzzle/" + "0" * 10, "/puzzle/" + "0" * 10 + ".png", "/puzzle/x", "/puzzle/"):
        response = await client.get(path)
        assert response.status == 404, path
        for name, value in HEADERS.items():
            assert response.headers[name] == value


async def test_an_added_puzzle_has_its_page_and_picture(tmp_path: Path) -> None:
    line = "60e71c3c33,win,6x7/4,3754224275277253246,4,3,1360"  # made by the generator
    async with await SqliteStore.open(tmp_path / "games.sqlite3") as store:
        pages = WebPages(Pages(store), AddressLimiter(10_000, 10_000))
        async with TestClient(TestServer(pages.app())) as opened:
            assert (await opened.get("/puzzle/60e71c3c33")).status == 404
            await store.run(puzzles.add_puzzles([("60e71c3c33", line)], 0.0))
            response = await opened.get("/puzzle/60e71c3c33")
            assert response.status == 200 and "win in 4 moves" in await response.text()
            picture = await opened.get("/puzzle/60e71c3c33.png")
            assert picture.status == 200 and picture.content_type == "image/png"


async def test_the_puzzle_page_speaks_the_readers_language(client: Client) -> None:
    mark, other = "XO"[PUZZLE.side_to_move - 1], "XO"[2 - PUZZLE.side_to_move]
    line = lines.known(PUZZLE)
    assert line is not None
    chosen = await (await client.get(f"/puzzle/{PUZZLE.id}?lang=es")).text()
    assert '<html lang="es">' in chosen
    assert f'<p class="result">Juegan las {mark}: gana en {PUZZLE.depth} jugadas</p>' in chosen
    assert "<h2>Solución</h2>" in chosen and "Tema: Gana en N" in chosen
    # the solution's link keeps the language the reader chose
    assert f'href="/puzzle/{PUZZLE.id}?solution=1&amp;lang=es"' in chosen
    assert "Muestra la solución</a>" in chosen and "Show the solution" not in chosen
    shown = await (await client.get(f"/puzzle/{PUZZLE.id}?solution=1&lang=es")).text()
    assert f"Las {mark} juegan en la columna {PUZZLE.solution + 1}: la única que gana." in shown
    assert (
        f"<li>Las {mark} juegan en la columna {line[0] + 1}, las {other} responden en la columna"
        f" {line[1] + 1} (la defensa más larga)</li>"
    ) in shown
    # Accept-Language alone: the browser's language
    asked = await client.get(f"/puzzle/{PUZZLE.id}", headers={"Accept-Language": "ru, en;q=0.5"})
    body = await asked.text()
    assert '<html lang="ru">' in body and f"Ход {mark}: выигрыш за" in body
    assert "Показать решение" in body
    meta = tags(body)
    assert meta["og:image:alt"].startswith("Позиция задачи. ")

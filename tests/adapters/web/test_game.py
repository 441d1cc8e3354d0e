"""A finished game's pages through aiohttp's test client on a real SQLite store: the replay at
every move without JavaScript (``?ply=N``), the solver's verdicts, the text export, the link
preview's tags as Discord's crawler reads them and its picture, hidden players, escaped
names, the live game sent to its live page, and the one 404 for anything else."""

from __future__ import annotations

import html.parser
import io
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import TypeAlias

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer
from PIL import Image

from adapters.web import HEADERS, AddressLimiter, WebPages
from core.ai.review import GameReview, MoveReview, review_game
from core.games import CONNECT_FOUR, TICTACTOE, Position, Rules
from core.pages import HIDDEN, Pages, game_picture
from core.pages.games import GamePages
from core.store import Seat, SqliteStore, Status, kv, sessions
from tests.core.store.helpers import make_session

Client: TypeAlias = TestClient[web.Request, web.Application]
DISCORD = "Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)"
C4_MOVES = (3, 3, 4, 4, 5, 5, 6)


async def analyse(
    rules: Rules, moves: tuple[int, ...], known: tuple[MoveReview, ...]
) -> GameReview | None:
    return review_game(rules, moves, known=known, every_best=True)


class Tags(html.parser.HTMLParser):
    """The ``<meta>`` tags of a page, by ``property`` or ``name``."""

    def __init__(self) -> None:
        super().__init__()
        self.meta: dict[str, str] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        key = found.get("property") or found.get("name")
        if tag == "meta" and key and found.get("content") is not None:
            self.meta[key] = str(found["content"])


def tags(body: str) -> dict[str, str]:
    parser = Tags()
    parser.feed(body)
    return parser.meta


async def finish(
    store: SqliteStore,
    moves: tuple[int, ...],
    rules: Rules = CONNECT_FOUR,
    *,
    chat: str = "c1",
    names: tuple[str, str] = ("Alice", "Bob"),
) -> str:
    seats = (Seat.person("alice", names[0]), Seat.person("bob", names[1]))
    game = replace(make_session(chat=chat), rules=rules, seats=seats, server_id="s1")
    await store.run(sessions.create(game))
    position = Position.from_moves(rules, moves)
    done = replace(game, moves=moves, version=2, status=Status.FINISHED, outcome=position.outcome)
    assert await store.run(sessions.update(done, expected_version=1))
    return game.public_id


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteStore]:
    async with await SqliteStore.open(tmp_path / "games.sqlite3") as opened:
        yield opened


@pytest.fixture
async def client(store: SqliteStore) -> AsyncIterator[Client]:
    games = GamePages(store, analyse)
    pages = WebPages(Pages(store), AddressLimiter(10_000, 10_000), games=games)
    async with TestClient(TestServer(pages.app())) as opened:
        yield opened


async def test_the_game_page_shows_the_end_with_every_verdict(
    store: SqliteStore, client: Client
) -> None:
    public_id = await finish(store, C4_MOVES)
    response = await client.get(f"/game/{public_id}")
    body = await response.text()
    assert response.status == 200 and len(body.encode()) < 100_000
    for name, value in HEADERS.items():
        assert response.headers[name] == value
    assert '<meta name="robots" content="noindex, nofollow">' in body
    assert "<h1>Connect Four 6x7: <bdi>Alice</bdi> (X) vs <bdi>Bob</bdi> (O)</h1>" in body
    assert "Alice (X) won: 4 in a row." in body
    assert '<script src="/static/game.js" defer></script>' in body and "<script>" not in body
    assert "Move 7: X 7: win in 1 move" in body
    assert "win in 41 moves, only move" in body
    assert "loss in 38 moves, mistake: a win thrown to a loss (best: 4)" in body
    assert 'id="board-text" class="board-text">From the bottom up, column 4: X, O;' in body
    script = await client.get("/static/game.js")
    assert script.status == 200 and script.content_type == "text/javascript"


async def test_every_move_is_a_link_that_works_without_javascript(
    store: SqliteStore, client: Client
) -> None:
    public_id = await finish(store, C4_MOVES)
    for ply in range(len(C4_MOVES) + 1):
        body = await (await client.get(f"/game/{public_id}?ply={ply}")).text()
        assert body.count('class="mX') + body.count('class="mO') == ply
        if ply:
            assert f'<li class="current"><a href="?ply={ply}"' in body
            assert f'<p id="status" class="status" aria-live="polite">Move {ply}:' in body
        else:
            assert "The start: no move yet.</p>" in body
    assert (
        f'href="?ply={max(0, 2)}" data-step="back"'
        in await (await client.get(f"/game/{public_id}?ply=3")).text()
    )
    # Anything that is not a move number shows the end.
    for odd in ("-1", "x", "99999999", "٣"):
        body = await (await client.get(f"/game/{public_id}", params={"ply": odd})).text()
        assert body.count('class="mX') + body.count('class="mO') == len(C4_MOVES)


async def test_discords_crawler_reads_the_preview_and_fetches_its_picture(
    store: SqliteStore, client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn: list[str] = []
    draw = game_picture.game_png

    def counted(*args: object) -> bytes:
        drawn.append("x")
        return draw(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(game_picture, "game_png", counted)
    public_id = await finish(store, C4_MOVES)
    response = await client.get(f"/game/{public_id}", headers={"User-Agent": DISCORD})
    meta = tags(await response.text())
    origin = str(client.make_url("/")).rstrip("/")
    assert meta["og:title"] == "Connect Four 6x7: Alice vs Bob"
    assert meta["og:description"] == "Alice (X) won: 4 in a row. 7 moves, rated."
    assert meta["og:url"] == f"{origin}/game/{public_id}"
    assert meta["og:image"] == f"{origin}/game/{public_id}.png"
    assert meta["twitter:card"] == "summary_large_image"
    assert meta["theme-color"].startswith("#")
    image = await client.get(meta["og:image"].removeprefix(origin), headers={"User-Agent": DISCORD})
    assert image.status == 200 and image.content_type == "image/png"
    body = await image.read()
    with Image.open(io.BytesIO(body)) as picture:
        assert picture.format == "PNG" and picture.width >= 200 and picture.height >= 200
        assert len(picture.convert("RGB").getcolors(1 << 16) or ()) > 2
    again = await client.get(f"/game/{public_id}.png")
    assert await again.read() == body and drawn == ["x"]  # drawn once, then kept
    assert again.headers["Cache-Control"] == "public, max-age=3600"
    # Kept by the seats as shown: a player who hides is drawn anonymous at once.
    await store.run(kv.kv_set(HIDDEN, "test:bob", "1"))
    hidden = await client.get(f"/game/{public_id}.png")
    assert await hidden.read() != body and drawn == ["x", "x"]


async def test_the_text_export(store: SqliteStore, client: Client) -> None:
    public_id = await finish(store, (0, 3, 1, 4, 2), TICTACTOE)
    response = await client.get(f"/game/{public_id}.txt")
    assert response.status == 200 and response.content_type == "text/plain"
    assert response.charset == "utf-8"
    text = await response.text()
    assert text.startswith('[Game "Tic-tac-toe"]\n')
    assert '[Result "1-0"]' in text and '[Clock "none"]' in text
    moves = " ".join(text.split("\n\n", 1)[1].split())
    assert moves.startswith("1. a1 {") and moves.endswith(" 3. c1 {win in 1 move, only move} 1-0")


async def test_a_hidden_player_is_anonymous_everywhere(store: SqliteStore, client: Client) -> None:
    public_id = await finish(store, C4_MOVES)
    await store.run(kv.kv_set(HIDDEN, "test:bob", "1"))
    body = await (await client.get(f"/game/{public_id}")).text()
    assert "Bob" not in body and "test%3Abob" not in body
    assert tags(body)["og:title"] == "Connect Four 6x7: Alice vs anonymous"
    assert '[O "anonymous"]' in await (await client.get(f"/game/{public_id}.txt")).text()


async def test_names_are_escaped_and_cleaned(store: SqliteStore, client: Client) -> None:
    hostile = "<script>alert('x')</script>\"q\u202e" + "L" * 10_000
    public_id = await finish(store, C4_MOVES, names=(hostile, "ze\u200bro"))
    page = await (await client.get(f"/game/{public_id}")).text()
    assert "<script>alert" not in page and "&lt;script&gt;alert(&#39;x&#39;)" in page
    # Plain text, never sniffed as HTML (nosniff): the name as it is, cleaned and cut.
    text = await (await client.get(f"/game/{public_id}.txt")).text()
    assert "[X \"<script>alert('x')</script>\\\"q" in text
    for body in (page, text):
        assert "\u202e" not in body and "\u200b" not in body
        assert "L" * 40 not in body and "zero" in body


async def test_a_running_game_is_sent_to_its_live_page_and_the_rest_is_one_404(
    store: SqliteStore, client: Client
) -> None:
    running = make_session(chat="c9")
    await store.run(sessions.create(running))
    response = await client.get(f"/game/{running.public_id}", allow_redirects=False)
    assert response.status == 303
    assert response.headers["Location"] == f"/live/{running.public_id}"
    plain = await (await client.get("/nothing")).text()
    for path in (
        f"/game/{'0' * 32}",
        f"/game/{'0' * 32}.txt",
        f"/game/{'0' * 32}.png",
        f"/game/{running.id}",
        f"/game/{running.public_id.upper()}",
        f"/game/{running.public_id}x",
        f"/game/{running.public_id}.txt",
        "/game/",
    ):
        response = await client.get(path, allow_redirects=False)
        assert response.status == 404, path
        assert await response.text() == plain


async def test_the_longest_game_on_the_biggest_board_weighs_under_100_kb(
    store: SqliteStore, client: Client
) -> None:
    import random

    rules = Rules(25, 25, 25)  # a line of 25 is rare: the whole board is played
    cells = list(range(rules.cells))
    random.Random(5).shuffle(cells)
    moves: list[int] = []
    position = Position.start(rules)
    for cell in cells:
        if position.is_over:
            break
        position = position.play(cell)
        moves.append(cell)
    assert len(moves) > 600
    public_id = await finish(store, tuple(moves), rules)
    for path in (f"/game/{public_id}", f"/game/{public_id}?ply=300"):
        response = await client.get(path)
        body = await response.read()
        assert response.status == 200 and len(body) < 100_000, len(body)
    assert "No solver settles this board" in body.decode()


async def test_other_boards_show_what_threats_prove(store: SqliteStore, client: Client) -> None:
    # 4 in a row on 7x7: X's third stone in the row leaves two ends open.
    public_id = await finish(store, (23, 0, 24, 6, 25, 22, 26), Rules(7, 7, 4))
    body = await (await client.get(f"/game/{public_id}?ply=5")).text()
    assert "No solver settles this board" in body
    assert (
        '<p id="status" class="status" aria-live="polite">Move 5: X e4:'
        " win in 3 moves (two threats: one can be blocked)</p>"
    ) in body
    assert "loss in 2 moves (the opponent completes a line)" in body  # O's block at b4
    assert "Move 7: X f4: win in 1 move" not in body  # not the move shown
    text = await (await client.get(f"/game/{public_id}.txt")).text()
    assert "4. f4 {win in 1 move} 1-0" in " ".join(text.split())

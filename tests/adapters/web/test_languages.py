"""Every page in every language of the catalogues, through aiohttp's test client on real
SQLite stores: chosen by ``Accept-Language`` or by the footer's ``?lang=`` links, said in
``<html lang>``, every text drawn from the catalogues (no key left unrendered), a chosen
language carried by the pages' own links, and each language of a live game drawn apart."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from markupsafe import escape

from adapters.web import AddressLimiter, WebPages
from adapters.web.language import Language, best_accepted, choose
from core.i18n import LOCALES, render
from core.pages import HIDDEN, Pages
from core.pages.games import GamePages
from core.store import SqliteStore, kv
from tests.adapters.web.test_game import C4_MOVES, analyse, finish
from tests.adapters.web.test_live import open_site
from tests.adapters.web.test_server import Client, client, filled
from tests.core.pages.test_live import ALICE, BOB, challenge

__all__ = ["client", "filled"]  # the fixtures, used by name

PAGES = (
    "/",
    "/ladder/tres",
    "/ladder/connect4",
    "/ladder/tres/discord/g1",
    "/player/discord%3Aalice",
    "/nothing",
)
KEY = re.compile(r"\bpage\.[a-z_0-9]+\.[a-z_0-9.]+")
"""A catalogue key of the pages, which a text missing from the catalogues would show."""


def said(key: str, locale: str, **params: str | int) -> str:
    """A catalogue text as the page's HTML holds it (escaped as Jinja2 escapes)."""
    return str(escape(render(key, locale, **params)))


def assert_spoken(body: str, locale: str) -> None:
    assert f'<html lang="{locale}">' in body
    assert len(body.encode()) < 100_000  # Cyrillic takes two bytes a letter: still light
    assert not KEY.search(body), KEY.search(body)
    current = f'<a href="?lang={locale}" hreflang="{locale}" lang="{locale}" aria-current="true">'
    assert current in body and body.count('aria-current="true"') == 1
    for other in LOCALES:  # every language is offered, by its own name
        assert f">{said('page.language', other)}</a>" in body


def test_the_browsers_preferred_language_that_the_catalogues_have_is_chosen() -> None:
    assert best_accepted("ru-RU,ru;q=0.9,en-US;q=0.8,en;q=0.7") == "ru"
    assert best_accepted("fr-CH, fr;q=0.9, es;q=0.8, *;q=0.5") == "es"
    assert best_accepted("pt-BR") == "pt" and best_accepted("ca_ES") == "ca"
    assert best_accepted("en;q=0.2, ca;q=0.9") == "ca"
    assert best_accepted("es;q=0, ru;q=0.1") == "ru"  # q=0: not wanted at all
    for unknown in (None, "", "de", "*", "ru;q=bad;;", ",,,;"):
        assert best_accepted(unknown) in {"en", "ru"}
    assert best_accepted("de, *") == "en"
    assert choose("ca", "ru") == Language("ca", chosen=True)
    assert choose("fr", "ru") == Language("ru") and choose(None, None) == Language("en")
    assert Language("ru", chosen=True).link("/ladder/tres") == "/ladder/tres?lang=ru"
    assert Language("ru", chosen=True).link("?ply=3") == "?ply=3&lang=ru"
    assert Language("ru").link("/ladder/tres") == "/ladder/tres"


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("path", PAGES)
async def test_each_page_speaks_each_language(client: Client, path: str, locale: str) -> None:
    by_link = await client.get(f"{path}?lang={locale}", headers={"Accept-Language": "de"})
    body = await by_link.text()
    assert by_link.status == (404 if path == "/nothing" else 200), body
    assert_spoken(body, locale)
    assert "Accept-Language" in by_link.headers.getall("Vary")
    title = said("page.home.title", locale)
    assert f'<nav aria-label="{title}">' in body
    by_header = await client.get(path, headers={"Accept-Language": f"{locale}-XX, de;q=0.5"})
    assert_spoken(await by_header.text(), locale)
    if path == "/":
        assert said("page.home.intro", locale) in body
        assert said("page.ladder.player", locale) in body
    if path == "/player/discord%3Aalice":
        assert said("page.player.recent", locale) in body
        assert said("page.recent.won", locale) in body


async def test_a_chosen_language_is_carried_by_the_pages_links(client: Client) -> None:
    chosen = await (await client.get("/?lang=ru", headers={"Accept-Language": "en"})).text()
    assert 'href="/ladder/tres?lang=ru"' in chosen and 'href="/?lang=ru"' in chosen
    assert re.search(r'href="/player/discord%3A[a-z]+\?lang=ru"', chosen)
    # A language the browser asks for needs no parameter: the links stay plain.
    asked = await (await client.get("/", headers={"Accept-Language": "ru"})).text()
    assert '<html lang="ru">' in asked and "lang=ru" not in asked.replace('href="?lang=ru"', "")
    # A language the catalogues do not have is the browser's choice.
    other = await (await client.get("/?lang=xx", headers={"Accept-Language": "es"})).text()
    assert '<html lang="es">' in other


@pytest.fixture
async def games_client(tmp_path: Path) -> AsyncIterator[tuple[SqliteStore, Client]]:
    from aiohttp.test_utils import TestClient, TestServer

    async with await SqliteStore.open(tmp_path / "games.sqlite3") as store:
        games = GamePages(store, analyse)
        pages = WebPages(Pages(store), AddressLimiter(10_000, 10_000), games=games)
        async with TestClient(TestServer(pages.app())) as opened:
            yield store, opened


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_game_page_in_each_language(
    games_client: tuple[SqliteStore, Client], locale: str
) -> None:
    store, client = games_client
    public_id = await finish(store, C4_MOVES)
    body = await (await client.get(f"/game/{public_id}?lang={locale}&ply=3")).text()
    assert_spoken(body, locale)
    result = said("page.result.win", locale, winner="Alice (X)", k=4, loser="Bob")
    assert f'<p class="result">{result}</p>' in body
    verdict = said("page.verdict.win", locale, moves=1)  # the last move wins at once
    assert f">{verdict}</span>" in body
    mistake = said("page.verdict.win_to_loss", locale)
    assert mistake in body
    move = said("page.game.move", locale, number=3, move="X 5")
    assert f'aria-live="polite">{move}' in body
    # The replay's script finds its words in the page (the board in words, the moves).
    for name, key, params in (
        ("data-move", "page.game.move", {"number": "{number}", "move": "{move}"}),
        ("data-column", "page.board.column", {"column": "{column}", "marks": "{marks}"}),
        ("data-empty", "page.board.empty", {}),
    ):
        assert f'{name}="{escape(render(key, locale, **params))}"' in body
    columns = "; ".join(
        render("page.board.column", locale, column=column, marks=marks)
        for column, marks in ((4, "X, O"), (5, "X"))
    )
    words = said("page.board.gravity", locale, columns=columns)
    assert f'class="board-text">{words}</p>' in body
    assert f'href="?ply=2&amp;lang={locale}"' in body  # "Back", in the chosen language
    # The text export is a notation: English whatever the reader's language.
    text = await (await client.get(f"/game/{public_id}.txt?lang={locale}")).text()
    assert '[Ending "Alice (X) won: 4 in a row."]' in text


async def test_a_live_game_is_drawn_in_each_readers_language(tmp_path: Path) -> None:
    async for site in open_site(tmp_path / "games.sqlite3"):
        game = await challenge(site.svc, ALICE, BOB)
        await site.svc.handle_text(ALICE, "4")
        path = f"/live/{game.public_id}"
        # One version of the game, drawn for a Russian reader first, then for others: each
        # reads their own language, none the one drawn before.
        for locale in ("ru", "en", "ca", "ru"):
            body = await (await site.client.get(path, headers={"Accept-Language": locale})).text()
            assert_spoken(body, locale)
            status = said("game.turn", locale, player="Bobevil", mark="O")
            assert f"<strong>{status}</strong>" in body
            assert said("page.live.reload", locale) in body
            assert said("page.board.column", locale, column=4, marks="X") in body


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_hidden_player_is_anonymous_in_each_language(
    games_client: tuple[SqliteStore, Client], locale: str
) -> None:
    store, client = games_client
    public_id = await finish(store, (3, 4, 3, 4, 3, 4, 0, 4))  # O, hidden, wins
    await store.run(kv.kv_set(HIDDEN, "test:bob", "1"))
    body = await (await client.get(f"/game/{public_id}?lang={locale}")).text()
    anonymous = said("page.anonymous", locale)
    result = said("page.result.win", locale, winner=f"{anonymous} (O)", k=4)
    assert "Bob" not in body and f'<p class="result">{result}</p>' in body
    assert f"<bdi>{anonymous}</bdi> (O)" in body  # the heading
    # The export is English whatever the reader's language.
    text = await (await client.get(f"/game/{public_id}.txt?lang={locale}")).text()
    assert '[O "anonymous"]' in text and "anonymous (O) won" in text

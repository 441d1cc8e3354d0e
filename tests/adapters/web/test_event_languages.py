"""A tournament's page and the home page's list of tournaments in every language of the
catalogues, through aiohttp's test client on a real SQLite store: chosen by ``?lang=`` or by
``Accept-Language``, said in ``<html lang>``, every text drawn from the catalogues (no key left
unrendered, no English left in another language), a hidden player anonymous in the reader's
language, and a chosen language carried by the page's links."""

from __future__ import annotations

import pytest
from markupsafe import escape

from core.games import TICTACTOE
from core.i18n import LOCALES, Param, Text, render
from core.pages import HIDDEN
from core.pages.game import game_name, utc_minute
from core.render import clock_words
from core.store import SettingRow, SqliteStore, kv, settings
from core.store.sql import Op, count
from tests.adapters.web.test_events import Client, client, store, ticks
from tests.adapters.web.test_game import tags
from tests.adapters.web.test_languages import assert_spoken
from tests.core.pages.events import swiss_event

__all__ = ["client", "store", "ticks"]  # the fixtures, used by name

TITLE = Text("page.event.title.swiss", {"game": game_name(TICTACTOE)})
STATUS = Text("page.event.status.round_of", {"round": 2, "rounds": 3})
ENGLISH = ("Standings", "Round 1", "bye", "Points", "Swiss", "per move", "Running")
"""Words of the English page that no other language's page holds."""


def said(key: str, locale: str, **params: Param) -> str:
    """A catalogue text as the page's HTML holds it (escaped as Jinja2 escapes)."""
    return str(escape(render(key, locale, **params)))


def ann_berserk() -> Op[None]:  # round 1's X, as the game's end writes it
    yield count("UPDATE event_games SET berserk = 1 WHERE session_id = 'r1'")


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_event_page_in_each_language(
    store: SqliteStore, client: Client, locale: str
) -> None:
    stored = await swiss_event(store)
    await store.run(kv.kv_set(HIDDEN, "test:cat", "1"))
    await store.run(ann_berserk())
    path = f"/event/{stored.event.public_id}"
    body = await (
        await client.get(f"{path}?lang={locale}", headers={"Accept-Language": "de"})
    ).text()
    assert_spoken(body, locale)
    assert f"<h1>{TITLE.render(locale)}</h1>" in body
    assert f'<p class="result">{escape(STATUS.render(locale))}</p>' in body
    clock = Text("page.game.clock", {"clock": clock_words(60.0)})
    facts = (
        said(
            "page.event.format_line",
            locale,
            format=Text("page.event.format.swiss"),
            span=Text("event.rounds", {"n": 3}),
        ),
        said("page.event.game_line", locale, game=game_name(TICTACTOE), clock=clock),
        said("page.event.rated", locale),
        said("page.event.starts", locale, time=utc_minute(stored.event.starts_at)),
    )
    assert '<ul class="facts">\n' + "".join(f"<li>{f}</li>\n" for f in facts) + "</ul>" in body
    assert f">{said('page.event.standings', locale)}</h2>" in body
    bh, sb = (
        f'<abbr title="{said(f"page.event.tiebreak.{k}_full", locale)}">'
        f"{said(f'page.event.tiebreak.{k}', locale)}</abbr>"
        for k in ("bh", "sb")
    )
    assert bh in body and sb in body
    # The links carry the chosen language: the player's page, the game's and the live one.
    ann = f'<a href="/player/test%3Aann?lang={locale}"><bdi>Ann</bdi></a>'
    assert ann in body
    score = said("page.event.score", locale, x="1", o="0")
    assert f'<a href="/game/{stored.finished}?lang={locale}">{score}</a>' in body
    playing = said("page.event.playing", locale)
    assert f'<a href="/live/{stored.live}?lang={locale}">{playing}</a>' in body
    # cat hid himself: anonymous, in the reader's language, in the table and his bye.
    anonymous = said("page.anonymous", locale)
    assert f"<i><bdi>{anonymous}</bdi></i>" in body
    bye = render("page.event.bye", locale, name=f"<bdi>{anonymous}</bdi>")
    assert f"<li>{bye}</li>" in body and "<bdi>Cat</bdi>" not in body
    assert f"<h2>{said('page.event.round', locale, number=1)}</h2>" in body
    assert f'<abbr title="{said("page.event.berserk", locale)}">⚡</abbr>' in body
    meta = tags(body)
    assert meta["og:title"] == TITLE.render(locale)
    summary = render(
        "page.event.summary_first", locale, status=STATUS, players=3, first="Ann", points="1"
    )
    assert meta["og:description"] == summary
    assert meta["og:image:alt"] == render("page.event.image_alt", locale)
    if locale != "en":
        for word in ENGLISH:
            assert word not in body, word
    # The browser's language, asked for by its header: said, and the links stay plain.
    asked = await (await client.get(path, headers={"Accept-Language": f"{locale}-XX"})).text()
    assert_spoken(asked, locale)
    assert f"<h1>{TITLE.render(locale)}</h1>" in asked
    assert '<a href="/player/test%3Aann"><bdi>Ann</bdi></a>' in asked


async def test_the_home_pages_tournaments_in_each_language(
    store: SqliteStore, client: Client
) -> None:
    stored = await swiss_event(store)
    public = SettingRow("test", "chat:c1", "public_ladder", "on", 0.0, "admin")
    await store.run(settings.setting_put(public))
    path = f"/event/{stored.event.public_id}"
    # One listing, kept between requests, read by each reader in their own language.
    for locale in (*LOCALES, "ru"):
        body = await (await client.get(f"/?lang={locale}")).text()
        assert_spoken(body, locale)
        assert f"<h2>{said('page.home.events', locale)}</h2>" in body
        title, status = TITLE.render(locale), escape(STATUS.render(locale))
        assert f'<li><a href="{path}?lang={locale}">{title}</a>, {status}</li>' in body
        header = await (await client.get("/", headers={"Accept-Language": locale})).text()
        assert f'<li><a href="{path}">{title}</a>, {status}</li>' in header

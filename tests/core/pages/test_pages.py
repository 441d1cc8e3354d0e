"""The pages' values from a real store on both kinds, filled by rated games played through the
service: the ladders (the players ``/top all`` lists), a player's ratings, record, chart and
recent games, and None for what does not exist."""

from __future__ import annotations

from dataclasses import replace

import pytest

from core.pages import Pages, chart, shown_name
from core.pages.reads import pool_title
from core.replies import Actor, Reply
from core.store import SettingRow, settings
from tests.backends import AnyStore
from tests.core.pages.games import DAY, rated_game
from tests.core.test_sessions import Clock, service, store

__all__ = ["store"]  # the fixture, on both stores

ALICE = Actor("discord", "c1", "alice", "Alice", server_id="g1")
BOB = Actor("discord", "c1", "bob", "Bob\u202eevil", server_id="g1")


async def _season(store: AnyStore, clock: Clock) -> None:
    """Alice and Bob play ten rated games a day apart: Alice wins 7, Bob 2, one draw."""
    svc = service(store, clock)
    for result in ("x",) * 7 + ("o", "o", "draw"):
        await rated_game(svc, ALICE, BOB, result)
        clock.advance(DAY)


async def test_the_ladder_lists_the_players_top_all_lists(store: AnyStore) -> None:
    clock = Clock()
    await _season(store, clock)
    svc = service(store, clock)
    pages = Pages(store, clock)
    ladder = await pages.ladder("TicTacToe")
    assert ladder is not None and ladder.game == "tres"
    assert ladder.title.render("en") == "Tic-tac-toe"
    assert [(e.rank, e.name, e.platform) for e in ladder.entries] == [
        (1, "Alice", "discord"),
        (2, "Bobevil", "discord"),  # the override taken out
    ]
    assert ladder.entries[0].path == "/player/discord%3Aalice"
    top: list[Reply] = await svc.handle_text(ALICE, "/top all tres")
    assert top[0].text is not None
    shown = top[0].text.render("en")
    assert shown.index("Alice") < shown.index("Bob")
    assert ladder.entries[0].rating in shown and ladder.entries[1].rating in shown
    home = await pages.home()
    assert [page.game for page in home.ladders] == ["tres", "quatre"]
    assert home.ladders[0].entries == ladder.entries and home.ladders[1].entries == ()


@pytest.mark.parametrize("word", ["all", "server", "chat", "ratlla", "", "quatre quatre"])
async def test_a_game_top_does_not_take_has_no_ladder(store: AnyStore, word: str) -> None:
    assert await Pages(store).ladder(word) is None


async def test_a_players_page_has_ratings_record_chart_and_recent_games(store: AnyStore) -> None:
    clock = Clock()
    await _season(store, clock)
    page = await Pages(store, clock).player("discord:alice")
    assert page is not None and (page.name, page.platform) == ("Alice", "discord")
    [pool] = page.pools
    assert pool.title.render("en") == "Tic-tac-toe"
    assert (pool.games, pool.won, pool.lost, pool.drawn) == (10, 7, 2, 1)
    assert pool.chart is not None and pool.chart.count == 11  # the start and each game
    assert len(page.recent) == 10 and page.recent[0].result == "drew"
    assert [g.result for g in page.recent[1:3]] == ["lost", "lost"]
    assert page.recent[-1].before == 1500 and page.recent[-1].change.startswith("+")
    bob = await Pages(store, clock).player("discord:bob")
    assert bob is not None and (bob.pools[0].won, bob.pools[0].lost) == (2, 7)


async def test_nobody_and_an_unrated_player_have_no_page(store: AnyStore) -> None:
    clock = Clock()
    await _season(store, clock)
    pages = Pages(store, clock)
    for who in ("discord:nobody", "discord:alic", "alice", "", "discord:alice%"):
        assert await pages.player(who) is None


def test_names_lose_what_changes_the_line_and_are_cut() -> None:
    assert shown_name("a\u202eb\u200bc\u200dd\u2066e\n f") == "abcde f"
    assert shown_name("\u200b\u202e ") == "?"
    long = shown_name("x" * 10_000)
    assert len(long) == 32 and long.endswith("…")
    assert shown_name("<script>alert('x')</script>") == "<script>alert('x')</script>"  # HTML's job


def test_a_chart_spans_its_box_and_needs_two_points() -> None:
    assert chart([1500]) is None
    drawn = chart([1500, 1600, 1400])
    assert drawn is not None and (drawn.low, drawn.high, drawn.count) == (1400, 1600, 3)
    points = [tuple(map(float, p.split(","))) for p in drawn.points.split()]
    assert points[0][0] < points[1][0] < points[2][0]
    assert points[1][1] == 10.0 and points[2][1] == 190.0  # highest at the top
    flat = chart([1500, 1500])
    assert flat is not None and flat.points == "10.0,100.0 590.0,100.0"


def test_pool_titles() -> None:
    # /stats' names of the pools, in English, with a capital to head a section.
    assert pool_title("tictactoe").render("en") == "Tic-tac-toe"
    assert pool_title("connect4").render("en") == "Connect Four 6x7"
    assert pool_title("free-4x5-k4").render("en") == "4 in a row on 4x5"
    assert pool_title("free-big-k5").render("en") == "5 in a row on big boards"
    assert pool_title("gravity").render("en") == "Connect Four, other sizes"


async def test_a_player_who_hides_is_anonymous_on_ladders_and_has_no_page(store: AnyStore) -> None:
    clock = Clock()
    await _season(store, clock)
    svc = service(store, clock)
    pages = Pages(store, clock)
    [hidden] = await svc.handle_text(ALICE, "/hide")
    assert hidden.private and hidden.text is not None and hidden.text.key == "ratings.hidden"
    assert "/hide off" in hidden.text.render("en")
    ladder = await pages.ladder("tres")
    assert ladder is not None
    first, second = ladder.entries
    assert (first.rank, first.name, first.platform, first.path) == (1, "anonymous", "", None)
    assert first.rating and second.name == "Bobevil"  # the others as before
    assert await pages.player("discord:alice") is None
    [shown] = await svc.handle_text(ALICE, "/hide OFF")
    assert shown.private and shown.text is not None and shown.text.key == "ratings.unhidden"
    assert await pages.player("discord:alice") is not None
    ladder = await pages.ladder("tres")
    assert ladder is not None and ladder.entries[0].name == "Alice"


async def test_hide_takes_on_or_off_alone(store: AnyStore) -> None:
    svc = service(store)
    for typed in ("/hide maybe", "/hide on off"):
        [refused] = await svc.handle_text(ALICE, typed)
        assert refused.error and refused.text is not None
        assert refused.text.key == "parse.bad_option", typed


async def test_a_servers_ladder_has_a_page_only_while_its_admins_want_one(store: AnyStore) -> None:
    clock = Clock()
    await _season(store, clock)
    svc = service(store, clock)
    pages = Pages(store, clock)
    assert await pages.local_ladder("tres", "discord", "g1") is None  # off by default
    admin = Actor("discord", "c1", "alice", "Alice", server_id="g1", is_admin=True)
    await svc.handle_text(admin, "/settings public_ladder on")
    ladder = await pages.local_ladder("tres", "discord", "g1")
    assert ladder is not None and ladder.where == "server"
    assert [e.name for e in ladder.entries] == ["Alice", "Bobevil"]
    top = await svc.handle_text(ALICE, "/top server tres")
    assert top[0].text is not None and "Alice" in top[0].text.render("en")
    # Another server, another game word, a server set on a channel only: nothing.
    assert await pages.local_ladder("tres", "discord", "g2") is None
    assert await pages.local_ladder("all", "discord", "g1") is None
    assert await pages.local_ladder("tres", "matrix", "g1") is None
    await svc.handle_text(admin, "/settings public_ladder off")
    assert await pages.local_ladder("tres", "discord", "g1") is None


async def test_a_matrix_rooms_ladder_has_a_page_while_its_admins_want_one(store: AnyStore) -> None:
    clock = Clock()
    svc = service(store, clock)
    mia = Actor("matrix", "!room:x", "@mia:x", "Mia")
    max_ = Actor("matrix", "!room:x", "@max:x", "Max")
    for n in range(10):
        await rated_game(svc, mia, max_, "x" if n % 4 else "draw")
        clock.advance(DAY)
    pages = Pages(store, clock)
    assert await pages.local_ladder("tres", "matrix", "!room:x") is None
    await svc.handle_text(replace(mia, is_admin=True), "!settings public_ladder on")
    ladder = await pages.local_ladder("tictactoe", "matrix", "!room:x")
    assert ladder is not None and ladder.where == "room"
    assert [(e.name, e.platform) for e in ladder.entries] == [("Mia", "matrix"), ("Max", "matrix")]
    assert ladder.entries[0].path == "/player/matrix%3A%40mia%3Ax"
    assert await pages.local_ladder("tres", "matrix", "!other:x") is None


async def test_recent_games_link_their_pages_where_they_may_be_listed(store: AnyStore) -> None:
    from core.pages.games import GamePages
    from core.store.models.archive import ArchivedGame

    clock = Clock()
    # The server's admins made its play public, so its games are listed (before that, or in a
    # server whose admins did not, a game is reached only by its address).
    public = SettingRow("discord", "server:g1", "public_ladder", "on", clock.now, "alice")
    await store.run(settings.setting_put(public))
    await _season(store, clock)
    svc = service(store, clock)
    carol = Actor("discord", "dm", "carol", "Carol")  # a chat without a server: never listed
    alice_here = replace(ALICE, chat_id="dm", server_id=None)
    await rated_game(svc, alice_here, carol, "x")
    page = await Pages(store, clock).player("discord:alice")
    assert page is not None
    assert page.recent[0].path is None  # the game with Carol
    paths = [g.path for g in page.recent[1:]]
    assert all(path is not None and path.startswith("/game/") for path in paths)
    assert len(set(paths)) == len(paths)
    # Each link leads to that game: the newest listed one is the draw.
    assert paths[0] is not None
    game = await GamePages(store).archived(paths[0].removeprefix("/game/"))
    assert isinstance(game, ArchivedGame) and game.outcome.winner is None
    assert [s.identity for s in game.seats] == ["discord:alice", "discord:bob"]

"""Links from the chat to the web pages (``Reply.links``), on both stores, through the service
as adapters call it: a board links its game's page once over and its live page while it runs,
``/review`` the game, ``/stats`` the player and their last games in this chat, ``/top`` the
ladder; nothing without ``PUBLIC_URL`` or where a chat turned ``web_links`` off."""

from __future__ import annotations

import random
from dataclasses import replace

from core.i18n import Text
from core.pages import Pages
from core.pages.addresses import Addresses
from core.pages.paths import game_path, ladder_path, live_path, player_path
from core.replies import Actor, Reply, WebLink
from core.sessions import GameService, ServiceSettings
from core.store import SettingRow, sessions, settings
from core.store.archive import archived
from tests.backends import AnyStore
from tests.core.pages.games import DAY, rated_game
from tests.core.test_sessions import Clock, store

__all__ = ["store"]  # the fixture, on both stores

URL = "https://games.example.org/bot"
AT = Addresses(URL)
ALICE = Actor("discord", "c1", "alice", "Alice", server_id="g1")
BOB = Actor("discord", "c1", "bob", "Bob", server_id="g1")
ADMIN = replace(ALICE, is_admin=True)


def linked(store: AnyStore, clock: Clock, public_url: str | None = URL) -> GameService:
    settings = ServiceSettings(ai_workers=0, ai_budget=0.05, public_url=public_url)
    return GameService(store, settings=settings, clock=clock, rng=random.Random(3))


def urls(replies: list[Reply]) -> list[str]:
    return [link.url for reply in replies for link in reply.links]


async def last_public_id(store: AnyStore, chat: str = "c1") -> str:
    game = await store.run(sessions.last_finished("discord", chat, None))
    assert game is not None
    return game.public_id


async def every_reply(svc: GameService) -> list[Reply]:
    """A game between Alice and Bob move by move, then ``/review``, ``/stats`` and ``/top``:
    every reply that could link a page."""
    await svc.handle_text(ALICE, "/tres @bob first")
    replies = await svc.handle_text(BOB, "/accept")
    for n, cell in enumerate(("1", "4", "2", "5", "3")):
        replies += await svc.handle_text(ALICE if n % 2 == 0 else BOB, cell)
    replies += await svc.handle_text(BOB, "/review")
    replies += await svc.handle_text(BOB, "/stats @alice")
    replies += await svc.handle_text(ALICE, "/top all tres")
    assert len(replies) >= 9 and replies[-1].text is not None
    return replies


def test_the_addresses_are_the_pages_paths_under_public_url() -> None:
    public_id = "0123456789abcdef0123456789abcdef"
    assert AT.game(public_id) == f"{URL}/game/{public_id}" == URL + game_path(public_id)
    assert AT.live(public_id) == f"{URL}/live/{public_id}" == URL + live_path(public_id)
    assert AT.ladder("tres") == f"{URL}/ladder/tres" == URL + ladder_path("tres")
    assert AT.player("matrix:@a:b.org") == f"{URL}/player/matrix%3A%40a%3Ab.org"
    assert player_path("discord:alice") == "/player/discord%3Aalice"
    assert Addresses(URL + "/").game("x") == f"{URL}/game/x"  # one slash between


async def test_boards_review_stats_and_top_link_the_pages(store: AnyStore) -> None:
    clock = Clock()
    svc = linked(store, clock)
    for result in ("x",) * 9:
        await rated_game(svc, ALICE, BOB, result)
        clock.advance(DAY)
    # The tenth game, move by move: the board links its live page while it runs.
    await svc.handle_text(ALICE, "/tres @bob first")
    [accepted] = await svc.handle_text(BOB, "/accept")
    assert accepted.board is not None and accepted.links == ()  # no stone yet: nothing to watch
    [moved] = await svc.handle_text(ALICE, "1")
    assert moved.board is not None and moved.board.public_id is not None
    assert moved.links == (WebLink(Text("links.live"), AT.live(moved.board.public_id)),)
    for n, cell in enumerate(("4", "2", "5")):
        await svc.handle_text(BOB if n % 2 == 0 else ALICE, cell)
    end = await svc.handle_text(ALICE, "3")
    public_id = await last_public_id(store)
    assert moved.board.public_id == public_id
    assert [(r.board is not None, urls([r])) for r in end] == [(True, [AT.game(public_id)])]
    assert end[0].links[0].label == Text("links.game")
    assert await store.run(archived(public_id)) is not None  # the page it links is there

    review = await svc.handle_text(BOB, "/review")
    assert urls(review) == [AT.game(public_id)]

    stats = await svc.handle_text(BOB, "/stats @alice")
    shown = urls(stats)
    assert shown[0] == AT.player("discord:alice") and shown[1] == AT.game(public_id)
    assert len(shown) == 4 and len(set(shown)) == 4  # the page and the last three games
    assert [link.label for link in stats[-1].links][:2] == [
        Text("links.player", {"player": "Alice"}),
        Text("links.recent", {"index": 1}),
    ]

    top = await svc.handle_text(ALICE, "/top all tres")
    assert urls(top) == [AT.ladder("tres")]


async def test_stats_links_only_games_of_the_chat_it_is_asked_in(store: AnyStore) -> None:
    clock = Clock()
    svc = linked(store, clock)
    direct = replace(ALICE, chat_id="dm-alice", server_id=None, direct=True)
    await svc.handle_text(direct, "/tres easy")
    for cell in "123456789":
        await svc.handle_text(direct, cell)  # some are taken by the bot: answered, ignored
    dm_game = await last_public_id(store, "dm-alice")
    here = await svc.handle_text(ALICE, "/stats")
    assert AT.game(dm_game) not in urls(here)
    there = await svc.handle_text(direct, "/stats")
    assert AT.game(dm_game) in urls(there)  # its player sees it where it was played


async def test_a_hidden_player_has_no_page_to_link(store: AnyStore) -> None:
    clock = Clock()
    svc = linked(store, clock)
    await rated_game(svc, ALICE, BOB, "x")
    assert urls(await svc.handle_text(ALICE, "/stats"))[0] == AT.player("discord:alice")
    await svc.handle_text(ALICE, "/hide")
    shown = urls(await svc.handle_text(ALICE, "/stats"))
    assert shown == [AT.game(await last_public_id(store))]  # the game stays: unguessable


async def test_web_links_off_removes_every_link(store: AnyStore) -> None:
    clock = Clock()
    svc = linked(store, clock)
    await rated_game(svc, ALICE, BOB, "x")
    answer = await svc.handle_text(ADMIN, "/settings web_links off")
    assert answer[0].text is not None and "web_links" in answer[0].text.render("en")
    assert urls(await every_reply(svc)) == []
    await svc.handle_text(ADMIN, "/settings web_links on")
    assert urls(await svc.handle_text(BOB, "/review")) == [AT.game(await last_public_id(store))]


async def test_nothing_links_without_public_url(store: AnyStore) -> None:
    clock = Clock()
    svc = linked(store, clock, public_url=None)
    assert urls(await every_reply(svc)) == []


async def test_a_game_ended_before_its_first_move_links_nothing(store: AnyStore) -> None:
    svc = linked(store, Clock())
    await svc.handle_text(ALICE, "/tres @bob first")
    await svc.handle_text(BOB, "/accept")
    ended = await svc.handle_text(ALICE, "/final")
    assert ended and urls(ended) == []


async def test_top_links_the_ladder_of_a_server_or_room_that_made_it_public(
    store: AnyStore,
) -> None:
    clock = Clock()
    svc = linked(store, clock)
    room = "!room:example.org"
    ann = Actor("matrix", room, "@ann:example.org", "Ann")
    ben = Actor("matrix", room, "@ben:example.org", "Ben")
    for _ in range(10):  # a ladder lists settled ratings: ten rated games
        await rated_game(svc, ALICE, BOB, "x")
        await rated_game(svc, ann, ben, "o")
        clock.advance(DAY)
    # Private by default: every /top links the global ladder.
    for actor, words in ((ALICE, "/top tres"), (ALICE, "/top server tres"), (ann, "!top tres")):
        assert urls(await svc.handle_text(actor, words)) == [AT.ladder("tres")]
    for scope, platform in (("server:g1", "discord"), (f"chat:{room}", "matrix")):
        on = SettingRow(platform, scope, "public_ladder", "on", clock.now, "admin")
        await store.run(settings.setting_put(on))
    server = AT.local_ladder("tres", "discord", "g1")
    assert server == f"{URL}/ladder/tres/discord/g1"
    assert urls(await svc.handle_text(ALICE, "/top server tres")) == [server]
    assert urls(await svc.handle_text(BOB, "/top tres")) == [server]  # the channel's server's
    assert urls(await svc.handle_text(ALICE, "/top all tres")) == [AT.ladder("tres")]
    in_room = urls(await svc.handle_text(ann, "!top tres"))
    assert in_room == [f"{URL}/ladder/tres/matrix/%21room%3Aexample.org"]
    # Each address is the page of that ladder.
    pages = Pages(store, clock)
    for platform, place in (("discord", "g1"), ("matrix", room)):
        page = await pages.local_ladder("tres", platform, place)
        assert page is not None and [e.name for e in page.entries][:1] in (["Alice"], ["Ben"])
    assert await pages.local_ladder("tres", "matrix", "!other:example.org") is None

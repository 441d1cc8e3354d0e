"""A game in progress as its live page shows it, and the feed that follows it, on a real store
of both kinds: games played through the service (from another store on the same database
where a spectator must see them), hidden players anonymous, the games the home page may list."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import replace

from core.pages import Pages
from core.pages.feed import LiveFeed
from core.pages.live import LiveGame, LiveReads
from core.pages.names import ANONYMOUS
from core.replies import Actor
from core.sessions import GameService
from core.store import Session, sessions
from tests.backends import AnyStore, Backend
from tests.core.test_sessions import Clock, keys, service, session_of, store

__all__ = ["store"]  # the fixture, on both stores

ALICE = Actor("discord", "c1", "alice", "Alice", server_id="g1")
BOB = Actor("discord", "c1", "bob", "Bob\u202eevil", server_id="g1")
DM_ALICE = Actor("discord", "dm-a", "alice", "Alice")
DM_CAROL = Actor("discord", "dm-a", "carol", "Carol")


async def challenge(svc: GameService, x: Actor, o: Actor, game: str = "/quatre") -> Session:
    """``x`` challenges ``o`` (first to play), ``o`` accepts: the stored game."""
    challenged = await svc.handle_text(x, f"{game} @{o.user_id} first")
    assert keys(challenged) == ["game.challenge"], challenged
    accepted = await svc.handle_text(o, "/accept")
    found = await svc.store.run(sessions.get(session_of(accepted)))
    assert found is not None
    return found


async def test_a_game_as_its_live_page_shows_it(store: AnyStore) -> None:
    svc = service(store)
    game = await challenge(svc, ALICE, BOB)
    for who, column in ((ALICE, "4"), (BOB, "4"), (ALICE, "5")):
        await svc.handle_text(who, column)
    live = await LiveReads(store).game(game.public_id)
    assert live is not None
    assert live.public_id == game.public_id and live.version == game.version + 3
    assert live.title.render("en") == "Connect Four 6x7" and live.state == "active"
    assert live.players == ("Alice", "Bobevil")  # the override taken out
    assert live.status == "Bobevil (O) to move." and live.to_move == "O"
    assert live.moves == ("4", "4", "5") and live.columns[0] == "1"
    assert live.text == (
        "Connect Four 6x7: X is Alice, O is Bobevil."
        " From the bottom up, column 4: X, O; column 5: X."
    )
    # Nothing names the chat, the server, a user id or the short id that buttons carry.
    assert [(p.user_id, p.level) for p in live.board.players] == [(None, None)] * 2
    assert live.board.starter is None and live.board.session_id == ""
    assert "'c1'" not in repr(live) and "'g1'" not in repr(live) and game.id not in repr(live)
    now = await store.run(sessions.get(game.id))
    assert now is not None and now.deadline is not None and live.deadline == now.deadline


async def test_a_finished_game_shows_its_result_and_winning_line(store: AnyStore) -> None:
    svc = service(store)
    game = await challenge(svc, ALICE, BOB, "/tres")
    for who, cell in ((ALICE, "1"), (BOB, "4"), (ALICE, "2"), (BOB, "5"), (ALICE, "3")):
        await svc.handle_text(who, cell)
    live = await LiveReads(store).game(game.public_id)
    assert live is not None and live.finished and live.to_move is None
    assert live.status == "Alice (X) wins!"
    assert live.moves == ("a1", "a2", "b1", "b2", "c1") and live.columns == ("a", "b", "c")
    assert live.text == (
        "Tic-tac-toe: X is Alice, O is Bobevil. X on a1, b1, c1; O on a2, b2."
        " The winning line: a1, b1, c1."
    )


async def test_a_hidden_player_is_anonymous_everywhere_on_the_page(store: AnyStore) -> None:
    svc = service(store)
    game = await challenge(svc, ALICE, BOB)
    await svc.handle_text(ALICE, "/hide")
    live = await LiveReads(store).game(game.public_id)
    assert live is not None
    assert live.players == (ANONYMOUS, "Bobevil")
    assert live.status == "anonymous (X) to move."
    assert "Alice" not in repr(live) and "alice" not in repr(live)
    assert [p.name for p in live.board.players] == [ANONYMOUS, "Bobevil"]
    await svc.handle_text(ALICE, "/hide off")
    shown = await LiveReads(store).game(game.public_id)
    assert shown is not None and shown.players == ("Alice", "Bobevil")


async def test_an_unknown_or_malformed_id_finds_nothing(store: AnyStore) -> None:
    svc = service(store)
    game = await challenge(svc, ALICE, BOB)
    reads = LiveReads(store)
    for wrong in ("0" * 32, game.public_id[:-1], game.public_id.upper(), game.id, "", "x" * 32):
        assert await reads.game(wrong) is None, wrong
    assert await reads.versions((game.public_id, "0" * 32)) == {game.public_id: game.version}


async def _first(watch: AsyncIterator[LiveGame | None]) -> LiveGame:
    game = await anext(watch)
    assert game is not None
    return game


async def test_a_move_from_another_store_reaches_every_spectator(backend: Backend) -> None:
    async with backend.open() as ours, backend.open() as theirs:
        svc = service(theirs)  # another process's store: the moves are played there
        game = await challenge(svc, ALICE, BOB, "/tres")
        reads = LiveReads(ours)
        feed = LiveFeed(reads, poll=0.01)
        watches = [aiter(feed.watch(game.public_id)) for _ in range(3)]
        firsts = [await _first(w) for w in watches]
        assert {g.version for g in firsts} == {game.version} and feed.watched == 1
        nexts = [asyncio.ensure_future(anext(w)) for w in watches]
        await svc.handle_text(ALICE, "5")
        seen = await asyncio.gather(*nexts)
        assert all(g is seen[0] for g in seen)  # one read, shared by every spectator
        assert seen[0] is not None and seen[0].moves == ("b2",)
        # To the end: the last value is the finished game, then the watch ends.
        for who, cell in ((BOB, "1"), (ALICE, "4"), (BOB, "2"), (ALICE, "6")):
            await svc.handle_text(who, cell)
        last = None
        async for value in watches[0]:
            last = value
        assert last is not None and last.finished and last.status == "Alice (X) wins!"
        for watch in watches[1:]:
            await watch.aclose()  # type: ignore[attr-defined]
        assert feed.watched == 0
        await feed.close()


async def test_a_game_that_goes_ends_the_watch_with_none(store: AnyStore) -> None:
    svc = service(store)
    challenged = await svc.handle_text(ALICE, "/quatre @bob")
    found = await store.run(sessions.get(session_of(challenged)))
    assert found is not None
    feed = LiveFeed(LiveReads(store), poll=0.01)
    watch = aiter(feed.watch(found.public_id))
    first = await _first(watch)
    assert first.state == "challenge" and first.moves == ()
    await svc.handle_text(BOB, "/decline")
    assert await anext(watch) is None
    assert [v async for v in watch] == []
    assert [v async for v in feed.watch("0" * 32)] == [None]  # unknown from the start
    await feed.close()


async def test_closing_the_feed_ends_every_watch(store: AnyStore) -> None:
    svc = service(store)
    game = await challenge(svc, ALICE, BOB)
    feed = LiveFeed(LiveReads(store), poll=0.01)
    watch = aiter(feed.watch(game.public_id))
    await _first(watch)
    waiting = asyncio.ensure_future(anext(watch))
    await asyncio.sleep(0)  # the watch is waiting for a change
    await feed.close()
    assert [value async for value in _rest(waiting, watch)] == []


async def _rest(
    pending: asyncio.Future[LiveGame | None], watch: AsyncIterator[LiveGame | None]
) -> AsyncIterator[LiveGame | None]:
    try:
        yield await pending
    except StopAsyncIteration:
        return
    async for value in watch:
        yield value


async def test_the_home_page_lists_only_games_of_public_servers_and_rooms(
    store: AnyStore,
) -> None:
    clock = Clock()
    svc = service(store, clock)
    pages = Pages(store, clock)
    public = await challenge(svc, ALICE, BOB)
    await svc.handle_text(ALICE, "4")
    await challenge(svc, DM_ALICE, DM_CAROL)  # a DM: never listed
    mia, max_ = Actor("matrix", "!r:x", "@mia:x", "Mia"), Actor("matrix", "!r:x", "@max:x", "Max")
    room = await challenge(svc, mia, max_, "!tres")
    assert (await pages.home()).live == ()  # nobody made their play public
    await svc.handle_text(replace(ALICE, is_admin=True), "/settings public_ladder on")
    [entry] = (await pages.home()).live
    assert entry.path == f"/live/{public.public_id}" and entry.moves == 1
    assert entry.players == ("Alice", "Bobevil") and entry.title.render("en") == "Connect Four 6x7"
    await svc.handle_text(replace(mia, is_admin=True), "!settings public_ladder on")
    await svc.handle_text(BOB, "/hide")
    clock.advance(1)
    await svc.handle_text(mia, "5")  # the room's game moved last: listed first
    listed = (await pages.home()).live
    assert [e.path for e in listed] == [f"/live/{room.public_id}", f"/live/{public.public_id}"]
    assert listed[1].players == ("Alice", ANONYMOUS)
    await svc.handle_text(BOB, "/final")  # a finished game is no longer live
    assert [e.path for e in (await pages.home()).live] == [f"/live/{room.public_id}"]


class FailingOnce(LiveReads):
    """The store's reads, the first poll of the versions refused (a store that is down)."""

    failed = 0

    async def versions(self, public_ids: tuple[str, ...]) -> dict[str, int]:
        if not self.failed:
            self.failed += 1
            raise ConnectionError("the store is down")
        return await super().versions(public_ids)


async def test_a_poll_the_store_refuses_is_tried_again(store: AnyStore) -> None:
    svc = service(store)
    game = await challenge(svc, ALICE, BOB)
    reads = FailingOnce(store)
    feed = LiveFeed(reads, poll=0.01)
    watch = aiter(feed.watch(game.public_id))
    await _first(watch)
    await svc.handle_text(ALICE, "4")
    moved = await anext(watch)
    assert reads.failed == 1 and moved is not None and moved.moves == ("4",)
    await feed.close()

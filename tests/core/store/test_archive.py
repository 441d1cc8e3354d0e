"""The archive of finished games, on both stores: written in the transaction that finishes a
game (once, whoever races to end it), kept past the session's expiry, with each seat's
identity, whether the game was rated and may be listed, and its analysis kept once."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

from core.ai.levels import Level
from core.games import Outcome, Termination
from core.store import Seat, SettingRow, Status, archive, links, sessions, settings
from core.store.models.archive import ArchivedSeat
from core.store.models.ratings import Linked
from core.store.sql import Op, count
from tests.backends import Backend
from tests.core.store.helpers import NOW, make_session, played
from tests.core.store.ratings_helpers import finished, play


async def make_public(store: Any, platform: str, scope: str) -> None:
    """The admins of ``scope`` turn ``public_ladder`` on: its games may be listed."""
    await store.run(
        settings.setting_put(SettingRow(platform, scope, "public_ladder", "on", NOW, "admin"))
    )


async def test_a_finished_game_is_archived_with_its_seats_result_and_times(
    backend: Backend,
) -> None:
    async with backend.open() as store:
        await make_public(store, "test", "chat:c1")
        game = replace(make_session(), clock=60.0, created_at=NOW - 30, server_id="s1")
        await store.run(sessions.create(game))
        assert await store.run(archive.archived(game.public_id)) is None  # running: not yet
        half = played(game, 0, 3)
        assert await store.run(sessions.update(half, expected_version=1))
        assert await store.run(archive.archived(game.public_id)) is None
        won = replace(played(half, 1, 4, 2), updated_at=NOW + 5)
        assert await store.run(sessions.update(won, expected_version=2))
        kept = await store.run(archive.archived(game.public_id))
        assert kept is not None
        assert kept.session_id == game.id and kept.rules == game.rules
        assert kept.seats == (
            ArchivedSeat("Alice", "test:alice", None),
            ArchivedSeat("Bob", "test:bob", None),
        )
        assert kept.moves == (0, 3, 1, 4, 2)
        assert kept.outcome == Outcome(Termination.WIN, 1)
        assert kept.rated  # two people, not casual: the ratings counted it
        assert (kept.clock, kept.started_at, kept.finished_at) == (60.0, NOW - 30, NOW + 5)
        assert kept.listed  # its chat's admins made play there public
        assert kept.analysis is None
        # The short id is no address; another id is nothing.
        assert await store.run(archive.archived(game.id)) is None
        assert await store.run(archive.archived("0" * 32)) is None


async def test_the_sweep_deletes_the_session_and_keeps_its_archived_game(
    backend: Backend,
) -> None:
    async with backend.open() as store:
        done = await play(store, "alice", "bob", None, server_id="s1")
        assert await store.run(sessions.delete_expired(done.expires_at + 1)) == 1
        assert await store.run(sessions.get(done.id)) is None
        kept = await store.run(archive.archived(done.public_id))
        assert kept is not None and kept.outcome == Outcome(Termination.DRAW)


async def test_bots_casual_games_and_unshared_chats(backend: Backend) -> None:
    async with backend.open() as store:
        await make_public(store, "test", "chat:c1")
        await make_public(store, "test", "chat:c4")
        # Against the bot: its seat has a level, no identity; never rated.
        bot = await play(store, "alice", None, 2, server_id="s1")
        kept = await store.run(archive.archived(bot.public_id))
        assert kept is not None
        assert kept.seats[1] == ArchivedSeat("Bot (easy)", None, Level.EASY.value)
        assert not kept.rated and kept.listed
        # Casual: archived, not rated. A chat that did not make its play public: not listed.
        casual = await play(store, "carol", "dave", 1, casual=True, chat="c2")
        kept = await store.run(archive.archived(casual.public_id))
        assert kept is not None and not kept.rated and not kept.listed
        # Resigned after two moves: the termination and the winner are kept.
        resigned = await play(
            store, "erin", "fay", 2, termination=Termination.RESIGNATION, server_id="s1", chat="c3"
        )
        kept = await store.run(archive.archived(resigned.public_id))
        assert kept is not None and kept.outcome == Outcome(Termination.RESIGNATION, 2)
        assert kept.moves == (0, 4) and kept.rated
        # An open game whose other chat (a direct chat) is not public: not listed.
        seats = (
            Seat.person("gus", "Gus"),
            Seat(name="Hal", user_id="hal", platform="other", chat_id="dm"),
        )
        open_game = replace(make_session(chat="c4"), seats=seats, server_id="s1")
        await store.run(sessions.create(open_game))
        assert await store.run(sessions.update(finished(open_game, 1), expected_version=1))
        kept = await store.run(archive.archived(open_game.public_id))
        assert kept is not None and not kept.listed
        assert [s.identity for s in kept.seats] == ["test:gus", "other:hal"]


async def test_a_linked_account_is_archived_under_its_identity(backend: Backend) -> None:
    async with backend.open() as store:
        await store.run(links.link_code("CODE", "other", "zed", NOW + 600))
        assert await store.run(links.link("CODE", "test", "alice", NOW)) is Linked.LINKED
        done = await play(store, "alice", "bob", 1)
        kept = await store.run(archive.archived(done.public_id))
        assert kept is not None
        assert [s.identity for s in kept.seats] == ["other:zed", "test:bob"]


async def test_racing_ends_archive_the_game_once_as_the_winner_wrote_it(
    backend: Backend,
) -> None:
    """A move that ends the game, a timeout and a resignation race from several connections:
    one compare-and-set wins, and the archive holds that end, once."""
    async with backend.open() as first, backend.open() as second, backend.open() as third:
        for round_ in range(4):
            game = replace(make_session(chat=f"r{round_}"), server_id="s1")
            await first.run(sessions.create(game))
            half = played(game, 0, 3, 1, 4)
            assert await first.run(sessions.update(half, expected_version=1))
            ends = [
                played(half, 2),  # X completes the top row
                replace(
                    half, version=3, status=Status.FINISHED, outcome=Outcome(Termination.TIMEOUT, 2)
                ),
                replace(
                    half,
                    version=3,
                    status=Status.FINISHED,
                    outcome=Outcome(Termination.RESIGNATION, 1),
                ),
            ]
            stores = [first, second, third]
            order = [(round_ + n) % 3 for n in range(3)]
            applied = await asyncio.gather(
                *(stores[n].run(sessions.update(ends[n], expected_version=2)) for n in order)
            )
            assert sum(applied) == 1
            winner = ends[order[applied.index(True)]]
            kept = await second.run(archive.archived(game.public_id))
            assert kept is not None and kept.outcome == winner.outcome
            assert kept.moves == winner.moves
            rows = await backend.sql("SELECT count(*) FROM archive WHERE session_id = $1", game.id)
            assert rows == [(1,)]


async def test_a_finished_game_written_again_is_not_archived_twice(backend: Backend) -> None:
    async with backend.open() as store:
        done = await play(store, "alice", "bob", 1)
        # A later write of the finished game (a rematch offer, a board moved) changes nothing.
        again = replace(done, version=done.version + 1, updated_at=NOW + 50)
        assert await store.run(sessions.update(again, expected_version=done.version))
        kept = await store.run(archive.archived(done.public_id))
        assert kept is not None and kept.finished_at == NOW
        assert await backend.sql("SELECT count(*) FROM archive") == [(1,)]


async def test_the_analysis_is_kept_once(backend: Backend) -> None:
    async with backend.open() as one, backend.open() as two:
        done = await play(one, "alice", "bob", 1)
        kept = await asyncio.gather(
            one.run(archive.keep_analysis(done.public_id, "first")),
            two.run(archive.keep_analysis(done.public_id, "second")),
        )
        assert sorted(kept) == [False, True]
        found = await one.run(archive.archived(done.public_id))
        assert found is not None and found.analysis == ("first" if kept[0] else "second")
        assert not await one.run(archive.keep_analysis("0" * 32, "x"))


async def test_listed_games_map_rating_log_rows_to_public_ids(backend: Backend) -> None:
    async with backend.open() as store:
        await make_public(store, "test", "chat:c1")
        listed = await play(store, "alice", "bob", 1, server_id="s1", at=NOW)
        unlisted = await play(store, "alice", "bob", 2, chat="c2", at=NOW + 1)
        found = await store.run(
            archive.listed_games(
                [(listed.id, NOW), (unlisted.id, NOW + 1), (listed.id, NOW + 9), ("none", NOW)]
            )
        )
        assert found == {(listed.id, NOW): listed.public_id}
        assert await store.run(archive.listed_games([])) == {}


async def test_a_discord_game_is_listed_only_where_its_servers_admins_made_play_public(
    backend: Backend,
) -> None:
    """A private channel in a server looks like any other to the store: only the admins'
    ``public_ladder`` makes a server's games listed, and a DM (no server) never is."""
    async with backend.open() as store:
        hidden = await play(store, "alice", "bob", 1, platform="discord", server_id="s1")
        await make_public(store, "discord", "server:s1")
        shown = await play(store, "carol", "dave", 1, platform="discord", server_id="s1")
        direct = await play(store, "erin", "fay", 1, platform="discord", chat="dm")
        listed = {}
        for game in (hidden, shown, direct):
            kept = await store.run(archive.archived(game.public_id))
            assert kept is not None
            listed[game.id] = kept.listed
        assert listed == {hidden.id: False, shown.id: True, direct.id: False}


def forget_the_archive() -> Op[None]:
    """The store as it stood before the archive step: no game archived."""
    yield count("DELETE FROM archive")


async def test_games_finished_before_the_archive_are_archived_by_the_backfill(
    backend: Backend,
) -> None:
    async with backend.open() as store:
        await make_public(store, "test", "chat:c1")
        ended = []
        for n, chat in enumerate(("c1", "c2")):
            game = replace(make_session(chat=chat), clock=60.0, created_at=NOW - 30, server_id="s1")
            await store.run(sessions.create(game))
            won = replace(played(game, 0, 3, 1, 4, 2), updated_at=NOW + n)
            assert await store.run(sessions.update(won, expected_version=1))
            ended.append(won)
        running = make_session(chat="c3")
        await store.run(sessions.create(running))
        kept = [await store.run(archive.archived(game.public_id)) for game in ended]
        assert all(kept) and kept[0] != kept[1]
        await store.run(forget_the_archive())
        assert await store.run(archive.archived(ended[0].public_id)) is None
        # Oldest first, as many as asked; each row the one its game's end wrote.
        assert await store.run(archive.backfill(1)) == 1
        assert await store.run(archive.archived(ended[0].public_id)) == kept[0]
        assert await store.run(archive.archived(ended[1].public_id)) is None
        assert await store.run(archive.backfill(100)) == 1
        assert [await store.run(archive.archived(g.public_id)) for g in ended] == kept
        assert await store.run(archive.backfill(100)) == 0  # done: a game in play is not
        assert await store.run(archive.archived(running.public_id)) is None
        # A game swept before the backfill left nothing to archive from.
        await store.run(forget_the_archive())
        assert await store.run(sessions.delete(ended[1].id))
        assert await store.run(archive.backfill(100)) == 1
        assert await store.run(archive.archived(ended[1].public_id)) is None

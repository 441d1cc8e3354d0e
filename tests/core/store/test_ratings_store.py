"""Ratings in the store, on both stores: a rated result and its rating change are written in
one transaction; which games are rated; ladders; linked accounts; the log that a rebuild
replays (issue 23)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from core.games import Termination
from core.ratings import ACTIVE_SECONDS, PAIR_LIMIT, PROVISIONAL_GAMES, Rating, rate, rebuild
from core.store import Status, links, ratings, sessions, stats
from core.store.models import Linked
from core.store.ratings import place_of_chat, place_of_server
from tests.backends import Backend
from tests.core.store.helpers import NOW, make_session
from tests.core.store.ratings_helpers import finished, play

DAY = 24 * 3600.0


async def test_a_rated_game_writes_both_ratings_and_its_change(backend: Backend) -> None:
    async with backend.open() as store:
        game = await play(store, "alice", "bob", 1)
        expected = rate(Rating(), Rating(), 1)
        assert await store.run(ratings.rating_of("test", "alice", "tictactoe")) == expected.after[0]
        assert await store.run(ratings.rating_of("test", "bob", "tictactoe")) == expected.after[1]
        logged = await backend.sql(
            "SELECT kind, session_id, pool, first_identity, second_identity, winner,"
            " first_rating, second_rating, first_rating_after, second_rating_after"
            " FROM rating_changes"
        )
        assert logged == [
            (
                "game",
                game.id,
                "tictactoe",
                "test:alice",
                "test:bob",
                1,
                1500.0,
                1500.0,
                expected.after[0].rating,
                expected.after[1].rating,
            )
        ]
        changes = await store.run(ratings.rating_changes("test:bob"))
        assert [(c.won, c.before, c.after) for c in changes] == [
            (False, 1500.0, expected.after[1].rating)
        ]


@pytest.mark.parametrize(
    ("second", "changes", "termination"),
    [
        (None, {}, None),  # against the bot
        ("bob", {"casual": True}, None),
        ("bob", {}, Termination.ABANDONED),
        ("bob", {}, Termination.STOPPED),
    ],
    ids=["bot", "casual", "abandoned", "stopped"],
)
async def test_unrated_games_leave_ratings_alone(
    backend: Backend,
    second: str | None,
    changes: dict[str, Any],
    termination: Termination | None,
) -> None:
    async with backend.open() as store:
        winner = None if termination is Termination.STOPPED else 1
        await play(store, "alice", second, winner, termination=termination, **changes)
        assert await backend.sql("SELECT count(*) FROM ratings") == [(0,)]
        assert await backend.sql("SELECT count(*) FROM rating_changes") == [(0,)]
        # The result itself is recorded as before.
        assert (await store.run(stats.player_stats("test", "alice"))) is not None


async def test_resignation_and_timeout_are_losses(backend: Backend) -> None:
    async with backend.open() as store:
        await play(store, "alice", "bob", 2, termination=Termination.RESIGNATION)
        await play(store, "carol", "dave", 1, termination=Termination.TIMEOUT, chat="c2")
        assert (await store.run(ratings.rating_of("test", "alice", "tictactoe"))).rating < 1500
        assert (await store.run(ratings.rating_of("test", "dave", "tictactoe"))).rating < 1500


async def test_the_pair_limit_holds_for_24_hours(backend: Backend) -> None:
    async with backend.open() as store:
        for n in range(PAIR_LIMIT + 1):
            # Either seat: the pair is counted both ways round.
            first, second = ("alice", "bob") if n % 2 else ("bob", "alice")
            await play(store, first, second, 1, at=NOW + n)
        assert (
            await store.run(ratings.rating_of("test", "alice", "tictactoe"))
        ).games == PAIR_LIMIT
        await play(store, "alice", "bob", 1, at=NOW + DAY + 1)
        assert (
            await store.run(ratings.rating_of("test", "alice", "tictactoe"))
        ).games == PAIR_LIMIT + 1


async def test_a_fault_between_result_and_rating_writes_neither(backend: Backend) -> None:
    async with backend.open() as store:
        game = make_session()
        await store.run(sessions.create(game))
        # The fault: the rating change's log row cannot be written (after the session row,
        # the stats and the ratings rows were, in the same transaction).
        if backend.kind == "sqlite":
            await backend.sql(
                "CREATE TRIGGER fault BEFORE INSERT ON rating_changes"
                " BEGIN SELECT RAISE(ABORT, 'injected fault'); END"
            )
        else:
            await backend.sql(
                "CREATE FUNCTION fault() RETURNS trigger LANGUAGE plpgsql AS"
                " $$BEGIN RAISE EXCEPTION 'injected fault'; END$$"
            )
            await backend.sql(
                "CREATE TRIGGER fault BEFORE INSERT ON rating_changes"
                " FOR EACH ROW EXECUTE FUNCTION fault()"
            )
        done = finished(game, 1)
        with pytest.raises(Exception, match="injected fault"):
            await store.run(sessions.update(done, expected_version=game.version))
        stored = await store.run(sessions.get(game.id))
        assert stored is not None and stored.status is Status.ACTIVE
        assert await store.run(stats.player_stats("test", "alice")) is None
        assert await backend.sql("SELECT count(*) FROM ratings") == [(0,)]
        drop = "DROP TRIGGER fault" + ("" if backend.kind == "sqlite" else " ON rating_changes")
        await backend.sql(drop)
        assert await store.run(sessions.update(done, expected_version=game.version))
        assert (await store.run(stats.player_stats("test", "alice"))) is not None
        assert (await store.run(ratings.rating_of("test", "alice", "tictactoe"))).games == 1
        assert await backend.sql("SELECT count(*) FROM rating_changes") == [(1,)]


async def _settle(store: object, player: str, opponents: int, at: float, **changes: object) -> None:
    for n in range(opponents):
        await play(store, player, f"{player}-o{n}", 1, at=at, **changes)  # type: ignore[arg-type]


async def test_ladders_list_settled_recent_players_best_first(backend: Backend) -> None:
    async with backend.open() as store:
        # alice settles in chat c1 of server s1, bob in chat c2 of the same server, carol on
        # another platform; dan played one game only (provisional); erin stopped long ago.
        await _settle(store, "alice", PROVISIONAL_GAMES, NOW, server_id="s1")
        await _settle(store, "bob", PROVISIONAL_GAMES + 2, NOW, chat="c2", server_id="s1")
        await _settle(store, "carol", PROVISIONAL_GAMES + 1, NOW, platform="other", chat="r1")
        await play(store, "dan", "dan-o", 1, at=NOW)
        old = NOW - ACTIVE_SECONDS - 10
        await _settle(store, "erin", PROVISIONAL_GAMES, old)
        everyone = await store.run(ratings.ladder(None, "tictactoe", NOW))
        assert [row.name for row in everyone] == ["Bob", "Carol", "Alice"]
        assert [row.platform for row in everyone] == ["test", "other", "test"]
        assert everyone[0].rating.rating > everyone[1].rating.rating
        chat = await store.run(ratings.ladder(place_of_chat("test", "c1"), "tictactoe", NOW))
        assert [row.name for row in chat] == ["Alice"]
        server = await store.run(ratings.ladder(place_of_server("test", "s1"), "tictactoe", NOW))
        assert [row.name for row in server] == ["Bob", "Alice"]
        assert await store.run(ratings.ladder(None, "connect4", NOW)) == []
        assert (
            await store.run(ratings.rating_rank("tictactoe", everyone[2].rating.rating, NOW)) == 3
        )


async def test_linking_merges_ratings_and_unlinking_starts_afresh(backend: Backend) -> None:
    async with backend.open() as store:
        await _settle(store, "alice", 3, NOW)  # test:alice, 3 games
        await _settle(store, "alix", 5, NOW, platform="other")  # other:alix, 5 games
        alix = await store.run(ratings.rating_of("other", "alix", "tictactoe"))
        await store.run(links.link_code("CODE1", "test", "alice", NOW + 600))
        assert await store.run(links.link("NOPE", "other", "alix", NOW)) is Linked.WRONG
        assert await store.run(links.link("CODE1", "test", "bob", NOW)) is Linked.SAME_PLATFORM
        assert await store.run(links.link("CODE1", "other", "alix", NOW)) is Linked.LINKED
        assert await store.run(links.link("CODE1", "other", "alix", NOW)) is Linked.USED
        # One identity, one rating: the one from more games (alix's).
        assert await store.run(ratings.rating_of("test", "alice", "tictactoe")) == alix
        assert await store.run(ratings.rating_of("other", "alix", "tictactoe")) == alix
        identity, pools = await store.run(ratings.player_ratings("other", "alix"))
        assert identity == "test:alice" and [p.rating for p in pools] == [alix]
        # Rated games go on under the shared identity; the log replays to the same ratings.
        await play(store, "alix", "zed", 1, platform="other", at=NOW + 2)
        assert await store.run(ratings.stored_ratings()) == rebuild(
            await store.run(ratings.rating_log())
        )
        await store.run(links.link_code("CODE2", "test", "alice", NOW + 600))
        assert await store.run(links.link("CODE2", "other", "alix", NOW)) is Linked.ALREADY
        assert await store.run(links.link("CODE2", "other", "zed", NOW + 601)) is Linked.EXPIRED
        assert await store.run(links.unlink("other", "alix")) == 1
        assert await store.run(links.unlink("other", "alix")) == 0
        assert (await store.run(ratings.rating_of("other", "alix", "tictactoe"))).games == 0
        assert (
            await store.run(ratings.rating_of("test", "alice", "tictactoe"))
        ).games == alix.games + 1
        assert await backend.sql("SELECT count(*) FROM links") == [(0,)]


async def test_rebuild_equals_the_live_ratings_after_1000_random_games(backend: Backend) -> None:
    rng = random.Random(23)
    players = [f"p{n}" for n in range(12)]
    async with backend.open() as store:
        for n in range(1000):
            first, second = rng.sample(players, 2)
            winner = rng.choice((1, 2, None))
            termination = rng.choice((None, None, None, Termination.RESIGNATION))
            if termination is not None and winner is None:
                winner = 1
            await play(
                store,
                first,
                second,
                winner,
                at=NOW + n * 600,  # spread over a week: the pair limit lets most through
                termination=termination,
                casual=rng.random() < 0.1,
            )
        live = await store.run(ratings.stored_ratings())
        rebuilt = rebuild(await store.run(ratings.rating_log()))
        assert rebuilt == live
        assert sum(r.games for r in live.values()) > 1000  # most games were rated

"""Ratings through the service, on both stores: which games are rated (the ``casual`` option,
the ``rated`` setting, the bot, a resignation), ``/top`` of a chat, a server and everyone,
``/stats`` with ratings, and ``/link`` / ``/unlink`` with their refusals (issue 23)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from core.games import CONNECT_FOUR, Position
from core.i18n import Lines, Text
from core.ports import PlatformStyle
from core.replies import Actor, Reply
from core.sessions import GameService
from core.store import Seat, kv, ratings, sessions
from core.store import stats as store_stats
from core.store.links import CODES
from tests.backends import AnyStore
from tests.core.store.helpers import make_session
from tests.core.store.ratings_helpers import finished
from tests.core.test_sessions import NOW, Clock, error_key, keys, service, store

__all__ = ["store"]  # the fixture, on both stores

ALICE = Actor("discord", "c1", "alice", "Alice", server_id="g1")
BOB = Actor("discord", "c1", "bob", "Bob", server_id="g1")
ALICE_ADMIN = replace(ALICE, is_admin=True)


async def pvp_game(svc: GameService, start: str, moves: tuple[tuple[Actor, str], ...]) -> None:
    """Alice starts ``start`` against Bob, Bob accepts, then the moves are typed."""
    assert keys(await svc.handle_text(ALICE, start)) == ["game.challenge"]
    assert keys(await svc.handle_text(BOB, "/accept")) == ["game.accepted"]
    for who, cell in moves:
        await svc.handle_text(who, cell)


ALICE_WINS = ((ALICE, "1"), (BOB, "4"), (ALICE, "2"), (BOB, "5"), (ALICE, "3"))


async def test_a_game_between_people_is_rated_and_its_result_shows_the_change(
    store: AnyStore,
) -> None:
    svc = service(store)
    await pvp_game(svc, "/tres @bob first", ALICE_WINS[:-1])
    [last] = await svc.handle_text(ALICE, ALICE_WINS[-1][1])
    alice = await store.run(ratings.rating_of("discord", "alice", "tictactoe"))
    bob = await store.run(ratings.rating_of("discord", "bob", "tictactoe"))
    assert alice.games == 1 and alice.rating > 1500 > bob.rating
    # The result under the board, and the reply's text, carry both new ratings.
    assert last.board is not None and last.text == last.board.status
    assert last.text.key == "ratings.game_result"
    gain = round(alice.rating - 1500)
    assert last.text.render("en").endswith(
        f"Ratings: Alice {alice.display()} (+{gain}) · Bob {bob.display()} (-{gain})"
    )


async def test_casual_games_and_chats_that_turned_rating_off_are_unrated(store: AnyStore) -> None:
    svc = service(store)
    await pvp_game(svc, "/tres @bob first casual", ALICE_WINS)
    assert (await store.run(ratings.rating_of("discord", "alice", "tictactoe"))).games == 0
    await svc.handle_text(ALICE_ADMIN, "/settings rated off")
    await pvp_game(svc, "/tres @bob first", ALICE_WINS)
    assert (await store.run(ratings.rating_of("discord", "alice", "tictactoe"))).games == 0
    # The results are counted all the same.
    stats = await store.run(store_stats.player_stats("discord", "alice"))
    assert stats is not None and stats.wins == 2


async def test_games_against_the_bot_are_unrated_and_resigning_is_a_loss(store: AnyStore) -> None:
    svc = service(store)
    await svc.handle_text(ALICE, "/tres easy")
    await svc.handle_text(ALICE, "5")
    await svc.handle_text(ALICE, "/final")
    assert (await store.run(ratings.rating_of("discord", "alice", "tictactoe"))).games == 0
    await pvp_game(svc, "/tres @bob first", ((ALICE, "1"), (BOB, "5")))
    await svc.handle_text(ALICE, "/final")
    assert (await store.run(ratings.rating_of("discord", "alice", "tictactoe"))).rating < 1500
    assert (await store.run(ratings.rating_of("discord", "bob", "tictactoe"))).rating > 1500


async def test_a_clock_that_runs_out_is_a_rated_loss(store: AnyStore) -> None:
    clock = Clock()
    svc = service(store, clock)
    await pvp_game(svc, "/tres @bob first 1m", ((ALICE, "1"), (BOB, "5")))
    clock.advance(61)  # Alice, to move, runs out of time
    assert await svc.sweep_clocks() == 1
    assert (await store.run(ratings.rating_of("discord", "alice", "tictactoe"))).rating < 1500
    assert (await store.run(ratings.rating_of("discord", "bob", "tictactoe"))).rating > 1500
    (logged,) = await store.run(ratings.rating_changes("discord:bob"))
    assert logged.won is True


async def _settled(
    store: AnyStore, platform: str, user: str, name: str, chat: str, server: str | None
) -> None:
    """``user`` wins ten rated Connect Four games against newcomers in ``chat``."""
    for n in range(10):
        game = replace(
            make_session(alice=user, bob=f"{user}-o{n}", chat=chat),
            platform=platform,
            rules=CONNECT_FOUR,
            server_id=server,
            seats=(Seat.person(user, name), Seat.person(f"{user}-o{n}", f"O{n}")),
        )
        await store.run(sessions.create(game))
        # Four in a column for X: columns 0 and 1 in turn.
        won = Position.from_moves(CONNECT_FOUR, (0, 1, 0, 1, 0, 1, 0))
        done = replace(finished(game, 1, at=NOW), moves=won.moves, outcome=won.outcome)
        assert await store.run(sessions.update(done, expected_version=game.version))


async def test_ladders_of_a_chat_a_server_and_everyone(store: AnyStore) -> None:
    svc = service(store, Clock(NOW + 60))
    await _settled(store, "discord", "dora", "Dora", "c1", "g1")
    await _settled(store, "discord", "dan", "Dan", "c2", "g1")
    await _settled(store, "matrix", "@mia:x", "Mia", "!room:x", None)
    chat = await svc.handle_text(ALICE, "/top")
    assert chat[0].text is not None and chat[0].text.key == "ratings.top.chat"
    server = await svc.handle_text(ALICE, "/top server quatre")
    everyone = await svc.handle_text(ALICE, "/top all")

    def names(replies: Sequence[Reply]) -> list[str]:
        text = replies[0].text
        assert text is not None
        lines = text.params["lines"]
        assert isinstance(lines, Lines)
        return [str(line.params["name"]) for line in lines.texts]

    assert names(chat) == ["Dora"]
    assert sorted(names(server)) == ["Dan", "Dora"]
    assert sorted(names(everyone)) == ["Dan", "Dora", "Mia"]
    shown = everyone[0].text.render("en")  # type: ignore[union-attr]
    # Each player's platform, never a chat's id.
    assert "(matrix)" in shown and "(discord)" in shown
    assert "!room:x" not in shown and "c1" not in shown and "g1" not in shown
    # On Matrix there is no server: the room's own ladder, after a line that says so.
    mia = Actor("matrix", "!room:x", "@mia:x", "Mia")
    no_server, ladder = await svc.handle_text(mia, "!top server")
    assert no_server.text == Text("ratings.top_no_server", {"top": "/top"})  # no prefix set
    assert names([ladder]) == ["Mia"]
    # /stats: the rating, its rank, the last rated games.
    stats = await svc.handle_text(Actor("discord", "c1", "dora", "Dora"), "/stats")
    text = stats[0].text
    assert text is not None and text.key == "ratings.stats"
    lines = text.params["lines"]
    assert isinstance(lines, Lines) and lines.texts[0].key == "ratings.stats_line"
    # Games named in words, not by their pools' ids.
    assert lines.texts[0].params["pool"] == Text("game.name.connect_four", {"size": "6x7"})
    assert lines.texts[0].params["rank"] in (1, 2, 3)
    assert text.render("en").count("(Connect Four 6x7)") == 5
    assert "connect4" not in text.render("en")
    newcomer = await svc.handle_text(Actor("discord", "c1", "dora-o1", "O"), "/stats")
    newcomer_text = newcomer[0].text
    assert newcomer_text is not None and isinstance(newcomer_text.params["lines"], Lines)
    first_line = newcomer_text.params["lines"].texts[0]
    assert first_line.key == "ratings.stats_line_unranked"
    assert str(first_line.params["rating"]).endswith("?")


async def test_link_joins_two_platforms_and_refuses_bad_codes(store: AnyStore) -> None:
    clock = Clock()
    svc = service(store, clock)
    svc.register_platform(PlatformStyle("discord", private_replies=True))
    mia = Actor("matrix", "!room:x", "@mia:x", "Mia")
    # Where replies are not private (a Matrix room) no code is handed out.
    assert error_key(await svc.handle_text(mia, "!link")) == "ratings.link_not_private"
    given = await svc.handle_text(ALICE, "/link")
    text = given[0].text
    assert text is not None and text.key == "ratings.link_code" and given[0].private
    code = str(text.params["code"])
    assert error_key(await svc.handle_text(mia, "!link ABCDEFGH")) == "ratings.link.wrong"
    assert error_key(await svc.handle_text(BOB, f"/link {code}")) == "ratings.link.same_platform"
    assert error_key(await svc.handle_text(mia, "!link abc")) == "parse.bad_link_code"
    linked = await svc.handle_text(mia, f"!link {code.lower()}")
    assert keys(linked) == ["ratings.linked"]
    assert linked[0].text is not None and linked[0].text.params["platform"] == "discord"
    assert error_key(await svc.handle_text(mia, f"!link {code}")) == "ratings.link.used"
    identity, _ = await store.run(ratings.player_ratings("matrix", "@mia:x"))
    assert identity == "discord:alice"
    # A code expires after ten minutes.
    late = await svc.handle_text(BOB, "/link")
    late_code = str(late[0].text.params["code"])  # type: ignore[union-attr]
    clock.advance(601)
    carl = Actor("matrix", "!room:x", "@carl:x", "Carl")
    assert error_key(await svc.handle_text(carl, f"!link {late_code}")) == "ratings.link.expired"
    # Unlink, once.
    assert keys(await svc.handle_text(mia, "!unlink")) == ["ratings.unlinked"]
    assert error_key(await svc.handle_text(mia, "!unlink")) == "ratings.not_linked"
    assert await store.run(kv.kv_get(CODES, code)) is not None  # kept, to tell "used" from "wrong"
    # Every refusal renders in every language with its parameters filled.
    for key in ("ratings.link.wrong", "ratings.link.expired", "ratings.link.used"):
        for locale in ("en", "ca", "es", "pt", "ru"):
            assert "{" not in Text(key, {"code": code, "prefix": "/"}).render(locale)


async def test_a_direct_chat_gives_a_link_code_and_a_shared_room_refuses(
    store: AnyStore,
) -> None:
    svc = service(store, Clock())
    svc.register_platform(PlatformStyle("discord", private_replies=True))
    svc.register_platform(PlatformStyle("matrix", prefix="!"))
    # Matrix replies are public: a room others read refuses, pointing to a direct chat.
    shared = Actor("matrix", "!room:x", "@mia:x", "Mia")
    refused = await svc.handle_text(shared, "!link")
    assert error_key(refused) == "ratings.link_not_private"
    for locale in ("en", "ca", "es", "pt", "ru"):
        shown = Text("ratings.link_not_private", {"prefix": "!"}).render(locale)
        assert "!link" in shown and "{" not in shown
    # The same player in a room of just them and the bot gets a code, redeemable on Discord.
    direct = replace(shared, chat_id="!dm:x", direct=True)
    given = await svc.handle_text(direct, "!link")
    text = given[0].text
    assert text is not None and text.key == "ratings.link_code" and given[0].private
    code = str(text.params["code"])
    # It says how to type it on the other platform: Discord's slash, not Matrix's "!".
    assert text.params["prefix"] == "/"
    assert "/link " + code in text.render("en")
    assert keys(await svc.handle_text(ALICE, f"/link {code}")) == ["ratings.linked"]
    identity, _ = await store.run(ratings.player_ratings("discord", "alice"))
    assert identity == "matrix:@mia:x"
    # The refusal handed out no code: only the direct chat's code exists, and it is used.
    assert error_key(await svc.handle_text(BOB, f"/link {code}")) == "ratings.link.used"
    # A code given on Discord says to type it with Matrix's "!".
    from_discord = (await svc.handle_text(BOB, "/link"))[0].text
    assert from_discord is not None and from_discord.params["prefix"] == "!"

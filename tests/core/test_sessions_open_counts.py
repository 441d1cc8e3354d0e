"""An open game (one game, two chats, maybe two platforms), on both stores: ``chatbots stats``
and the metrics count it once, as ``open``, whichever platforms it is on, and each player's
result stays under their own platform; each seat keeps its own chat's server (its settings,
its server ladder); the pairing line shows ratings as ``/stats`` does."""

from __future__ import annotations

import random

from core.i18n import Text
from core.ports import PlatformStyle
from core.ratings import NEW
from core.replies import ActionKind, Actor
from core.sessions import GameService, ServiceSettings
from core.store import PlatformTotals, SettingRow, sessions, settings, stats
from core.store.models import OPEN_GAMES
from tests.backends import AnyStore, Backend
from tests.core.test_sessions import NOW, Clock, error_key, keys, store
from tests.core.test_sessions_outcome import Recording
from tests.core.test_sessions_seek import ALICE, BOB, Chats

__all__ = ["store"]  # the fixture


def counting_service(store: AnyStore, observer: Recording) -> tuple[GameService, Chats]:
    svc = GameService(
        store,
        settings=ServiceSettings(ai_workers=0, ai_budget=0.05, limits=False),
        clock=Clock(),
        rng=random.Random(7),
        observer=observer,
    )
    chats = Chats()
    for platform in ("disc", "mx"):
        svc.register_platform(PlatformStyle(platform, publish=chats.publish))
    return svc, chats


async def test_an_open_game_counts_once_as_open_and_results_per_player(store: AnyStore) -> None:
    observer = Recording()
    svc, _ = counting_service(store, observer)
    # A game of one chat beside it counts under its platform, as before.
    assert keys(await svc.handle_text(ALICE, "/tres")) == ["game.started"]
    assert keys(await svc.handle_text(ALICE, "/final")) == ["game.ended"]
    assert keys(await svc.handle_text(ALICE, "/seek connect4")) == ["seek.queued"]
    [paired] = await svc.handle_text(BOB, "!seek connect4")
    assert paired.board is not None
    assert (OPEN_GAMES, "connect4") in observer.started
    assert [t for t in await store.run(stats.totals(0)) if t.platform == OPEN_GAMES] == [
        PlatformTotals(OPEN_GAMES, live=1, finished=0, results=0, moves_since=0)
    ]
    first, second = (ALICE, BOB) if paired.board.players[0].user_id == "alice" else (BOB, ALICE)
    assert error_key(await svc.handle_text(first, "4")) is None
    assert keys(await svc.handle_text(second, "/final")) == ["game.resigned"]
    assert observer.finished[-1] == (OPEN_GAMES, "connect4")
    totals = {t.platform: t for t in await store.run(stats.totals(0))}
    assert totals[OPEN_GAMES] == PlatformTotals(OPEN_GAMES, 0, 1, 0, 1)
    # One result for each player, under the platform they played on.
    assert totals["disc"].results == 1 and totals["mx"].results == 1
    assert totals["disc"].live == totals["mx"].live == 0


# Two Discord players in two servers' channels (the ids are made up; only their kind counts).
ANA = Actor("disc", "chan-a", "ana", "Ana", server_id="server-a")
CY = Actor("disc", "chan-c", "cy", "Cy", server_id="server-c")


async def test_each_seat_keeps_its_own_chats_server(backend: Backend) -> None:
    # An open game belonged to the first player's chat: the second chat was told later things
    # with no server (neither its channel's nor its server's settings, here its language) and
    # its player's rating counted on no server ladder.
    async with backend.open() as store:
        for server, language in (("server-a", "es"), ("server-c", "ca")):
            for key, value in (("language", language), ("open_play", "on")):
                await store.run(
                    settings.setting_put(
                        SettingRow("disc", f"server:{server}", key, value, NOW, "admin")
                    )
                )
        svc, chats = counting_service(store, Recording())
        assert keys(await svc.handle_text(ANA, "/seek tres")) == ["seek.queued"]
        [paired] = await svc.handle_text(CY, "/seek tres")
        assert paired.board is not None
        game = await store.run(sessions.get(paired.board.session_id))
        assert game is not None
        home = ANA if game.chat_id == ANA.chat_id else CY
        away = CY if home is ANA else ANA
        assert game.server_id == home.server_id
        away_seat = game.seat_in(away.platform, away.chat_id, away.user_id)
        assert away_seat is not None and game.server_of(away_seat) == away.server_id
        # Each chat is shown what the other player did in its own server's language. Two
        # moves: a rated game.
        first = ANA if paired.board.players[0].user_id == "ana" else CY
        other = CY if first is ANA else ANA
        assert error_key(await svc.handle_text(first, "5")) is None
        assert error_key(await svc.handle_text(other, "1")) is None
        assert keys(await svc.handle_text(first, "/final")) == ["ratings.game_result"]
        await svc.open_games_idle()
        for who, language in ((ANA, "es"), (CY, "ca")):
            shown = chats.boards(who)
            assert shown and {reply.locale for reply in shown} == {language}
        # Each player's rating counts on their own server's ladder.
        places = await backend.sql("SELECT place, identity FROM rating_places ORDER BY place")
        servers = sorted(p for p, _ in places if ":server:" in p)
        assert servers == ["disc:server:server-a", "disc:server:server-c"]
        # A rematch, offered from either chat, keeps each seat's server.
        offer = await svc.handle_action(other, game.id, ActionKind.REMATCH)
        assert keys(offer) == ["game.challenge"] and offer[0].session_id is not None
        rematch = await store.run(sessions.get(offer[0].session_id))
        assert rematch is not None and rematch.server_id == other.server_id
        for who in (ANA, CY):
            seat = rematch.seat_in(who.platform, who.chat_id, who.user_id)
            assert seat is not None and rematch.server_of(seat) == who.server_id


async def test_the_pairing_line_shows_a_provisional_rating_as_stats_does(
    store: AnyStore,
) -> None:
    svc, _ = counting_service(store, Recording())
    assert keys(await svc.handle_text(ALICE, "/seek tres")) == ["seek.queued"]
    [paired] = await svc.handle_text(BOB, "!seek tres")
    assert paired.text is not None
    shown = [paired.text.params[side] for side in ("x", "o")]
    assert [p.params["rating"] for p in shown if isinstance(p, Text)] == [NEW.display()] * 2
    assert NEW.display() == "1500?"

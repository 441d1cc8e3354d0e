"""How an open game (one game, two chats, maybe two platforms) is counted, on both stores:
``chatbots stats`` and the metrics count it once, as ``open``, whichever platforms it is on;
each player's result stays under their own platform."""

from __future__ import annotations

import random

from core.ports import PlatformStyle
from core.sessions import GameService, ServiceSettings
from core.store import PlatformTotals
from core.store.models import OPEN_GAMES
from tests.backends import AnyStore
from tests.core.test_sessions import Clock, error_key, keys, store
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
    assert [t for t in await store.totals(0) if t.platform == OPEN_GAMES] == [
        PlatformTotals(OPEN_GAMES, live=1, finished=0, results=0, moves_since=0)
    ]
    first, second = (ALICE, BOB) if paired.board.players[0].user_id == "alice" else (BOB, ALICE)
    assert error_key(await svc.handle_text(first, "4")) is None
    assert keys(await svc.handle_text(second, "/final")) == ["game.resigned"]
    assert observer.finished[-1] == (OPEN_GAMES, "connect4")
    totals = {t.platform: t for t in await store.totals(0)}
    assert totals[OPEN_GAMES] == PlatformTotals(OPEN_GAMES, 0, 1, 0, 1)
    # One result for each player, under the platform they played on.
    assert totals["disc"].results == 1 and totals["mx"].results == 1
    assert totals["disc"].live == totals["mx"].live == 0

"""Tournament rules beyond the first landing, through the service on both stores with a fake
clock: a pairing's player who has another game in his chat (the tournament game comes first)."""

from __future__ import annotations

from core.store import Status, events, sessions
from tests.backends import AnyStore
from tests.core.test_sessions import Clock, keys, store
from tests.core.test_sessions_seek import open_service
from tests.core.test_sessions_tournament import ADMIN, BEN, CID, DOT, event_id

__all__ = ["store"]  # the fixture


async def test_a_players_other_game_in_his_chat_gives_way_to_his_tournament_game(
    store: AnyStore,
) -> None:
    clock = Clock()
    svc, chats = open_service(store, clock)
    ident = event_id(await svc.handle_text(ADMIN, "/tournament swiss tictactoe 1 60s +10m"))
    for who in (ADMIN, CID):
        assert keys(await svc.handle_text(who, f"/tournament join {ident}")) == ["event.joined"]
    # Ann plays Ben in her chat (a move each); Cid has challenged Dot in his.
    assert keys(await svc.handle_text(ADMIN, "/tres @ben")) == ["game.challenge"]
    assert keys(await svc.handle_text(BEN, "/accept")) == ["game.accepted"]
    side = await store.run(sessions.live_game(ADMIN.platform, ADMIN.chat_id, ADMIN.user_id))
    assert side is not None and side.status is Status.ACTIVE
    assert keys(await svc.handle_text(CID, "/tres @dot")) == ["game.challenge"]
    challenge = await store.run(sessions.live_game(CID.platform, CID.chat_id, CID.user_id))
    assert challenge is not None and challenge.status is Status.CHALLENGE

    clock.advance(601)
    assert await svc.director.step(ident)
    await svc.open_games_idle()
    [game] = await store.run(events.games(ident))
    assert game.started  # in the same step: the round is not held
    ended = await store.run(sessions.get(side.id))
    assert ended is not None and ended.status is Status.FINISHED
    assert ended.winner is not None and ended.seats[ended.winner - 1].user_id == BEN.user_id
    assert await store.run(sessions.get(challenge.id)) is None
    for who in (ADMIN, CID):
        said = [r.text.key for r in chats.shown[(who.platform, who.chat_id)] if r.text]
        assert said.index("event.gave_way") < said.index("event.game"), said
    assert await store.run(sessions.live_game(DOT.platform, DOT.chat_id, DOT.user_id)) is None

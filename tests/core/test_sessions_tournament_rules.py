"""Tournament rules beyond the first landing, through the service on both stores with a fake
clock: a pairing's player who has another game in his chat (the tournament game comes first);
an arena game that ends without a result (nothing for either, no streak broken); an event's
name, and its start time said in UTC; berserk games marked in the standings and on the page;
pairings made off the event loop."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest

from core.commands import Tournament, format_command, parse
from core.pages.event import event_page
from core.pairing.arena import pair_wave
from core.pairing.swiss import pair_round
from core.sessions.events import director
from core.sessions.events.table import table
from core.store import Status, events, sessions
from tests.backends import AnyStore
from tests.core.test_sessions import Clock, keys, store
from tests.core.test_sessions_seek import open_service
from tests.core.test_sessions_tournament import (
    ADMIN,
    BEN,
    CID,
    DOT,
    O_WINS,
    X_WINS,
    _berserk_arena,
    accounts,
    event_id,
    one_game,
    play,
)

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


async def test_an_arena_game_without_a_result_scores_nothing_and_breaks_no_streak(
    store: AnyStore,
) -> None:
    """Two wins put Ann on fire; her third game, quit before its first move (no result), leaves
    her so, scores nothing for either, and is no loss in her performance: her next win scores
    4. (Four players: an arena never pairs one's last opponent again at once.)"""
    clock = Clock()
    svc, _ = open_service(store, clock)
    ident = event_id(await svc.handle_text(ADMIN, "/tournament arena tictactoe 60m 60s +10m"))
    everyone = accounts(ADMIN, BEN, CID, DOT)
    for who in everyone.values():
        await svc.handle_text(who, f"/tournament join {ident}")
    clock.advance(601)
    assert await svc.director.step(ident)  # started: the next step pairs

    async def wave(quit_ann: bool = False) -> None:
        """A wave: Ann wins her game (or her opponent quits it before a move); X wins the
        others."""
        assert await svc.director.step(ident)
        await svc.open_games_idle()
        waiting = [g for g in await store.run(events.games(ident)) if not g.done]
        assert len(waiting) == 2
        for game in waiting:
            if "disc:ann" not in (game.x, game.o):
                await play(svc, everyone, game, X_WINS)
            elif quit_ann:
                other = game.o if game.x == "disc:ann" else game.x
                quitter = everyone[other.split(":")[1]]
                assert keys(await svc.handle_text(quitter, "/final")) == ["game.ended"]
            else:
                await play(svc, everyone, game, X_WINS if game.x == "disc:ann" else O_WINS)

    await wave()
    await wave()
    await wave(quit_ann=True)
    assert await svc.director.step(ident)  # the quit game: ended with nothing for either
    unplayed = [g for g in await store.run(events.games(ident)) if g.done and not g.played]
    assert len(unplayed) == 1 and (unplayed[0].x_score, unplayed[0].o_score) == (0.0, 0.0)
    scores = {p.player: p.score for p in await store.run(events.players(ident))}
    assert scores["disc:ann"] == 4.0
    await wave()
    scores = {p.player: p.score for p in await store.run(events.players(ident))}
    assert scores["disc:ann"] == 8.0  # 2 + 2 + 4: still on fire
    event = await store.run(events.get_event(ident))
    assert event is not None
    players = await store.run(events.players(ident))
    rows = table(event, players, await store.run(events.games(ident)), [])
    [ann] = [r for r in rows if r.player.player == "disc:ann"]
    # three wins and no loss: the performance of a perfect score, 500 over the opponents
    assert ann.tiebreak == 1500 + 500


def test_an_events_name_is_the_rest_of_the_command_and_is_written_back() -> None:
    command = parse("/tournament swiss tres 3 18:30 name Friday  blitz")
    assert isinstance(command, Tournament) and command.name == "Friday blitz"
    assert command.start_at == (18, 30) and command.length == 3
    assert parse(format_command(command)) == command
    assert parse("/tournament swiss tres 3").name is None  # type: ignore[union-attr]


async def test_an_events_name_is_cleaned_cut_and_shown_and_its_start_said_in_utc(
    store: AnyStore,
) -> None:
    clock = Clock()  # NOW is 22:13:20 UTC
    svc, _ = open_service(store, clock)
    hostile = "\u202e Friday  blitz of the club, the long edition"
    [made] = await svc.handle_text(ADMIN, f"/tournament swiss tictactoe 2 23:00 name {hostile}")
    assert made.text is not None and made.text.key == "event.created_at"
    said = made.text.render("en")
    name = "Friday blitz of the club, the l…"  # as a display name: invisible out, cut to 32
    assert said.startswith(f"Tournament {name}: Swiss, tic-tac-toe, 2 rounds"), said
    assert "Starts at 23:00 UTC, in 47 minutes." in said and "\u202e" not in said
    [event] = await store.run(events.chat_events(ADMIN.platform, ADMIN.chat_id))
    assert event.name == name and event.given_name == name
    [table] = await svc.handle_text(ADMIN, "/tournament")
    assert table.text is not None and table.text.render("en").startswith(f"Tournament {name}:")
    page = await event_page(store, event.public_id)
    assert page is not None
    assert page.title.render("en") == f"{name} · Tic-tac-toe: swiss tournament"
    # without a name, the chats call it by its id and the page by its game and format alone
    clock.advance(7200)  # it starts with nobody: cancelled
    assert not await svc.director.step(event.id)
    [plain] = await svc.handle_text(ADMIN, "/tournament swiss tictactoe 2")
    assert plain.text is not None and plain.text.key == "event.created"
    other = event_id([plain])
    unnamed = await store.run(events.get_event(other))
    assert unnamed is not None and unnamed.name == other and unnamed.given_name is None
    page = await event_page(store, unnamed.public_id)
    assert page is not None and page.title.render("en") == "Tic-tac-toe: swiss tournament"


async def test_berserk_games_are_marked_in_the_standings_and_on_the_page(
    store: AnyStore,
) -> None:
    clock = Clock()
    svc, ident = await _berserk_arena(store, clock, "berserk")
    game = await one_game(svc, ident, ADMIN, CID)
    session = game.session
    assert keys(await svc.handle_text(game.x, "/tournament berserk")) == ["event.berserk"]
    await play(svc, accounts(ADMIN, CID), game.pairing, X_WINS)
    [table] = await svc.handle_text(ADMIN, f"/tournament {ident}")
    assert table.text is not None
    said = table.text.render("en").split("\n")
    assert said[2] == f"1. {session.seats[0].name}: 3 (2000) ⚡1", said
    assert "⚡" not in said[3]
    event = await store.run(events.get_event(ident))
    assert event is not None
    page = await event_page(store, event.public_id)
    assert page is not None
    assert [s.berserk for s in page.standings] == [1, 0]
    assert page.rounds[0].games[0].berserk == (True, False)


@pytest.mark.parametrize("fmt", ["swiss tictactoe 2", "arena tictactoe 30m"])
async def test_pairings_are_made_off_the_event_loop(
    store: AnyStore, monkeypatch: pytest.MonkeyPatch, fmt: str
) -> None:
    threads: list[int] = []

    def recorded(pair: Callable[..., Any]) -> Callable[..., Any]:
        def run(*args: Any, **kwargs: Any) -> Any:
            threads.append(threading.get_ident())
            return pair(*args, **kwargs)

        return run

    monkeypatch.setattr(f"{director.__name__}.pair_round", recorded(pair_round))
    monkeypatch.setattr(f"{director.__name__}.pair_wave", recorded(pair_wave))
    clock = Clock()
    svc, _ = open_service(store, clock)
    ident = event_id(await svc.handle_text(ADMIN, f"/tournament {fmt} 60s +10m"))
    for who in (ADMIN, CID):
        await svc.handle_text(who, f"/tournament join {ident}")
    clock.advance(601)
    for _ in range(2):  # an arena's first step starts it, the next pairs
        assert await svc.director.step(ident)
    assert len(await store.run(events.games(ident))) == 1
    assert threads and threading.get_ident() not in threads

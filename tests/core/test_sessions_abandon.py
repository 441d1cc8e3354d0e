"""Games in a chat the bot left, or whose player left: ended as abandoned, on both stores.

The player who stayed wins a game that had begun, never has a loss counted, is told through the
platform's ``publish`` and may start another game at once; a move racing the departure gives
one outcome."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import random
from collections.abc import Sequence

import pytest

from core.games import Outcome, Termination
from core.i18n import Text
from core.ports import PlatformStyle
from core.replies import ActionKind, Actor, Reply
from core.sessions import GameService, ServiceSettings
from core.sessions.play.model import Event, transition
from core.store import Status, departures, ratings, sessions, stats
from tests.backends import AnyStore
from tests.core.test_sessions import ALICE, BOB, CAROL, actor, keys, pvp, session_of, store, stored
from tests.core.test_sessions_outcome import NOW, Recording
from tests.core.test_sessions_seek import open_service

__all__ = ["store"]  # the fixture


class Told:
    """What the service published, by chat."""

    def __init__(self) -> None:
        self.shown: list[tuple[Actor, list[Reply]]] = []

    async def publish(self, actor: Actor, replies: Sequence[Reply]) -> None:
        self.shown.append((actor, list(replies)))

    def keys(self) -> list[str]:
        return [k for _, replies in self.shown for k in keys(replies)]


def make(store: AnyStore, observer: Recording | None = None) -> tuple[GameService, Told]:
    svc = GameService(
        store,
        settings=ServiceSettings(ai_workers=0, ai_budget=0.05, limits=False),
        clock=lambda: NOW,
        rng=random.Random(5),
        observer=observer,
    )
    told = Told()
    svc.register_platform(PlatformStyle("test", publish=told.publish))
    return svc, told


async def test_a_player_who_left_mid_game_loses_it_and_the_stayer_is_free(
    store: AnyStore,
) -> None:
    observer = Recording()
    svc, told = make(store, observer)
    session_id = await pvp(svc)
    await svc.handle_text(ALICE, "1")
    await svc.handle_text(BOB, "5")
    assert await svc.abandon_games("test", ["room"], "bob") == 1
    ended = await stored(store, session_id)
    assert ended.status is Status.FINISHED
    assert ended.outcome == Outcome(Termination.ABANDONED, 1)
    assert observer.finished == [("test", "tictactoe")]
    # Alice is told, in the room, on the board's own message.
    [(shown_to, replies)] = told.shown
    assert (shown_to.chat_id, shown_to.user_id) == ("room", "alice")
    board, said = replies
    assert board.board is not None and board.board.finished and board.session_id == session_id
    assert board.board.status == said.text and said.board is None
    assert board.actions == (ActionKind.REVIEW,)  # no rematch with someone who left
    assert said.text is not None and said.text.key == "game.abandoned"
    assert said.text.params == {"player": "Bob", "winner": "Alice"}
    # No loss for the one who stayed; the one who left has one.
    alice = await store.run(stats.player_stats("test", "alice"))
    bob = await store.run(stats.player_stats("test", "bob"))
    assert alice is not None and (alice.wins, alice.losses, alice.draws) == (1, 0, 0)
    assert bob is not None and (bob.wins, bob.losses, bob.draws) == (0, 1, 0)
    assert await store.run(ratings.rating_change_of(session_id)) is None  # never rated
    # The game takes no more moves, and Alice starts another at once.
    assert (await svc.handle_move(ALICE, session_id, 1))[-1].error
    assert len((await stored(store, session_id)).moves) == 2
    assert keys(await svc.handle_text(ALICE, "/tres @carol")) == ["game.challenge"]
    # Said once: nothing is left to abandon.
    assert await svc.abandon_games("test", ["room"], "bob") == 0


async def test_a_game_left_before_any_move_counts_for_nobody(store: AnyStore) -> None:
    svc, told = make(store)
    session_id = await pvp(svc)
    assert await svc.abandon_games("test", ["room"], "alice") == 1
    assert (await stored(store, session_id)).outcome == Outcome(Termination.ABANDONED)
    assert told.keys() == ["game.abandoned_nobody"]
    assert await store.run(stats.player_stats("test", "alice")) is None
    assert await store.run(stats.player_stats("test", "bob")) is None
    assert keys(await svc.handle_text(BOB, "/tres easy")) == ["game.started"]
    assert (await store.run(sessions.live_game("test", "room", "bob"))) is not None


async def test_a_chat_the_bot_left_ends_every_game_there_and_tells_nobody(
    store: AnyStore,
) -> None:
    svc, told = make(store)
    game = await pvp(svc)
    await svc.handle_text(ALICE, "1")
    await svc.handle_text(CAROL, "/tres @dave")
    against_bot = session_of(await svc.handle_text(actor("erin"), "/tres easy"))
    elsewhere = session_of(await svc.handle_text(actor("alice", chat="other"), "/tres easy"))
    assert await svc.abandon_games("test", ["room", "gone"]) == 3
    assert told.shown == []  # the bot cannot write there any more
    for session_id in (game, against_bot):
        assert (await stored(store, session_id)).outcome == Outcome(Termination.ABANDONED)
    assert await store.run(sessions.challenge_for("test", "room", "dave")) is None
    assert await store.run(departures.live_in_chats("test", ["room"])) == []
    # Nobody stayed to claim a result: no stats at all, not a draw.
    for user in ("alice", "bob", "erin"):
        assert await store.run(stats.player_stats("test", user)) is None
    assert (await stored(store, elsewhere)).status is Status.ACTIVE


async def test_a_challenge_whose_player_left_is_withdrawn_and_the_other_told(
    store: AnyStore,
) -> None:
    svc, told = make(store)
    await svc.handle_text(ALICE, "/tres @bob")
    await svc.handle_text(CAROL, "/tres @dave")
    assert await svc.abandon_games("test", ["room"], "bob") == 1  # challenged: Alice's
    assert await svc.abandon_games("test", ["room"], "carol") == 1  # challenger: Carol's
    assert told.keys() == ["game.challenge_left", "game.challenge_left"]
    assert [replies[0].text.params for _, replies in told.shown if replies[0].text] == [
        {"player": "@bob"},  # as the challenge named him
        {"player": "Carol"},
    ]
    assert [a.user_id for a, _ in told.shown] == ["alice", "dave"]
    assert await store.run(departures.live_in_chats("test", ["room"])) == []
    assert keys(await svc.handle_text(ALICE, "/tres @carol")) == ["game.challenge"]


async def test_only_the_leavers_games_in_the_given_chats_end(store: AnyStore) -> None:
    svc, _ = make(store)
    here = await pvp(svc)
    other = session_of(await svc.handle_text(actor("bob", chat="other"), "/tres easy"))
    third = session_of(await svc.handle_text(CAROL, "/tres easy"))
    assert await svc.abandon_games("test", ["room"], "bob") == 1
    assert (await stored(store, here)).status is Status.FINISHED
    assert (await stored(store, other)).status is Status.ACTIVE
    assert (await stored(store, third)).status is Status.ACTIVE
    assert await svc.abandon_games("matrix", ["other"], "bob") == 0  # another platform's chat


async def test_a_winning_move_racing_the_departure_gives_one_outcome(store: AnyStore) -> None:
    observer = Recording()
    svc, _ = make(store, observer)
    games: list[str] = []
    for n in range(8):
        chat = f"room{n}"
        alice, bob = actor("alice", chat=chat), actor("bob", chat=chat)
        await svc.handle_text(alice, "/tres @bob first")
        games.append(session_of(await svc.handle_text(bob, "/accept")))
        for who, move in ((alice, "1"), (bob, "4"), (alice, "2"), (bob, "5")):
            await svc.handle_text(who, move)
    # Alice's winning move and Bob leaving, at once, in every room.
    await asyncio.gather(
        *(svc.handle_text(actor("alice", chat=f"room{n}"), "3") for n in range(8)),
        *(svc.abandon_games("test", [f"room{n}"], "bob") for n in range(8)),
    )
    for session_id in games:
        ended = await stored(store, session_id)
        assert ended.outcome is not None and ended.outcome.winner == 1
        assert ended.outcome.termination in (Termination.WIN, Termination.ABANDONED)
        # A win has the move on the board; an abandoned game refused it.
        assert len(ended.moves) == (5 if ended.outcome.termination is Termination.WIN else 4)
    # Each game ended once: counted once, announced once.
    assert len(observer.finished) == 8
    won = await store.run(stats.player_stats("test", "alice"))
    lost = await store.run(stats.player_stats("test", "bob"))
    assert won is not None and (won.wins, won.losses) == (8, 0)
    assert lost is not None and (lost.wins, lost.losses) == (0, 8)


async def test_a_click_on_the_board_of_a_game_that_ended_meanwhile_gets_its_end(
    store: AnyStore,
) -> None:
    svc, _ = make(store)
    session_id = await pvp(svc)
    [moved] = await svc.handle_text(ALICE, "1")
    seen = moved.version  # the board Bob still looks at
    await svc.abandon_games("test", ["room"], "alice")
    board, note = await svc.handle_move(BOB, session_id, 4, seen)
    assert board.board is not None and board.board.finished and board.board.playable == ()
    assert board.board.status == Text("game.abandoned", {"player": "Alice", "winner": "Bob"})
    assert note.private and note.text == Text("error.board_changed")


def endings() -> list[Outcome]:
    """Every outcome a game cut short may be stored with (a win or a draw is the board's)."""
    found = []
    for termination in Termination:
        for winner in (None, 1, 2):
            with contextlib.suppress(ValueError):
                found.append(Outcome(termination, winner))
    return [o for o in found if o.termination not in (Termination.WIN, Termination.DRAW)]


@pytest.mark.parametrize("outcome", endings(), ids=repr)
async def test_every_stored_ending_shows_on_the_board_a_stale_click_brings(
    store: AnyStore, outcome: Outcome
) -> None:
    svc, _ = make(store)
    session_id = await pvp(svc)
    [moved] = await svc.handle_text(ALICE, "1")
    seen = moved.version
    # However it ended (a clock, a departure, a resignation...), as the store keeps it.
    current = await stored(store, session_id)
    ended = transition(current, Event.STOP, now=NOW, ttl=3600.0, outcome=outcome)
    assert await store.run(sessions.update(ended, expected_version=current.version))
    board, _ = await svc.handle_move(BOB, session_id, 4, seen)
    assert board.board is not None and board.board.finished and board.board.to_move is None
    assert board.board.status.key not in ("game.turn", "game.challenge_status")
    winner = ("Alice", "Bob")[outcome.winner - 1] if outcome.winner else None
    assert winner is None or winner in board.board.status.params.values()


class Present:
    """A platform that can say who is still in a chat (Discord asks for the member)."""

    def __init__(self, gone: set[str], answer: bool | None = False) -> None:
        self.gone = gone
        self.answer = answer
        self.asked: list[str] = []

    async def in_chat(self, actor: Actor, user_id: str) -> bool | None:
        self.asked.append(user_id)
        if user_id == "boom":
            raise RuntimeError("the platform failed")
        return self.answer if user_id in self.gone else True


def asking(store: AnyStore, present: Present) -> tuple[GameService, Told]:
    svc, told = make(store)
    svc.register_platform(PlatformStyle("test", publish=told.publish, in_chat=present.in_chat))
    return svc, told


async def test_a_click_out_of_turn_finds_the_opponent_gone_and_ends_the_game(
    store: AnyStore,
) -> None:
    present = Present({"bob"})
    svc, told = asking(store, present)
    session_id = await pvp(svc)
    [moved] = await svc.handle_text(ALICE, "1")  # Bob to move; he has left meanwhile
    board, said = await svc.handle_move(ALICE, session_id, 4, moved.version)
    assert present.asked == ["bob"]
    assert board.board is not None and board.board.finished
    assert said.text == Text("game.abandoned", {"player": "Bob", "winner": "Alice"})
    assert not said.private
    assert (await stored(store, session_id)).outcome == Outcome(Termination.ABANDONED, 1)
    assert told.shown == []  # the click's own answer shows it


async def test_a_new_game_finds_the_old_opponent_gone_and_starts(store: AnyStore) -> None:
    present = Present({"bob"})
    svc, told = asking(store, present)
    session_id = await pvp(svc)
    await svc.handle_text(ALICE, "1")
    assert keys(await svc.handle_text(ALICE, "/tres @carol")) == ["game.challenge"]
    assert (await stored(store, session_id)).outcome == Outcome(Termination.ABANDONED, 1)
    assert told.keys() == ["game.abandoned"]  # the old board, ended in the chat
    # A challenge whose challenged player left is withdrawn the same way.
    present.gone.add("carol")
    assert keys(await svc.handle_text(ALICE, "/tres @dave")) == ["game.challenge"]
    assert told.keys()[-1] == "game.challenge_left"


@pytest.mark.parametrize(
    "opponent, gone, answer",
    [
        ("carl", {"carl"}, None),  # the platform cannot tell
        ("carl", set(), False),  # still here
        ("boom", set(), False),  # the platform failed to answer
    ],
)
async def test_an_opponent_still_here_or_unknown_keeps_the_game(
    store: AnyStore, opponent: str, gone: set[str], answer: bool | None
) -> None:
    present = Present(gone, answer)
    svc, told = asking(store, present)
    await svc.handle_text(ALICE, f"/tres @{opponent} first")
    session_id = session_of(await svc.handle_text(actor(opponent), "/accept"))
    [moved] = await svc.handle_move(ALICE, session_id, 0)
    [refused] = await svc.handle_move(ALICE, session_id, 4, moved.version)
    assert present.asked == [opponent]
    assert refused.text is not None and refused.text.key == "error.not_your_turn"
    assert (await stored(store, session_id)).status is Status.ACTIVE
    assert told.shown == []


async def test_a_server_of_many_channels_is_looked_up_in_parts(store: AnyStore) -> None:
    svc, _ = make(store)
    chats = [f"channel-{n}" for n in range(450)]
    games = [
        session_of(await svc.handle_text(actor(f"p{n}", chat=chats[n]), "/tres easy"))
        for n in (0, 199, 200, 449)
    ]
    found = await store.run(
        departures.live_in_chats("test", [*chats, *chats])
    )  # repeated ids are one
    assert sorted(s.id for s in found) == sorted(games)
    assert await svc.abandon_games("test", chats) == 4


async def test_a_server_left_ends_its_games_in_chats_nobody_listed(store: AnyStore) -> None:
    """The games of a server are found by the server they stored, beside the chats the
    platform lists (Discord's cache lists no archived thread); no other server's."""
    svc, told = make(store)

    def at(user: str, chat: str, server: str | None = "s1") -> Actor:
        return dataclasses.replace(actor(user, chat=chat), server_id=server)

    await svc.handle_text(at("alice", "thread"), "/tres @bob first")
    in_thread = session_of(await svc.handle_text(at("bob", "thread"), "/accept"))
    await svc.handle_text(at("alice", "thread"), "1")
    listed = session_of(await svc.handle_text(at("carol", "channel"), "/tres easy"))
    elsewhere = session_of(await svc.handle_text(at("bob", "room", "s2"), "/tres easy"))
    direct = session_of(await svc.handle_text(at("bob", "dm", None), "/tres easy"))
    found = await store.run(departures.live_in_chats("test", ["channel", "thread"], server_id="s1"))
    assert sorted(s.id for s in found) == sorted([in_thread, listed])  # each once
    assert sorted(await svc.live_chats("test", "s1")) == ["channel", "thread"]
    # Bob leaves the server: his game in the thread ends, Alice is told there.
    assert await svc.abandon_games("test", [], "bob", server_id="s1") == 1
    assert (await stored(store, in_thread)).outcome == Outcome(Termination.ABANDONED, 1)
    assert [(a.chat_id, a.user_id) for a, _ in told.shown] == [("thread", "alice")]
    # The bot is removed from it: the rest of the server's games end.
    assert await svc.abandon_games("test", [], server_id="s1") == 1
    assert (await stored(store, listed)).status is Status.FINISHED
    for kept in (elsewhere, direct):
        assert (await stored(store, kept)).status is Status.ACTIVE


@pytest.mark.parametrize("left", ["player", "bot"])
async def test_an_open_game_is_found_by_the_server_of_either_seat(
    store: AnyStore, left: str
) -> None:
    """Two Discord servers paired by /seek: each seat's chat is found by its own server (the
    session's by ``server_id``, the other seat's by its ``x_server``/``o_server``)."""
    svc, _ = open_service(store)
    erin = Actor("disc", "thread-e", "erin", "Erin", server_id="s1", direct=True)
    finn = Actor("disc", "thread-f", "finn", "Finn", server_id="s2", direct=True)
    assert keys(await svc.handle_text(erin, "/seek connect4")) == ["seek.queued"]
    [board] = await svc.handle_text(finn, "/seek connect4")
    assert board.board is not None and board.session_id is not None
    game = await stored(store, board.session_id)
    assert len(game.chats) == 2
    # Finn plays from s2 only, Erin from s1 only: nothing of theirs in the other server.
    assert await svc.abandon_games("disc", [], "finn", server_id="s1") == 0
    assert await svc.abandon_games("disc", [], "erin", server_id="s2") == 0
    for server, chat in (("s1", "thread-e"), ("s2", "thread-f")):
        found = await store.run(departures.live_in_chats("disc", [], server_id=server))
        assert [s.id for s in found] == [game.id]
        assert await svc.live_chats("disc", server) == [chat]  # its own chat there alone
    user = "finn" if left == "player" else None
    assert await svc.abandon_games("disc", [], user, server_id="s2") == 1
    ended = await stored(store, game.id)
    assert ended.outcome is not None and ended.outcome.termination is Termination.ABANDONED

"""What a process must tell a chat it does not serve goes through the store to the process that
serves it, on both stores with an injected clock: two (or three) GameService instances on one
store, one serving the chat (its ``PlatformStyle.serves``, as a Matrix sync lease decides)
and one holding the sweeper or pairing the players. The timeout (board and result, with the
new ratings), the reminder, the expired seek's notice and a new open game's pairing line reach
the serving process exactly once, as the sender would have shown them; an item whose claiming
process died, or whose publish failed, is shown by a later pass once the claim lapsed."""

from __future__ import annotations

import asyncio
import dataclasses
from collections import defaultdict
from collections.abc import Sequence
from typing import cast

from core.games import Outcome, Termination
from core.ports import PlatformStyle
from core.replies import ActionKind, Actor, Reply
from core.sessions import GameService
from core.sessions.openplay.relay import CLAIM
from core.sessions.views import board_reply
from core.store import outbox, sessions
from core.store.models import JsonValue, Kind, OutboxItem
from core.store.seeks import decode_seek, seek_row
from tests.backends import AnyStore
from tests.core.test_sessions import (
    ALICE,
    BOB,
    Clock,
    error_key,
    keys,
    service,
    session_of,
    store,
)

__all__ = ["store"]  # the fixture, on both stores

ANN = Actor("disc", "chan", "ann", "Ann", direct=True)
BEN = Actor("mx", "!room:hs", "ben", "Ben", direct=True)


class Chats:
    """What one process showed later (through ``publish``), by chat."""

    def __init__(self) -> None:
        self.shown: dict[str, list[Reply]] = defaultdict(list)

    async def publish(self, actor: Actor, replies: Sequence[Reply]) -> None:
        self.shown[actor.chat_id].extend(replies)

    def said(self) -> dict[str, list[str | None]]:
        return {
            chat: [reply.text.key if reply.text else None for reply in replies]
            for chat, replies in self.shown.items()
        }


def process(
    store: AnyStore, clock: Clock, *, serves: bool, platforms: Sequence[str] = ("test",)
) -> tuple[GameService, Chats]:
    """A process on ``store``: it runs ``platforms``, serving their chats or not (a Matrix
    account another process syncs)."""
    svc, chats = service(store, clock), Chats()
    for platform in platforms:
        svc.register_platform(
            PlatformStyle(platform, publish=chats.publish, serves=lambda chat: serves)
        )
    return svc, chats


async def passes(*processes: GameService) -> None:
    """One matchmaking pass in every process at once, and their messages handed over."""
    await asyncio.gather(*(svc.match_waiting() for svc in processes))
    for svc in processes:
        await svc.open_games_idle()


async def timed_game(svc: GameService, clock: str) -> str:
    """Alice challenges Bob with ``clock`` a move and starts; Bob accepts; the session id."""
    assert keys(await svc.handle_text(ALICE, f"/tres @bob {clock} first")) == ["game.challenge"]
    return session_of(await svc.handle_text(BOB, "/accept"))


# --- the clock ----------------------------------------------------------------------------------


async def test_a_timeout_reaches_the_serving_process_once(store: AnyStore) -> None:
    clock = Clock()
    sweeper, swept = process(store, clock, serves=False)
    serving, chats = process(store, clock, serves=True)
    other, others = process(store, clock, serves=True)  # a second process serving the room
    session_id = await timed_game(serving, "1m")
    await serving.handle_move(ALICE, session_id, 4)
    await serving.handle_move(BOB, session_id, 0)  # two moves: a rated game
    clock.advance(60)
    assert await sweeper.sweep_clocks() == 1
    await sweeper.clocks_idle()
    assert swept.shown == {}
    await passes(serving, other, sweeper)
    await passes(serving, other, sweeper)
    # Shown by one of the two processes serving the room, once.
    assert set(chats.shown) | set(others.shown) == {"room"}
    board, result = chats.shown["room"] + others.shown["room"]
    # The board edited to its end, then the result as a message of its own with the new
    # ratings under it, as a move that ends a rated game says it.
    assert board.board is not None and board.board.finished and board.text is None
    assert not board.new_message and ActionKind.REMATCH in board.actions
    assert result.new_message and result.board is None and result.text is not None
    assert result.text.key == "ratings.game_result"
    assert result.text == board.board.status
    assert result.text.render("en").startswith("Alice ran out of time. Bob wins.")
    assert "Ratings: Alice" in result.text.render("en")
    stored = await store.run(sessions.get(session_id))
    assert stored is not None and stored.outcome == Outcome(Termination.TIMEOUT, 2)


async def test_a_timeout_says_the_new_ratings_where_it_is_swept(store: AnyStore) -> None:
    clock = Clock()
    svc, chats = process(store, clock, serves=True)
    session_id = await timed_game(svc, "30s")
    await svc.handle_move(ALICE, session_id, 4)
    await svc.handle_move(BOB, session_id, 0)
    clock.advance(30)
    assert await svc.sweep_clocks() == 1
    await svc.clocks_idle()
    [board, result] = chats.shown["room"]
    assert board.board is not None and result.text == board.board.status
    assert result.text.key == "ratings.game_result"
    assert "Ratings: Alice" in result.text.render("en")


async def test_a_reminder_reaches_the_serving_process_once(store: AnyStore) -> None:
    clock = Clock()
    sweeper, swept = process(store, clock, serves=False)
    serving, chats = process(store, clock, serves=True)
    other, others = process(store, clock, serves=True)
    await timed_game(serving, "5m")
    clock.advance(240)  # 60 s of 300 left
    await sweeper.sweep_clocks()
    await sweeper.sweep_clocks()
    await sweeper.clocks_idle()
    clock.advance(5)  # seen a little later, with the time left then
    await passes(serving, other, sweeper)
    await passes(serving, other, sweeper)
    assert swept.shown == {}
    [reminder] = chats.shown["room"] + others.shown["room"]
    assert reminder.mention == "alice" and reminder.new_message and not reminder.private
    assert reminder.text is not None
    assert reminder.text.render("en") == "Alice, it is your move. Time left: 55 seconds."


async def test_a_reminder_for_a_move_already_played_is_not_shown(store: AnyStore) -> None:
    clock = Clock()
    sweeper, _ = process(store, clock, serves=False)
    serving, chats = process(store, clock, serves=True)
    session_id = await timed_game(serving, "5m")
    clock.advance(240)
    await sweeper.sweep_clocks()
    await sweeper.clocks_idle()
    await serving.handle_move(ALICE, session_id, 4)  # before the serving process looked
    await passes(serving)
    assert chats.shown == {}


# --- matchmaking --------------------------------------------------------------------------------


async def test_an_expired_seeks_notice_reaches_the_serving_process_once(store: AnyStore) -> None:
    clock = Clock()
    pairing, paired_chats = process(store, clock, serves=False, platforms=("disc", "mx"))
    serving, chats = process(store, clock, serves=True, platforms=("disc", "mx"))
    other, others = process(store, clock, serves=True, platforms=("disc", "mx"))
    assert keys(await serving.handle_text(BEN, "!seek tres")) == ["seek.queued"]
    clock.advance(601)
    await passes(pairing)  # expires the seek: its chat is served elsewhere
    assert paired_chats.shown == {}
    await passes(serving, other, pairing)
    await passes(serving, other, pairing)
    [notice] = chats.shown[BEN.chat_id] + others.shown[BEN.chat_id]
    assert notice.text is not None and notice.text.key == "seek.expired"
    assert notice.text.render("en").startswith("Ben, nobody")


async def test_a_new_open_games_board_shown_elsewhere_has_its_pairing_line(
    store: AnyStore,
) -> None:
    clock = Clock()
    # The pairing process runs Discord (it answers Ann) but does not serve Matrix.
    pairing, paired_chats = process(store, clock, serves=False, platforms=("mx",))
    pairing.register_platform(PlatformStyle("disc", publish=paired_chats.publish))
    serving, chats = process(store, clock, serves=True, platforms=("disc", "mx"))
    assert keys(await serving.handle_text(BEN, "!seek tres")) == ["seek.queued"]
    [answer] = await pairing.handle_text(ANN, "/seek tres")
    assert answer.text is not None and answer.text.key == "seek.paired"
    await pairing.open_games_idle()
    assert paired_chats.shown == {}
    # Ann moves before the serving process looks (after Ben if he plays first): her move
    # leaves the board due in Ben's room too, and the new game's board, shown there later, has
    # it: it comes once.
    game = await store.run(sessions.get(str(answer.session_id)))
    assert game is not None
    moves = [(ANN, pairing, "5")]
    if game.seats[0].user_id == BEN.user_id:
        moves = [(BEN, serving, "5"), (ANN, pairing, "1")]
    for who, where, cell in moves:
        assert error_key(await where.handle_text(who, cell)) is None
        await where.open_games_idle()
    moved = await store.run(sessions.get(game.id))
    assert moved is not None and len(moved.moves) == len(moves)
    await passes(serving, pairing)
    await passes(serving, pairing)
    [shown] = chats.shown[BEN.chat_id]
    # What the pairing process would have shown there: the board as a new message under the
    # same line (the mode, both players with their platform and rating, the clock).
    assert shown.new_message and shown.text == answer.text
    assert shown.board == board_reply(moved).board
    expected = dataclasses.replace(answer, board=shown.board, version=moved.version)
    assert dataclasses.replace(shown, locale=None, theme=None) == dataclasses.replace(
        expected, locale=None, theme=None
    )


async def test_an_open_games_timeout_is_told_in_both_chats_once(store: AnyStore) -> None:
    clock = Clock()
    # The sweeper runs Discord and stands by for Matrix; another process syncs Matrix.
    sweeper, swept = process(store, clock, serves=False, platforms=("mx",))
    sweeper.register_platform(PlatformStyle("disc", publish=swept.publish))
    serving, chats = process(store, clock, serves=True, platforms=("mx",))
    await serving.handle_text(BEN, "!seek tres")
    [answer] = await sweeper.handle_text(ANN, "/seek tres")
    await sweeper.open_games_idle()
    await passes(serving)
    session_id = answer.session_id
    assert session_id is not None
    clock.advance(120)  # open play's clock: nobody moved (an unrated end)
    assert await sweeper.sweep_clocks() == 1
    await sweeper.clocks_idle()
    await passes(serving, sweeper)
    await passes(serving, sweeper)
    # Each chat: the board edited to its end and the result, once (the Matrix one as the
    # sweeper would have said it).
    assert swept.said() == {ANN.chat_id: [None, "game.timeout"]}
    assert chats.said() == {BEN.chat_id: ["seek.paired", None, "game.timeout"]}
    assert chats.shown[BEN.chat_id][2].text == swept.shown[ANN.chat_id][1].text


async def test_a_chat_is_shown_what_it_is_told_in_order(store: AnyStore) -> None:
    """Two moves of one player reach the other chat as two publishes; the first one's platform
    is slow (a rate limit): the second waits for it, so the newer board is shown last."""
    held = asyncio.Event()
    shown: dict[str, list[Reply]] = defaultdict(list)
    holding: set[str] = set()

    async def publish(actor: Actor, replies: Sequence[Reply]) -> None:
        if actor.chat_id in holding:
            holding.discard(actor.chat_id)
            await held.wait()
        shown[actor.chat_id].extend(replies)

    svc = service(store, Clock())
    for platform in ("disc", "mx"):
        svc.register_platform(PlatformStyle(platform, publish=publish))
    await svc.handle_text(ANN, "/seek tres")
    [answer] = await svc.handle_text(BEN, "!seek tres")
    await svc.open_games_idle()
    game = await store.run(sessions.get(str(answer.session_id)))
    assert game is not None
    first, second = (ANN, BEN) if game.seats[0].user_id == ANN.user_id else (BEN, ANN)
    shown.clear()
    holding.add(second.chat_id)
    for who, cell in ((first, "5"), (second, "1"), (first, "9")):
        assert error_key(await svc.handle_text(who, cell)) is None
    held.set()
    await svc.open_games_idle()
    versions = [reply.board.version for reply in shown[second.chat_id] if reply.board]
    assert versions == [game.version + 1, game.version + 3]


# --- at least once ------------------------------------------------------------------------------


async def expired_notice(store: AnyStore, clock: Clock) -> tuple[GameService, Chats]:
    """Ben's seek expired by a process that does not serve his room: its notice is in the
    outbox; that process and what it showed."""
    pairing, paired_chats = process(store, clock, serves=False, platforms=("disc", "mx"))
    assert keys(await pairing.handle_text(BEN, "!seek tres")) == ["seek.queued"]
    clock.advance(601)
    await passes(pairing)
    assert paired_chats.shown == {}
    return pairing, paired_chats


async def test_a_claim_whose_process_died_is_shown_by_another_once(store: AnyStore) -> None:
    clock = Clock()
    await expired_notice(store, clock)
    # A process claims the notice and dies before showing it (it never says it was shown).
    [item] = await store.run(outbox.outbox_due("mx", clock()))
    assert item.id is not None
    assert await store.run(outbox.outbox_take(item.id, clock(), clock() + CLAIM))
    serving, chats = process(store, clock, serves=True, platforms=("disc", "mx"))
    other, others = process(store, clock, serves=True, platforms=("disc", "mx"))
    await passes(serving, other)
    assert chats.shown == {} and others.shown == {}  # the claim holds
    clock.advance(CLAIM)
    await passes(serving, other)
    await passes(serving, other)
    [notice] = chats.shown[BEN.chat_id] + others.shown[BEN.chat_id]
    assert notice.text is not None and notice.text.key == "seek.expired"
    assert await store.run(outbox.outbox_due("mx", clock() + CLAIM)) == []


async def test_a_publish_that_fails_leaves_the_item_for_a_later_pass(store: AnyStore) -> None:
    clock = Clock()
    pairing, _ = await expired_notice(store, clock)
    chats = Chats()
    failing = [ConnectionError("the homeserver is away")]

    async def publish(actor: Actor, replies: Sequence[Reply]) -> None:
        if failing:
            raise failing.pop()
        await chats.publish(actor, replies)

    serving = service(store, clock)
    for platform in ("disc", "mx"):
        serving.register_platform(PlatformStyle(platform, publish=publish))
    await passes(serving, pairing)
    assert chats.shown == {} and not failing
    await passes(serving, pairing)
    assert chats.shown == {}  # claimed still: a publish slower than the claim is not repeated
    clock.advance(CLAIM)
    await passes(serving, pairing)
    await passes(serving, pairing)
    assert chats.said() == {BEN.chat_id: ["seek.expired"]}


async def test_processes_passing_at_once_show_each_item_once(store: AnyStore) -> None:
    clock = Clock()
    await expired_notice(store, clock)
    [item] = await store.run(outbox.outbox_due("mx", clock()))
    seek = decode_seek(cast(list[JsonValue], item.detail["seek"]))
    assert seek is not None
    # Forty notices in twenty chats, two each: three processes serving them pass at once.
    for n in range(40):
        chat = f"!r{n % 20}:hs"
        detail: dict[str, JsonValue] = {
            "seek": list(seek_row(dataclasses.replace(seek, chat_id=chat, name=f"P{n}")))
        }
        await store.run(
            outbox.outbox_put(OutboxItem(Kind.SEEK_EXPIRED, "mx", chat, detail=detail), 4e9)
        )
    # One record of what all three showed, in the order their platforms took it.
    chats = Chats()
    serving = [service(store, clock) for _ in range(3)]
    for svc in serving:
        for platform in ("disc", "mx"):
            svc.register_platform(PlatformStyle(platform, publish=chats.publish))
    await passes(*serving)
    await passes(*serving)
    shown = {
        chat: [reply.text.render("en").split(",")[0] for reply in replies if reply.text]
        for chat, replies in chats.shown.items()
    }
    assert sorted(name for names in shown.values() for name in names) == sorted(
        ["Ben", *(f"P{n}" for n in range(40))]
    )
    # Each chat's two in the order left, whichever process showed them.
    for n in range(20):
        assert shown[f"!r{n}:hs"] == [f"P{n}", f"P{n + 20}"]

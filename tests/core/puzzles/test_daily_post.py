"""The daily post, on both stores: once the hour of a chat's ``daily_puzzle`` setting has come,
the day's puzzle is posted there once a day, through the outbox, whatever the number of
processes looking at once; the next day at that hour, the next puzzle (issue 35)."""

from __future__ import annotations

import asyncio
import datetime
import random
from collections import Counter
from collections.abc import Sequence

from core.ports import PlatformStyle
from core.replies import Actor, Reply
from core.sessions import GameService, ServiceSettings
from core.sessions.puzzles.board import daily_board
from core.sessions.puzzles.solving import daily
from core.store import SettingRow, outbox, settings
from tests.backends import AnyStore, Backend

DAY = datetime.date(2023, 11, 16)


def at(hour: int, minute: int = 0, day: datetime.date = DAY) -> float:
    return datetime.datetime(
        day.year, day.month, day.day, hour, minute, tzinfo=datetime.UTC
    ).timestamp()


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


class Posts:
    """What one process's platforms showed, by chat."""

    def __init__(self) -> None:
        self.shown: list[tuple[str, str, Reply]] = []

    def style(self, platform: str) -> PlatformStyle:
        async def publish(actor: Actor, replies: Sequence[Reply]) -> None:
            self.shown.extend((actor.platform, actor.chat_id, reply) for reply in replies)

        return PlatformStyle(platform, publish=publish)


def service(store: AnyStore, clock: Clock, posts: Posts, platform: str) -> GameService:
    svc = GameService(
        store, settings=ServiceSettings(ai_workers=0), clock=clock, rng=random.Random(1)
    )
    svc.register_platform(posts.style(platform))
    return svc


async def daily_at(store: AnyStore, platform: str, chat: str, hour: str) -> None:
    row = SettingRow(platform, f"chat:{chat}", "daily_puzzle", hour, 0.0, "test")
    await store.run(settings.setting_put(row))


async def test_fifty_chats_across_two_processes_get_one_post_each(backend: Backend) -> None:
    clock = Clock(at(9, 30))
    chats = [("test" if n % 2 else "other", f"c{n}") for n in range(50)]
    async with backend.open() as first_store, backend.open() as second_store:
        for platform, chat in chats:
            await daily_at(first_store, platform, chat, "9")
        await daily_at(first_store, "test", "later", "10")  # not due yet
        await daily_at(first_store, "test", "off", "none")
        first, second = Posts(), Posts()
        # each process serves one platform: the other's posts go through the outbox
        one = service(first_store, clock, first, "test")
        two = service(second_store, clock, second, "other")
        left = await asyncio.gather(
            one.post_daily_puzzles(), two.post_daily_puzzles(), one.post_daily_puzzles()
        )
        assert sum(left) == 50
        await asyncio.gather(one.match_waiting(), two.match_waiting())
        await asyncio.gather(one.open_games_idle(), two.open_games_idle())
        assert sum(await asyncio.gather(one.post_daily_puzzles(), two.post_daily_puzzles())) == 0
        shown = Counter((p, c) for p, c, _ in (*first.shown, *second.shown))
        assert shown == Counter(chats)
        assert {p for p, _, _ in first.shown} == {"test"}
        assert {p for p, _, _ in second.shown} == {"other"}
        assert await first_store.run(outbox.outbox_due("test", clock.now)) == []
        assert await first_store.run(outbox.outbox_due("other", clock.now)) == []
        reply = first.shown[0][2]
        assert reply.new_message and reply.board is not None and reply.text is not None
        assert reply.board.session_id == daily_board(daily(DAY))
        assert reply.text.key == "puzzle.daily" and reply.text.params["date"] == "2023-11-16"


async def test_the_post_comes_at_its_hour_once_a_day(backend: Backend) -> None:
    clock = Clock(at(8, 59))
    async with backend.open() as store:
        await daily_at(store, "test", "room", "9")
        posts = Posts()
        svc = service(store, clock, posts, "test")
        assert await svc.post_daily_puzzles() == 0
        clock.now = at(9, 0)
        assert await svc.post_daily_puzzles() == 1
        await svc.open_games_idle()
        clock.now = at(23, 59)
        assert await svc.post_daily_puzzles() == 0
        clock.now = at(0, 30, DAY + datetime.timedelta(days=1))  # midnight UTC has passed
        assert await svc.post_daily_puzzles() == 0  # not 9 yet
        clock.now = at(9, 1, DAY + datetime.timedelta(days=1))
        assert await svc.post_daily_puzzles() == 1
        await svc.open_games_idle()
        boards = [reply.board for _, _, reply in posts.shown]
        assert [b.session_id for b in boards if b is not None] == [
            daily_board(daily(DAY)),
            daily_board(daily(DAY + datetime.timedelta(days=1))),
        ]


async def test_a_move_said_to_the_bot_answers_the_post(backend: Backend) -> None:
    clock = Clock(at(10))
    async with backend.open() as store:
        await daily_at(store, "test", "room", "9")
        svc = service(store, clock, Posts(), "test")
        await svc.post_daily_puzzles()
        puzzle = daily(DAY)
        alice = Actor("test", "room", "alice", "Alice")
        assert await svc.handle_text(alice, str(puzzle.solution + 1)) == []  # chatter
        answered = await svc.handle_text(alice, f"/{puzzle.solution + 1}")
        assert answered[0].board is not None and answered[0].board.version == 1
        elsewhere = Actor("test", "other-room", "bob", "Bob")
        refused = await svc.handle_text(elsewhere, f"/{puzzle.solution + 1}")
        assert [r.text.key for r in refused if r.text] == ["error.no_game"]


async def test_the_lease_holder_posts_when_the_services_start(backend: Backend) -> None:
    clock = Clock(at(9, 5))
    async with backend.open() as first_store, backend.open() as second_store:
        await daily_at(first_store, "test", "room", "9")
        posts = Posts()
        shown = asyncio.Event()
        style = posts.style("test")
        publish = style.publish
        assert publish is not None

        async def told(actor: Actor, replies: Sequence[Reply]) -> None:
            await publish(actor, replies)
            shown.set()

        services = []
        for store in (first_store, second_store):
            svc = GameService(store, settings=ServiceSettings(ai_workers=0), clock=clock)
            svc.register_platform(PlatformStyle("test", publish=told))
            services.append(svc)
        await asyncio.gather(*(svc.start() for svc in services))
        try:
            await asyncio.wait_for(shown.wait(), 30)
            again = await asyncio.gather(*(svc.post_daily_puzzles() for svc in services))
            assert again == [0, 0]
        finally:
            await asyncio.gather(*(svc.close() for svc in services))
        assert [(p, c) for p, c, _ in posts.shown] == [("test", "room")]

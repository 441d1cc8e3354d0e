"""Anything from anyone, anywhere, through the whole service: replies, never an exception; every
stored game stays valid (its history replays legally and its status matches it), and only the
people of a game change it, each on their own turn."""

from __future__ import annotations

import asyncio
import random
import sqlite3
import tempfile
from dataclasses import dataclass
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from core.games import Position
from core.replies import ActionKind, Actor, Reply
from core.sessions import GameService, ServiceSettings
from core.store import Session, SqliteStore, Status
from core.store import sessions as store_sessions

USERS = ("alice", "bob", "carol")
CHATS = ("c1", "c2")
COMMANDS = (
    "/tres",
    "/tres easy",
    "/tres hard",
    "/tres medium second",
    "/tres @bob",
    "/tres @alice random",
    "/tres @carol first",
    "/quatre 4x5 @bob second",
    "/quatre 4x4 easy",
    "/ratlla 5x5 4 medium random",
    "/tres bot easy",
    "/ratlla 4x4 3 bot easy medium",
    "/accept",
    "/decline",
    "/rematch",
    "/final",
    "/quit",
    "/stats",
    "/stats @bob",
    "/top",
    "/help",
    "!5",
    "5",
    "1",
    "9",
    "b2",
    "a1",
    "c3",
    "z9",
    "0",
    "!",
    "/",
    "",
)


@dataclass(frozen=True)
class Say:
    user: str
    chat: str
    text: str
    addressed: bool


@dataclass(frozen=True)
class Click:
    user: str
    chat: str
    pick: int  # which known session
    move: int
    version: int | None


@dataclass(frozen=True)
class Press:
    user: str
    chat: str
    pick: int
    action: ActionKind
    version: int | None


@dataclass(frozen=True)
class Wait:
    seconds: float


users = st.sampled_from(USERS)
chats = st.sampled_from(CHATS)
texts = st.one_of(st.sampled_from(COMMANDS), st.text(max_size=40))
steps = st.lists(
    st.one_of(
        st.builds(Say, users, chats, texts, st.booleans()),
        st.builds(Say, users, chats, st.sampled_from(COMMANDS), st.booleans()),
        st.builds(
            Click,
            users,
            chats,
            st.integers(0, 10),
            st.integers(-3, 40),
            st.none() | st.integers(0, 12),
        ),
        # Clicks that are legal on a 3x3 board with no version, so that the players' and the
        # onlookers' clicks on a live game are common.
        st.builds(Click, users, chats, st.integers(0, 3), st.integers(0, 8), st.none()),
        st.builds(
            Press,
            users,
            chats,
            st.integers(0, 10),
            st.sampled_from(ActionKind),
            st.none() | st.integers(0, 4),
        ),
        st.builds(Wait, st.sampled_from([1.0, 60.0, 130.0, 90_000.0])),
    ),
    max_size=25,
)


class Clock:
    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        return self.now


async def _scenario(path: Path, script: list[Say | Click | Press | Wait], seed: int) -> None:
    clock = Clock()
    async with SqliteStore.open(path) as store:
        svc = GameService(
            store,
            settings=ServiceSettings(ai_workers=0, ai_budget=0.02, bot_vs_bot_budget=0.02),
            clock=clock,
            rng=random.Random(seed),
        )
        known: list[str] = []
        before = await _snapshot(store)
        for step in script:
            replies: list[Reply]
            if isinstance(step, Wait):
                clock.now += step.seconds
                continue
            who = Actor("test", step.chat, step.user, step.user.title(), "ca")
            if isinstance(step, Say):
                replies = await svc.handle_text(who, step.text, addressed=step.addressed)
            elif isinstance(step, Click):
                target = known[step.pick % len(known)] if known else "nope"
                replies = await svc.handle_move(who, target, step.move, step.version)
            else:
                target = known[step.pick % len(known)] if known else "nope"
                replies = await svc.handle_action(who, target, step.action, step.version)
            for reply in replies:
                assert reply.text is None or reply.text.key != "error.internal", step
                if reply.text is not None:
                    reply.text.render(who.locale)  # every text renders
                if reply.error:
                    assert reply.private
                if reply.session_id and reply.session_id not in known:
                    known.append(reply.session_id)
            after = await _snapshot(store)
            _check_store(after)
            _check_who_changed(before, after, step.user, clock.now, step)
            before = after


async def _snapshot(store: SqliteStore) -> dict[str, Session]:
    # Through a second, plain connection to the real file: the ids, then each session as the
    # store itself loads it.
    db = sqlite3.connect(store.path)
    try:
        ids = [row[0] for row in db.execute("SELECT id FROM sessions")]
    finally:
        db.close()
    sessions = {}
    for session_id in ids:
        session = await store.run(store_sessions.get(session_id))
        assert session is not None
        sessions[session_id] = session
    return sessions


def _check_store(sessions: dict[str, Session]) -> None:
    live: dict[tuple[str, str], str] = {}
    for session_id, session in sessions.items():
        position = Position.from_moves(session.rules, session.moves)  # a legal history
        if session.status is Status.FINISHED:
            if position.is_over:
                assert session.winner == position.winner
            else:  # resigned (the winner is a seat) or a stopped bots' game (no winner)
                assert session.moves and session.winner in (1, 2, None)
                assert session.winner is not None or all(s.is_bot for s in session.seats)
        else:
            assert not position.is_over
        if session.status is Status.CHALLENGE:
            assert not session.moves
        for user in session.live_users:
            assert (session.chat_id, user) not in live  # one live game per user per chat
            live[(session.chat_id, user)] = session_id


def _check_who_changed(
    before: dict[str, Session], after: dict[str, Session], user: str, now: float, step: object
) -> None:
    """Only a game's players change it, and only on their turn (the bot answers after them);
    only the people of a challenge answer it; nobody else removes a live game."""
    for session_id, old in before.items():
        new = after.get(session_id)
        seat = old.seat_of(user)
        watcher = all(s.is_bot for s in old.seats) and old.challenger == user
        if new is None:
            expired = old.expires_at <= now
            involved = seat is not None or watcher or user in (old.challenger, old.challenged)
            # A finished bots' game gives its one rematch to whoever asks first.
            bots_rematch = old.status is Status.FINISHED and all(s.is_bot for s in old.seats)
            assert expired or involved or bots_rematch, (step, old)
            continue
        if new.version == old.version:
            assert new == old, step
            continue
        added = new.moves[len(old.moves) :]
        assert new.moves[: len(old.moves)] == old.moves, step
        if old.status is Status.CHALLENGE:
            assert user == old.challenged and not added, (step, old, new)
            continue
        assert seat is not None or watcher, (step, old, new)
        position = Position.from_moves(old.rules, old.moves)
        for move in added:
            mover = old.seats[position.to_move - 1]
            # A person's stone is the actor's own; every other new stone is the bot's.
            assert mover.is_bot or (mover.user_id == user and move == added[0]), (step, new)
            position = position.play(move)


@settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(script=steps, seed=st.integers(0, 2**32))
# A third party in the chat clicks a game that is not theirs, and declines another's challenge.
@example(script=[Say("alice", "c1", "/tres easy", True), Click("carol", "c1", 0, 4, None)], seed=1)
# Someone else presses Rematch under a bots' game that was watched to its end (allowed).
@example(
    script=[
        Say("alice", "c1", "/tres bot easy", False),
        Press("bob", "c1", 0, ActionKind.REMATCH, None),
    ],
    seed=0,
)
@example(
    script=[
        Say("alice", "c1", "/tres @bob", True),
        Press("carol", "c1", 0, ActionKind.DECLINE, None),
        Press("carol", "c1", 0, ActionKind.ACCEPT, None),
    ],
    seed=1,
)
def test_anything_from_anyone_never_breaks_the_service(
    script: list[Say | Click | Press | Wait], seed: int
) -> None:
    with tempfile.TemporaryDirectory() as directory:
        asyncio.run(_scenario(Path(directory) / "fuzz.sqlite3", script, seed))

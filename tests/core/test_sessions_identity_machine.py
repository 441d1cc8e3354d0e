"""One player is one player, whatever a person does with ``/link``, ``/unlink``, ``/seek``,
``/seek cancel``, ``/block``, ``/unblock``, a game with the bot and ``/final``, in any order
(issue 32): a hypothesis state machine drives the service as players would, on both stores, and
after every step checks that

- nobody was paired with himself, nor with someone who blocked him (or whom he blocked) and did
  not unblock since;
- nobody who was given a game holds more live games than his cap;
- every seek in the queue is its person's, so ``/seek cancel`` from any of his accounts finds
  it (and the cancel step checks that it does).

Blocks are followed in the test by account: a block of one person by another holds between
every account of each at that moment, is taken on by an account that joins either of them
(``/link``), is dropped when the two become one, is kept by an account taken out
(``/unlink``), and is gone between every account of each when one unblocks the other (the
unblock step checks that the answer says whether there was one). Identities are read from the
store (the rules of linking are tested on their own in test_sessions_ratings.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import random
from collections.abc import Coroutine
from typing import Any, TypeVar

from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule, run_state_machine_as_test

from core.ports import PlatformStyle
from core.replies import Actor, Reply
from core.sessions import GameService, ServiceSettings
from core.store import ratings, seeks, sessions, stats
from tests.backends import AnyStore, Backend
from tests.core.test_sessions import Clock, error_key, keys

T = TypeVar("T")

CAP = 1
"""Every chat's ``max_games_per_user``: the cap is reached by one game."""
PLATFORMS = ("disc", "mx")
PEOPLE = 2

Account = tuple[str, str]  # (platform, user id)

accounts = st.tuples(st.sampled_from(PLATFORMS), st.integers(0, PEOPLE - 1))
_runs = itertools.count()


def machine(backend: Backend, examples: int, steps: int) -> None:
    """Run the state machine on ``backend`` (one store, opened in a loop of its own)."""
    loop = asyncio.new_event_loop()
    try:
        opened = backend.open()
        store: AnyStore = loop.run_until_complete(opened.__aenter__())

        class Here(OnePlayer):
            def __init__(self) -> None:
                super().__init__(loop, backend, store)

        try:
            run_state_machine_as_test(
                Here,
                settings=settings(
                    max_examples=examples,
                    stateful_step_count=steps,
                    deadline=None,
                    suppress_health_check=[HealthCheck.too_slow],
                    phases=[Phase.explicit, Phase.reuse, Phase.generate],
                ),
            )
        finally:
            loop.run_until_complete(opened.__aexit__(None, None, None))
    finally:
        loop.close()


class OnePlayer(RuleBasedStateMachine):
    def __init__(self, loop: asyncio.AbstractEventLoop, backend: Backend, store: AnyStore):
        super().__init__()
        self._loop = loop
        self._backend = backend
        self._store = store
        # Accounts of this run only (the store is shared by the runs of one test).
        self._run = f"r{next(_runs)}"
        self.clock = Clock()
        self.svc = GameService(
            store,
            settings=ServiceSettings(
                ai_workers=0,
                ai_budget=0.02,
                chat_defaults={"max_games_per_user": CAP},
                limits=False,  # no rate limit: the caps hold all the same
            ),
            clock=self.clock,
            rng=random.Random(7),
        )
        self.svc.register_platform(PlatformStyle("disc", private_replies=True))
        self.svc.register_platform(PlatformStyle("mx", prefix="!"))
        self.blocks: set[tuple[Account, Account]] = set()
        self.games: set[str] = set()
        self.groups = self._groups()  # read again after each link and unlink

    # --- helpers ------------------------------------------------------------------------------

    def _wait(self, work: Coroutine[Any, Any, T]) -> T:
        return self._loop.run_until_complete(work)

    def _account(self, picked: tuple[str, int]) -> Account:
        return picked[0], f"{self._run}p{picked[1]}"

    def _everyone(self) -> list[Account]:
        return [self._account((p, n)) for p in PLATFORMS for n in range(PEOPLE)]

    @staticmethod
    def _actor(account: Account, chat: str = "dm") -> Actor:
        platform, user = account
        return Actor(platform, f"{chat}-{user}", user, user.upper(), direct=True)

    def _say(self, account: Account, text: str, chat: str = "dm") -> list[Reply]:
        prefix = "!" if account[0] == "mx" else "/"
        return self._wait(self.svc.handle_text(self._actor(account, chat), prefix + text))

    async def _identities(self) -> dict[Account, str]:
        found = {}
        for account in self._everyone():
            found[account] = (await self._store.run(ratings.player_ratings(*account)))[0]
        return found

    def _groups(self) -> dict[Account, frozenset[Account]]:
        """Each account's person: the accounts of its identity."""
        self.identities = identities = self._wait(self._identities())
        return {
            a: frozenset(b for b, other in identities.items() if other == identity)
            for a, identity in identities.items()
        }

    async def _open_games(self) -> set[str]:
        """The live games of this run's people (open games sit in their direct chats)."""
        found = set()
        for platform, user in self._everyone():
            game = await self._store.run(sessions.live_game(platform, f"dm-{user}", user))
            if game is not None:
                found.add(game.id)
        return found

    # --- the steps ----------------------------------------------------------------------------

    @rule(who=accounts)
    def seek(self, who: tuple[str, int]) -> None:
        account = self._account(who)
        identity = self.identities[account]
        waiting = self._wait(self._store.run(seeks.seek_of(identity)))
        replies = self._say(account, "seek tres casual")
        if waiting is not None:
            # Never a second seek (this account's game in this chat is said first).
            assert error_key(replies) in ("error.seek_twice", "error.already_playing"), replies
        else:
            assert error_key(replies) in (None, "limits.user_games", "error.already_playing")

    @rule(who=accounts)
    def cancel(self, who: tuple[str, int]) -> None:
        account = self._account(who)
        identity = self.identities[account]
        waiting = self._wait(self._store.run(seeks.seek_of(identity)))
        replies = self._say(account, "seek cancel")
        if waiting is None:
            assert error_key(replies) == "error.seek_none", replies
        else:
            assert keys(replies) == ["seek.cancelled"], replies

    @rule(who=accounts, whom=st.integers(0, PEOPLE - 1))
    def block(self, who: tuple[str, int], whom: int) -> None:
        account = self._account(who)
        target = self._account((who[0], whom))
        groups = self.groups
        replies = self._say(account, f"block @{target[1]}")
        if error_key(replies) == "error.block_self":
            assert target in groups[account]
            return
        assert keys(replies) in (["block.done"], ["block.already"]), replies
        self.blocks |= {(a, b) for a in groups[account] for b in groups[target]}

    @rule(who=accounts, whom=st.integers(0, PEOPLE - 1))
    def unblock(self, who: tuple[str, int], whom: int) -> None:
        account = self._account(who)
        target = self._account((who[0], whom))
        groups = self.groups
        replies = self._say(account, f"unblock @{target[1]}")
        if error_key(replies) == "error.unblock_self":
            assert target in groups[account]
            return
        undone = {(a, b) for a in groups[account] for b in groups[target]}
        # The answer says whether there was a block to undo, as the blocks followed here say.
        expected = "unblock.done" if undone & self.blocks else "unblock.not_blocked"
        assert keys(replies) == [expected], replies
        self.blocks -= undone

    @rule(giver=accounts, taker=accounts)
    def link(self, giver: tuple[str, int], taker: tuple[str, int]) -> None:
        given = self._say(self._account(giver), "link")
        text = given[0].text
        assert text is not None and text.key == "ratings.link_code", given
        before = self.groups
        self._say(self._account(taker), f"link {text.params['code']}")
        self.groups = after = self._groups()
        for group in set(after.values()) - set(before.values()):
            # Whoever blocked (or was blocked by) one of the joined accounts, the person.
            self.blocks |= {(g, b) for a, b in self.blocks if a in group for g in group}
            self.blocks |= {(a, g) for a, b in self.blocks if b in group for g in group}
            self.blocks = {(a, b) for a, b in self.blocks if not (a in group and b in group)}

    @rule(who=accounts)
    def unlink(self, who: tuple[str, int]) -> None:
        replies = self._say(self._account(who), "unlink")
        assert error_key(replies) in (None, "ratings.not_linked"), replies
        self.groups = self._groups()

    @rule(who=accounts)
    def game_with_the_bot(self, who: tuple[str, int]) -> None:
        replies = self._say(self._account(who), "tres easy", chat="elsewhere")
        assert error_key(replies) in (None, "limits.user_games", "error.already_playing")

    @rule(who=accounts, chat=st.sampled_from(["dm", "elsewhere"]))
    def final(self, who: tuple[str, int], chat: str) -> None:
        self._say(self._account(who), "final", chat=chat)

    @rule()
    def a_pass_over_the_queue(self) -> None:
        self._wait(self.svc.match_waiting())

    # --- after every step ---------------------------------------------------------------------

    @invariant()
    def new_games_are_between_two_people_who_may_meet_within_their_caps(self) -> None:
        if not hasattr(self, "groups"):
            return  # before __init__ ended
        now = self._wait(self._open_games())
        new, self.games = now - self.games, now
        groups = self.groups
        for session_id in new:
            session = self._wait(self._store.run(sessions.get(session_id)))
            assert session is not None
            if any(seat.user_id is None for seat in session.seats):
                continue  # a game with the bot
            u, v = ((session.chat_of(n)[0], session.seats[n - 1].user_id or "") for n in (1, 2))
            assert groups[u] != groups[v], f"{u} was paired with himself ({v})"
            assert (u, v) not in self.blocks and (v, u) not in self.blocks, (u, v)
            for person in (groups[u], groups[v]):
                held = sum(self._wait(self._live(account)) for account in person)
                assert held <= CAP, f"{sorted(person)} hold {held} live games"

    async def _live(self, account: Account) -> int:
        platform, user = account
        return (await self._store.run(stats.live_counts(platform, f"dm-{user}", user))).user

    @invariant()
    def every_seek_is_its_persons(self) -> None:
        if not hasattr(self, "groups"):
            return
        for seek in self._wait(self._store.run(seeks.waiting_seeks(self.clock.now, limit=500))):
            account = (seek.platform, seek.user_id)
            if account in self.identities:
                assert self.identities[account] == seek.player, (account, seek.player)

    def teardown(self) -> None:
        # The next run's seekers must not meet this one's.
        with contextlib.suppress(Exception):
            self._wait(self._backend.sql("DELETE FROM seeks"))


def test_one_person_is_one_player_through_any_steps(backend: Backend) -> None:
    machine(backend, examples=10, steps=25)


def test_one_person_is_one_player_through_many_more_steps(backend: Backend) -> None:
    machine(backend, examples=150, steps=40)

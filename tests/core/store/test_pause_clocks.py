"""``pause_clocks``: the clocks a store outage stopped move by its length, to a grace after it at
least, once whichever process settles it, and from the earliest moment any process saw. On
both stores, with a burst of processes pausing the same outage at once."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import replace

import pytest

from core.games import Outcome, Termination
from core.store import Session, Status, outages, sessions
from tests.backends import AnyStore, Backend
from tests.core.store.helpers import NOW, make_session

GRACE = 30.0


def timed(
    deadline: float, *, remind_at: float | None = None, expires: float = NOW + 3600
) -> Session:
    """A running game whose player to move has ``deadline``."""
    game = make_session(alice=f"a{deadline}", bob=f"b{deadline}", expires_at=expires)
    return replace(game, clock=60.0, deadline=deadline, remind_at=remind_at)


async def stored(store: AnyStore, game: Session) -> Session:
    found = await store.run(sessions.get(game.id))
    assert found is not None
    return found


@pytest.fixture
async def store(backend: Backend) -> AsyncIterator[AnyStore]:
    async with backend.open() as opened:
        yield opened


async def test_the_clocks_that_ran_in_the_outage_move_by_it(store: AnyStore) -> None:
    long_ago = timed(NOW - 100)  # ran out before: the sweep's to end
    in_it = timed(NOW + 35, remind_at=NOW + 23)
    just_before = timed(NOW - 5)  # ran out as it began, before anyone noticed
    later = timed(NOW + 500, remind_at=NOW + 488)
    challenge = make_session(alice="c", bob="d", status=Status.CHALLENGE, expires_at=NOW + 50)
    resigned = Outcome(Termination.RESIGNATION, 1)
    finished = make_session(alice="e", bob="f", status=Status.FINISHED, expires_at=NOW + 50)
    finished = replace(finished, outcome=resigned)
    for game in (long_ago, in_it, just_before, later, challenge, finished):
        await store.run(sessions.create(game))
    assert (
        await store.run(outages.pause_clocks(NOW, NOW + 40, GRACE)) == 5
    )  # all but the finished one
    assert (await stored(store, long_ago)).deadline == NOW - 100
    moved = await stored(store, in_it)
    assert (moved.deadline, moved.remind_at) == (NOW + 75, NOW + 63)  # by 40 s
    assert moved.expires_at == NOW + 3640 and moved.version == 1
    assert (await stored(store, just_before)).deadline == NOW + 40 + GRACE  # the grace
    assert (await stored(store, later)).remind_at == NOW + 528
    assert (await stored(store, challenge)).expires_at == NOW + 90
    assert (await stored(store, finished)).expires_at == NOW + 50
    # The same outage again (another process that saw it): nothing moves twice.
    assert await store.run(outages.pause_clocks(NOW + 10, NOW + 40, GRACE)) == 0
    assert (await stored(store, in_it)).deadline == NOW + 75
    # Seen from earlier by another process: only the earlier part is added.
    assert await store.run(outages.pause_clocks(NOW - 10, NOW + 40, GRACE)) > 0
    assert (await stored(store, in_it)).deadline == NOW + 85
    # A later outage is an outage of its own: what ran in it moves, the rest stays.
    assert await store.run(outages.pause_clocks(NOW + 1000, NOW + 1001, GRACE)) > 0
    assert (await stored(store, later)).deadline == NOW + 550
    assert (await stored(store, in_it)).expires_at == NOW + 3651


async def test_processes_pausing_one_outage_at_once_move_each_clock_once(
    backend: Backend,
) -> None:
    stores = [await backend.open() for _ in range(4)]
    try:
        games = [timed(NOW + 35 + n) for n in range(20)]
        for game in games:
            await stores[0].run(sessions.create(game))
        moved = await asyncio.gather(
            *(s.run(outages.pause_clocks(NOW, NOW + 40, GRACE)) for s in stores)
        )
        assert sorted(moved) == [0, 0, 0, 20]
        for n, game in enumerate(games):
            assert (await stored(stores[0], game)).deadline == NOW + 75 + n
    finally:
        for each in stores:
            await each.close()

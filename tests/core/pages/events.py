"""A Swiss event stored as the director stores one, for the event page's tests and the browser
test: three players, a first round played to its end (one game, one bye), a second round's
game being played."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from core.games import TICTACTOE
from core.store import Seat, Session, events, sessions
from core.store.events import Advance, Joined
from core.store.models.events import Event, EventBye, EventGame, EventPlayer, EventStatus, Format
from core.store.port import Store
from tests.core.store.helpers import NOW, make_session, played

HOSTILE = '<script>alert("x")</script>\u202eEve'
"""bob's name: markup, and a right-to-left override that would turn the line around."""


@dataclass(frozen=True, slots=True)
class Stored:
    event: Event
    finished: str
    """The public id of round 1's game (over)."""
    live: str
    """The public id of round 2's game (being played)."""


def _entrant(name: str, shown: str) -> EventPlayer:
    return EventPlayer("ev1", f"test:{name}", "test", name, "c1", "s1", shown, 1500.0)


def _session(pairing: EventGame) -> Session:
    x, o = pairing.x.split(":")[1], pairing.o.split(":")[1]
    session = make_session(alice=x, bob=o)
    seats = (Seat.person(x, x.title()), Seat.person(o, o.title()))
    return dataclasses.replace(session, id=pairing.session_id, seats=seats)


async def swiss_event(store: Store, *, server_id: str | None = None) -> Stored:
    """ann beat bob in round 1 (cat had the bye); cat and ann play round 2."""
    run = store.run
    event = Event(
        id="ev1",
        format=Format.SWISS,
        rules=TICTACTOE,
        length=3,
        clock=60.0,
        rated=True,
        open=False,
        starts_at=NOW + 600,
        platform="test",
        chat_id="c1",
        server_id=server_id,
        created_by="admin",
        name="ev1",
        created_at=NOW,
    )
    await run(events.create_event(event))
    for name, shown in (("ann", "Ann"), ("bob", HOSTILE), ("cat", "Cat")):
        assert await run(events.join(_entrant(name, shown))) is Joined.JOINED
    first = EventGame("ev1", 1, "r1", "test:ann", "test:bob")
    bye = EventBye("ev1", 1, "test:cat", 1.0)
    version = (await _event(store)).version
    step = Advance(EventStatus.RUNNING, 1, True, games=[first], byes=[bye])
    assert await run(events.advance("ev1", version, step, NOW)) == ()
    game = _session(first)
    assert await run(events.start_game(game, [], NOW)) == ()
    assert await run(sessions.update(played(game, 0, 3, 1, 4, 2), expected_version=1))
    second = EventGame("ev1", 2, "r2", "test:cat", "test:ann")
    version = (await _event(store)).version
    step = Advance(EventStatus.RUNNING, 2, True, games=[second])
    assert await run(events.advance("ev1", version, step, NOW)) == ()
    live = _session(second)
    assert await run(events.start_game(live, [], NOW)) == ()
    return Stored(await _event(store), game.public_id, live.public_id)


async def _event(store: Store) -> Event:
    found = await store.run(events.get_event("ev1"))
    assert found is not None
    return found

"""A tournament's page (``/event/<public id>``, issue 34): its facts, its standings and each
round's games, as plain values read from the store; ``adapters/web/events.py`` draws them.

An event is found by its public id only (128 random bits: an event of a private chat is reached
by its address alone, as a game is). The page never shows the chat, room or server that made
it, nor the short id the chats type. A player who hid themselves (``/hide``) is "anonymous".
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from core.pages import ops
from core.pages.game import clock_words, game_title, utc_minute
from core.pages.names import ANONYMOUS, shown_name
from core.pages.paths import event_path, game_path, live_path, player_path
from core.sessions.events.table import table
from core.store import events
from core.store.models.events import Event, EventGame, EventStatus, Format
from core.store.public_play import chat_in_public, public_places
from core.store.sql import Op, placeholders, rows

if TYPE_CHECKING:
    from core.store.port import Store

FORMATS = {Format.ARENA: "Arena", Format.SWISS: "Swiss", Format.ROUNDROBIN: "Round robin"}
TIEBREAKS = {
    True: (("Perf.", "Performance"),),
    False: (("BH", "Buchholz"), ("SB", "Sonneborn-Berger")),
}
"""The tie-breaks' columns, by whether the event is an arena: short titles fit a phone."""


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One player of the table: points and tie-breaks already written as the page shows them
    (``second`` is empty in an arena, which has one tie-break, the performance)."""

    rank: int
    name: str
    path: str | None
    points: str
    tiebreak: str
    second: str
    withdrawn: bool
    berserk: int = 0
    """An arena's: the games he went berserk in."""


@dataclass(frozen=True, slots=True)
class RoundGame:
    """A pairing: both names, the result ("1-0", "½-½", "0-1", "no result", "playing",
    "waiting") and the address of its game (its live page while played, its game page after;
    None before)."""

    x: str
    o: str
    result: str
    path: str | None
    berserk: tuple[bool, bool] = (False, False)
    """Whether each of ``x`` and ``o`` went berserk (an arena's game)."""


@dataclass(frozen=True, slots=True)
class EventRound:
    number: int
    games: tuple[RoundGame, ...]
    byes: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class EventPage:
    """An event's page.

    Attributes:
        listed: made in a public place (:mod:`core.store.public_play`, the rule for games):
            the page may be indexed; any other event's page is reached by its address alone.
        tiebreaks: the tie-breaks' column titles, in order: (short, in full).
    """

    public_id: str
    title: str
    format: str
    game: str
    status: str
    state: str
    starts: str
    clock: str
    span: str
    rated: bool
    listed: bool
    tiebreaks: tuple[tuple[str, str], ...]
    standings: tuple[StandingRow, ...]
    rounds: tuple[EventRound, ...]


@dataclass(frozen=True, slots=True)
class EventEntry:
    """An event the home page lists: its title, status and page."""

    title: str
    status: str
    path: str


HOME_EVENTS = 8
"""Events the home page lists at most: the latest to start first."""

FINISHED_LISTED = 86_400.0
"""Seconds after its start a finished event is still listed on the home page."""

SCANNED = 500
"""Events read to find the public ones among the latest (most are of private chats)."""


async def listed_events(store: Store, now: float) -> tuple[EventEntry, ...]:
    """The events the home page lists: scheduled, running, or finished within a day of their
    start, made where play is public (:mod:`core.store.public_play`), never others."""
    public = await store.run(public_places())
    if not public:
        return ()
    found = await store.run(events.recent_events(now - FINISHED_LISTED, SCANNED))
    listed = [e for e in found if chat_in_public(e.platform, e.chat_id, e.server_id, public)]
    return tuple(
        EventEntry(_title(event), _status(event), event_path(event.public_id))
        for event in listed[:HOME_EVENTS]
    )


def game_ids(session_ids: Sequence[str]) -> Op[dict[str, tuple[str, bool]]]:
    """Each session's public id, and whether its game is archived (over): the archive's first
    game of the session (the event's; a rematch would come after), else the session's own."""
    if not session_ids:
        return {}
    marks = placeholders(1, len(session_ids))
    found: dict[str, tuple[str, bool]] = {}
    live = yield rows(f"SELECT id, public_id FROM sessions WHERE id IN ({marks})", *session_ids)
    for session_id, public_id in live:
        if public_id is not None:
            found[str(session_id)] = (str(public_id), False)
    archived = yield rows(
        f"SELECT session_id, public_id FROM archive WHERE session_id IN ({marks})"
        " ORDER BY finished_at DESC",
        *session_ids,
    )
    for session_id, public_id in archived:  # the latest first, so the first one is kept
        found[str(session_id)] = (str(public_id), True)
    return found


async def event_page(store: Store, public_id: str) -> EventPage | None:
    """The page of the event ``public_id``; None when there is none."""
    event = await store.run(events.event_by_public_id(public_id))
    if event is None:
        return None
    players = await store.run(events.players(event.id))
    games = await store.run(events.games(event.id))
    byes = await store.run(events.byes(event.id))
    hidden = await store.run(ops.page_hidden(tuple(p.player for p in players)))
    ids = await store.run(game_ids([g.session_id for g in games if g.started]))
    public = await store.run(public_places())

    def name(identity: str) -> str:
        if identity in hidden:
            return ANONYMOUS
        found = next((p for p in players if p.player == identity), None)
        return shown_name(found.name) if found is not None else "?"

    arena = event.format is Format.ARENA
    standings = tuple(
        StandingRow(
            rank=row.rank,
            name=name(row.player.player),
            path=None
            if row.player.player in hidden or not event.rated
            else player_path(row.player.player),
            points=_points(row.points),
            tiebreak=f"{row.tiebreak:.0f}" if arena else _points(row.tiebreak),
            second="" if arena else _points(row.second),
            withdrawn=row.player.withdrawn,
            berserk=row.berserk,
        )
        for row in table(event, players, games, byes)
    )
    by_round: dict[int, list[RoundGame]] = defaultdict(list)
    for game in games:
        by_round[game.round].append(_round_game(game, name, ids))
    bye_names: dict[int, list[str]] = defaultdict(list)
    for bye in byes:
        bye_names[bye.round].append(name(bye.player))
    rounds = tuple(
        EventRound(number, tuple(by_round[number]), tuple(bye_names[number]))
        for number in sorted(set(by_round) | set(bye_names))
    )
    return EventPage(
        public_id=event.public_id,
        title=_title(event),
        format=FORMATS[event.format],
        game=game_title(event.rules),
        status=_status(event),
        state=event.status.value,
        starts=utc_minute(event.starts_at),
        clock=f"{clock_words(event.clock)} per move",
        span=_span(event),
        rated=event.rated,
        listed=chat_in_public(event.platform, event.chat_id, event.server_id, public),
        tiebreaks=TIEBREAKS[arena],
        standings=standings,
        rounds=rounds,
    )


def _round_game(
    game: EventGame, name: Callable[[str], str], ids: dict[str, tuple[str, bool]]
) -> RoundGame:
    found = ids.get(game.session_id)
    if game.x_score is None or game.o_score is None:
        result = "playing" if game.started else "waiting"
        path = live_path(found[0]) if found is not None and game.started else None
    elif not game.played:
        result = "no result"
        path = None if found is None else game_path(found[0])
    else:
        result = f"{_score(game.x_score)}-{_score(game.o_score)}"
        path = None if found is None else game_path(found[0])
    berserk = (bool(game.berserk & 1), bool(game.berserk & 2))
    return RoundGame(name(game.x), name(game.o), result, path, berserk)


def _title(event: Event) -> str:
    """The game and format, after the event's name when it was given one (never its id, which
    the chats type: the page does not show it)."""
    title = f"{game_title(event.rules)}: {FORMATS[event.format].lower()} tournament"
    return title if event.given_name is None else f"{shown_name(event.given_name)} · {title}"


def _status(event: Event) -> str:
    match event.status:
        case EventStatus.SCHEDULED:
            return f"Scheduled: starts {utc_minute(event.starts_at)} UTC"
        case EventStatus.RUNNING if event.format is Format.ARENA:
            return f"Running: ends {utc_minute(event.ends_at)} UTC"
        case EventStatus.RUNNING if event.format is Format.SWISS:
            return f"Running: round {event.round} of {event.rounds}"
        case EventStatus.RUNNING:
            return f"Running: round {event.round}"
        case EventStatus.FINISHED:
            return "Finished"
    return "Cancelled"


def _span(event: Event) -> str:
    if event.format is Format.ARENA:
        return clock_words(event.length)
    if event.format is Format.SWISS:
        return f"{event.rounds} round{'' if event.rounds == 1 else 's'}"
    return "every player meets every other"


def _points(value: float) -> str:
    """Points as a table writes them: 3, 2½, ½."""
    whole = int(value)
    half = abs(value - whole) >= 0.25
    if whole == 0 and half:
        return "½"
    return f"{whole}½" if half else str(whole)


def _score(value: float) -> str:
    return "½" if value == 0.5 else f"{value:.0f}"

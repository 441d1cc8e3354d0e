"""What a tournament says in its chats, built from an outbox item (:data:`Kind.EVENT`) and
the event as it stands, by whichever process shows it: a new game's board under its pairing
line, the reminder before the start, the start of an arena, a cancellation, the final
standings; and the standings' lines that ``/tournament`` shows too."""

from __future__ import annotations

from core.i18n import Lines, Text
from core.render import clock_words
from core.replies import Reply
from core.sessions.context import Context
from core.sessions.events.table import Row, table
from core.sessions.openplay.relay import Relay, Shown, chat_reader, reader_of
from core.sessions.players.weblinks import WebLinks
from core.sessions.views import board_reply, game_name
from core.store import Session, events
from core.store.models import Kind, OutboxItem
from core.store.models.events import Event, Format

SHOWN = 10
"""Lines of a table shown (the asker's own line follows when it is further down)."""


def points_text(points: float) -> str:
    return f"{points:g}"


def describe(event: Event) -> Text:
    """An event's line: its name, format, game, length, clock and mode."""
    if event.format is Format.ARENA:
        length = clock_words(event.length)
    else:
        length = Text("event.rounds", {"n": event.rounds})
    mode = Text("seek.rated" if event.rated else "seek.casual")
    return Text(
        f"event.format.{event.format.value}",
        {
            "tournament": event.name,
            "game": game_name(event.rules),
            "span": length if event.format is not Format.ROUNDROBIN else "",
            "clock": clock_words(event.clock),
            "mode": Text("event.mode_berserk", {"mode": mode}) if event.berserk else mode,
        },
    )


BERSERK_MARK = "⚡"
"""Marks a player's berserk games (an arena's): in the chats' standings and on the page."""


def berserk_mark(games: int) -> str:
    """`` ⚡3`` after a player who went berserk in 3 games; nothing for none."""
    return f" {BERSERK_MARK}{games}" if games else ""


def lines(rows: list[Row], mine: str | None = None) -> Lines:
    """The table's lines: the first :data:`SHOWN`, and ``mine`` (an identity) if further down."""
    chosen = [r for r in rows if r.rank <= SHOWN or r.player.player == mine]
    return Lines(
        tuple(
            Text(
                "event.line",
                {
                    "rank": r.rank,
                    "player": r.player.name,
                    "points": points_text(r.points),
                    "tiebreak": points_text(round(r.tiebreak, 1)),
                    "berserk": berserk_mark(r.berserk),
                    "left": Text("event.withdrawn") if r.player.withdrawn else "",
                },
            )
            for r in chosen
        )
    )


class Notices:
    """Renders the outbox's tournament items (registered with the relay)."""

    def __init__(self, ctx: Context, relay: Relay) -> None:
        self._ctx = ctx
        self.links = WebLinks(ctx)
        """The event page's link (``/tournament`` and the final standings)."""
        relay.renders(Kind.EVENT, self.render)

    async def standings(self, event: Event, mine: str | None = None) -> Lines:
        store = self._ctx.store
        players = await store.run(events.players(event.id))
        games = await store.run(events.games(event.id))
        byes = await store.run(events.byes(event.id))
        return lines(table(event, players, games, byes), mine)

    async def render(self, item: OutboxItem, session: Session | None) -> Shown | None:
        event_id, notice = item.detail.get("event"), item.detail.get("notice")
        if not isinstance(event_id, str):
            return None
        event = await self._ctx.store.run(events.get_event(event_id))
        if event is None:
            return None
        if notice == "game":
            return self._game(item, event, session)
        if notice == "gave_way":
            return self._gave_way(item, event, session)
        reader = chat_reader(self._ctx, item)
        about = describe(event)
        join = f"{self._ctx.prefix(reader)}tournament join {event.id}"
        if notice == "reminder":
            minutes = max(1, round((event.starts_at - self._ctx.clock()) / 60))
            text = Text("event.reminder", {"event": about, "minutes": minutes, "join": join})
        elif notice == "started":
            text = Text("event.started", {"event": about, "join": join})
        elif notice == "cancelled":
            text = Text("event.cancelled", {"tournament": event.name})
        elif notice == "standings":
            text = Text(
                "event.final", {"tournament": event.name, "lines": await self.standings(event)}
            )
            # dropped on the way to the chat where its web_links is off
            return reader, [Reply(text=text, links=self.links.of_event(event.public_id))]
        else:
            return None
        return reader, [Reply(text=text)]

    def _gave_way(self, item: OutboxItem, event: Event, ended: Session | None) -> Shown | None:
        """A player's other game in the chat, ended for his tournament game (the director's
        rule): its board at its end, if it had one (a withdrawn challenge is gone), and why."""
        reader = None if ended is None else reader_of(self._ctx, item, ended)
        if reader is None:
            reader = chat_reader(self._ctx, item)
        player = item.detail.get("player")
        text = Text("event.gave_way", {"player": str(player), "tournament": event.name})
        shown = [] if ended is None else [board_reply(ended)]
        return reader, [*shown, Reply(text=text, new_message=True)]

    def _game(self, item: OutboxItem, event: Event, session: Session | None) -> Shown | None:
        if session is None or item.seat is None:
            return None
        reader = reader_of(self._ctx, item, session)
        if reader is None:
            return None
        round_ = item.detail.get("round")
        text = Text(
            "event.game",
            {
                "tournament": event.name,
                "round": round_ if isinstance(round_, int) else event.round,
                "x": session.seats[0].name,
                "o": session.seats[1].name,
                "clock": clock_words(event.clock),
            },
        )
        mention = session.seats[item.seat - 1].user_id
        return reader, [Reply(text=text, mention=mention), board_reply(session, new_message=True)]

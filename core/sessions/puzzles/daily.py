"""The daily post: the day's puzzle in every chat whose ``daily_puzzle`` setting is an hour,
once that hour has come in the chat's ``timezone``, once a UTC day (``core.admin.daily``: where a
Discord server's value posts, and the nights clocks change).

One process at a time looks for chats due (while it holds the :data:`LEASE`), and each post is
claimed for the chat and day and left in the outbox in one transaction
(:func:`core.store.puzzles.post_daily`): a chat gets one post a day however many processes look,
even two at once while a lease changes hands. The outbox then shows it through the process that
serves the chat (:class:`~core.sessions.openplay.relay.Relay`), after the platform's own rate
limits: this process shows its own chats' posts at once, the others' are shown by their next pass.
"""

from __future__ import annotations

import asyncio
import datetime
import logging
from collections import defaultdict
from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from core.admin.daily import post_due
from core.admin.effective import resolve
from core.admin.keys import Effective
from core.admin.scopes import CHANNEL, Place, Source, source_of
from core.i18n import Text
from core.leases import Held, Lease, wait_or_set
from core.puzzles.answer import Attempt
from core.puzzles.streak import utc_day
from core.replies import PlayerView, Reply
from core.sessions.context import Context
from core.sessions.openplay.relay import Relay, Shown, chat_reader
from core.sessions.outages import REFUSED
from core.sessions.puzzles import board
from core.sessions.puzzles.solving import daily
from core.store import Session, SettingRow, puzzles, settings
from core.store.models import Kind, OutboxItem
from core.store.models.outbox import KEPT

log = logging.getLogger("core.sessions")

LEASE = "daily-puzzle"
"""The lease whose holder looks for chats due their daily post."""
INTERVAL = 60.0
"""Seconds between two looks: a post comes within a minute of its hour."""
ANYONE = PlayerView("?", "", None)
"""The daily post's seat for the player: whoever answers (not a bot)."""


class DailyPosts:
    """Posts the day's puzzle where it is due; see the module docstring."""

    def __init__(self, ctx: Context, relay: Relay) -> None:
        self._ctx = ctx
        self._relay = relay
        lease = Lease(ctx.store, LEASE, ttl=ctx.settings.lease_ttl)
        self._held = Held(lease, self._while_held, "daily-puzzle")
        relay.renders(Kind.DAILY_PUZZLE, self._render)

    def start(self) -> None:
        self._held.start()

    async def close(self) -> None:
        await self._held.close()

    async def _while_held(self, ending: asyncio.Event) -> None:
        while not ending.is_set():
            started = self._ctx.outages.now()
            try:
                await self.post_due()
            except REFUSED as error:
                self._ctx.outages.refused(error, since=started, work="the daily puzzle")
            except Exception:
                log.exception("daily puzzle post failed", extra={"action": "daily_puzzle"})
            await wait_or_set(ending, INTERVAL)

    async def post_due(self) -> int:
        """Leave today's post for every chat due it and not posted today; how many were left
        (this process shows the ones of its own chats at once)."""
        ctx = self._ctx
        now = ctx.clock()
        today = utc_day(now)
        found = await ctx.store.run(settings.settings_of_keys(KEYS))
        posted = await ctx.store.run(puzzles.posted_on_day(today))
        left = 0
        for chat in posted_in(found, ctx.settings.chat_defaults):
            if (chat.platform, chat.chat_id) in posted or not post_due(now, chat.hour, chat.zone):
                continue
            item = await ctx.store.run(
                puzzles.post_daily(chat.platform, chat.chat_id, today, now, now + KEPT, chat.server)
            )
            if item is not None:
                left += 1
                self._relay.show_now((item,))
        return left

    async def _render(self, item: OutboxItem, session: Session | None) -> Shown | None:
        """The day's board, anyone's to answer, with its line; None once the day is over."""
        day = item.detail.get("day")
        if not isinstance(day, str) or day != utc_day(self._ctx.clock()).isoformat():
            return None  # shown late (no process served the chat that day): not news
        puzzle = daily(datetime.date.fromisoformat(day))
        attempt = Attempt(puzzle)
        view = board.puzzle_board(
            board.daily_board(puzzle), attempt, 0, ANYONE, board.task(attempt)
        )
        reader = chat_reader(self._ctx, item)
        text = Text("puzzle.daily", {"date": day})
        reply = Reply(text=text, board=view, new_message=True, session_id=view.session_id)
        return reader, [reply]


KEYS = (Effective.daily_puzzle.name, Effective.timezone.name)
"""The settings that say where and when a chat's post is due."""


class DailyChat(NamedTuple):
    """A chat the daily puzzle is posted in, at ``hour`` in ``zone``; ``server``: its server's
    id, where a server's value names it."""

    platform: str
    chat_id: str
    hour: int
    zone: str
    server: str | None = None


def posted_in(rows: Iterable[SettingRow], chat_defaults: Mapping[str, Any]) -> list[DailyChat]:
    """Each chat the daily puzzle is posted in, from the stored ``daily_puzzle`` and
    ``timezone`` values (``rows``).

    A room's or a channel's own value posts there; a Discord server's posts in the channel it
    names, unless that channel has a value of its own. A channel's zone is its own, else its
    server's where the server's value names the channel (a channel's row does not say its
    server).
    """
    stored: dict[tuple[str, str], list[SettingRow]] = defaultdict(list)
    for row in rows:
        stored[row.platform, row.scope].append(row)
    daily = [where for where, found in stored.items() if any(r.key == _DAILY for r in found)]
    places: dict[tuple[str, str], tuple[str, ...]] = {}  # a chat's scope -> its place's scopes
    for platform, scope in daily:
        if source_of(scope) is Source.SERVER:
            values = resolve(stored[platform, scope], Place(platform, (scope,)), chat_defaults)
            named = values.daily_puzzle
            if named is not None and named.channel is not None:
                places[platform, CHANNEL + named.channel] = (CHANNEL + named.channel, scope)
    for platform, scope in daily:
        if source_of(scope) in (Source.CHANNEL, Source.CHAT):
            places.setdefault((platform, scope), (scope,))
    due = []
    for (platform, own), scopes in places.items():
        found = [row for scope in scopes for row in stored.get((platform, scope), ())]
        chat = resolve(found, Place(platform, scopes), chat_defaults)
        if chat.daily_puzzle is not None:
            server = scopes[-1].partition(":")[2] if len(scopes) > 1 else None
            hour, zone = chat.daily_puzzle.hour, chat.timezone
            due.append(DailyChat(platform, own.partition(":")[2], hour, zone, server))
    return due


_DAILY = Effective.daily_puzzle.name

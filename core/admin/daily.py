"""The ``daily_puzzle`` setting's value: the hour of the day's post, read in the chat's
``timezone``, and on a Discord server the channel it goes to.

A Discord server's settings name no channel of their own, so the server's value carries one:
``/settings daily_puzzle 9`` typed in ``#puzzles`` stores ``9 <id of #puzzles>`` for the whole
server (``core.sessions.admin.settings_command`` fills the channel in). A room, a direct chat or a
channel's own value is posted in that chat.

The puzzle itself is the same for everyone each UTC day (``core.sessions.puzzles.solving.daily``):
a chat gets the day's puzzle once its hour has come, in its zone, since midnight UTC; so a chat
whose hour falls near midnight UTC may, on the night its clocks change, wait a day for the next
post, and never gets one puzzle twice.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from core.admin.kind import Kind, _Bad, whole
from core.admin.zones import next_time_of_day
from core.i18n import Text

OFF = ("none", "off")
"""The words that turn the post off (``none`` is how it is shown)."""
_LONGEST_ID = 255  # a channel id as the platforms write them, with room to spare


@dataclass(frozen=True, slots=True)
class DailyAt:
    """When and where the daily puzzle is posted: ``hour`` (0 to 23, in the chat's zone) and
    the channel, where the value names one (a Discord server's)."""

    hour: int
    channel: str | None = None


@dataclass(frozen=True, slots=True)
class Daily(Kind[DailyAt | None]):
    """``none`` (no post), an hour (``9``), or an hour and a channel id (``9 123``)."""

    def read(self, text: str) -> DailyAt | None:
        words = text.split()
        if len(words) == 1 and words[0].lower() in OFF:
            return None
        hour = whole(words[0], 0, 23) if words else None
        if hour is None or len(words) > 2 or any(len(word) > _LONGEST_ID for word in words):
            raise _Bad(Text("puzzle.daily_expected"))
        return DailyAt(hour, words[1] if len(words) == 2 else None)

    def show(self, value: DailyAt | None) -> str:
        if value is None:
            return OFF[0]
        return str(value.hour) if value.channel is None else f"{value.hour} {value.channel}"


def post_due(now: float, hour: int, zone: str) -> bool:
    """Whether today's post (UTC) is due: ``hour`` o'clock in ``zone`` has come since midnight
    UTC (a skipped or repeated hour read as ``core.admin.zones`` reads it)."""
    today = datetime.datetime.fromtimestamp(now, datetime.UTC).date()
    midnight = datetime.datetime.combine(today, datetime.time(), tzinfo=datetime.UTC)
    # Instants on the hour after one second before midnight: midnight itself included.
    return next_time_of_day(midnight.timestamp() - 1, hour, 0, zone) <= now

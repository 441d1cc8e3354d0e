"""Effective settings: stored rows over the service's defaults, resolved and cached.

Every command looks its chat's settings up, so they are cached per chat. A change made through
this process (``/settings``, :func:`write`) empties the cache at once; a change made by another
process (a second bot process on the same PostgreSQL, the operator CLI) is seen when the
entry's time runs out: :data:`CACHE_SECONDS` at most.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from core.admin.keys import BY_NAME, KEYS, Effective
from core.admin.scopes import Place, Source, source_of
from core.errors import UserError
from core.store import settings
from core.store.models import SettingRow

if TYPE_CHECKING:
    from core.store.port import Store

log = logging.getLogger("core.admin")

CACHE_SECONDS = 10.0
"""How long a chat's effective settings are reused before the store is read again."""
_CACHE_SIZE = 10_000  # chats; the oldest entries go first beyond it


def defaults(chat_defaults: Mapping[str, Any]) -> Effective:
    """Every key at its default (what a chat without settings has): the one in
    ``chat_defaults`` (by name, the ``.env``'s) or else the key's built-in one."""
    return Effective(
        {key.name: key.default_in(chat_defaults) for key in KEYS},
        dict.fromkeys(BY_NAME, Source.DEFAULT),
    )


def resolve(
    rows: Iterable[SettingRow], place: Place, chat_defaults: Mapping[str, Any]
) -> Effective:
    """The settings in force at ``place``: for each key, the value of the most specific scope
    that has one, else the default (see :func:`defaults`).

    A stored value that no longer parses (a bound was narrowed since) is skipped, with a
    warning: the chat gets the next value rather than an error on every command.
    """
    base = defaults(chat_defaults)
    values: dict[str, Any] = dict(base.values)
    sources: dict[str, Source] = dict(base.sources)
    rank = {scope: index for index, scope in enumerate(place.scopes)}
    best: dict[str, int] = {}
    for row in rows:
        key = BY_NAME.get(row.key)
        level = rank.get(row.scope)
        if key is None or level is None or best.get(row.key, len(rank)) <= level:
            continue
        try:
            value = key.parse(row.value)
        except UserError:
            log.warning(
                "ignoring a stored setting that does not parse: platform=%s scope=%s key=%s",
                row.platform,
                row.scope,
                row.key,
            )
            continue
        values[row.key] = value
        sources[row.key] = source_of(row.scope)
        best[row.key] = level
    return Effective(values, sources)


class SettingsCache:
    """Effective settings per chat, for :data:`CACHE_SECONDS` (see the module docstring).

    Args:
        store: where the rows are.
        chat_defaults: the defaults over the built-in ones, by key name (see :func:`defaults`).
        clock: a monotonic clock, injected so tests can pass time.
    """

    def __init__(
        self,
        store: Store,
        chat_defaults: Mapping[str, Any],
        *,
        clock: Callable[[], float] = time.monotonic,
        seconds: float = CACHE_SECONDS,
    ) -> None:
        self._store = store
        self._defaults = chat_defaults
        self._clock = clock
        self._seconds = seconds
        self._entries: dict[Place, tuple[float, Effective]] = {}

    async def get(self, place: Place) -> Effective:
        now = self._clock()
        entry = self._entries.get(place)
        if entry is not None and entry[0] > now:
            return entry[1]
        rows = await self._store.run(settings.settings_rows(place.platform, place.scopes))
        effective = resolve(rows, place, self._defaults)
        if len(self._entries) >= _CACHE_SIZE:
            self._entries.pop(next(iter(self._entries)))
        self._entries.pop(place, None)  # re-inserted last: the dict's order is the age
        self._entries[place] = (now + self._seconds, effective)
        return effective

    def invalidate(self) -> None:
        """Forget every entry (after a change: a server's change reaches all its channels)."""
        self._entries.clear()


async def write(
    store: Store,
    platform: str,
    scope: str,
    key_name: str,
    text: str,
    *,
    by: str,
    now: float,
) -> str:
    """Parse ``text`` for the key and store it in ``scope``; the value as stored (shown).

    Raises:
        UserError: an unknown key, or a value the key does not take (nothing is written).
    """
    key = BY_NAME.get(key_name)
    if key is None:
        raise UserError(
            "parse.bad_setting", setting=key_name, keys=", ".join(BY_NAME), usage="KEY VALUE"
        )
    shown: str = key.show(key.parse(text))
    await store.run(settings.setting_put(SettingRow(platform, scope, key.name, shown, now, by)))
    return shown

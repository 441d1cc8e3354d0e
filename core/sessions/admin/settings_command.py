"""``/settings``: admins show, set and reset the settings of their server, channel or room.

Who is an admin is the platform's word, carried by :attr:`core.replies.Actor.is_admin`
(adapters set it from Manage Server, power levels or ``BOT_ADMINS``); everyone else gets
``settings.not_admin`` and nothing changes. Every answer is private to the admin where the
platform can do that (Discord's ephemeral messages).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from core.admin.daily import OFF, DailyAt
from core.admin.effective import SettingsCache, resolve
from core.admin.keys import BY_NAME, HERE, KEYS, Effective, Key
from core.admin.scopes import CHANNEL, Place, Source, source_of
from core.commands import Settings
from core.errors import UserError
from core.i18n import Lines, Text
from core.replies import Actor, Reply
from core.sessions.context import Context
from core.store import settings as store_settings
from core.store.models import SettingRow

OpenPlayChanged = Callable[[Actor, str], Awaitable[None]]
"""Told when an admin in the actor's chat changed ``open_play`` at a scope (the scope)."""


class Admin:
    """Reads and writes a chat's settings (see the module docstring).

    Args:
        open_play_changed: what follows a change of ``open_play`` (queued seeks withdrawn).
    """

    def __init__(
        self, ctx: Context, cache: SettingsCache, open_play_changed: OpenPlayChanged
    ) -> None:
        self._ctx = ctx
        self._cache = cache
        self._open_play_changed = open_play_changed

    async def effective(self, actor: Actor) -> Effective:
        """The settings in force in the actor's chat (cached; see ``core.admin.effective``)."""
        return await self._cache.get(Place.of(actor))

    async def settings(self, actor: Actor, command: Settings) -> list[Reply]:
        if not actor.is_admin:
            raise UserError("settings.not_admin")
        place = Place.of(actor)
        shown = place.view(command.scope)
        if command.key is None:
            return [self._reply(self._listing(actor, shown, await self._resolve(shown)))]
        key = BY_NAME[command.key]  # the parser accepted only known keys
        if command.value is None and not command.reset:
            return [self._reply(self._line(actor, key, await self._resolve(shown)))]
        target = _target(place, key, command)
        # A change is answered with what now applies at the scope it changed.
        view = Place(place.platform, place.scopes[place.scopes.index(target) :])
        if command.reset:
            await self._ctx.store.run(
                store_settings.setting_delete(place.platform, target, key.name)
            )
            self._cache.invalidate()
            await self._changed_key(actor, key, target)
            effective = await self._resolve(view)
            return [self._reply(self._changed(actor, "settings.reset", key, view, effective))]
        assert command.value is not None
        value = key.parse(self._written_value(actor, key, command.value))
        row = SettingRow(
            place.platform, target, key.name, key.show(value), self._ctx.clock(), actor.user_id
        )
        await self._ctx.store.run(store_settings.setting_put(row))
        self._cache.invalidate()
        await self._changed_key(actor, key, target)
        effective = await self._resolve(view)
        replies = [self._reply(self._changed(actor, "settings.set", key, view, effective))]
        if key is Effective.daily_puzzle and value is not None:
            replies.append(self._reply(await self._daily_when(actor, place, value)))
        return replies

    async def _changed_key(self, actor: Actor, key: Key[Any], target: str) -> None:
        if key is Effective.open_play:
            await self._open_play_changed(actor, target)

    async def _resolve(self, view: Place) -> Effective:
        rows = await self._ctx.store.run(store_settings.settings_rows(view.platform, view.scopes))
        return resolve(rows, view, self._ctx.settings.chat_defaults)

    def _written_value(self, actor: Actor, key: Key[Any], text: str) -> str:
        if key is Effective.daily_puzzle:
            return self._daily_value(actor, text)
        if key is not Effective.allowed_chats:
            return text
        # Chats as people write them: "here", or the platform's way of naming a channel.
        style = self._ctx.style(actor)
        words = text.replace(",", " ").split()
        return " ".join(
            actor.chat_id if word.lower() == HERE else style.chat_id(actor, word) for word in words
        )

    def _daily_value(self, actor: Actor, text: str) -> str:
        # A server's value names the channel it posts in: the one it is typed in unless another
        # is named (core/admin/daily.py); a room or a direct chat posts in itself alone.
        words = text.split()
        if not 1 <= len(words) <= 2 or words[0].lower() in OFF:
            return text
        here = len(words) == 1 or words[1].lower() == HERE
        if actor.server_id is None:
            if not here:
                raise UserError(
                    "settings.bad_value",
                    setting=Effective.daily_puzzle.name,
                    value=text[:100],
                    expected=Text("puzzle.daily_expected_here"),
                )
            return words[0]
        channel = actor.chat_id if here else self._ctx.style(actor).chat_id(actor, words[1])
        return f"{words[0]} {channel}"

    async def _daily_when(self, actor: Actor, place: Place, value: DailyAt) -> Text:
        """When and where the daily post now comes, in the zone that applies there."""
        if value.channel is None and len(place.scopes) > 1:
            return Text("puzzle.daily_nowhere")
        channel = value.channel or actor.chat_id
        posted = place
        if len(place.scopes) > 1:  # the channel named, under this server
            posted = Place(place.platform, (CHANNEL + channel, place.scopes[-1]))
        zone = (await self._resolve(posted)).timezone
        link = self._ctx.style(actor).chat_link(channel)
        return Text(
            "puzzle.daily_when", {"channel": link, "hour": f"{value.hour:02}", "zone": zone}
        )

    def _shown(self, actor: Actor, key: Key[Any], value: Any) -> str:
        if key is Effective.daily_puzzle and isinstance(value, DailyAt) and value.channel:
            return f"{value.hour} {self._ctx.style(actor).chat_link(value.channel)}"
        return key.show(value)

    def _listing(self, actor: Actor, view: Place, effective: Effective) -> Text:
        lines = Lines(tuple(self._line(actor, key, effective) for key in KEYS))
        return Text(
            "settings.list",
            {
                "scope": _scope_name(view.scopes[0]),
                "lines": lines,
                "prefix": self._ctx.prefix(actor),
            },
        )

    def _changed(
        self, actor: Actor, message: str, key: Key[Any], view: Place, effective: Effective
    ) -> Text:
        return Text(
            message,
            {
                "setting": key.name,
                "value": self._shown(actor, key, effective.values[key.name]),
                "scope": _scope_name(view.scopes[0]),
                "source": _source_name(effective.sources[key.name]),
            },
        )

    @staticmethod
    def _reply(text: Text) -> Reply:
        return Reply(text=text, private=True)

    def _line(self, actor: Actor, key: Key[Any], effective: Effective) -> Text:
        return Text(
            "settings.line",
            {
                "setting": key.name,
                "value": self._shown(actor, key, effective.values[key.name]),
                "source": _source_name(effective.sources[key.name]),
                "description": key.description,
            },
        )


def _target(place: Place, key: Key[Any], command: Settings) -> str:
    # A server's channels share its one daily post, whose value names the channel; a channel's
    # own value (the operator's) can still be reset where it is named.
    if key is Effective.daily_puzzle and len(place.scopes) > 1 and not command.reset:
        return place.scopes[-1]
    return place.target(command.scope)


def _scope_name(scope: str) -> Text:
    return Text(f"settings.scope.{source_of(scope).value}")


def _source_name(source: Source) -> Text:
    return Text(f"settings.source.{source.value}")

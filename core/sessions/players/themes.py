"""``/theme``: a player's own board theme, which wins in the games they start.

A player's theme is a row of the settings table in the player's own scope (``player:<user id>``,
key ``theme``: :meth:`core.admin.scopes.Place.player`), so it needs no table of its own, is
parsed by the same key as the chat's ``theme`` setting and read through the same cache. Which
theme a board is drawn in: the theme of the player who started its game (``auto`` included: each
game its own), else the chat's ``theme`` setting, else each game's own. Anyone may set their own;
every answer is private to them.
"""

from __future__ import annotations

import dataclasses
import logging

from core.admin.effective import SettingsCache
from core.admin.keys import AUTO, Effective
from core.admin.scopes import Place, Source
from core.commands import PersonalTheme
from core.commands.settings import THEME_CHOICES
from core.i18n import Text
from core.replies import Actor, Reply
from core.sessions.context import Context
from core.store import StoreBusy, StoreUnavailable, settings
from core.store.models import SettingRow

log = logging.getLogger("core.sessions")

_KEY = Effective.theme


class Themes:
    """Players' own themes (see the module docstring)."""

    def __init__(self, ctx: Context, cache: SettingsCache) -> None:
        self._ctx = ctx
        self._cache = cache

    async def choose(self, actor: Actor, command: PersonalTheme, chat: Effective) -> list[Reply]:
        """Show, set or forget the actor's own theme; ``chat`` holds the chat's settings."""
        place = Place.player(actor.platform, actor.user_id)
        store = self._ctx.store
        params = {"chat": chat.theme, "prefix": self._ctx.prefix(actor)}
        if command.reset:
            await store.run(settings.setting_delete(place.platform, place.scopes[0], _KEY.name))
            self._cache.invalidate()
            return [_private(Text("theme.reset", params))]
        if command.theme is None:
            mine = await self._personal(place)
            choices = ", ".join(THEME_CHOICES)
            if mine is None:
                return [_private(Text("theme.shown_none", {**params, "choices": choices}))]
            return [_private(Text("theme.shown", {**params, "theme": mine, "choices": choices}))]
        value = _KEY.show(_KEY.parse(command.theme))
        now = self._ctx.clock()
        await store.run(
            settings.setting_put(
                SettingRow(place.platform, place.scopes[0], _KEY.name, value, now, actor.user_id)
            )
        )
        self._cache.invalidate()
        return [_private(Text("theme.set", {**params, "theme": value}))]

    async def marked(
        self, actor: Actor, replies: list[Reply], chat: Effective | None
    ) -> list[Reply]:
        """``replies`` marked with the chat's language where its admins chose one, with its
        board style, and each board with its theme: its starter's own, else the chat's where
        one is set (``auto`` leaves each game its own); ``chat`` None (unreadable): themes only.
        """
        language = theme = None
        picture = False
        if chat is not None:
            language = None if chat.sources["language"] is Source.DEFAULT else chat.language
            theme = None if chat.theme == AUTO else chat.theme
            picture = chat.board_style == "picture"
        marked = []
        for reply in replies:
            look = theme
            if reply.board is not None and reply.board.starter is not None:
                look = await self.of_game(actor.platform, reply.board.starter, theme)
            if language is not None or look is not None or picture:
                reply = dataclasses.replace(reply, locale=language, theme=look, picture=picture)
            marked.append(reply)
        return marked

    async def of_game(self, platform: str, starter: str, chat_theme: str | None) -> str | None:
        """The theme a game that ``starter`` started is drawn in (a name of
        ``core.pictures.THEMES``, or None for the game's own), given the chat's (None: auto).

        Never raises: when the store cannot say, the chat's theme is used."""
        try:
            mine = await self._personal(Place.player(platform, starter))
        except (StoreBusy, StoreUnavailable):
            return chat_theme
        except Exception:
            log.exception("could not read a player's theme", extra={"action": "localize"})
            return chat_theme
        if mine is None:
            return chat_theme
        return None if mine == AUTO else mine

    async def _personal(self, place: Place) -> str | None:
        effective = await self._cache.get(place)
        if effective.sources[_KEY.name] is not Source.PLAYER:
            return None
        theme: str = effective.values[_KEY.name]
        return theme


def _private(text: Text) -> Reply:
    return Reply(text=text, private=True)

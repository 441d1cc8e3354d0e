"""Where settings apply: the scopes of a chat, most specific first, and the effective values.

A Discord channel of a server has two scopes: the channel (``channel:<channel id>``), whose
values override those of the server (``server:<guild id>``). A Matrix room, the console and a
Discord direct message have one: the chat (``chat:<chat id>``). Rows are keyed by platform and
scope, so one database serves every platform. A key set in no scope has the service's default
(the ``.env``); :class:`Effective` says which of them each value came from.

The operator CLI writes a scope as ``PLATFORM:server:ID``, ``PLATFORM:channel:ID`` or
``PLATFORM:CHAT`` (``discord:server:123``, ``discord:channel:456``, ``matrix:!room:example.org``,
``console:console``); see :func:`parse_scope`.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from core.ai.levels import Level
from core.commands.values import GameKind, SettingsScope
from core.replies import Actor

SERVER = "server:"
CHANNEL = "channel:"
CHAT = "chat:"


class Source(enum.Enum):
    """Where an effective value comes from."""

    CHANNEL = "channel"
    SERVER = "server"
    CHAT = "chat"
    DEFAULT = "default"


def source_of(scope: str) -> Source:
    """The kind of a stored scope (``server:1`` -> SERVER)."""
    for prefix, source in ((SERVER, Source.SERVER), (CHANNEL, Source.CHANNEL)):
        if scope.startswith(prefix):
            return source
    return Source.CHAT


@dataclass(frozen=True, slots=True)
class Place:
    """The scopes of one chat: ``platform`` and its scopes, most specific first."""

    platform: str
    scopes: tuple[str, ...]

    @classmethod
    def of(cls, actor: Actor) -> Place:
        if actor.server_id is not None:
            return cls(actor.platform, (CHANNEL + actor.chat_id, SERVER + actor.server_id))
        return cls(actor.platform, (CHAT + actor.chat_id,))

    def target(self, scope: SettingsScope) -> str:
        """The scope ``/settings`` writes: this channel or the whole server (the chat where
        there is no server)."""
        if scope is SettingsScope.CHANNEL or len(self.scopes) == 1:
            return self.scopes[0]
        return self.scopes[-1]


def parse_scope(text: str) -> Place:
    """A scope as the operator CLI takes it, as a :class:`Place` of that one scope.

    ``discord:server:123``, ``discord:channel:456``, ``matrix:!room:example.org`` (a chat: the
    rest of the text after the platform, colons included), ``console:console``.

    Raises:
        ValueError: the text has no platform or no id; the message shows the expected forms.
    """
    platform, found, rest = text.partition(":")
    expected = (
        f"{text!r} is not a scope: write PLATFORM:server:ID, PLATFORM:channel:ID or "
        "PLATFORM:CHAT (discord:server:123, discord:channel:456, matrix:!room:example.org)"
    )
    if not found or not platform or not platform.isidentifier() or not rest:
        raise ValueError(expected)
    for prefix in (SERVER, CHANNEL):
        if rest.startswith(prefix):
            if len(rest) == len(prefix):
                raise ValueError(expected)
            return Place(platform, (rest,))
    return Place(platform, (CHAT + rest,))


@dataclass(frozen=True, slots=True)
class Effective:
    """The settings in force in one chat: each key's value and where it came from."""

    values: Mapping[str, Any]
    sources: Mapping[str, Source]

    @property
    def games(self) -> frozenset[GameKind]:
        games: frozenset[GameKind] = self.values["games"]
        return games

    @property
    def max_board(self) -> tuple[int, int]:
        size: tuple[int, int] = self.values["max_board"]
        return size

    @property
    def pvp(self) -> bool:
        return bool(self.values["pvp"])

    @property
    def bot_vs_bot(self) -> bool:
        return bool(self.values["bot_vs_bot"])

    @property
    def level(self) -> Level:
        level: Level = self.values["level"]
        return level

    @property
    def language(self) -> str:
        return str(self.values["language"])

    @property
    def game_ttl(self) -> float:
        return float(self.values["game_ttl"])

    @property
    def challenge_ttl(self) -> float:
        return float(self.values["challenge_ttl"])

    @property
    def cooldown(self) -> float:
        return float(self.values["cooldown"])

    @property
    def max_games_per_user(self) -> int | None:
        value: int | None = self.values["max_games_per_user"]
        return value

    @property
    def max_games_per_chat(self) -> int | None:
        value: int | None = self.values["max_games_per_chat"]
        return value

    @property
    def allowed_chats(self) -> frozenset[str]:
        chats: frozenset[str] = self.values["allowed_chats"]
        return chats

    @property
    def rate_burst(self) -> int:
        return int(self.values["rate_burst"])

    @property
    def rate_per_minute(self) -> int:
        return int(self.values["rate_per_minute"])

    @property
    def boards_per_minute(self) -> int:
        return int(self.values["boards_per_minute"])

    def allows_chat(self, chat_id: str) -> bool:
        """Games may start in ``chat_id`` (no list: everywhere)."""
        return not self.allowed_chats or chat_id in self.allowed_chats

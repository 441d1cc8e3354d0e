"""Where settings apply: the scopes of a chat, most specific first, and where a value came from.

A Discord channel of a server has two scopes: the channel (``channel:<channel id>``), whose
values override those of the server (``server:<guild id>``). A Matrix room, the console and a
Discord direct message have one: the chat (``chat:<chat id>``). Rows are keyed by platform and
scope, so one database serves every platform. A key set in no scope has the service's default
(the ``.env``); :class:`Source` says which of them a value came from
(``core.admin.keys.Effective`` holds the values).

The operator CLI writes a scope as ``PLATFORM:server:ID``, ``PLATFORM:channel:ID`` or
``PLATFORM:CHAT`` (``discord:server:123``, ``discord:channel:456``, ``matrix:!room:example.org``,
``console:console``); see :func:`parse_scope`.

A player's own choices (their board theme, ``/theme``) are rows of the same table in the
player's scope, ``player:<user id>`` (:meth:`Place.player`): no chat's scope starts so.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from core.replies import Actor

SERVER = "server:"
CHANNEL = "channel:"
CHAT = "chat:"
PLAYER = "player:"


class SettingsScope(enum.Enum):
    """Which settings ``/settings`` reads or writes (``core.commands`` re-exports it, as part of
    its contract)."""

    CHAT = "server"  # the whole Discord server; the room (Matrix) or the chat (console)
    CHANNEL = "channel"  # this Discord channel only (elsewhere the same as CHAT)


class Source(enum.Enum):
    """Where an effective value comes from."""

    CHANNEL = "channel"
    SERVER = "server"
    CHAT = "chat"
    PLAYER = "player"
    DEFAULT = "default"


def source_of(scope: str) -> Source:
    """The kind of a stored scope (``server:1`` -> SERVER)."""
    for prefix, source in (
        (SERVER, Source.SERVER),
        (CHANNEL, Source.CHANNEL),
        (PLAYER, Source.PLAYER),
    ):
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

    @classmethod
    def player(cls, platform: str, user_id: str) -> Place:
        """The scope of one player's own choices on ``platform``."""
        return cls(platform, (PLAYER + user_id,))

    def target(self, scope: SettingsScope | None) -> str:
        """The scope ``/settings`` writes: this channel, or the whole server when the channel
        is not named (the chat where there is no server)."""
        if scope is SettingsScope.CHANNEL or len(self.scopes) == 1:
            return self.scopes[0]
        return self.scopes[-1]

    def view(self, scope: SettingsScope | None) -> Place:
        """What ``/settings`` shows: the server's own values when the server is named, else
        what applies here (this channel's values over the server's)."""
        if scope is SettingsScope.CHAT:
            return Place(self.platform, self.scopes[-1:])
        return self


def parse_scope(text: str) -> Place:
    """A scope as the operator CLI takes it, as a :class:`Place` of that one scope.

    ``discord:server:123``, ``discord:channel:456``, ``matrix:!room:example.org`` (a chat: the
    rest of the text after the platform, colons included), ``console:console``, and a player's
    own scope, ``discord:player:789`` (their ``/theme``).

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
    for prefix in (SERVER, CHANNEL, PLAYER):
        if rest.startswith(prefix):
            if len(rest) == len(prefix):
                raise ValueError(expected)
            return Place(platform, (rest,))
    return Place(platform, (CHAT + rest,))

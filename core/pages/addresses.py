"""The pages' whole addresses under ``PUBLIC_URL``, which the chats' replies link to
(:mod:`core.sessions.players.weblinks`); the paths themselves are :mod:`core.pages.paths`'."""

from __future__ import annotations

from dataclasses import dataclass

from core.pages.paths import (
    event_path,
    game_path,
    ladder_path,
    live_path,
    local_ladder_path,
    player_path,
)


@dataclass(frozen=True, slots=True)
class Addresses:
    """The pages' whole addresses under ``public_url`` (``PUBLIC_URL``, checked by the
    settings: http or https, no query; a trailing slash is taken off here again)."""

    public_url: str

    def _at(self, path: str) -> str:
        return self.public_url.rstrip("/") + path

    def game(self, public_id: str) -> str:
        return self._at(game_path(public_id))

    def live(self, public_id: str) -> str:
        return self._at(live_path(public_id))

    def ladder(self, game: str) -> str:
        return self._at(ladder_path(game))

    def local_ladder(self, game: str, platform: str, place: str) -> str:
        return self._at(local_ladder_path(game, platform, place))

    def player(self, identity: str) -> str:
        return self._at(player_path(identity))

    def event(self, public_id: str) -> str:
        return self._at(event_path(public_id))

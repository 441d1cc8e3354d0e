"""The web pages' addresses, in one place: the paths the pages are served at (the contract
between the chat's links and ``adapters/web``) and, under ``PUBLIC_URL``, the whole addresses
that the chat's replies link to (:mod:`core.sessions.players.weblinks`)."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote


def game_path(public_id: str) -> str:
    """A game's page (finished or not): its unguessable public id, never its short id."""
    return "/game/" + quote(public_id, safe="")


def live_path(public_id: str) -> str:
    """A running game's page for spectators, updated as its moves are played."""
    return "/live/" + quote(public_id, safe="")


def ladder_path(game: str) -> str:
    """A game's global ladder, the game named as ``/top`` takes it (``tres``, ``quatre``)."""
    return "/ladder/" + quote(game, safe="")


def player_path(identity: str) -> str:
    """The address of a player's page (the identity quoted whole: a Matrix id holds ``:``)."""
    return "/player/" + quote(identity, safe="")


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

    def player(self, identity: str) -> str:
        return self._at(player_path(identity))

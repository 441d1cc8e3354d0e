"""The pages' addresses, written in this one module (the pages link them, and the chats may),
and which games have a ladder page. Below the service: its links to the pages import this,
not the pages' reads (which draw the service's boards)."""

from __future__ import annotations

from urllib.parse import quote

from core.games import CONNECT_FOUR, TICTACTOE, GameKind
from core.i18n import Text
from core.pages.words import Title

GAMES: dict[GameKind, tuple[str, Text]] = {
    GameKind.TRES: (GameKind.TRES.pool(TICTACTOE), Title("game.name.tictactoe")),
    GameKind.QUATRE: (GameKind.QUATRE.pool(CONNECT_FOUR), Text("page.game.connect_four")),
}
"""The games with a ladder page: their pool and title (shorter than the pool's own name,
"Connect Four 6x7": the nav bar holds them), in the home page's order (the games ``/top``
names)."""


def player_path(identity: str) -> str:
    """The address of a player's page (the identity quoted whole: a Matrix id holds ``:``)."""
    return "/player/" + quote(identity, safe="")


def ladder_path(game: str) -> str:
    """The address of a game's global ladder, the game named as ``/top`` takes it (``tres``)."""
    return "/ladder/" + quote(game, safe="")


def local_ladder_path(game: str, platform: str, place: str) -> str:
    """The address of a Discord server's ladder (``place`` its id) or of another platform's
    chat (a Matrix room), shown only where its admins turned ``public_ladder`` on."""
    return f"{ladder_path(game)}/{quote(platform, safe='')}/{quote(place, safe='')}"


def game_path(public_id: str) -> str:
    """The address of a finished game's page (``Session.public_id``)."""
    return f"/game/{public_id}"


def game_picture_path(public_id: str) -> str:
    """The address of a finished game's picture (its link preview's ``og:image``)."""
    return f"/game/{public_id}.png"


def game_text_path(public_id: str) -> str:
    """The address of a finished game's text export."""
    return f"/game/{public_id}.txt"


def live_path(public_id: str) -> str:
    """The address of a game in progress' live page (``Session.public_id``)."""
    return f"/live/{public_id}"


def event_path(public_id: str) -> str:
    """The address of a tournament's page (``Event.public_id``)."""
    return f"/event/{public_id}"


def event_picture_path(public_id: str) -> str:
    """The address of a tournament's picture (its link preview's ``og:image``)."""
    return f"/event/{public_id}.png"


def puzzle_path(puzzle_id: str) -> str:
    """The address of a puzzle's page (its id: puzzles are public)."""
    return f"/puzzle/{puzzle_id}"


def puzzle_picture_path(puzzle_id: str) -> str:
    """The address of a puzzle's picture (its position; never the solution)."""
    return f"/puzzle/{puzzle_id}.png"

"""A finished game's pages: ``/game/<public id>`` (the replay, with the solver's verdicts and
the Open Graph tags a link preview reads), ``.txt`` (the text export) and ``.png`` (the final
board with both names and the result: the preview's picture, drawn once and kept).

A game still being played has its live page, ``/live/<public id>``: its address here answers
303 there. Any other id is the pages' one 404."""

from __future__ import annotations

from collections.abc import Callable

from aiohttp import web

from adapters.web.kept import KeptPictures
from core.pages import game as game_values
from core.pages import game_picture
from core.pages.games import ArchivedGame, GamePages, Live
from core.pages.paths import game_path, game_picture_path, game_text_path, live_path

PUBLIC_ID = "{public_id:[0-9a-f]{32}}"
PICTURES = 256
"""Pictures kept (about 10 KB each): a preview is fetched by every chat a link is posted in."""
THEME_COLOR = "#1f6feb"

Render = Callable[..., web.Response]


class GameRoutes:
    """The game pages' handlers.

    Args:
        games: the games' reads.
        render: draws a template into a page (the server's, with its globals).
        public_url: where people reach the pages (``PUBLIC_URL``), for the absolute addresses
            previews need; None: the request's own scheme and host.
    """

    def __init__(self, games: GamePages, render: Render, public_url: str | None) -> None:
        self._games = games
        self._render = render
        self._public_url = public_url
        self._pictures = KeptPictures(PICTURES, max_age=3600)

    def add(self, router: web.UrlDispatcher) -> None:
        """Route the game pages."""
        router.add_get(f"/game/{PUBLIC_ID}.txt", self.text)
        router.add_get(f"/game/{PUBLIC_ID}.png", self.picture)
        router.add_get(f"/game/{PUBLIC_ID}", self.page)

    async def _game(self, request: web.Request) -> ArchivedGame | Live:
        found = await self._games.archived(request.match_info["public_id"])
        if found is None:
            raise web.HTTPNotFound
        return found

    async def _finished(self, request: web.Request) -> ArchivedGame:
        """A finished game (its export, its picture: a running game's are the live page's)."""
        found = await self._game(request)
        if isinstance(found, Live):
            raise web.HTTPNotFound
        return found

    def _origin(self, request: web.Request) -> str:
        return self._public_url or str(request.url.origin())

    async def page(self, request: web.Request) -> web.Response:
        found = await self._game(request)
        if isinstance(found, Live):
            # Returned, not raised: the server's guard turns raised answers into error pages.
            return web.Response(status=303, headers={"Location": live_path(found.public_id)})
        page = await self._games.page(found, _ply(request.query.get("ply")))
        origin = self._origin(request)
        return self._render(
            "game.html",
            page=page,
            url=origin + game_path(page.public_id),
            image=origin + game_picture_path(page.public_id),
            text_path=game_text_path(page.public_id),
            theme_color=THEME_COLOR,
        )

    async def text(self, request: web.Request) -> web.Response:
        found = await self._finished(request)
        page = await self._games.page(found, None)
        url = self._origin(request) + game_path(page.public_id)
        response = web.Response(text=game_values.export(page, url), content_type="text/plain")
        response.charset = "utf-8"
        return response

    async def picture(self, request: web.Request) -> web.Response:
        found = await self._finished(request)
        page = await self._games.page(found, None, reviewed=False)
        # By the seats as shown: a player who hides is drawn anonymous at once.
        key = (page.public_id, page.seats)
        return await self._pictures.answer(key, lambda: game_picture.game_png(found, page))


def _ply(text: str | None) -> int | None:
    """The ``ply`` asked for (a whole number; anything else shows the end)."""
    if text is None or not text.isascii() or not text.isdigit() or len(text) > 4:
        return None
    return int(text)

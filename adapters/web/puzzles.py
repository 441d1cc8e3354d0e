"""A puzzle's pages: ``/puzzle/<id>`` (the position, the task, its rating; the solution, its
proven line with the bot's replies, with ``?solution=1``, no script needed), ``/puzzle/today``
(today's, as ``/puzzle`` gives it) and ``.png`` (the position for link previews, drawn once and
kept). Any other id is a 404."""

from __future__ import annotations

import datetime
from collections.abc import Callable

from aiohttp import web

from adapters.web.game import THEME_COLOR, Render
from adapters.web.kept import KeptPictures
from core.pages import puzzle as puzzle_values
from core.pages.paths import puzzle_path, puzzle_picture_path
from core.pages.puzzle import PuzzlePage
from core.store.port import Store

PUZZLE_ID = "{puzzle_id:[0-9a-f]{10}}"
PICTURES = 256
"""Pictures kept (the position and the task only: a puzzle's picture never changes)."""
Now = Callable[[], datetime.datetime]


class PuzzleRoutes:
    """The puzzle pages' handlers.

    Args:
        store: where the puzzles' ratings are read.
        render: draws a template into a page (the server's, with its globals).
        public_url: ``PUBLIC_URL`` for the previews' absolute addresses; None: the request's.
        now: the time (for today's puzzle).
    """

    def __init__(
        self, store: Store, render: Render, public_url: str | None, now: Now | None = None
    ) -> None:
        self._store = store
        self._render = render
        self._public_url = public_url
        self._now = now or (lambda: datetime.datetime.now(datetime.UTC))
        self._pictures = KeptPictures(PICTURES, max_age=86400)

    def add(self, router: web.UrlDispatcher) -> None:
        """Route the puzzle pages."""
        router.add_get("/puzzle/today", self.today)
        router.add_get(f"/puzzle/{PUZZLE_ID}.png", self.picture)
        router.add_get(f"/puzzle/{PUZZLE_ID}", self.page)

    async def _page(self, request: web.Request, puzzle_id: str, solution: bool) -> PuzzlePage:
        page = await puzzle_values.puzzle_page(
            self._store, puzzle_id, solution=solution, now=self._now()
        )
        if page is None:
            raise web.HTTPNotFound
        return page

    async def today(self, request: web.Request) -> web.Response:
        return await self._show(request, puzzle_values.today_puzzle(self._now()).id)

    async def page(self, request: web.Request) -> web.Response:
        return await self._show(request, request.match_info["puzzle_id"])

    async def _show(self, request: web.Request, puzzle_id: str) -> web.Response:
        page = await self._page(request, puzzle_id, request.query.get("solution") == "1")
        origin = self._public_url or str(request.url.origin())
        return self._render(
            "puzzle.html",
            page=page,
            url=origin + puzzle_path(page.id),
            image=origin + puzzle_picture_path(page.id),
            theme_color=THEME_COLOR,
        )

    async def picture(self, request: web.Request) -> web.Response:
        page = await self._page(request, request.match_info["puzzle_id"], False)
        return await self._pictures.answer(page.id, lambda: puzzle_values.puzzle_png(page))

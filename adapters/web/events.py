"""A tournament's pages: ``/event/<public id>`` (its standings and rounds, with the Open Graph
tags a link preview reads) and ``.png`` (the preview's picture: the top of the table, drawn once
per state of the table and kept). Any other id is the pages' one 404."""

from __future__ import annotations

from aiohttp import web

from adapters.web.game import PUBLIC_ID, THEME_COLOR, Render
from adapters.web.kept import KeptPictures
from core.pages import event_picture
from core.pages.event import EventPage, event_page
from core.pages.paths import event_path, event_picture_path
from core.store.port import Store

PICTURES = 128
"""Pictures kept (a few KB each); a new result draws a new one, the old one ages out."""


class EventRoutes:
    """The event pages' handlers.

    Args:
        store: where events are read.
        render: draws a template into a page (the server's, with its globals).
        public_url: ``PUBLIC_URL`` for the previews' absolute addresses; None: the request's.
    """

    def __init__(self, store: Store, render: Render, public_url: str | None) -> None:
        self._store = store
        self._render = render
        self._public_url = public_url
        self._pictures = KeptPictures(PICTURES, max_age=300)

    def add(self, router: web.UrlDispatcher) -> None:
        """Route the event pages."""
        router.add_get(f"/event/{PUBLIC_ID}.png", self.picture)
        router.add_get(f"/event/{PUBLIC_ID}", self.page)

    async def _page(self, request: web.Request) -> EventPage:
        page = await event_page(self._store, request.match_info["public_id"])
        if page is None:
            raise web.HTTPNotFound
        return page

    async def page(self, request: web.Request) -> web.Response:
        page = await self._page(request)
        origin = self._public_url or str(request.url.origin())
        return self._render(
            "event.html",
            page=page,
            url=origin + event_path(page.public_id),
            image=origin + event_picture_path(page.public_id),
            theme_color=THEME_COLOR,
        )

    async def picture(self, request: web.Request) -> web.Response:
        page = await self._page(request)
        # Keyed by the whole page (as text: its words' parameters are dicts, which do not
        # hash): a result, a hidden player or a new round draws it again.
        return await self._pictures.answer(repr(page), lambda: event_picture.event_png(page))

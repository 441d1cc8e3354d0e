"""The web pages over aiohttp: the handlers, the headers every answer carries, the methods and
the rate limit (see ``docs/web.md``).

Every answer, errors included, is drawn here: a page from :mod:`core.pages`' values through the
package's Jinja2 templates (autoescaped: every value is text), the one stylesheet from the
package, and nothing from another host (the Content-Security-Policy says so to the browser)."""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable
from contextlib import asynccontextmanager
from importlib import resources
from typing import Any, TypeVar

import jinja2
from aiohttp import web

from adapters.web import language
from adapters.web.events import EventRoutes
from adapters.web.game import GameRoutes
from adapters.web.limits import LOOPBACK, AddressLimiter, Network, client_address
from adapters.web.live import STREAMS_PER_ADDRESS, LivePages
from adapters.web.puzzles import PuzzleRoutes
from core.pages import GAMES, SETTLED_GAMES, Pages
from core.pages.feed import LiveFeed
from core.pages.flight import SingleFlight
from core.pages.games import GamePages

log = logging.getLogger("chatbots.web")

HEADERS = {
    # Nothing from another host, no inline script, no plug-ins, no framing.
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none';"
        " form-action 'self'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
}
METHODS = ("GET", "HEAD")
HTML = "text/html; charset=utf-8"
_ERRORS = (404, 405, 429, 500)
"""The errors drawn as pages (``page.error.<status>.*`` say them); any other is the 404."""
STATIC = {
    "style.css": "text/css",
    "icon.svg": "image/svg+xml",
    "game.js": "text/javascript",
    "live.js": "text/javascript",
}
"""The files the pages load, shipped in the package (``static/``), read once."""
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
T = TypeVar("T")

LISTINGS_KEPT_FOR = 1.0
"""Seconds the home page's and the global ladders' values are kept by a process: every
visitor of that second shares one read of the store (on PostgreSQL, several round trips whose
wait is most of the page's time); a ``/hide``, a new rating shows on them within it."""
_LISTINGS = 64
"""Listings kept at most (the home page, and each way of naming a game's ladder)."""


class _Listings:
    """Values read at most once each ``seconds`` by key, shared with whoever asks meanwhile
    (the read in flight too); ``clock`` is monotonic seconds."""

    def __init__(self, seconds: float, clock: Callable[[], float]) -> None:
        self._seconds = seconds
        self._clock = clock
        self._kept: dict[Hashable, tuple[float, Any]] = {}
        self._reading: SingleFlight[Hashable, Any] = SingleFlight()

    async def get(self, key: Hashable, read: Callable[[], Awaitable[T]]) -> T:
        """``read()``'s value for ``key``, read again once its time is out (a read that failed
        is not kept; a None is not kept either: what names nothing has nothing to share)."""
        found = self._kept.get(key)
        if found is not None and found[0] > self._clock():
            kept: T = found[1]
            return kept
        value: T = await self._reading.run(key, lambda: self._read(key, read))
        return value

    async def _read(self, key: Hashable, read: Callable[[], Awaitable[T]]) -> T:
        # Kept from when the read started: what it shows is no older than that.
        started = self._clock()
        value = await read()
        if value is not None:
            if len(self._kept) >= _LISTINGS:
                self._kept = {k: v for k, v in self._kept.items() if v[0] > started}
            self._kept[key] = (started + self._seconds, value)
        return value


class WebPages:
    """The pages' aiohttp application.

    Args:
        pages: where the pages' values come from.
        limiter: the rate limit per client address.
        games: the finished games' reads (None: the games kept, without the solver's workers).
        public_url: ``PUBLIC_URL``, for the absolute addresses of link previews.
        streams_per_address: the live pages' event streams an address may hold open.
        feed: the live games' feed (:class:`core.pages.feed.LiveFeed`; a new one by default).
        trusted_proxies: the reverse proxies whose ``X-Forwarded-For`` names the client
            (``WEB_TRUSTED_PROXIES``; by default one on this machine).
        clock: monotonic seconds, for how long listings are kept (:data:`LISTINGS_KEPT_FOR`).
    """

    def __init__(
        self,
        pages: Pages,
        limiter: AddressLimiter | None = None,
        *,
        games: GamePages | None = None,
        public_url: str | None = None,
        streams_per_address: int = STREAMS_PER_ADDRESS,
        feed: LiveFeed | None = None,
        trusted_proxies: tuple[Network, ...] = LOOPBACK,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._pages = pages
        self._listings = _Listings(LISTINGS_KEPT_FOR, clock)
        self._limiter = limiter or AddressLimiter()
        self._trusted = trusted_proxies
        self._games = GameRoutes(games or GamePages(pages.store), self._render, public_url)
        self._events = EventRoutes(pages.store, self._render, public_url)
        self._puzzles = PuzzleRoutes(pages.store, self._render, public_url)
        self._templates = jinja2.Environment(
            loader=jinja2.PackageLoader("adapters.web", "templates"),
            autoescape=True,
            undefined=jinja2.StrictUndefined,
            trim_blocks=True,
        )
        self._templates.globals.update(language.template_globals())
        self._templates.globals["games"] = [
            (kind.word, title) for kind, (_, title) in GAMES.items()
        ]
        self._templates.globals["settled"] = SETTLED_GAMES
        folder = resources.files("adapters.web") / "static"
        self._static = {name: ((folder / name).read_bytes(), kind) for name, kind in STATIC.items()}
        self.live = LivePages(
            pages.live,
            self._templates,
            self._client,
            HEADERS,
            public_url=public_url,
            streams_per_address=streams_per_address,
            feed=feed,
        )

    def app(self) -> web.Application:
        """A new application serving the pages."""
        app = web.Application(middlewares=[self._guard])
        app.router.add_get("/", self._home)
        app.router.add_get("/ladder/{game}", self._ladder)
        app.router.add_get("/ladder/{game}/{platform}/{place}", self._local_ladder)
        app.router.add_get("/player/{identity}", self._player)
        self._games.add(app.router)
        self._events.add(app.router)
        self._puzzles.add(app.router)
        app.router.add_get("/static/{name}", self._file)
        self.live.add_routes(app)
        return app

    @web.middleware
    async def _guard(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Every answer: its language chosen, the method and the rate limit checked first, the
        headers added, an error drawn as a page."""
        language.use(
            language.choose(
                request.query.get(language.LANG), request.headers.get("Accept-Language")
            )
        )
        response: web.StreamResponse
        if request.method not in METHODS:
            response = self._error(405)
            response.headers["Allow"] = ", ".join(METHODS)
        elif (wait := self._limiter.take(self._client(request))) is not None:
            response = self._error(429)
            response.headers["Retry-After"] = str(wait)
        else:
            try:
                response = await handler(request)
            except web.HTTPException as error:
                response = self._error(error.status if error.status in _ERRORS else 404)
            except Exception:
                log.exception("web: page failed", extra={"path": request.path})
                response = self._error(500)
        response.headers.update(HEADERS)
        response.headers.add("Vary", "Accept-Language")  # a shared cache keeps each language
        return response

    def _client(self, request: web.Request) -> str:
        forwarded = request.headers.get("X-Forwarded-For")
        return client_address(request.remote, forwarded, self._trusted)

    def _render(self, template: str, status: int = 200, **values: Any) -> web.Response:
        text = self._templates.get_template(template).render(**values)
        return web.Response(text=text, status=status, content_type="text/html", charset="utf-8")

    def _error(self, status: int) -> web.Response:
        return self._render("error.html", status, error=status)

    async def _home(self, request: web.Request) -> web.Response:
        return self._render("home.html", page=await self._listings.get("home", self._pages.home))

    async def _ladder(self, request: web.Request) -> web.Response:
        word = request.match_info["game"]
        ladder = await self._listings.get(
            ("ladder", word.lower()), lambda: self._pages.ladder(word)
        )
        if ladder is None:
            raise web.HTTPNotFound
        return self._render("ladder.html", ladder=ladder)

    async def _local_ladder(self, request: web.Request) -> web.Response:
        info = request.match_info
        ladder = await self._pages.local_ladder(info["game"], info["platform"], info["place"])
        if ladder is None:
            raise web.HTTPNotFound
        return self._render("ladder.html", ladder=ladder)

    async def _player(self, request: web.Request) -> web.Response:
        page = await self._pages.player(request.match_info["identity"])
        if page is None:
            raise web.HTTPNotFound
        return self._render("player.html", page=page)

    async def _file(self, request: web.Request) -> web.Response:
        found = self._static.get(request.match_info["name"])
        if found is None:
            raise web.HTTPNotFound
        body, kind = found
        response = web.Response(body=body, content_type=kind, charset="utf-8")
        response.headers["Cache-Control"] = "public, max-age=3600"
        return response


@asynccontextmanager
async def serving(pages: WebPages, host: str, port: int) -> AsyncIterator[str]:
    """Serve ``pages`` on ``host``:``port`` while the block runs; yields the local address
    (``http://127.0.0.1:8765/``; the bound port when ``port`` is 0).

    Raises:
        OSError: the address cannot be bound.
    """
    runner = web.AppRunner(pages.app(), access_log=None, handle_signals=False)
    await runner.setup()
    try:
        site = web.TCPSite(runner, host, port)
        await site.start()
        bound = runner.addresses[0][1] if runner.addresses else port
        shown = f"[{host}]" if ":" in host else host
        yield f"http://{shown}:{bound}/"
    finally:
        await runner.cleanup()

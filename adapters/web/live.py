"""The live page of a game in progress: ``/live/<public_id>`` (the board, whose turn, the clock,
the moves; a plain page that works without JavaScript), its server-sent events
``/live/<public_id>/events`` (the same part of the page, drawn again at each move, which
``static/live.js`` puts in place) and its Open Graph picture ``/live/<public_id>.png``.

Every spectator of a game in this process waits on the one :class:`core.pages.feed.LiveFeed`,
and each version of a game is drawn once, whatever the number of spectators. An open stream is
one request for the rate limit; an address may hold :data:`STREAMS_PER_ADDRESS` of them."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Any

import jinja2
from aiohttp import web

from adapters.web import language
from adapters.web.kept import KeptPictures
from core.pages.feed import LiveFeed
from core.pages.kept import Kept
from core.pages.live import LiveGame, LiveReads
from core.pages.paths import live_path
from core.pictures import board_png

log = logging.getLogger("chatbots.web")

STREAMS_PER_ADDRESS = 16
"""Event streams one client address may hold open at once (each is a request that stays)."""
HEARTBEAT = 15.0
"""Seconds between two comments on a quiet stream: proxies keep it open, and a spectator who
left is noticed by the failed write."""
RETRY_MS = 2000
"""How long a browser waits before it opens a dropped stream again (another process may
serve it)."""
KEPT = 256
"""Drawn versions kept (each part of a page and each picture)."""
THEME_COLOUR = "#2563eb"
NOINDEX = {"X-Robots-Tag": "noindex, nofollow"}


def event(name: str, data: str, event_id: int | None = None) -> bytes:
    """One server-sent event: its name, its id, and ``data`` a line per ``data:`` field."""
    lines = [f"event: {name}"]
    if event_id is not None:
        lines.append(f"id: {event_id}")
    lines += [f"data: {line}" for line in data.replace("\r", "").split("\n")]
    return ("\n".join(lines) + "\n\n").encode()


def clock_time(deadline: float) -> tuple[str, str]:
    """A deadline as ``datetime`` takes it (ISO 8601) and as the page shows it (UTC)."""
    at = datetime.fromtimestamp(deadline, UTC)
    return at.isoformat(timespec="seconds"), at.strftime("%H:%M:%S UTC")


class LivePages:
    """The live pages' handlers.

    Args:
        reads: the store's reads of live games.
        templates: the pages' Jinja2 templates.
        client: who a request comes from (the rate limit's address).
        public_url: the address people reach the pages at (``PUBLIC_URL``), for the absolute
            address of the picture a preview shows; None: the request's own.
        streams_per_address: see :data:`STREAMS_PER_ADDRESS`.
        feed: the feed of this process (a new one by default).
    """

    def __init__(
        self,
        reads: LiveReads,
        templates: jinja2.Environment,
        client: Callable[[web.Request], str],
        headers: Mapping[str, str],
        *,
        public_url: str | None = None,
        streams_per_address: int = STREAMS_PER_ADDRESS,
        feed: LiveFeed | None = None,
    ) -> None:
        self._reads = reads
        self._templates = templates
        self._templates.globals["clock_time"] = clock_time
        self._client = client
        self._headers = {**headers, **NOINDEX}
        self._public_url = public_url
        self._per_address = streams_per_address
        self.feed = feed or LiveFeed(reads)
        self._streams: collections.Counter[str] = collections.Counter()
        # By game, version and language: the part of the page each version shows.
        self._parts: Kept[tuple[str, int, str], bytes] = Kept(KEPT)
        # By game and version: the picture speaks English to every reader.
        self._pictures = KeptPictures(KEPT, max_age=5)

    def add_routes(self, app: web.Application) -> None:
        """Serve the live pages in ``app``, and end their streams when it shuts down."""
        public_id = "{public_id:[0-9a-f]{32}}"
        app.router.add_get(f"/live/{public_id}", self.page)
        app.router.add_get(f"/live/{public_id}.png", self.picture)
        app.router.add_get(f"/live/{public_id}/events", self.events)
        app.on_shutdown.append(self._shutdown)

    async def _shutdown(self, app: web.Application) -> None:
        await self.feed.close()

    async def _game(self, request: web.Request) -> LiveGame:
        game = await self._reads.game(request.match_info["public_id"])
        if game is None:
            raise web.HTTPNotFound
        return game

    def _render(self, template: str, **values: Any) -> str:
        return self._templates.get_template(template).render(**values)

    def _part(self, game: LiveGame) -> str:
        """The part of the page that changes with the game, drawn once per version and
        language."""
        key = (game.public_id, game.version, language.current().locale)
        kept = self._parts.get(key)
        if kept is None:
            kept = self._parts.keep(key, self._render("_live_game.html", game=game).encode())
        return kept.decode()

    async def page(self, request: web.Request) -> web.Response:
        game = await self._game(request)
        base = self._public_url or f"{request.scheme}://{request.host}"
        path = live_path(game.public_id)
        text = self._render(
            "live.html",
            game=game,
            part=self._part(game),
            url=base + path,
            image=f"{base}{path}.png?v={game.version}",
            colour=THEME_COLOUR,
        )
        response = web.Response(text=text, content_type="text/html", charset="utf-8")
        response.headers.update(NOINDEX)
        response.headers["Cache-Control"] = "no-cache"
        return response

    async def picture(self, request: web.Request) -> web.Response:
        """The board now, with both names and the status (the result at the end): the
        picture a link's preview shows."""
        game = await self._game(request)
        response = await self._pictures.answer(
            (game.public_id, game.version),
            lambda: board_png(game.board, caption=game.status),
        )
        response.headers.update(NOINDEX)
        return response

    async def events(self, request: web.Request) -> web.StreamResponse:
        """The game's changes as server-sent events: ``game`` (the changing part of the page,
        its id the version) now and at each change, then ``end`` once it is finished, or
        ``gone`` when it is no longer stored. The stream closes after either."""
        game = await self._game(request)  # an unknown game: the one 404, before any stream
        if request.method == "HEAD":
            return web.Response(content_type="text/event-stream")
        address = self._client(request)
        if self._streams[address] >= self._per_address:
            raise web.HTTPTooManyRequests
        self._streams[address] += 1
        try:
            return await self._stream(request, game)
        finally:
            self._streams[address] -= 1
            if self._streams[address] <= 0:
                del self._streams[address]

    async def _stream(self, request: web.Request, first: LiveGame) -> web.StreamResponse:
        response = web.StreamResponse(headers=self._headers)
        response.content_type = "text/event-stream"
        response.headers["Cache-Control"] = "no-cache"
        response.headers["X-Accel-Buffering"] = "no"  # nginx passes each event at once
        await response.prepare(request)
        seen = request.headers.get("Last-Event-ID")
        watching = aiter(self.feed.watch(first.public_id))
        pending: asyncio.Future[LiveGame | None] | None = None
        try:
            await response.write(f"retry: {RETRY_MS}\n\n".encode())
            while True:
                if pending is None:
                    pending = asyncio.ensure_future(anext(watching))
                done, _ = await asyncio.wait({pending}, timeout=HEARTBEAT)
                if not done:
                    await response.write(b": still here\n\n")
                    continue
                try:
                    game = pending.result()
                except StopAsyncIteration:
                    break  # the pages are shutting down: the browser comes back to another
                pending = None
                if game is None:
                    gone = self._render("_live_gone.html")
                    await response.write(event("gone", gone))
                    break
                if str(game.version) != seen:
                    await response.write(event("game", self._part(game), game.version))
                seen = None
                if game.finished:
                    await response.write(event("end", "finished"))
                    break
        except ConnectionError:
            pass  # the spectator left
        finally:
            if pending is not None:  # awaited even when done: its end is taken
                pending.cancel()
                with contextlib.suppress(asyncio.CancelledError, StopAsyncIteration):
                    await pending
            await watching.aclose()  # type: ignore[attr-defined]
        with contextlib.suppress(ConnectionError):
            await response.write_eof()
        return response

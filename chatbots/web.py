"""The web pages' listener (``WEB_HOST``:``WEB_PORT``), beside the adapters: a listener of its
own, never the health and metrics one (``chatbots.health``), which must stay private."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, TextIO

from chatbots.health import why_not_listening
from chatbots.settings import Settings

if TYPE_CHECKING:
    from core.ai.review import GameReview, MoveReview
    from core.games import Rules
    from core.pages.games import Analyse
    from core.store.runner import SqlStore
    from core.workers.runner import AiRunner

log = logging.getLogger("chatbots")


@asynccontextmanager
async def serving_pages(
    settings: Settings, store: SqlStore, stdout: TextIO, runner: AiRunner | None = None
) -> AsyncIterator[str | None]:
    """Serve the pages while the block runs, and say where on ``stdout`` ("pages at
    http://127.0.0.1:8765/"); yields that address, or None when ``WEB_PORT`` is not set.
    ``runner``: the AI's workers, which review a finished game for its page once.

    Raises:
        OSError: the address cannot be bound (logged in one line naming the settings and why).
    """
    if settings.web_port is None:
        yield None
        return
    from adapters.web import WebPages, serving
    from adapters.web.limits import proxies
    from core.pages import Pages
    from core.pages.games import GamePages

    host, port = settings.web_host, settings.web_port
    games = GamePages(store, None if runner is None else reviews_by(runner))
    pages = WebPages(
        Pages(store),
        games=games,
        public_url=settings.public_url,
        trusted_proxies=proxies(settings.web_trusted_proxies),
    )
    async with contextlib.AsyncExitStack() as stack:
        try:
            url = await stack.enter_async_context(serving(pages, host, port))
        except OSError as error:
            log.error(
                "web: cannot listen on WEB_HOST=%s WEB_PORT=%d: %s",
                host,
                port,
                why_not_listening(error),
                extra={"host": host, "port": port, "error": str(error)},
            )
            raise
        log.info("web pages", extra={"url": url, "public_url": settings.public_url})
        stdout.write(f"pages at {url}\n")
        stdout.flush()
        yield url


def reviews_by(runner: AiRunner) -> Analyse:
    """The game pages' reviews in the AI's workers: with every position's optimal moves, as
    background work that never delays a move (None while searches wait: a later visit asks
    again)."""
    from core.sessions.reviews.review import REVIEW_SECONDS

    async def analyse(
        rules: Rules, moves: tuple[int, ...], known: tuple[MoveReview, ...]
    ) -> GameReview | None:
        return await runner.review(
            rules, moves, seconds=REVIEW_SECONDS, known=known, background=True, every_best=True
        )

    return analyse

"""Preview pictures drawn once and kept, bounded: a link posted in many chats is fetched by each
chat's crawler, and drawing takes milliseconds of CPU that a thread keeps off the pages."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Hashable

from aiohttp import web

from core.pages.kept import Kept


class KeptPictures:
    """The latest ``size`` pictures drawn, by key (the least recently asked for leaves first).

    Args:
        size: pictures kept.
        max_age: how long a client may keep one (``Cache-Control``), in seconds.
    """

    def __init__(self, size: int, max_age: int) -> None:
        self._max_age = max_age
        self._kept: Kept[Hashable, bytes] = Kept(size)

    async def answer(self, key: Hashable, draw: Callable[[], bytes]) -> web.Response:
        """The PNG kept for ``key``, else ``draw()``'s (run in a thread), kept."""
        body = self._kept.get(key)
        if body is None:
            body = self._kept.keep(key, await asyncio.to_thread(draw))
        response = web.Response(body=body, content_type="image/png")
        response.headers["Cache-Control"] = f"public, max-age={self._max_age}"
        return response

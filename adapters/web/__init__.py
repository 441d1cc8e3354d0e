"""Read-only web pages (ladders, players) on aiohttp, drawn from :mod:`core.pages`' values;
``chatbots.app`` serves them on ``WEB_HOST``:``WEB_PORT`` (see ``docs/web.md``)."""

from adapters.web.limits import AddressLimiter
from adapters.web.server import HEADERS, WebPages, serving

__all__ = ["HEADERS", "AddressLimiter", "WebPages", "serving"]

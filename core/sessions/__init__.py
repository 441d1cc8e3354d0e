"""Game sessions: the :class:`GameService` façade adapters call, and what it is made of.

- ``service``: the façade (entry points, lifetime); ``dispatch``: text and commands to their
  parts;
- ``play/``: status transitions (``model``, pure), challenges, moves, watched bots' games,
  departures and moved chats; ``clocks/``, ``openplay/``, ``reviews/``, ``admin/``,
  ``players/`` (``/stats``, ``/top``, ``/link``, ``/hide``, ``/theme``); ``views``: boards and
  replies;
- ``requests``: accounting, error -> reply, receipts, one log line per request; ``outages``;
- ``context``: the dependencies and lookups every part shares; ``settings``: ServiceSettings.
"""

from core.sessions.service import GameService
from core.sessions.settings import ServiceSettings
from core.sessions.views import board_view

__all__ = ["GameService", "ServiceSettings", "board_view"]

"""Game sessions: the :class:`GameService` façade adapters call, and what it is made of.

- ``service``: the façade (entry points, lifetime); ``dispatch``: text and commands to their
  parts;
- ``model``: a session's status transitions in one table (pure);
- ``challenges``: new games, challenges, rematch, ``/final``;
- ``moves``: a player's move and the bot's answer; ``watch``: bots' games people watch;
- ``stats``: ``/stats`` and ``/top``; ``views``: boards and replies;
- ``requests``: accounting, error -> reply, receipts, one log line per request;
- ``context``: the dependencies and lookups every part shares; ``settings``: ServiceSettings.
"""

from core.sessions.service import GameService
from core.sessions.settings import ServiceSettings
from core.sessions.views import board_view

__all__ = ["GameService", "ServiceSettings", "board_view"]

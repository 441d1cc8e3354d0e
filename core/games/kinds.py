"""The families of game a player starts by name (the seeds' command names).

Here rather than in ``core.commands`` (which re-exports it as part of its contract) because the
chat settings name games too (``games``), and the settings' key table must not import the
command parser, which reads the settings' names from it.
"""

from __future__ import annotations

import enum


class GameKind(enum.Enum):
    """Which family of game a start command asks for (the seeds' command names)."""

    TRES = "tres"  # tic-tac-toe, 3x3 k=3
    QUATRE = "quatre"  # Connect Four, gravity, default 6x7 k=4
    RATLLA = "ratlla"  # k in a row on a free board

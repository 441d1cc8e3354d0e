"""Game rules: k stones in a row on a board, with or without gravity."""

from core.games.kinds import GameKind, Variant
from core.games.outcome import Outcome, Termination
from core.games.position import IllegalMove, Position
from core.games.rules import CONNECT_FOUR, TICTACTOE, Rules

__all__ = [
    "CONNECT_FOUR",
    "TICTACTOE",
    "GameKind",
    "IllegalMove",
    "Outcome",
    "Position",
    "Rules",
    "Termination",
    "Variant",
]

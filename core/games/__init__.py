"""Game rules: k stones in a row on a board, with or without gravity."""

from core.games.position import IllegalMove, Outcome, Position
from core.games.rules import CONNECT_FOUR, TICTACTOE, Rules

__all__ = ["CONNECT_FOUR", "TICTACTOE", "IllegalMove", "Outcome", "Position", "Rules"]

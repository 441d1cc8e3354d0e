"""How a game ended: small values the rest of the code names once (the ratings and the schema
derive from :class:`Termination`)."""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Termination(enum.Enum):
    """Why a game is over. The values are stored: never change one, add new ones."""

    WIN = "win"  # a player completed a line
    DRAW = "draw"  # the board filled up without a line
    RESIGNATION = "resignation"  # a player gave up: the other side wins
    TIMEOUT = "timeout"  # a player's clock ran out: the other side wins
    # A player left the chat (or the bot did): the one who stayed wins, or nobody when no one
    # stayed to claim it (the bot left) or no move had been played.
    ABANDONED = "abandoned"
    STOPPED = "stopped"  # stopped from outside (a bots' game's watcher, a time cap): no result


DECISIVE: frozenset[Termination] = frozenset(
    {Termination.WIN, Termination.RESIGNATION, Termination.TIMEOUT, Termination.ABANDONED}
)
"""Terminations with a winner; the others have none (an abandoned game may have none)."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended: why (``termination``) and who won (1, 2, or None).

    Raises:
        ValueError: a winner given for a termination without one, or missing for one with one.
    """

    termination: Termination
    winner: int | None = None

    def __post_init__(self) -> None:
        if self.termination is Termination.ABANDONED and self.winner is None:
            return  # nobody stayed to claim it: no result
        if (self.termination in DECISIVE) != (self.winner in (1, 2)):
            raise ValueError(f"{self.termination.value} with winner {self.winner!r}")

    @property
    def is_draw(self) -> bool:
        """Over with no winner (a full board, or a game stopped or abandoned without a
        result)."""
        return self.winner is None

    @property
    def on_the_board(self) -> bool:
        """The board itself ended the game (a line or a full board), not a player or a clock."""
        return self.termination in (Termination.WIN, Termination.DRAW)

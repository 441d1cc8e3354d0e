"""AI players: ``choose_move`` at three levels, and ``solve`` for exact scores.

Importing this package is cheap: the solver loads its accelerator (numba) only when first used
or warmed up (``warm_up``, at start-up).
"""

from core.ai.levels import Level
from core.ai.players import choose_move, warm_up
from core.ai.solver import solve

__all__ = ["Level", "choose_move", "solve", "warm_up"]

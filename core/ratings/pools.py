"""Which rating a game counts for: a pool per game that plays differently
(:meth:`core.games.GameKind.pool` says which, and why).

Pool names are stored with every rating: never change one, add new ones.
"""

from __future__ import annotations

from core.games import GameKind, Rules


def pool_of(rows: int, cols: int, k: int, gravity: bool) -> str:
    """The rating pool of a game played on these rules (``core.games.Rules``' fields)."""
    rules = Rules(rows, cols, k, gravity=gravity)
    return GameKind.of(rules).pool(rules)

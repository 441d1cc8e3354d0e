"""What a game page can prove on a board the solver cannot settle: threats, pure.

After each move, with the stones as they stand: a cell where a player would complete a line
now (a *threat*) is found by shifts and ANDs on the bitboards, as :func:`has_line` finds lines.
Three facts follow without a search, and nothing else is claimed ("unknown"):

- the opponent has a threat: they win with their next move (the move lost, in 2 moves);
- the opponent has none and the mover has two or more: one stone blocks one of them, and
  cannot win itself (it would be a threat of the opponent's), so the mover wins (in 3 moves);
- the mover has exactly one: a threat the opponent must block (not a verdict).

On gravity boards only the cell a stone would land on counts (the lowest empty one of each
column); a threat above it is not yet playable.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.games import Position, Rules
from core.games.bitboard import Geometry, geometry, iter_bits
from core.i18n import Text
from core.pages.game import UNKNOWN, Verdict
from core.render import cell_name


def threats(stones: int, empty: int, geo: Geometry) -> int:
    """The bits of ``empty`` where ``stones`` would complete a line of ``geo``'s ``k``."""
    k = geo.rules.k
    found = 0
    for shift in geo.shifts:
        for gap in range(k):
            starts = empty >> (gap * shift)
            for i in range(k):
                if i != gap and starts:
                    starts &= stones >> (i * shift)
            found |= starts << (gap * shift)
    return found


def threat_verdicts(rules: Rules, moves: Sequence[int]) -> tuple[Verdict, ...]:
    """Each move's verdict as far as threats prove it (see the module); CPU only, up to a few
    hundred ms for the longest game on the biggest board: run it off the event loop."""
    geo = geometry(rules)
    found = []
    p = Position.start(rules)
    for move in moves:
        mover = p.to_move
        p = p.play(move)
        if p.winner is not None:
            found.append(Verdict("win", Text("page.verdict.win", {"moves": 1})))
            continue
        if p.is_draw:
            found.append(Verdict("draw", Text("page.verdict.draw")))
            continue
        occupied = p.occupied
        if rules.gravity:
            empty = (occupied + geo.bottom_mask) & geo.board_mask
        else:
            empty = geo.board_mask & ~occupied
        mine, theirs = p.stones[mover - 1], p.stones[2 - mover]
        if threats(theirs, empty, geo):
            found.append(Verdict("loss", Text("page.verdict.threat_loss")))
            continue
        own = iter_bits(threats(mine, empty, geo))
        if len(own) >= 2:
            found.append(Verdict("win", Text("page.verdict.threat_win")))
        elif own:
            cell = cell_name(rules, geo.cell_of_bit(own[0]))
            found.append(Verdict("unknown", Text("page.verdict.threat_block", {"cell": cell})))
        else:
            found.append(UNKNOWN)
    return tuple(found)

"""What threats prove on boards the solver cannot settle, checked by brute force on random
games of free and gravity boards: every "loss" has an immediate win for the opponent, every
"win" answers each reply with a win, every threat named is one, and "unknown" claims nothing
the board would prove."""

from __future__ import annotations

import random

import pytest

from core.games import Position, Rules
from core.games.bitboard import geometry, has_line
from core.pages.threats import threat_verdicts
from core.render import cell_name

BOARDS = (Rules(7, 7, 4), Rules(9, 9, 5), Rules(5, 6, 4, gravity=True), Rules(7, 8, 4, True))


def _wins_at_once(p: Position) -> list[int]:
    """The side to move's moves that complete a line now (by playing each)."""
    return [m for m in p.legal_moves() if p.play(m).winner is not None]


def _mover_threats(p: Position, mover: int) -> list[int]:
    """Cells where ``mover`` (not to move) would complete a line, were it their turn."""
    geo = geometry(p.rules)
    mine = p.stones[mover - 1]
    found = []
    for m in p.legal_moves():
        bit = p.move_bit(m)  # where a stone of this move lands, whoever plays it
        if has_line(mine | 1 << bit, geo):
            found.append(geo.cell_of_bit(bit))
    return found


@pytest.mark.parametrize("rules", BOARDS, ids=str)
def test_each_proof_holds_by_brute_force(rules: Rules) -> None:
    rng = random.Random(11)
    seen = {"win": 0, "loss": 0, "threat": 0}
    for _ in range(40):
        p = Position.start(rules)
        while not p.is_over:
            p = p.play(rng.choice(p.legal_moves()))
        verdicts = threat_verdicts(rules, p.moves)
        q = Position.start(rules)
        for move, verdict in zip(p.moves, verdicts, strict=True):
            mover = q.to_move
            q = q.play(move)
            if q.winner is not None:
                assert verdict.text == "win in 1 move"
                continue
            if q.is_draw:
                assert verdict.result == "draw"
                continue
            theirs = _wins_at_once(q)
            mine = _mover_threats(q, mover)
            if verdict.result == "loss":
                seen["loss"] += 1
                assert theirs
            elif verdict.result == "win":
                seen["win"] += 1
                assert not theirs
                for reply in q.legal_moves():
                    assert _wins_at_once(q.play(reply)), (q, reply)
            else:
                assert verdict.result == "unknown"
                assert not theirs and len(mine) < 2
                if mine:
                    seen["threat"] += 1
                    assert (
                        verdict.text == f"unknown; a threat at {cell_name(rules, mine[0])} to block"
                    )
                else:
                    assert verdict.text == "unknown"
    assert all(seen.values()), seen  # each kind of proof came up

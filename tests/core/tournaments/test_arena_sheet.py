"""An arena sheet scores by lichess's rules (lila's ArenaSheet.scala; core.tournaments.arena)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.tournaments.arena import (
    LICHESS_CHESS,
    ArenaGame,
    ArenaRules,
    Outcome,
    sheet,
)

W, D, L = Outcome.WIN, Outcome.DRAW, Outcome.LOSS


def games(text: str, plies: int = 30, berserk: str = "") -> list[ArenaGame]:
    """``"WWDL"`` as games; ``berserk`` marks the berserk ones with ``b`` at their place."""
    outcome = {"W": W, "D": D, "L": L}
    return [
        ArenaGame(outcome[c], plies, berserk=i < len(berserk) and berserk[i] == "b")
        for i, c in enumerate(text)
    ]


@pytest.mark.parametrize(
    ("results", "points"),
    [
        ("W", [2]),
        ("D", [1]),
        ("L", [0]),
        ("WW", [2, 2]),
        # two wins in a row: the next wins score double until a game is not won
        ("WWW", [2, 2, 4]),
        ("WWWWW", [2, 2, 4, 4, 4]),
        # a loss ends the fire; two new wins light it again
        ("WWWLW", [2, 2, 4, 0, 2]),
        ("WWWLWWW", [2, 2, 4, 0, 2, 2, 4]),
        # a draw while on fire scores double too (lila's Flag.Double on a draw) and ends the fire
        ("WWD", [2, 2, 2]),
        ("WWDW", [2, 2, 2, 2]),
        ("WWDWW", [2, 2, 2, 2, 2]),
        ("WWDWWW", [2, 2, 2, 2, 2, 4]),
        # a win, a loss, a win is no streak
        ("WLWW", [2, 0, 2, 2]),
        # draws after draws count while the draw-streak rule is off (our default)
        ("DD", [1, 1]),
    ],
)
def test_the_streak_rules(results: str, points: list[int]) -> None:
    scored = sheet(games(results))
    assert [s.points for s in scored.scores] == points
    assert scored.total == sum(points)


def test_without_streaks_every_win_scores_two() -> None:
    scored = sheet(games("WWWWD"), ArenaRules(streaks=False))
    assert [s.points for s in scored.scores] == [2, 2, 2, 2, 1]


@pytest.mark.parametrize(
    ("results", "berserk", "points"),
    [
        ("W", "b", [3]),  # a berserk win: +1
        ("D", "b", [1]),  # a berserk draw or loss: nothing
        ("L", "b", [0]),
        ("WWW", "bbb", [3, 3, 5]),  # on fire and berserk: 4 + 1
    ],
)
def test_berserk_adds_one_to_a_win(results: str, berserk: str, points: list[int]) -> None:
    assert [s.points for s in sheet(games(results, berserk=berserk)).scores] == points


def test_lichess_chess_thresholds() -> None:
    rules = LICHESS_CHESS
    # a draw of fewer than 20 plies scores nothing
    assert sheet([ArenaGame(D, 19)], rules).total == 0
    assert sheet([ArenaGame(D, 20)], rules).total == 1
    # a berserk win of fewer than 14 plies earns no bonus
    assert sheet([ArenaGame(W, 13, berserk=True)], rules).total == 2
    assert sheet([ArenaGame(W, 14, berserk=True)], rules).total == 3
    # a draw after a draw (losses between do not count) scores 0 unless it is long
    assert [s.points for s in sheet(games("DLD", 30), rules).scores] == [1, 0, 0]
    assert [s.points for s in sheet(games("DLD", 60), rules).scores] == [1, 0, 1]
    assert [s.points for s in sheet(games("DWD", 30), rules).scores] == [1, 2, 1]
    # on fire, a draw scores double whatever came before
    assert [s.points for s in sheet(games("DWWD", 30), rules).scores] == [1, 2, 2, 2]


def test_adding_one_game_at_a_time_is_the_same_sheet() -> None:
    whole = sheet(games("WWDWWWLD", berserk="b.b.bb"))
    one_by_one = sheet([])
    for game in games("WWDWWWLD", berserk="b.b.bb"):
        one_by_one = one_by_one.add(game)
    assert one_by_one == whole


@given(st.lists(st.sampled_from([W, D, L]), max_size=40), st.booleans())
def test_a_win_scores_double_exactly_after_two_wins(outcomes: list[Outcome], berserk: bool) -> None:
    scored = sheet([ArenaGame(o, 30, berserk=berserk) for o in outcomes])
    for i, (outcome, score) in enumerate(zip(outcomes, scored.scores, strict=True)):
        fire = i >= 2 and outcomes[i - 1] is W and outcomes[i - 2] is W
        base = {W: 4 if fire else 2, D: 2 if fire else 1, L: 0}[outcome]
        assert score.points == base + (berserk and outcome is W)

"""The judge of HARD's moves in ``benchmarks.gomoku_judge``: Rapfi's evaluations read and
capped, the positions taken from its games, and a verdict asked of a stand-in engine (not
Rapfi: GPL-3 and optional, built only by the benchmark)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from benchmarks._gomocup import GomocupEngine
from benchmarks.gomoku_judge import (
    CAP,
    GAMES_FILE,
    OPENING_STONES,
    SELF_PLAY_FILE,
    compare,
    positions,
    self_play,
    value,
    verdict,
)
from benchmarks.gomoku_peer import GOMOKU
from core.games import Position

STAND_IN = Path(__file__).with_name("gomocup_stand_in.py")


def test_evaluations_are_capped_and_forced_results_count_as_the_cap() -> None:
    assert value("-197") == -197
    assert value("+40") == 40
    assert value(str(CAP + 1)) == CAP
    assert value("+M13") == CAP
    assert value("-M4") == -CAP
    assert value(None) is None
    assert value("?") is None


@pytest.mark.parametrize("games_file", [GAMES_FILE, SELF_PLAY_FILE], ids=["lost", "self-play"])
def test_the_positions_are_those_before_hards_moves_past_the_opening(games_file: Path) -> None:
    games = [
        line.split()
        for line in games_file.read_text().splitlines()
        if line and not line.startswith("#")
    ]
    assert games, f"no games in {games_file}"
    expected = 0
    for colour, *cells in games:
        assert colour in ("b", "w")
        assert len(set(cells)) == len(cells)  # a legal game: no cell twice
        ours = 0 if colour == "b" else 1
        expected += sum(ply % 2 == ours for ply in range(OPENING_STONES, len(cells)))
    found = positions(quick=False, games=games_file)
    assert len(found) == expected
    # HARD is to move in each: after an even count of stones when it is the first player.
    first = [line[0] == "b" for line in games]
    assert len(found[0]) % 2 == (0 if first[0] else 1)
    quick = positions(quick=True, games=games_file)
    assert quick == found[: len(quick)]


def test_a_game_of_the_engine_against_itself_starts_from_the_opening_and_ends(
    tmp_path: Path,
) -> None:
    """Two stand-ins (each plays the first empty cell) from an opening: each is told the board
    with its own stones as its own, then every move of the other."""
    logs = [tmp_path / "first", tmp_path / "second"]
    engines = [GomocupEngine([sys.executable, str(STAND_IN), str(log)], timeout=30) for log in logs]
    with engines[0] as first, engines[1] as second:
        moves = self_play(first, second, [112, 98, 140])
    assert moves[:3] == [112, 98, 140]
    assert len(set(moves)) == len(moves)
    p = Position.from_moves(GOMOKU, moves)
    assert p.is_over
    assert not Position.from_moves(GOMOKU, moves[:-1]).is_over
    first_told, second_told = (log.read_text() for log in logs)
    # After the opening's three stones the second player moves first: the opening with its
    # one stone as its own (1); then the first player is told four stones, its own the first
    # and third. Each is told a board once, then the other's moves one by one.
    told = second_told.split("BOARD\n")[1].split("DONE")[0].split()
    assert told == ["7,7,2", "8,6,1", "5,9,2"]
    told = first_told.split("BOARD\n")[1].split("DONE")[0].split()
    assert [stone.rsplit(",", 1)[1] for stone in told] == ["1", "2", "1", "2"]
    assert first_told.count("BOARD") == second_told.count("BOARD") == 1
    assert first_told.count("TURN") + second_told.count("TURN") == len(moves) - 5


def test_a_verdict_is_the_judges_move_and_its_evaluation_of_the_side_to_move(
    tmp_path: Path,
) -> None:
    log = tmp_path / "log"
    with GomocupEngine([sys.executable, str(STAND_IN), str(log)], timeout=30) as engine:
        move, evaluation = verdict(engine, [112, 98, 140], 6)
        # The stand-in plays the first empty cell; its "evaluation" is the stones on the board.
        assert (move, evaluation) == (0, 3)
        assert verdict(engine, [0, 1, 2, 3], 6) == (4, 4)
    told = log.read_text()
    assert "INFO max_depth 6" in told
    # The judge's own stones are the side to move's: white's after three stones.
    first_board = told.split("BOARD\n")[1].split("DONE")[0].split()
    assert [stone.rsplit(",", 1)[1] for stone in first_board] == ["2", "1", "2"]


def test_two_versions_are_compared_position_by_position(capsys: pytest.CaptureFixture[str]) -> None:
    # Position 3 was judged in the base only (the other run found it decided): left out.
    compare({0: 90, 1: 0, 2: 30}, {0: 0, 1: 0, 2: 60, 3: 700})
    said = capsys.readouterr().out
    assert "3 positions: loss a move +20.0" in said
    assert "better in 1, worse in 1" in said

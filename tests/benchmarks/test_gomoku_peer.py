"""The Gomocup client of ``benchmarks.gomoku_peer``, against a stand-in engine (a small Python
script that speaks the protocol, tests/benchmarks/gomocup_stand_in.py), not against Rapfi: Rapfi
is GPL-3 and optional, built only by the benchmark from a checkout given to it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from benchmarks._gomocup import EngineError, GomocupEngine
from benchmarks.gomoku_peer import EVERY_OPENING, OPENINGS, SETTINGS, judge, play

STAND_IN = Path(__file__).with_name("gomocup_stand_in.py")


def stand_in(log: Path, *args: str) -> GomocupEngine:
    return GomocupEngine([sys.executable, str(STAND_IN), str(log), *args], timeout=30)


def test_commands_arrive_although_the_engine_drops_one_after_each_move(tmp_path: Path) -> None:
    log = tmp_path / "log"
    with stand_in(log) as engine:
        engine.start(15, {"rule": 0, "timeout_turn": 100})
        assert engine.board([(7, 7, False), (8, 7, True), (7, 9, False)]) == (0, 0)
        # The stand-in drops whatever reaches it first after its move: only pings may be lost.
        assert engine.turn(3, 4) == (1, 0)
        assert engine.turn(2, 0) == (3, 0)
    received = log.read_text().splitlines()
    assert received[:2] == ["YXHASHCLEAR", "ABOUT"]
    assert received[2:5] == ["START 15", "INFO rule 0", "INFO timeout_turn 100"]
    assert received[5:10] == ["BOARD", "7,7,2", "8,7,1", "7,9,2", "DONE"]
    dropped = [received[i - 1] for i, line in enumerate(received) if line == "(dropped)"]
    assert dropped == ["ABOUT"] * 3  # after each of its three moves (the last before END)
    assert [line for line in received if line.startswith("TURN")] == ["TURN 3,4", "TURN 2,0"]
    assert received[-1] == "END"


@pytest.mark.parametrize("kind", ["rapfi", "plain"])
def test_each_game_starts_with_the_engine_forgetting_the_last(tmp_path: Path, kind: str) -> None:
    """A game or a judged position owes nothing to the ones before it: each start empties the
    engine's memory first, and an engine that does not know how says UNKNOWN, read past."""
    log = tmp_path / "log"
    with stand_in(log, *(["plain"] if kind == "plain" else [])) as engine:
        for _ in range(2):
            engine.start(15, {"rule": 0})
            assert engine.board([(7, 7, False)]) == (0, 0)
    received = log.read_text().splitlines()
    starts = [i for i, line in enumerate(received) if line == "START 15"]
    assert len(starts) == 2
    for start in starts:
        # The clear, then pings until the engine answers one (the first after a move is
        # dropped), then the game.
        before = received[:start]
        clear = len(before) - 1 - before[::-1].index("YXHASHCLEAR")
        assert set(received[clear + 1 : start]) <= {"ABOUT", "(dropped)"}
        assert "ABOUT" in received[clear + 1 : start]


@pytest.mark.parametrize("ours_first", [True, False])
def test_a_game_from_an_opening_is_played_to_its_end(tmp_path: Path, ours_first: bool) -> None:
    with stand_in(tmp_path / "log") as engine:
        game = play(engine, SETTINGS[1], 0, ours_first, budget=0.05)
    # The stand-in fills the top row from the left: HARD blocks it and wins.
    assert game.result == 1
    opening = len(OPENINGS[0])
    assert game.plies == opening + len(game.our_times) + len(game.peer_times)
    assert len(game.our_times) == len(game.peer_times) + (0 if ours_first else 1)
    # The stones the stand-in was told match the opening, with the colours it plays.
    told = (tmp_path / "log").read_text().split("BOARD\n")[1].split("DONE")[0].split()
    expected = [f"{c},{r}" for r, c in OPENINGS[0]]
    assert [stone.rsplit(",", 1)[0] for stone in told[:3]] == expected
    # 1: the engine's own stone; the opening's first and third stones are the first player's.
    theirs_flag, ours_flag = ("2", "1") if ours_first else ("1", "2")
    assert [stone.rsplit(",", 1)[1] for stone in told[:3]] == [theirs_flag, ours_flag, theirs_flag]


@pytest.mark.parametrize("ours_first", [True, False])
def test_the_judge_sees_each_position_before_hards_moves(tmp_path: Path, ours_first: bool) -> None:
    with stand_in(tmp_path / "log") as engine:
        game = play(engine, SETTINGS[1], 0, ours_first, budget=0.05)
    with stand_in(tmp_path / "judge") as engine:
        verdicts = judge(engine, game, 100)
    assert [v.ply for v in verdicts] == [
        ply + 1
        for ply in range(len(OPENINGS[0]), game.plies)
        if ply % 2 == (0 if ours_first else 1)
    ]
    for v in verdicts:
        before = game.moves[: v.ply - 1]
        assert v.ours == game.moves[v.ply - 1]
        assert v.evaluation == str(len(before))  # the stand-in's "evaluation" of that position
        assert v.preferred == min(set(range(15 * 15)) - set(before))  # its first empty cell
    told = (tmp_path / "judge").read_text()
    assert told.count("START 15") == len(verdicts)
    assert "INFO timeout_turn 100" in told


def test_an_error_from_the_engine_is_raised_with_its_words(tmp_path: Path) -> None:
    with stand_in(tmp_path / "log", "error") as engine:
        engine.start(15, {})
        with pytest.raises(EngineError, match="board refused"):
            engine.board([(7, 7, False)])


def test_an_engine_that_exits_is_an_error_not_a_hang(tmp_path: Path) -> None:
    engine = GomocupEngine([sys.executable, "-c", "print('OK')"], timeout=30)
    with pytest.raises(EngineError, match="exited"):
        engine.start(15, {})
        engine.board([(7, 7, False)])
    engine.close()


def test_every_opening_holds_each_class_of_three_stone_opening_once() -> None:
    assert EVERY_OPENING[: len(OPENINGS)] == OPENINGS
    # Black's second stone, up to the mirror that keeps white's stone: over the direct
    # openings (white above the centre) left and right, over the indirect ones (white up and to
    # the right) the anti-diagonal through the centre.
    classes = set()
    for centre, white, third in EVERY_OPENING:
        assert centre == (7, 7) and white in ((6, 7), (6, 8))
        assert third not in (centre, white) and max(abs(third[0] - 7), abs(third[1] - 7)) <= 2
        mirrored = (third[0], 14 - third[1]) if white == (6, 7) else (14 - third[1], 14 - third[0])
        classes.add((white, min(third, mirrored)))
    # 23 cells for the third stone, 3 of them on the mirror's axis: 3 + 20 / 2 of each kind.
    assert len(classes) == len(EVERY_OPENING) == 26

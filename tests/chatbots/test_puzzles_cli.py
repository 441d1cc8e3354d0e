"""``chatbots puzzles generate``: puzzles from seeded play and from the archive of finished
games, each one a fact the solver confirms, none of them shipped already, added to the
database with ``--add`` (issue 35). The work
runs in a thread here (``AI_WORKERS=0``): a worker pool's start costs a solver warm-up per
worker; the pool itself is the runner's, tested in tests/core/workers."""

from __future__ import annotations

import io
import random
from dataclasses import replace
from pathlib import Path

from chatbots.puzzles_cli import generate_command
from chatbots.settings import load_settings
from core.games import CONNECT_FOUR
from core.puzzles import lines as answers
from core.puzzles import shipped
from core.puzzles.facts import verify
from core.puzzles.generate import games
from core.puzzles.puzzle import from_line
from core.store import SqliteStore, puzzles, sessions
from tests.chatbots.test_app import chatbots
from tests.core.store.helpers import make_session, played


def read(path: Path) -> list[str]:
    return path.read_text().splitlines()


async def test_generate_from_seeded_play_writes_new_facts(tmp_path: Path) -> None:
    settings = load_settings(
        {"DATABASE_PATH": str(tmp_path / "db.sqlite3"), "AI_WORKERS": "0"}, None
    )
    out, said = tmp_path / "more.csv", io.StringIO()
    made = await generate_command(settings, 3, str(out), seed=11, minutes=2, add=True, stdout=said)
    assert made == 0
    lines = read(out)
    assert len(lines) == 3 and lines == sorted(lines)
    for line in lines:
        puzzle = from_line(line)
        assert shipped.by_id(puzzle.id) is None
        verify(puzzle)
    assert said.getvalue().startswith("3 puzzles from seed 11 on 1 workers in ")
    assert "3 added to the database (0 were there already, 0 not proven)" in said.getvalue()
    assert "; 3 answer trees made in " in said.getvalue()
    async with SqliteStore.open(tmp_path / "db.sqlite3") as store:  # the bot offers them
        assert await store.run(puzzles.added_puzzles()) == lines
        for line in lines:  # with their answers: a lookup, as the shipped puzzles'
            found = await store.run(puzzles.puzzle_of(from_line(line).id))
            assert found is not None and found.answers is not None
            assert (known_line := answers.known(found)) is not None
            assert known_line[0] == found.solution
            wrong = next(m for m in found.position.legal_moves() if m != found.solution)
            assert answers.refutation(found, (), wrong) is not None


async def test_generate_from_the_archive_finds_the_mistakes_of_finished_games(
    tmp_path: Path,
) -> None:
    path = tmp_path / "db.sqlite3"
    rng = random.Random(4)
    async with SqliteStore.open(path) as store:
        game: list[int] = []
        stored = 0
        for before, after in games(CONNECT_FOUR, rng):
            game.append(after.moves[-1])
            if after.is_over:
                base = replace(make_session(chat=f"c{stored}"), rules=CONNECT_FOUR)
                await store.run(sessions.create(played(base, *game)))
                stored += 1
                game = []
                if stored == 12:
                    break
            assert before.moves == after.moves[:-1]
    settings = load_settings({"DATABASE_PATH": str(path), "AI_WORKERS": "0"}, None)
    out, said = tmp_path / "archive.csv", io.StringIO()
    assert await generate_command(settings, 50, str(out), archive=True, stdout=said) == 0
    lines = read(out)
    assert lines and "from 12 archived games" in said.getvalue()
    for line in lines:
        verify(from_line(line))


def test_the_command_line_refuses_a_count_of_nothing(tmp_path: Path) -> None:
    done = chatbots(tmp_path, "puzzles", "generate", "0", "out.csv")
    assert done.returncode == 2 and "COUNT and --minutes must be above 0" in done.stderr
    done = chatbots(tmp_path, "puzzles", "generate", "5", "out.csv", "--vcf", "--archive")
    assert done.returncode == 2

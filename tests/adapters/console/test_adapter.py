"""The console adapter on the real service and a real SQLite file, fed by a StreamReader."""

from __future__ import annotations

import asyncio
import io
import os
import re
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from adapters.console import ConsoleAdapter
from core.games import TICTACTOE
from core.i18n import render
from core.sessions import GameService, ServiceSettings
from core.store import SqliteStore
from core.store import settings as store_settings


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[GameService]:
    store = await SqliteStore.open(tmp_path / "games.sqlite3")
    service = GameService(store, settings=ServiceSettings(ai_workers=0, ai_warm_up=False))
    await service.start()
    yield service
    await service.close()
    await store.close()


async def play(service: GameService, script: str, locale: str = "en") -> str:
    """Runs the console over ``script`` to its end of input; returns what it printed."""
    reader = asyncio.StreamReader()
    reader.feed_data(script.encode())
    reader.feed_eof()
    out = io.StringIO()
    console = ConsoleAdapter(
        service, stdin=reader, stdout=out, user_id="ann", locale=locale, welcome=False
    )
    # No timeout of its own: a hang is failed by the suite's (pyproject's `timeout`), and a
    # tighter one failed a puzzle's answer, checked by the solver, on a loaded machine.
    await console.run(asyncio.Event())
    return out.getvalue()


async def test_two_local_players_play_a_whole_game(service: GameService) -> None:
    output = await play(
        service,
        "/tres @bob\n"
        "bob: /accept\n"
        "1\n"  # ann is X and starts (the challenger starts by default)
        "bob: 4\n"
        "2\n"
        "/as bob\n"
        "5\n"
        "/as\n"
        "3\n",
    )
    assert "bob" in output and "/accept" in output
    assert "Now speaking as bob." in output and "Now speaking as ann." in output
    assert "1 X X X\n2 O O ·\n3 · · ·" in output
    assert render("game.won", "en", player="ann", mark="X") in output
    assert "[/rematch]" in output


async def test_each_local_player_speaks_for_themself(service: GameService) -> None:
    output = await play(service, "/tres @bob\nbob: /accept\nbob: 5\ncarol: 5\n")
    assert output.count("a b c") == 1  # the board of the accepted game, and no move on it
    assert render("error.not_your_turn", "en", player="ann") in output
    assert render("error.no_game", "en", prefix="/") in output  # carol plays no game here


async def test_replies_are_in_the_locale(service: GameService) -> None:
    output = await play(service, "/tres easy\n", locale="ca")
    assert render("game.started", "ca") in output
    assert render("game.started", "en") not in output


async def test_connect_four_shows_the_column_numbers(service: GameService) -> None:
    output = await play(service, "/quatre easy\n")
    lines = output.splitlines()
    header = next(i for i, line in enumerate(lines) if line.strip() == "a b c d e f g")
    assert lines[header + 7] == "  1 2 3 4 5 6 7"


async def test_the_end_of_input_and_exit_end_the_run(service: GameService) -> None:
    assert await play(service, "") == ""
    output = await play(service, "/exit\n/tres easy\n")
    assert output == ""  # nothing after /exit is read


async def test_bad_names_and_blank_lines_are_harmless(service: GameService) -> None:
    output = await play(service, "\n   \n/as 9lives\n/as bob\n")
    assert "'9lives' is not a name" in output
    assert "Now speaking as bob." in output


async def test_stop_ends_a_run_waiting_for_input(service: GameService) -> None:
    read_fd, write_fd = os.pipe()  # a terminal nobody types into
    try:
        with os.fdopen(read_fd, "r", closefd=False) as stdin:
            out = io.StringIO()
            console = ConsoleAdapter(service, stdin=stdin, stdout=out)
            stop = asyncio.Event()
            run = asyncio.create_task(console.run(stop))
            os.write(write_fd, b"/tres easy\n")
            for _ in range(200):  # the line goes through the reader thread
                if "a b c" in out.getvalue():
                    break
                await asyncio.sleep(0.01)
            stop.set()
            await asyncio.wait_for(run, 2)
        assert "/help" in out.getvalue()  # the welcome
        assert "a b c" in out.getvalue()
    finally:
        os.close(write_fd)
        os.close(read_fd)


async def test_text_streams_without_a_descriptor_and_files_work(
    service: GameService, tmp_path: Path
) -> None:
    out = io.StringIO()
    stdin = io.StringIO("/tres easy\r\n5\n")  # in memory: read line by line in the thread
    await asyncio.wait_for(ConsoleAdapter(service, stdin=stdin, stdout=out).run(asyncio.Event()), 5)
    assert out.getvalue().count("a b c") == 2  # the new board, then the one after the move

    script = tmp_path / "script.txt"
    script.write_text("/final\n", encoding="utf-8")  # a regular file: read by descriptor
    with script.open(encoding="utf-8") as stdin_file:
        out = io.StringIO()
        console = ConsoleAdapter(service, stdin=stdin_file, stdout=out, welcome=False)
        await asyncio.wait_for(console.run(asyncio.Event()), 5)
    assert "a b c" in out.getvalue()  # /final shows the ended board


class TimedWrites(io.StringIO):
    """stdout that remembers each write with the time it was made."""

    def __init__(self) -> None:
        super().__init__()
        self.writes: list[tuple[float, str]] = []

    def write(self, text: str) -> int:
        self.writes.append((time.monotonic(), text))
        return super().write(text)


def _stones(printed: str) -> int:
    rows = [line for line in printed.splitlines() if re.match(r"\d+ [XO·]", line)]
    return sum(line.count("X") + line.count("O") for line in rows)


async def test_a_bots_game_is_printed_move_by_move(tmp_path: Path) -> None:
    store = await SqliteStore.open(tmp_path / "games.sqlite3")
    settings = ServiceSettings(
        ai_workers=0, ai_warm_up=False, watch_move_interval=0.01, bot_vs_bot_budget=0.02
    )
    service = GameService(store, settings=settings)
    try:
        reader = asyncio.StreamReader()
        reader.feed_data(b"/tres bot\n")
        out = TimedWrites()
        console = ConsoleAdapter(service, stdin=reader, stdout=out, welcome=False)
        run = asyncio.create_task(console.run(asyncio.Event()))
        for _ in range(500):  # the game plays on after the line was answered
            if "[/rematch]" in out.getvalue():
                break
            await asyncio.sleep(0.01)
        reader.feed_eof()
        await asyncio.wait_for(run, 5)
    finally:
        await service.close()
        await store.close()
    boards = [(at, printed) for at, printed in out.writes if "a b c" in printed]
    counts = [_stones(printed) for _, printed in boards]
    assert render("game.watch", "en") in boards[0][1]
    assert counts == list(range(len(boards)))  # the new board, then one write per move
    assert len(boards) >= 6  # nobody wins tic-tac-toe in fewer than five moves
    # At the watching pace, from the first move on: the opening board is the request's answer,
    # written once the answer is ready (after the chat's settings were read), while the game
    # already plays in its own task.
    assert boards[-1][0] - boards[1][0] >= 0.01 * (len(boards) - 3)
    assert "[/rematch]" in boards[-1][1]


async def test_picture_writes_the_last_board_shown_as_a_png(
    service: GameService, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from PIL import Image

    from core.pictures import picture_geometry

    monkeypatch.chdir(tmp_path)
    output = await play(
        service,
        "/picture\n"  # nothing shown yet
        "/tres @bob\nbob: /accept\n5\n"
        "/picture\n"  # board.png, the board's own theme
        f"/picture contrast {tmp_path / 'dark.png'}\n"
        f"/picture {tmp_path / 'no such folder' / 'x.png'}\n"
        "bob: 1\n"  # the game goes on after a failed write
        f"/picture classic {tmp_path / 'after.png'}\n",
    )
    assert render("console.picture.no_board", "en") in output
    default = tmp_path / "board.png"
    assert render("console.picture.saved", "en", path=str(default)) in output
    missing = tmp_path / "no such folder" / "x.png"
    assert f"could not write {missing}: No such file or directory" in output
    assert "1 O · ·" in output
    layout = picture_geometry(TICTACTOE)
    with Image.open(default) as light, Image.open(tmp_path / "dark.png") as dark:
        assert light.width == dark.width == layout.width
        assert light.height > layout.height  # the players and the status under the board
        assert dark.convert("RGB").getpixel((0, 0)) == (0, 0, 0)  # the high-contrast margin
        assert light.convert("RGB").getpixel((0, 0)) != (0, 0, 0)
    assert (tmp_path / "after.png").read_bytes() != default.read_bytes()  # one more stone


async def test_only_the_console_s_own_user_is_an_admin(service: GameService) -> None:
    # Anyone can be named at the keyboard ("mallory: ..."); only the user who started the
    # console may change the settings.
    async def stored() -> set[str]:
        return {
            row.key
            for row in await service.store.run(
                store_settings.settings_rows("console", ["chat:console"])
            )
        }

    output = await play(
        service, "mallory: /settings games none\n/as mallory\n/settings level hard\n"
    )
    assert output.count(render("settings.not_admin", "en")) == 2, output
    assert await stored() == set()
    output = await play(service, "/settings level hard\nann: /settings games tres\n")
    assert render("settings.not_admin", "en") not in output, output
    assert await stored() == {"level", "games"}

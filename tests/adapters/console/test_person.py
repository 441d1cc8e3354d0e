"""The console as a person at a keyboard uses it, on both stores: the player's own name in every
sentence, limits for one person that always say why, and the answers that read as typed."""

from __future__ import annotations

import asyncio
import io
import random
from collections.abc import AsyncIterator

import pytest

from adapters.console import ConsoleAdapter
from adapters.console.names import FALLBACK_NAME, local_name
from core.commands.topics import HELP_TOPICS
from core.i18n import render
from core.sessions import GameService, ServiceSettings
from tests.backends import Backend
from tests.core.test_sessions import Clock

NAME = "ann"


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def service(backend: Backend, clock: Clock) -> AsyncIterator[GameService]:
    async with backend.open() as store:
        settings = ServiceSettings(ai_workers=0, ai_warm_up=False)
        service = GameService(store, settings=settings, clock=clock, rng=random.Random(3))
        await service.start()
        try:
            yield service
        finally:
            await service.close()


class Keyboard:
    """A person at the console: lines typed one at a time, the screen read as it is printed."""

    def __init__(self, service: GameService, *, name: str | None = NAME, locale: str = "en"):
        self.reader = asyncio.StreamReader()
        self.screen = io.StringIO()
        self.console = ConsoleAdapter(
            service, stdin=self.reader, stdout=self.screen, user_id=name, locale=locale
        )
        self._run: asyncio.Task[None] | None = None
        self._typed = 0
        self.welcome = ""

    async def __aenter__(self) -> Keyboard:
        self._run = asyncio.create_task(self.console.run(asyncio.Event()))
        self.welcome = await self.type("")  # a blank line: nothing but the welcome before it
        return self

    async def __aexit__(self, *_: object) -> None:
        self.reader.feed_eof()
        assert self._run is not None
        await asyncio.wait_for(self._run, 10)

    @property
    def text(self) -> str:
        return self.screen.getvalue()

    async def type(self, line: str) -> str:
        """Types ``line`` and waits for its answer (the next line is read only after it);
        what the console printed for it."""
        before = len(self.text)
        self._typed += 1
        marker = f"{self._typed}done"  # not a name: /as answers it at once, recognisably
        self.reader.feed_data(f"{line}\n/as {marker}\n".encode())
        said = render("console.bad_name", "en", name=marker)
        for _ in range(1000):
            if said in self.text[before:]:
                break
            await asyncio.sleep(0.01)
        printed = self.text[before:]
        assert said in printed, printed
        return printed[: printed.index(said)]


async def test_the_player_is_called_by_their_name_in_every_sentence(service: GameService) -> None:
    async with Keyboard(service) as person:
        challenge = await person.type("/tres @bob")
        assert challenge.startswith("ann challenges @bob to tic-tac-toe"), challenge
        await person.type("bob: /accept")
        for line in ("1", "bob: 4", "2", "bob: 5"):
            await person.type(line)
        won = await person.type("3")
        assert render("game.won", "en", player=NAME, mark="X") in won
        stats = await person.type("carol: /stats")
        assert stats.startswith(render("stats.none", "en", player="carol")), stats
        mine = await person.type("/stats")
        assert mine.startswith("ann: 1 win, 0 losses, 0 draws"), mine
    assert "you" not in person.text.replace("your", "")


def test_the_local_name_is_the_os_user_s_else_a_plain_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for variable in ("LOGNAME", "USER", "LNAME", "USERNAME"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("USER", "zoe")
    assert local_name() == "zoe"
    monkeypatch.setenv("USER", "Zoë Smith")  # a name the console cannot read back in "NAME:"
    assert local_name() == FALLBACK_NAME

    def nobody() -> str:
        raise OSError("no user")

    monkeypatch.setattr("getpass.getuser", nobody)
    assert local_name() == FALLBACK_NAME


async def test_a_console_without_a_name_uses_the_os_user_s(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("getpass.getuser", lambda: "zoe")
    async with Keyboard(service, name=None) as person:
        assert (await person.type("/stats")).startswith("zoe has no finished games yet")


async def test_quick_lines_are_never_silenced_and_a_refusal_says_why(
    service: GameService,
) -> None:
    # The public chat's rate limit (a burst of 10) is not the console's: a person who types
    # fast is answered every time.
    async with Keyboard(service) as person:
        await person.type("/tres easy")
        for _ in range(40):
            assert (await person.type("/help")).strip(), "a line without an answer"
        assert "Slow down" not in person.text
        ended = await person.type("/final")
        assert render("game.ended", "en", player=NAME, game="tic-tac-toe") in ended, ended


async def test_a_refused_line_is_answered_every_time(service: GameService) -> None:
    async with Keyboard(service) as person:
        for _ in range(40):
            said = await person.type("carol: /accept")  # nothing to accept
            assert render("error.no_challenge", "en", prefix="/") in said, said


async def test_block_answers_with_the_name_as_typed(service: GameService) -> None:
    async with Keyboard(service) as person:
        said = await person.type("/block @bob")
    assert said.strip() == render("block.done", "en", player="@bob")


async def test_top_server_without_a_server_says_so(service: GameService) -> None:
    async with Keyboard(service) as person:
        said = await person.type("/top server")
    assert render("ratings.top_no_server", "en", top="/top") in said, said


async def test_an_empty_ladder_names_the_game_in_words(service: GameService) -> None:
    async with Keyboard(service) as person:
        tres = await person.type("/top tres")
        quatre = await person.type("/top")
    assert "(tic-tac-toe)" in tres and "tictactoe" not in tres, tres
    assert "(Connect Four 6x7)" in quatre and "connect4" not in quatre, quatre


async def test_a_timeout_is_printed_once(service: GameService, clock: Clock) -> None:
    async with Keyboard(service) as person:
        await person.type("/tres @bob 10s")
        await person.type("bob: /accept")
        await person.type("1")
        clock.advance(11)
        assert await service.sweep_clocks() == 1
        await service.open_games_idle()
        await person.type("/help")  # whatever the sweep printed is on the screen before it
    result = render("game.timeout", "en", player="bob", winner=NAME)
    assert person.text.count(result) == 1, person.text


async def test_review_during_a_game_says_what_it_reviews(service: GameService) -> None:
    async with Keyboard(service) as person:
        await person.type("/tres @bob")
        await person.type("bob: /accept")
        for line in ("1", "bob: 4", "2", "bob: 5", "3"):
            await person.type(line)
        await person.type("/tres @bob")
        await person.type("bob: /accept")
        said = await person.type("/review")
    assert said.startswith(render("review.previous", "en")), said
    assert "Review of tic-tac-toe (X: ann, O: bob)" in said


async def test_the_welcome_points_to_help_as_it_is(service: GameService) -> None:
    async with Keyboard(service) as person:
        overview = await person.type("/help")
    welcome = render("console.welcome", "en", topics=", ".join(HELP_TOPICS))
    assert person.welcome.strip() == welcome
    assert "every command" not in welcome
    for topic in HELP_TOPICS:  # each topic the welcome names is one /help shows
        assert f"{topic}:" in overview and topic in welcome

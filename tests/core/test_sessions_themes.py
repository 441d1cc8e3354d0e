"""``/theme``: a player's own board theme wins in the games they start, over the chat's ``theme``
setting; through the service on both stores (tests/backends.py)."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator

import pytest

from core.i18n import LOCALES
from core.replies import Actor, Reply
from core.sessions import GameService, ServiceSettings
from core.store import settings
from tests.backends import AnyStore, Backend


def member(user: str, *, admin: bool = False) -> Actor:
    return Actor("discord", "games", user, user.title(), server_id="g1", is_admin=admin)


ADMIN = member("ada", admin=True)
ALICE, BOB = member("alice"), member("bob")


@pytest.fixture
async def store(backend: Backend) -> AsyncIterator[AnyStore]:
    async with backend.open() as opened:
        yield opened


@pytest.fixture
def svc(store: AnyStore) -> GameService:
    return GameService(
        store,
        settings=ServiceSettings(ai_workers=0, ai_budget=0.05),
        clock=lambda: 1_700_000_000.0,
        rng=random.Random(3),
    )


def answer(replies: list[Reply]) -> str:
    [reply] = replies
    assert reply.private and reply.text is not None
    return reply.text.render("en")


def themes(replies: list[Reply]) -> list[str | None]:
    """The theme of every board among ``replies``."""
    boards = [r for r in replies if r.board is not None]
    assert boards, replies
    return [r.theme for r in boards]


async def test_a_players_theme_wins_in_the_games_they_start_over_the_chats(
    svc: GameService,
) -> None:
    await svc.handle_text(ADMIN, "/settings theme contrast")
    assert "You have no theme of your own" in answer(await svc.handle_text(ALICE, "/theme"))
    assert "Your theme is now discs" in answer(await svc.handle_text(ALICE, "/theme discs"))
    assert "Your theme: discs" in answer(await svc.handle_text(ALICE, "/theme"))

    started = await svc.handle_text(ALICE, "/ratlla 9x9 5 easy")
    assert themes(started) == ["discs"]
    assert themes(await svc.handle_text(ALICE, "e5")) == ["discs"]
    # Bob's game in the same chat follows the chat's setting.
    assert themes(await svc.handle_text(BOB, "/ratlla 9x9 5 easy")) == ["contrast"]


async def test_an_accepted_challenge_is_drawn_in_the_challengers_theme(svc: GameService) -> None:
    await svc.handle_text(ALICE, "/theme contrast")
    await svc.handle_text(BOB, "/theme classic")
    await svc.handle_text(ALICE, "/quatre @bob")
    accepted = await svc.handle_text(BOB, "/accept")  # answered to Bob, drawn in Alice's
    assert themes(accepted) == ["contrast"]
    assert themes(await svc.handle_text(ALICE, "4")) == ["contrast"]


async def test_auto_wins_over_the_chats_theme_and_reset_follows_it_again(
    svc: GameService,
) -> None:
    await svc.handle_text(ADMIN, "/settings theme contrast")
    await svc.handle_text(ALICE, "/theme auto")
    assert themes(await svc.handle_text(ALICE, "/tres easy")) == [None]  # each game its own
    await svc.handle_text(ALICE, "/final")
    said = answer(await svc.handle_text(ALICE, "/theme reset"))
    assert "follow the chat's (contrast)" in said
    assert themes(await svc.handle_text(ALICE, "/tres easy")) == ["contrast"]


async def test_an_unknown_theme_is_refused_in_every_language_and_nothing_is_stored(
    svc: GameService, store: AnyStore
) -> None:
    [reply] = await svc.handle_text(ALICE, "/theme neon")
    assert reply.error and reply.text is not None and reply.text.key == "parse.bad_theme"
    english = reply.text.render("en")
    assert "'neon'" in english and "classic, discs, contrast, auto, reset" in english
    for locale in LOCALES:
        shown = reply.text.render(locale)
        assert "'neon'" in shown and "contrast" in shown
        assert locale == "en" or shown != english
    assert await store.run(settings.settings_rows("discord", ["player:alice"])) == []


async def test_a_theme_belongs_to_one_player_on_one_platform(svc: GameService) -> None:
    await svc.handle_text(ALICE, "/theme discs")
    elsewhere = Actor("matrix", "!room:x", "alice", "Alice")  # the same id, another platform
    assert themes(await svc.handle_text(elsewhere, "/ratlla 9x9 5 easy")) == [None]
    assert themes(await svc.handle_text(BOB, "/ratlla 9x9 5 easy")) == [None]

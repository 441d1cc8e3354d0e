"""Sentences about a player read right in every language, with any name in them.

A name is inserted as it is: it cannot agree with the words around it. So a text puts a name
where its own form is right: in Russian, the nominative (never after a preposition or a verb
that asks for another case: "у Анна", "против Анна", "вызывает Анна" are wrong); in Catalan,
never after a word that elides before a vowel ("de Anna" is "d'Anna"). The service builds the
same texts for the console, Discord and Matrix, each with the player's display name, so the
checks below hold for all three; the last test shows it by playing on each platform.
"""

# The expected sentences are whole lines of text, in Cyrillic among others.
# ruff: noqa: E501, RUF001, RUF002, RUF003

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

import core.i18n.messages as catalogues
from core.i18n import LOCALES, Param, Text, render
from core.replies import Actor, Reply
from core.sessions import GameService, ServiceSettings
from core.store import SqliteStore

NAMES = frozenset(
    {"player", "name", "challenger", "challenged", "winner", "player_x", "player_o", "x", "o"}
    | {"opponent"}
)
"""Placeholders that stand for a player's name."""

# Words after which a Russian name stays in the nominative: the verb of which it is the
# subject ("Ходит Анна", "Побеждает Анна"), or "зовут" ("его зовут Анна").
_RU_BEFORE_A_NAME = frozenset({"Ходит", "ходит", "Побеждает", "говорит", "только", "зовут"})
# Catalan words that become "d'", "l'" before a vowel, as a name may start with one.
_CA_ELIDING = frozenset({"de", "la", "el"})


def texts() -> Iterator[tuple[str, str, str]]:
    """Every catalogue text: (key, locale, text)."""
    for module in pkgutil.iter_modules(catalogues.__path__):
        messages: Mapping[str, Mapping[str, str]] = importlib.import_module(
            f"{catalogues.__name__}.{module.name}"
        ).MESSAGES
        for key, by_locale in messages.items():
            for locale, text in by_locale.items():
                yield key, locale, text


def words_before_names(text: str) -> list[str]:
    """The word before each name placeholder of ``text`` ("" where a name starts the text or
    follows punctuation: a name there is in its own form in every language)."""
    found = []
    for match in re.finditer(r"\{(\w+)\}", text):
        if match.group(1) not in NAMES:
            continue
        before = text[: match.start()].rstrip()
        word = re.search(r"(\w+)$", before)
        found.append(word.group(1) if word else "")
    return found


NAMED = [(key, locale, text) for key, locale, text in texts() if words_before_names(text)]
NAMED_TEXTS = {(key, locale): text for key, locale, text in NAMED}


def test_the_checks_see_the_texts_that_name_players() -> None:
    keys = {key for key, _, _ in NAMED}
    assert {"game.challenge", "game.won", "game.timeout", "stats.none", "block.done"} <= keys
    assert len(keys) >= 30


@pytest.mark.parametrize("key", sorted({key for key, locale, _ in NAMED if locale == "ru"}))
def test_a_russian_name_is_always_in_the_nominative(key: str) -> None:
    text = NAMED_TEXTS[key, "ru"]
    for word in words_before_names(text):
        assert word == "" or word in _RU_BEFORE_A_NAME, f"{key}: a name after {word!r}: {text}"


@pytest.mark.parametrize("key", sorted({key for key, locale, _ in NAMED if locale == "ca"}))
def test_a_catalan_name_never_follows_a_word_that_elides(key: str) -> None:
    text = NAMED_TEXTS[key, "ca"]
    for word in words_before_names(text):
        assert word.lower() not in _CA_ELIDING, f"{key}: a name after {word!r}: {text}"


TIC_TAC_TOE = Text("game.name.tictactoe")
CHALLENGE: dict[str, Param] = {
    "challenger": "Anna",
    "challenged": "Bob",
    "game": TIC_TAC_TOE,
    "accept": "/accept",
    "decline": "/decline",
    "minutes": 2,
}
SENTENCES: dict[tuple[str, str], tuple[dict[str, Param], dict[str, str]]] = {
    ("game.challenge", "Anna challenges Bob"): (
        CHALLENGE,
        {
            "en": "Anna challenges Bob to tic-tac-toe. Bob: answer with /accept or /decline within 2 minutes.",
            "ca": "Anna repta Bob a tres en ratlla. Bob: respon amb /accept o /decline en 2 minuts.",
            "es": "Anna reta a Bob a tres en raya. Bob: responde con /accept o /decline en 2 minutos.",
            "pt": "Anna desafia Bob para jogo da velha. Bob: responda com /accept ou /decline em 2 minutos.",
            "ru": "Anna вызывает на игру крестики-нолики: Bob, ответьте /accept или /decline; на ответ — 2 минуты.",
        },
    ),
    ("game.challenge_status", "Bob's game is against Anna"): (
        {"player_x": "Anna", "player_o": "Bob"},
        {
            "en": "Waiting for an answer: Anna (X) against Bob (O).",
            "ca": "Esperant resposta: Anna (X) contra Bob (O).",
            "es": "Esperando respuesta: Anna (X) contra Bob (O).",
            "pt": "Aguardando resposta: Anna (X) contra Bob (O).",
            "ru": "Ждём ответа: Anna (X) — Bob (O).",
        },
    ),
    ("game.turn", "Anna moves"): (
        {"player": "Anna", "mark": "X"},
        {
            "en": "Anna (X) to move.",
            "ca": "Juga Anna (X).",
            "es": "Turno de Anna (X).",
            "pt": "Vez de Anna (X).",
            "ru": "Ходит Anna (X).",
        },
    ),
    ("game.won", "Anna wins"): (
        {"player": "Anna", "mark": "X"},
        {
            "en": "Anna (X) wins!",
            "ca": "Anna (X) guanya!",
            "es": "¡Anna (X) gana!",
            "pt": "Anna (X) vence!",
            "ru": "Anna (X) побеждает!",
        },
    ),
    ("game.timeout", "Bob ran out of time"): (
        {"player": "Bob", "winner": "Anna"},
        {
            "en": "Bob ran out of time. Anna wins.",
            "ca": "A Bob se li ha acabat el temps. Guanya Anna.",
            "es": "A Bob se le acabó el tiempo. Gana Anna.",
            "pt": "O tempo de Bob acabou. Anna vence.",
            "ru": "Bob: время вышло. Побеждает Anna.",
        },
    ),
    ("stats.none", "Anna has no games"): (
        {"player": "Anna"},
        {
            "en": "Anna has no finished games yet.",
            "ca": "Anna encara no té cap partida acabada.",
            "es": "Anna todavía no tiene ninguna partida terminada.",
            "pt": "Anna ainda não tem jogos terminados.",
            "ru": "Anna: законченных игр пока нет.",
        },
    ),
    ("block.done", "Anna is blocked"): (
        {"player": "Anna"},
        {
            "en": "You will not be paired with Anna again.",
            "ca": "No et tornarem a emparellar amb Anna.",
            "es": "No te volveremos a emparejar con Anna.",
            "pt": "Não vamos mais emparelhar você com Anna.",
            "ru": "Anna больше не попадёт с вами в пару.",
        },
    ),
}


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("case", list(SENTENCES), ids=lambda case: case[1])
def test_the_sentences_about_a_player_read_right(case: tuple[str, str], locale: str) -> None:
    key, _ = case
    params, expected = SENTENCES[case]
    assert render(key, locale, **params) == expected[locale]


def said(replies: list[Reply], locale: str) -> list[str]:
    return [reply.text.render(locale) for reply in replies if reply.text is not None]


@pytest.mark.parametrize("platform", ["console", "discord", "matrix"])
async def test_every_platform_shows_these_sentences_with_the_players_names(
    platform: str, tmp_path: Path
) -> None:
    store = await SqliteStore.open(tmp_path / "games.sqlite3")
    service = GameService(store, settings=ServiceSettings(ai_workers=0, ai_warm_up=False))
    try:
        anna = Actor(platform, "room", "anna", "Anna", server_id="s1")
        bob = Actor(platform, "room", "bob", "Bob", server_id="s1")
        for locale in LOCALES:
            stats = said(await service.handle_text(anna, "/stats"), locale)
            assert SENTENCES["stats.none", "Anna has no games"][1][locale] in stats
        await service.handle_text(anna, "/tres @bob")
        accepted = await service.handle_text(bob, "/accept")
        for cell, who in zip("14253", [anna, bob, anna, bob, anna], strict=True):
            replies = await service.handle_text(who, cell)
        boards = [r.board for r in (*accepted, *replies) if r.board is not None]
        for locale in LOCALES:
            won = boards[-1].status.render(locale)
            assert won.startswith(SENTENCES["game.won", "Anna wins"][1][locale]), won
            turn = boards[0].status.render(locale)
            assert turn == SENTENCES["game.turn", "Anna moves"][1][locale], turn
    finally:
        await service.close()
        await store.close()

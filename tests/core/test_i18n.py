"""The message catalogues: every key in every language, with the same placeholders; counts
worded by each language's CLDR plural rules."""

# Cyrillic letters are the point of a translation, not look-alikes.
# ruff: noqa: RUF001

from __future__ import annotations

import importlib
import pkgutil
import string
from collections.abc import Callable
from types import ModuleType

import pytest
from babel import Locale
from hypothesis import given
from hypothesis import strategies as st

from core.i18n import (
    LOCALES,
    Lines,
    Param,
    Text,
    catalogue,
    messages,
    normalize_locale,
    placeholders,
    plural_category,
    plurals,
    render,
)
from tests.core.test_imports import loaded_after


def catalogue_modules() -> list[ModuleType]:
    return [
        importlib.import_module(f"{messages.__name__}.{info.name}")
        for info in pkgutil.iter_modules(messages.__path__)
    ]


MODULES = catalogue_modules()
KEYS = [(module.__name__, key) for module in MODULES for key in module.MESSAGES]
PLURAL_KEYS = [key for module in MODULES for key in getattr(module, "PLURALS", {})]


def fields(template: str) -> frozenset[tuple[str, str]]:
    """The ``{name:spec}`` pairs of a template: the spec names the plural message of a count."""
    return frozenset(
        (name, spec or "")
        for _, name, spec, _ in string.Formatter().parse(template)
        if name is not None
    )


def test_there_are_catalogues() -> None:
    assert "core.i18n.messages.parse" in {module.__name__ for module in MODULES}


@pytest.mark.parametrize(("module_name", "key"), KEYS)
def test_every_key_has_every_locale_with_the_same_placeholders(module_name: str, key: str) -> None:
    templates = importlib.import_module(module_name).MESSAGES[key]
    assert set(templates) == set(LOCALES), f"{module_name}: {key}"
    # A count worded in English is worded in every language, by the same plural message.
    english = fields(templates["en"])
    for locale in LOCALES:
        assert templates[locale].strip(), f"{key} [{locale}] is empty"
        assert fields(templates[locale]) == english, f"{key} [{locale}]"
    for name, spec in english:
        assert not spec or spec in plurals(), f"{key}: {{{name}:{spec}}} names no plural message"


def test_keys_are_unique_across_modules() -> None:
    # catalogue() raises on a key defined twice; the count confirms nothing was dropped.
    assert len(catalogue()) == len(KEYS)
    assert len(plurals()) == len(PLURAL_KEYS)
    assert not set(catalogue()) & set(plurals())


# --- plural messages ------------------------------------------------------------------------


def cldr_categories(locale: str) -> set[str]:
    """The categories Babel's CLDR data uses for ``locale``; ``other`` is always one."""
    return set(Locale.parse(locale).plural_form.tags) | {"other"}


@pytest.mark.parametrize("key", PLURAL_KEYS)
def test_every_plural_has_exactly_the_categories_of_each_language(key: str) -> None:
    forms = plurals()[key]
    assert set(forms) == set(LOCALES), key
    for locale in LOCALES:
        # Missing: some numbers have no words. Extra: a form nobody reads (likely a typo).
        assert set(forms[locale]) == cldr_categories(locale), f"{key} [{locale}]"
        for category, template in forms[locale].items():
            # The number itself in every form: Russian "one" is also 21, 31, 101...
            assert fields(template) == {("count", "")}, f"{key} [{locale}] {category}"


def test_russian_needs_three_forms_for_whole_numbers_and_one_for_fractions() -> None:
    assert cldr_categories("ru") == {"one", "few", "many", "other"}
    assert cldr_categories("en") == {"one", "other"}


NUMBERS = (0, 1, 2, 5, 11, 21, 22, 25, 101, 1_000_000)
WINS = {
    "en": ("0 wins", "1 win", "2 wins", "5 wins", "11 wins", "21 wins", "22 wins", "25 wins",
           "101 wins", "1000000 wins"),
    "ca": ("0 victòries", "1 victòria", "2 victòries", "5 victòries", "11 victòries",
           "21 victòries", "22 victòries", "25 victòries", "101 victòries",
           "1000000 de victòries"),
    "es": ("0 victorias", "1 victoria", "2 victorias", "5 victorias", "11 victorias",
           "21 victorias", "22 victorias", "25 victorias", "101 victorias",
           "1000000 de victorias"),
    # CLDR's Portuguese (Brazil's) puts 0 with 1.
    "pt": ("0 vitória", "1 vitória", "2 vitórias", "5 vitórias", "11 vitórias", "21 vitórias",
           "22 vitórias", "25 vitórias", "101 vitórias", "1000000 de vitórias"),
    "ru": ("0 побед", "1 победа", "2 победы", "5 побед", "11 побед", "21 победа", "22 победы",
           "25 побед", "101 победа", "1000000 побед"),
}  # fmt: skip


@pytest.mark.parametrize("locale", LOCALES)
def test_wins_in_each_language(locale: str) -> None:
    shown = tuple(render("stats.count.wins", locale, count=n) for n in NUMBERS)
    assert shown == WINS[locale]


def test_russian_losses_and_draws() -> None:
    losses = [render("stats.count.losses", "ru", count=n) for n in (1, 3, 11, 21, 112)]
    assert losses == ["1 поражение", "3 поражения", "11 поражений", "21 поражение", "112 поражений"]
    draws = [render("stats.count.draws", "ru", count=n) for n in (1, 4, 14, 24, 0)]
    assert draws == ["1 ничья", "4 ничьи", "14 ничьих", "24 ничьи", "0 ничьих"]


# The CLDR rules for whole numbers as published (unicode.org, plurals.html), written out apart
# from Babel so that a wrong locale, a wrong rule or a change in Babel's data is seen.
ORACLE: dict[str, Callable[[int], str]] = {
    "en": lambda n: "one" if n == 1 else "other",
    "ca": lambda n: "one" if n == 1 else "many" if n and n % 1_000_000 == 0 else "other",
    "es": lambda n: "one" if n == 1 else "many" if n and n % 1_000_000 == 0 else "other",
    "pt": lambda n: "one" if n in (0, 1) else "many" if n and n % 1_000_000 == 0 else "other",
    "ru": lambda n: (
        "one"
        if n % 10 == 1 and n % 100 != 11
        else "few"
        if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14
        else "many"
    ),
}

counts = st.one_of(
    st.integers(min_value=0, max_value=10**15),
    st.integers(min_value=1, max_value=10**6).map(lambda k: k * 1_000_000),
)


@given(locale=st.sampled_from(LOCALES), n=counts)
def test_categories_follow_cldr(locale: str, n: int) -> None:
    category = ORACLE[locale](n)
    assert plural_category(locale, n) == category
    assert render("stats.count.wins", locale, count=n) == plurals()["stats.count.wins"][locale][
        category
    ].format(count=n)


@given(key=st.sampled_from(PLURAL_KEYS), locale=st.sampled_from(LOCALES), n=counts)
def test_every_count_shows_its_number(key: str, locale: str, n: int) -> None:
    shown = render(key, locale, count=n)
    assert shown.startswith(f"{n} "), shown
    assert "{" not in shown


@given(n=counts)
def test_regional_tags_use_their_language_rules(n: int) -> None:
    assert render("stats.count.wins", "pt-BR", count=n) == render("stats.count.wins", "pt", count=n)
    assert render("stats.count.wins", "ru-RU", count=n) == render("stats.count.wins", "ru", count=n)
    # An unknown language reads English, with English's rules.
    assert render("stats.count.wins", "de", count=n) == render("stats.count.wins", "en", count=n)


def test_a_plural_without_a_number_reads_as_any_missing_parameter() -> None:
    # Like every unfillable text: English, the placeholder shown, no crash.
    assert render("stats.count.wins", "ru") == "{count} wins"
    # Not a number: the "other" form, which every language has.
    assert render("stats.count.wins", "ru", count="x") == "x победы"


# --- messages with counts ---------------------------------------------------------------------

STATS: dict[str, Param] = {
    "player": "ann",
    "wins": 21,
    "losses": 1,
    "draws": 0,
    "chat_wins": 2,
    "chat_losses": 5,
    "chat_draws": 1,
}


@pytest.mark.parametrize(
    ("locale", "expected"),
    [
        ("en", "ann: 21 wins, 1 loss, 0 draws (in this chat: 2 wins, 5 losses, 1 draw)."),
        (
            "ca",
            "ann: 21 victòries, 1 derrota, 0 empats"
            " (en aquest xat: 2 victòries, 5 derrotes, 1 empat).",
        ),
        (
            "es",
            "ann: 21 victorias, 1 derrota, 0 empates"
            " (en este chat: 2 victorias, 5 derrotas, 1 empate).",
        ),
        (
            "pt",
            "ann: 21 vitórias, 1 derrota, 0 empate (neste chat: 2 vitórias, 5 derrotas, 1 empate).",
        ),
        (
            "ru",
            "ann: 21 победа, 1 поражение, 0 ничьих (в этом чате: 2 победы, 5 поражений, 1 ничья).",
        ),
    ],
)
def test_stats_word_every_count(locale: str, expected: str) -> None:
    assert render("stats.player", locale, **STATS) == expected
    assert Text("stats.player", STATS).render(locale) == expected


# Parameters that count things; bounds such as {max} in "from 1 to {max}" are not counts.
COUNTS = {"wins", "losses", "draws", "chat_wins", "chat_losses", "chat_draws"}
COUNTS |= {"count", "n", "minutes", "seconds", "length"}


@pytest.mark.parametrize(("module_name", "key"), KEYS)
def test_no_count_stands_next_to_a_fixed_word(module_name: str, key: str) -> None:
    # "0 wins, 1 losses" came from "{losses} losses": a count must name its plural message.
    for locale, template in importlib.import_module(module_name).MESSAGES[key].items():
        for name, spec in fields(template):
            assert name not in COUNTS or spec, f"{key} [{locale}]: {{{name}}} needs a plural"


def test_the_leaderboard_is_lines_of_texts() -> None:
    rows = [("ann", 21, 2, 1), ("bob", 1, 5, 11)]
    lines = Lines(
        tuple(
            Text(
                "stats.top_line",
                {"rank": rank, "name": name, "wins": wins, "losses": losses, "draws": draws},
            )
            for rank, (name, wins, losses, draws) in enumerate(rows, start=1)
        )
    )
    top = Text("stats.top", {"lines": lines})
    assert top.render("en") == (
        "Leaderboard of this chat:\n1. ann — 21 wins · 2 losses · 1 draw\n"
        "2. bob — 1 win · 5 losses · 11 draws"
    )
    assert top.render("ru").splitlines()[1:] == [
        "1. ann — 21 победа · 2 поражения · 1 ничья",
        "2. bob — 1 победа · 5 поражений · 11 ничьих",
    ]
    assert Lines(()).render("en") == ""


@pytest.mark.parametrize(
    ("locale", "minutes", "tail"),
    [
        ("en", 1, "within 1 minute."),
        ("en", 5, "within 5 minutes."),
        ("ca", 2, "en 2 minuts."),
        ("es", 1, "en 1 minuto."),
        ("pt", 10, "em 10 minutos."),
        ("ru", 1, "на ответ — 1 минута."),
        ("ru", 3, "на ответ — 3 минуты."),
        ("ru", 15, "на ответ — 15 минут."),
    ],
)
def test_challenge_words_its_minutes(locale: str, minutes: int, tail: str) -> None:
    params: dict[str, str | int] = {
        "challenger": "ann",
        "challenged": "bob",
        "game": "X",
        "accept": "/accept",
        "decline": "/decline",
        "minutes": minutes,
    }
    assert render("game.challenge", locale, **params).endswith(tail)


@pytest.mark.parametrize(
    ("locale", "seconds", "expected"),
    [
        ("en", 1, "Slow down: try again in 1 second."),
        ("en", 30, "Slow down: try again in 30 seconds."),
        ("es", 1, "Más despacio: vuelve a intentarlo dentro de 1 segundo."),
        ("ca", 5, "Més a poc a poc: torna-ho a provar d'aquí a 5 segons."),
        ("pt", 2, "Mais devagar: tente de novo daqui a 2 segundos."),
        # "через" takes the accusative: 1 секунду, not 1 секунда.
        ("ru", 1, "Не так быстро: попробуйте снова через 1 секунду."),
        ("ru", 21, "Не так быстро: попробуйте снова через 21 секунду."),
        ("ru", 3, "Не так быстро: попробуйте снова через 3 секунды."),
        ("ru", 12, "Не так быстро: попробуйте снова через 12 секунд."),
    ],
)
def test_rate_limit_words_its_seconds(locale: str, seconds: int, expected: str) -> None:
    assert render("error.rate_limited", locale, seconds=seconds) == expected


def test_a_too_long_message_words_its_length() -> None:
    assert render("parse.too_long", "ru", length=522, limit=500).startswith(
        "Сообщение слишком длинное (522 символа)"
    )
    assert "(501 characters)" in render("parse.too_long", "en", length=501, limit=500)


def test_a_count_given_as_text_is_shown_as_it_is() -> None:
    # Not an int: nothing to choose a form by, but the reply still reads.
    assert render("error.rate_limited", "en", seconds="a few") == "Slow down: try again in a few."


def test_a_missing_count_falls_back_to_english_with_the_placeholder() -> None:
    assert render("error.rate_limited", "ru") == "Slow down: try again in {seconds}."


# --- the texts the service needs ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "params"),
    [
        ("game.resigned", {"player", "winner"}),
        ("game.watch_stopped", {"player"}),
        ("error.store_unavailable", set()),
        ("error.ai_busy", {"prefix"}),
        ("error.watch_limit", {"prefix"}),
        ("error.rate_limited", {"seconds"}),
        ("stats.player", set(STATS)),
        ("stats.top", {"lines"}),
        ("stats.top_line", {"rank", "name", "wins", "losses", "draws"}),
        ("game.challenge", {"challenger", "challenged", "game", "accept", "decline", "minutes"}),
    ],
)
def test_the_service_texts_take_these_parameters(key: str, params: set[str]) -> None:
    # The contract with core.sessions: the service builds Text(key, {these names}).
    assert placeholders(catalogue()[key]["en"]) == params


def test_resignation_and_busy_texts() -> None:
    assert render("game.resigned", "en", player="ann", winner="bob") == "ann resigned. bob wins."
    assert render("game.resigned", "ru", player="ann", winner="bob") == (
        "ann сдаётся. Побеждает bob."
    )
    assert "!tres medium" in render("error.ai_busy", "pt", prefix="!")
    assert "/final" in render("error.watch_limit", "ca", prefix="/")


# --- cost --------------------------------------------------------------------------------------


def test_babel_is_loaded_by_the_first_count_not_by_importing_commands() -> None:
    assert "babel" not in loaded_after("import core.commands\nimport core.i18n")
    assert "babel" in loaded_after(
        "from core.i18n import render\nrender('stats.count.wins', 'ru', count=2)"
    )


def test_render_falls_back_to_english_for_unknown_locales() -> None:
    assert render("help.title", "xx") == render("help.title", "en") == "Commands:"
    assert render("help.title", None) == "Commands:"
    assert render("help.title", "") == "Commands:"


def test_render_uses_the_locale_and_fills_parameters() -> None:
    assert render("help.title", "ca") == "Ordres:"
    assert render("parse.bad_size", "es", size="6y7") == (
        "'6y7' no es un tamaño de tablero: escribe FILASxCOLUMNAS, como 6x7."
    )
    assert Text("help.title").render("ru") == "Команды:"


def test_render_unknown_key_is_the_key() -> None:
    assert render("no.such.key", "en") == "no.such.key"


@pytest.mark.parametrize(
    ("tag", "locale"),
    [
        ("pt-BR", "pt"),
        ("pt_PT", "pt"),
        ("es-ES", "es"),
        ("es-419", "es"),
        ("ca", "ca"),
        ("RU", "ru"),
        ("en-US", "en"),
        ("de", "en"),
        ("", "en"),
        (None, "en"),
    ],
)
def test_normalize_locale(tag: str | None, locale: str) -> None:
    assert normalize_locale(tag) == locale
